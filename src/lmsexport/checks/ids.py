"""Ids unique within their scope."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..diagnostics import Diagnostic, error, pointer_join


def unique_ids(ids: Iterable[tuple[str, tuple]], base: str, what: str, file: str) -> Iterator[Diagnostic]:
    """ids: (id, pointer parts below base). Ids that differ only by case would collide in exports
    on many systems. The schema keeps ids ASCII, so no two can differ by Unicode normalisation."""
    first: dict[str, str] = {}
    for identifier, parts in ids:
        key = identifier.lower()
        if key in first:
            same = first[key] == identifier
            detail = "is used twice" if same else f"differs from '{first[key]}' only by case"
            yield error(f"the {what} id '{identifier}' {detail}: {what} ids must be unique", file, pointer_join(base, *parts), code="duplicate-id")
        else:
            first[key] = identifier

"""Ids unique within their scope."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

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


def unique_ids_of_list(identifiers: Sequence[str | None], base: str, what: str, file: str,
                       prefix: tuple = ()) -> Iterable[Diagnostic]:
    """`unique_ids` of a list's ids, the one at index i standing at `prefix + (i, "id")` below
    base; None stands for an item with no id (a question without one, when the schema failed).
    Nearly every list has no two alike, which one set of the lowered ids shows at C speed; only
    a list with a collision is walked one id at a time (tests/test_unique_ids.py holds the two
    to each other)."""
    written = [i for i in identifiers if i is not None] if None in identifiers else identifiers
    if len(set(map(str.lower, written))) == len(written):
        return ()
    return unique_ids(((identifier, (*prefix, i, "id")) for i, identifier in enumerate(identifiers) if identifier is not None),
                      base, what, file)

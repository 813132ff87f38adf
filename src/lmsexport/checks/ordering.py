"""Ordering: distinct items a student can tell apart."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Ordering
from .blank import is_blank
from .ids import unique_ids_of_list


def ordering_errors(question: Ordering, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    yield from unique_ids_of_list([item.id for item in question.items], base, "item", file, ("items",))
    seen: set[str] = set()
    for i, item in enumerate(question.items):
        if is_blank(item.text):
            yield error("an item's text cannot be only white space", file, pointer_join(base, "items", i, "text"), code="blank")
        elif item.text.source in seen:
            # Two items that look the same cannot be told apart, so no order of them is more right.
            yield error("this item's text is already used by another item: students could not tell them apart", file,
                        pointer_join(base, "items", i, "text"), code="duplicate")
        seen.add(item.text.source)

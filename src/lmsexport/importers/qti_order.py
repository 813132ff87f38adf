"""QTI 2.1 orderInteraction, read as ordering, with its grading where it can be recognised.

The key is the correctResponse (every choice, in order). lmsexport writes each of Moodle's
gradings as plain response processing (see writers/qti/ordering.py), so an item's grading is found
by writing that response processing for each grading QTI can express and comparing it, element by
element, with the item's. The standard match_correct template is all or nothing too. Any other
response processing (a platform's own partial credit) is read as all or nothing, with a warning.
"""

from __future__ import annotations

from lxml import etree

from ..model import Ordering, OrderingGrading, OrderItem, Question, Text, TextFormat

# The gradings QTI response processing can express, in the order they are tried.
_EXPRESSIBLE = (OrderingGrading.ALL_OR_NOTHING, OrderingGrading.ABSOLUTE_POSITION, OrderingGrading.RELATIVE_NEXT_EXCLUDE_LAST,
                OrderingGrading.RELATIVE_NEXT_INCLUDE_LAST, OrderingGrading.RELATIVE_ONE_PREVIOUS_AND_NEXT,
                OrderingGrading.RELATIVE_ALL_PREVIOUS_AND_NEXT)


class _Silent:
    """The writer's problem reporter, where nothing it says matters."""

    def error(self, *args, **kwargs) -> None:
        pass

    loss = platform_warning = platform_note = error


def _same(a: etree._Element, b: etree._Element) -> bool:
    return a.tag == b.tag and dict(a.attrib) == dict(b.attrib) and (a.text or "").strip() == (b.text or "").strip() \
        and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))


def _written_scoring(grading: OrderingGrading, identifiers: list[str]) -> list[etree._Element]:
    """The response processing lmsexport writes for this grading of items with these identifiers."""
    from ..writers.qti.context import ItemContext
    from ..writers.qti.ordering import ordering

    question = Ordering(id="q", stem=Text(""), grading=grading,
                        items=tuple(OrderItem(id=i, text=Text(i)) for i in identifiers))
    parts = ordering(ItemContext(_Silent(), question, "en"), question)  # type: ignore[arg-type]
    if parts.scoring and grading is not question.grading:
        return []
    holder = etree.fromstring("<responseProcessing>" + "".join(parts.scoring) + "</responseProcessing>")
    return list(holder)


def grading_of(processing: etree._Element | None, identifiers: list[str]) -> OrderingGrading | None:
    """The grading whose response processing the item has, or None when it is none of ours."""
    if processing is None:
        return None
    if (processing.get("template") or "").endswith("match_correct"):
        return OrderingGrading.ALL_OR_NOTHING
    rules = [c for c in processing if isinstance(c.tag, str)]
    for grading in _EXPRESSIBLE:
        try:
            written = _written_scoring(grading, identifiers)
        except (ValueError, etree.XMLSyntaxError):
            continue
        if written and len(rules) >= len(written) and all(_same(a, b) for a, b in zip(written, rules)):
            return grading
    return None


def read_order(item, interaction: etree._Element, common: dict, unsupported) -> Question:
    from .qti import _correct_values, _declaration

    declaration = _declaration(item.root, interaction.get("responseIdentifier", "RESPONSE"))
    order = _correct_values(declaration)
    choices = {c.get("identifier"): c for c in interaction.findall("simpleChoice")}
    if sorted(order) != sorted(choices) or not order:
        raise unsupported("an order interaction whose key is not every choice in order")
    grading = grading_of(item.root.find("responseProcessing"), order)
    if grading is None:
        grading = OrderingGrading.ALL_OR_NOTHING
        item.losses.append("the order's scoring is not one of the gradings the content format has (read as all or nothing)")
    from .qti import content_id

    items = tuple(OrderItem(id=content_id(identifier), text=item.rich(choices[identifier], inline=True) or Text("", TextFormat.HTML)) for identifier in order)
    return Ordering(**common, feedback=item.outcome_feedback(), items=items, grading=grading,
                    horizontal=interaction.get("orientation") == "horizontal")

"""Ordering: an orderInteraction, scored as Moodle grades the same order.

Each grading type counts "units" (an item in its place, a right neighbour, ...) exactly as
qtype_ordering's grade_response does, in an integer outcome; the score is then the points
times units / most units. Everything is plain QTI 2.1 response processing (index, match,
and/or), so every platform that runs response processing gives the same score.
"""

from __future__ import annotations

from itertools import combinations

from ...model import Ordering, OrderingGrading
from .context import ItemContext
from .expressions import base, condition, make, set_outcome, variable
from .names import MAXSCORE, RESPONSE, SCORE, choice_identifier
from .parts import Parts

UNITS = "UNITS"
_MATCHED = make("match", variable(RESPONSE), f'<correct identifier="{RESPONSE}"/>')
# Beyond this many items the all-pairs grading would need thousands of expressions.
_MOST_ITEMS_FOR_ALL_PAIRS = 8
_NOT_EXPRESSIBLE = {OrderingGrading.LONGEST_ORDERED_SUBSET, OrderingGrading.LONGEST_CONTIGUOUS_SUBSET}


def _at(position: int, item: str) -> str:
    return make("match", make("index", variable(RESPONSE), n=str(position)), base("identifier", item))


def _adjacent(first: str, second: str, count: int) -> str:
    """`second` comes right after `first` in the response."""
    return make("or", *(make("and", _at(i, first), _at(i + 1, second)) for i in range(1, count)))


def _before(first: str, second: str, count: int) -> str:
    """`first` comes somewhere before `second` in the response."""
    return make("or", *(make("and", _at(i, first), _at(j, second)) for i, j in combinations(range(1, count + 1), 2)))


def _units(grading: OrderingGrading, ids: list[str]) -> tuple[list[tuple[str, int]], int]:
    """(condition, units it is worth) for each thing the grading counts, and the most units."""
    n = len(ids)
    pairs = list(zip(ids, ids[1:]))
    if grading is OrderingGrading.ABSOLUTE_POSITION:
        return [(_at(i + 1, item), 1) for i, item in enumerate(ids)], n
    if grading is OrderingGrading.RELATIVE_NEXT_EXCLUDE_LAST:
        return [(_adjacent(a, b, n), 1) for a, b in pairs], n - 1
    if grading is OrderingGrading.RELATIVE_NEXT_INCLUDE_LAST:
        return [(_adjacent(a, b, n), 1) for a, b in pairs] + [(_at(n, ids[-1]), 1)], n
    if grading is OrderingGrading.RELATIVE_ONE_PREVIOUS_AND_NEXT:
        # Each right pair of neighbours counts for both items; the first item first and the
        # last item last count once each (Moodle's "no neighbour" is a neighbour too).
        return [(_at(1, ids[0]), 1)] + [(_adjacent(a, b, n), 2) for a, b in pairs] + [(_at(n, ids[-1]), 1)], 2 * n
    if grading is OrderingGrading.RELATIVE_ALL_PREVIOUS_AND_NEXT:
        return [(_before(a, b, n), 2) for a, b in combinations(ids, 2)], n * (n - 1)
    raise ValueError(grading)


def expressible_grading(ctx: ItemContext, question: Ordering, count: int) -> OrderingGrading:
    """The grading the item scores by: the question's own, or all or nothing (a loss) where QTI
    cannot express it."""
    grading = question.grading
    if grading in _NOT_EXPRESSIBLE or (
        grading is OrderingGrading.RELATIVE_ALL_PREVIOUS_AND_NEXT and count > _MOST_ITEMS_FOR_ALL_PAIRS
    ):
        why = "QTI 2.1 response processing cannot find the longest ordered run" if grading in _NOT_EXPRESSIBLE else (
            f"with more than {_MOST_ITEMS_FOR_ALL_PAIRS} items this grading would need thousands of QTI expressions")
        ctx.report.loss(question, f"the grading '{grading.value}': {why}; QTI scores the order all or nothing", "grading", code="qti-ordering-grading")
        return OrderingGrading.ALL_OR_NOTHING
    return grading


def ordering(ctx: ItemContext, question: Ordering) -> Parts:
    parts = Parts()
    ids = [choice_identifier(item.id) for item in question.items]
    if len(set(ids)) != len(ids):
        ctx.report.error(question, "two items have the same identifier", "items", code="qti")
    correct = "".join(f"<value>{i}</value>" for i in ids)
    parts.responses.append(
        f'<responseDeclaration identifier="{RESPONSE}" cardinality="ordered" baseType="identifier">'
        f"<correctResponse>{correct}</correctResponse></responseDeclaration>"
    )
    parts.correct = _MATCHED
    grading = expressible_grading(ctx, question, len(ids))
    if grading is OrderingGrading.ALL_OR_NOTHING:
        parts.scoring = [condition((_MATCHED, [set_outcome(SCORE, variable(MAXSCORE))]), (None, [set_outcome(SCORE, base("float", "0"))]))]
    else:
        units, most = _units(grading, ids)
        parts.outcomes.append(
            f'<outcomeDeclaration identifier="{UNITS}" cardinality="single" baseType="integer">'
            "<defaultValue><value>0</value></defaultValue></outcomeDeclaration>"
        )
        add = lambda worth: set_outcome(UNITS, make("sum", variable(UNITS), base("integer", str(worth))))  # noqa: E731
        parts.scoring = [condition((expression, [add(worth)])) for expression, worth in units]
        share = make("divide", variable(UNITS), base("float", str(most)))
        parts.scoring.append(set_outcome(SCORE, make("product", variable(MAXSCORE), share)))

    choices = "".join(
        f'<simpleChoice identifier="{choice_id}">{ctx.inline(item.text, "items", index, "text")}</simpleChoice>'
        for index, (choice_id, item) in enumerate(zip(ids, question.items))
    )
    orientation = "horizontal" if question.horizontal else "vertical"
    parts.body.append(f'<orderInteraction responseIdentifier="{RESPONSE}" shuffle="true" orientation="{orientation}">{choices}</orderInteraction>')
    return parts

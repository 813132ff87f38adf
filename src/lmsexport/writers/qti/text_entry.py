"""Short answer and numerical: a textEntryInteraction in its own top-level <p>.

Canvas only keeps a blank whose textEntryInteraction sits in a top-level <p> or <div> of
itemBody (qti_exporter's assessment_item_converter).
"""

from __future__ import annotations

from decimal import Context, Decimal

from ...model import Numerical, NumericAnswer, ShortAnswer
from ...tolerances import is_full_credit
from .context import ItemContext
from .expressions import base, condition, make, set_outcome, value, variable
from .feedback import answer_feedback_id
from ..xml import number
from .names import MAP_RESPONSE, RESPONSE, SCORE
from .parts import AnswerFeedback, Parts
from .scoring import map_response_rules, mapping, worth


def _blank(expected_length: int) -> list[str]:
    return [f'<p><textEntryInteraction responseIdentifier="{RESPONSE}" expectedLength="{max(expected_length, 1)}"/></p>']


def short_answer(ctx: ItemContext, question: ShortAnswer) -> Parts:
    parts = Parts(first_match_only=True)
    texts = [a.text for a in question.answers]
    best = max(question.answers, key=lambda a: a.credit, default=None)
    correct = make("correctResponse", value(texts[question.answers.index(best)])) if best is not None else ""
    entries = [(t, a.credit * worth(question.points)) for t, a in zip(texts, question.answers) if a.credit != 0]
    scores = mapping(entries, question.points, case_sensitive=question.case_sensitive)
    parts.responses.append(make("responseDeclaration", correct, scores, identifier=RESPONSE, cardinality="single", baseType="string"))
    parts.scoring = map_response_rules()
    parts.template = MAP_RESPONSE
    case = "true" if question.case_sensitive else "false"

    def given(text: str):
        return make("stringMatch", variable(RESPONSE), base("string", text), caseSensitive=case)

    full = [given(t) for t, a in zip(texts, question.answers) if is_full_credit(a.credit)]
    parts.correct = any_of(full)
    for index, (text, answer) in enumerate(zip(texts, question.answers)):
        parts.answer_feedback.append(AnswerFeedback(answer_feedback_id(index), answer.feedback, ("answers", index, "feedback"), given(text)))
    if not any(a.feedback for a in question.answers):
        parts.answer_feedback = []
    parts.body = _blank(max((len(t) for t in texts), default=1))
    return parts


def numerical(ctx: ItemContext, question: Numerical) -> Parts:
    parts = Parts(first_match_only=True)
    # The highest credit among the answers that accept a response is the one that counts.
    ranked = sorted(enumerate(question.answers), key=lambda pair: -pair[1].credit)
    correct = []
    if ranked:
        first = ranked[0][1]
        correct.append(make("correctResponse", value(number(first.value) if first.value is not None else midpoint(first.minimum, first.maximum))))
    parts.responses.append(make("responseDeclaration", *correct, identifier=RESPONSE, cardinality="single", baseType="float"))

    branches = []
    for index, answer in ranked:
        branches.append((accepts(answer), [set_outcome(SCORE, base("float", number(max(answer.credit, 0) * question.points)))]))
        parts.answer_feedback.append(AnswerFeedback(answer_feedback_id(index), answer.feedback, ("answers", index, "feedback"), accepts(answer)))
    if branches:
        parts.scoring = [condition(*branches)]
    if not any(a.feedback for a in question.answers):
        parts.answer_feedback = []
    parts.correct = any_of([accepts(a) for a in question.answers if is_full_credit(a.credit)])
    parts.body = _blank(8)
    return parts


# Wide enough for the exact sum of any two doubles written in their shortest decimal form.
_EXACT = Context(prec=800, Emax=999_999, Emin=-999_999)


def midpoint(low: float, high: float) -> str:
    """The middle of a range as the shortest exact decimal: a platform that reads only the
    correct response (Canvas) then accepts a value that is inside the range, not on its edge.
    Decimal arithmetic on the numbers as written, so 0.1 and 0.3 give 0.2, not 0.20000000000000001."""
    middle = _EXACT.divide(_EXACT.add(Decimal(repr(low)), Decimal(repr(high))), Decimal(2))
    nearest = float(middle)
    if Decimal(repr(nearest)) == middle:
        return number(nearest)
    # A double cannot hold it exactly (1 and 1.0000000000000002): any double a reader rounds
    # it to stays within the bounds, since both bounds are doubles and rounding keeps order.
    return format(middle.normalize(_EXACT), "f" if abs(middle.adjusted()) < 30 else "E")


def accepts(answer: NumericAnswer, response: str = RESPONSE) -> str:
    """The response (a float variable) is one this numerical answer accepts."""
    if answer.value is not None:
        if answer.tolerance == 0:
            return make("equal", variable(response), base("float", number(answer.value)), toleranceMode="exact")
        # The tolerance is written as given, so no rounding of value ± tolerance can shift the bounds.
        return make(
            "equal",
            variable(response),
            base("float", number(answer.value)),
            toleranceMode="absolute",
            tolerance=f"{number(answer.tolerance)} {number(answer.tolerance)}",
        )
    return make(
        "and",
        make("gte", variable(response), base("float", number(answer.minimum))),
        make("lte", variable(response), base("float", number(answer.maximum))),
    )


def any_of(expressions: list[str]) -> str:
    if not expressions:
        return base("boolean", "false")
    return expressions[0] if len(expressions) == 1 else make("or", *expressions)

"""Short answer, numerical and essay: a text box (response_str), scored by the texts or numbers listed."""

from __future__ import annotations

from decimal import Decimal

from ...model import NumericAnswer, Numerical, ShortAnswer
from .item import ItemParts, decimal_text
from .qti import respcondition, set_score, show_feedback, sub, varequal
from .rules import is_full

RESPONSE = "response1"


def _text_box(parts: ItemParts, fibtype: str | None = None) -> None:
    box = sub(parts.presentation, "response_str", {"ident": RESPONSE, "rcardinality": "Single"})
    render = sub(box, "render_fib", {"fibtype": fibtype} if fibtype else None)
    sub(render, "response_label", {"ident": "answer1"} if fibtype else {"ident": "answer1", "rshuffle": "No"})


def short_answer(parts: ItemParts) -> None:
    question: ShortAnswer = parts.question
    _text_box(parts)
    kept = [(parts.number(f"answer:{i}"), a) for i, a in enumerate(question.answers) if is_full(a.credit)]
    parts.answer_ids.extend(ident for ident, _ in kept)
    for ident, answer in kept:
        if answer.feedback is not None:
            condition, conditionvar = respcondition(parts.resprocessing, "Yes")
            varequal(conditionvar, RESPONSE, answer.text)
            show_feedback(condition, f"{ident}_fb")
            parts.answer_feedback.append((ident, answer.feedback))
    condition, conditionvar = respcondition(parts.resprocessing, "No")
    for _, answer in kept:
        varequal(conditionvar, RESPONSE, answer.text)
    set_score(condition, "100")
    if parts.correct_feedback:
        show_feedback(condition, parts.correct_feedback)


def _exact(value: float) -> Decimal:
    return Decimal(repr(float(value)))


def _numeric_condition(conditionvar, answer: NumericAnswer) -> None:
    if answer.is_range:
        sub(conditionvar, "vargte", {"respident": RESPONSE}, decimal_text(answer.minimum))
        sub(conditionvar, "varlte", {"respident": RESPONSE}, decimal_text(answer.maximum))
        return
    # Canvas's own form for an exact answer with a margin; its importer reads the margin back
    # as (upper bound - exact value), so both bounds are computed in decimal, not binary.
    value, margin = _exact(answer.value), _exact(answer.tolerance)
    either = sub(conditionvar, "or")
    varequal(either, RESPONSE, decimal_text(value))
    both = sub(either, "and")
    sub(both, "vargte", {"respident": RESPONSE}, decimal_text(value - margin))
    sub(both, "varlte", {"respident": RESPONSE}, decimal_text(value + margin))


def numerical(parts: ItemParts) -> None:
    question: Numerical = parts.question
    _text_box(parts, "Decimal")
    for index, answer in enumerate(question.answers):
        if not is_full(answer.credit):
            continue
        ident = parts.number(f"answer:{index}")
        parts.answer_ids.append(ident)
        condition, conditionvar = respcondition(parts.resprocessing, "No")
        _numeric_condition(conditionvar, answer)
        set_score(condition, "100")
        if answer.feedback is not None:
            show_feedback(condition, f"{ident}_fb")
            parts.answer_feedback.append((ident, answer.feedback))
        if parts.correct_feedback:
            show_feedback(condition, parts.correct_feedback)


def essay(parts: ItemParts) -> None:
    _text_box(parts)
    condition, conditionvar = respcondition(parts.resprocessing, "No")
    sub(conditionvar, "other")

"""Short answer, numerical and essay: a text box (response_str), scored by the texts or numbers listed."""

from __future__ import annotations

from decimal import Decimal, localcontext

from ...model import NumericAnswer, Numerical, ShortAnswer
from .item import ItemParts, decimal_text
from .qti12 import end_condition, end_conditionvar, respcondition, set_score, show_feedback, varequal
from ...tolerances import is_full_credit as is_full
from .xml import Lines

RESPONSE = "response1"
_BOUND = f' respident="{RESPONSE}"'


def _text_box(parts: ItemParts, fibtype: str | None = None) -> None:
    lines = parts.presentation
    lines.open("response_str", f' ident="{RESPONSE}" rcardinality="Single"')
    lines.open("render_fib", f' fibtype="{fibtype}"' if fibtype else "")
    lines.leaf("response_label", ' ident="answer1"' if fibtype else ' ident="answer1" rshuffle="No"')
    lines.close("render_fib")
    lines.close("response_str")


def short_answer(parts: ItemParts) -> None:
    question: ShortAnswer = parts.question
    _text_box(parts)
    lines = parts.resprocessing
    kept = [(parts.number(f"answer:{i}"), a) for i, a in enumerate(question.answers) if is_full(a.credit)]
    parts.answer_ids.extend(ident for ident, _ in kept)
    for ident, answer in kept:
        if answer.feedback is not None:
            respcondition(lines, "Yes")
            varequal(lines, RESPONSE, answer.text)
            end_conditionvar(lines)
            show_feedback(lines, f"{ident}_fb")
            end_condition(lines)
            parts.answer_feedback.append((ident, answer.feedback))
    respcondition(lines, "No")
    for _, answer in kept:
        varequal(lines, RESPONSE, answer.text)
    end_conditionvar(lines)
    set_score(lines, "100")
    if parts.correct_feedback:
        show_feedback(lines, parts.correct_feedback)
    end_condition(lines)


def _exact(value: float) -> Decimal:
    return Decimal(repr(float(value)))


def _numeric_condition(lines: Lines, answer: NumericAnswer) -> None:
    if answer.is_range:
        lines.leaf("vargte", _BOUND, decimal_text(answer.minimum))
        lines.leaf("varlte", _BOUND, decimal_text(answer.maximum))
        return
    # Canvas's own form for an exact answer with a margin; its importer reads the margin back
    # as (upper bound - exact value), so both bounds are computed in decimal, not binary.
    value, margin = _exact(answer.value), _exact(answer.tolerance)
    with localcontext() as exact:
        # Enough digits for any two doubles (1e308 and 5e-324 apart): the default 28 would
        # round a small margin away next to a huge value.
        exact.prec = 800
        low, high = value - margin, value + margin
    lines.open("or")
    varequal(lines, RESPONSE, decimal_text(value))
    lines.open("and")
    lines.leaf("vargte", _BOUND, decimal_text(low))
    lines.leaf("varlte", _BOUND, decimal_text(high))
    lines.close("and")
    lines.close("or")


def numerical(parts: ItemParts) -> None:
    question: Numerical = parts.question
    _text_box(parts, "Decimal")
    lines = parts.resprocessing
    for index, answer in enumerate(question.answers):
        if not is_full(answer.credit):
            continue
        ident = parts.number(f"answer:{index}")
        parts.answer_ids.append(ident)
        respcondition(lines, "No")
        _numeric_condition(lines, answer)
        end_conditionvar(lines)
        set_score(lines, "100")
        if answer.feedback is not None:
            show_feedback(lines, f"{ident}_fb")
            parts.answer_feedback.append((ident, answer.feedback))
        if parts.correct_feedback:
            show_feedback(lines, parts.correct_feedback)
        end_condition(lines)


def essay(parts: ItemParts) -> None:
    _text_box(parts)
    lines = parts.resprocessing
    respcondition(lines, "No")
    lines.leaf("other")
    end_conditionvar(lines)
    end_condition(lines)

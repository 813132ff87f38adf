"""Short answer and numerical: accepted answers, their credits, ranges."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import AcceptedAnswer, Numerical, NumericAnswer, ShortAnswer
from .blank import is_blank
from ..tolerances import FULL_CREDIT as EPSILON


def short_answer_errors(question: ShortAnswer, file: str) -> Iterator[Diagnostic]:
    return accepted_answers_errors(question.answers, question.case_sensitive, file, question.location.pointer)


def numerical_errors(question: Numerical, file: str) -> Iterator[Diagnostic]:
    return numeric_answers_errors(question.answers, file, question.location.pointer)


def _credit_errors(answers: tuple[AcceptedAnswer | NumericAnswer, ...], file: str, base: str) -> Iterator[Diagnostic]:
    if not any(abs(a.credit - 1) <= EPSILON for a in answers):
        yield error("at least one answer must be worth full credit (1)", file, pointer_join(base, "answers"), code="credit")
    for i, answer in enumerate(answers):
        if answer.credit < 0:
            yield error("an accepted answer cannot be worth negative credit", file, pointer_join(base, "answers", i, "credit"), code="credit")


def accepted_answers_errors(answers: tuple[AcceptedAnswer, ...], case_sensitive: bool, file: str, base: str) -> Iterator[Diagnostic]:
    """`base`: the pointer of what holds the answers (a question, or a blank)."""
    yield from _credit_errors(answers, file, base)
    seen: set[str] = set()
    for i, answer in enumerate(answers):
        key = answer.text if case_sensitive else answer.text.casefold()
        if key in seen:
            yield error(f"the answer {answer.text!r} is listed twice", file, pointer_join(base, "answers", i, "text"), code="duplicate")
        seen.add(key)
        if is_blank(answer.text):
            yield error("an accepted answer cannot be only white space", file, pointer_join(base, "answers", i, "text"), code="blank")


def numeric_answers_errors(answers: tuple[NumericAnswer, ...], file: str, base: str) -> Iterator[Diagnostic]:
    yield from _credit_errors(answers, file, base)
    for i, answer in enumerate(answers):
        if answer.is_range and answer.minimum > answer.maximum:
            yield error(f"the range is empty: min {answer.minimum:g} is above max {answer.maximum:g}", file, pointer_join(base, "answers", i), code="range")

"""Short answer and numerical: accepted answers, their credits, ranges."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Numerical, ShortAnswer
from .blank import is_blank
from .choices import EPSILON


def answers_errors(question: ShortAnswer | Numerical, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    if not any(abs(a.credit - 1) <= EPSILON for a in question.answers):
        yield error("at least one answer must be worth full credit (1)", file, pointer_join(base, "answers"), code="credit")
    for i, answer in enumerate(question.answers):
        if answer.credit < 0:
            yield error("an accepted answer cannot be worth negative credit", file, pointer_join(base, "answers", i, "credit"), code="credit")
    if isinstance(question, ShortAnswer):
        seen: set[str] = set()
        for i, answer in enumerate(question.answers):
            key = answer.text if question.case_sensitive else answer.text.casefold()
            if key in seen:
                yield error(f"the answer {answer.text!r} is listed twice", file, pointer_join(base, "answers", i, "text"), code="duplicate")
            seen.add(key)
            if is_blank(answer.text):
                yield error("an accepted answer cannot be only white space", file, pointer_join(base, "answers", i, "text"), code="blank")
    else:
        for i, answer in enumerate(question.answers):
            if answer.is_range and answer.minimum > answer.maximum:
                yield error(f"the range is empty: min {answer.minimum:g} is above max {answer.maximum:g}", file, pointer_join(base, "answers", i), code="range")

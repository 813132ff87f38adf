"""Moodle's grade fractions, shared by the Moodle XML and GIFT writers.

Moodle's importers accept a credit only when it is one of the fractions of
question/engine/bank.php (question_bank::fraction_options_full), matched within 1e-5
(match_grade_options in lib/questionlib.php); any other value makes the whole import stop.
The fractions are written as the percentages Moodle itself exports.
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, error
from ...model import Question, Quiz
from ..shared import ExportOptions, loss_warning

_POSITIVE = (
    "100", "90", "83.33333", "80", "75", "70", "66.66667", "60", "50", "40", "33.33333",
    "30", "25", "20", "16.66667", "14.28571", "12.5", "11.11111", "10", "5",
)

# Percentage as written in the file -> the fraction Moodle stores.
GRADES: dict[str, float] = {"0": 0.0}
for _p in _POSITIVE:
    GRADES[_p] = float(_p) / 100
    GRADES["-" + _p] = -float(_p) / 100

# Moodle's own tolerance when it matches a fraction against the list.
TOLERANCE = 1e-5


_EXACT: dict[float, str | None] = {}


def exact_grade(credit: float) -> str | None:
    """The percentage Moodle stores for this credit unchanged, or None when it has none."""
    try:
        return _EXACT[credit]
    except KeyError:
        pass
    found = next((percent for percent, fraction in GRADES.items() if abs(credit - fraction) < TOLERANCE), None)
    if len(_EXACT) < 4096:  # banks use a handful of credits; a bound keeps odd input from growing it
        _EXACT[credit] = found
    return found


def nearest_grade(credit: float) -> str:
    return min(GRADES, key=lambda percent: (abs(credit - GRADES[percent]), percent))


def grade_percent(quiz: Quiz, question: Question, credit: float, what: str, options: ExportOptions) -> tuple[str | None, Diagnostic | None]:
    """The percentage to write for `credit`, or None with an error when Moodle would change the score.

    With options.nearest_grade the credit moves to the nearest allowed fraction, with a warning
    naming both (an error under strict, since the score changes).
    """
    percent = exact_grade(credit)
    if percent is not None:
        return percent, None
    nearest = nearest_grade(credit)
    if options.nearest_grade:
        message = (
            f"{what}: credit {credit:g} is not one of Moodle's grade fractions; "
            f"written as the nearest one, {nearest}% (the score changes)"
        )
        return nearest, loss_warning(quiz, question, message, options, code="moodle-grade")
    message = (
        f"{what}: credit {credit:g} ({credit * 100:g}%) is not one of Moodle's grade fractions, so Moodle "
        f"would reject the whole file; use an allowed value such as {nearest}% or export with the nearest-grade option"
    )
    return None, error(message, quiz.location.file, question.location.pointer, code="moodle-grade")

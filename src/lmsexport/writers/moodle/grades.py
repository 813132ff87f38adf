"""Moodle's grade fractions, shared by the Moodle XML and GIFT writers.

Moodle's importers accept a credit only when it is one of the fractions of
question/engine/bank.php (question_bank::fraction_options_full), matched within 1e-5
(match_grade_options in lib/questionlib.php); any other value makes the whole import stop.
The fractions are written as the percentages Moodle itself exports.
"""

from __future__ import annotations

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


class Percentages(dict):
    """The percentage to write for each credit, `percentages[credit]`: Moodle's own when the credit
    is on its list, else with `nearest` (options.nearest_grade) the nearest allowed fraction, else
    None (Moodle would refuse it). What is said about it is `check.grade_problems`'s, at the
    credit. Each distinct credit is judged once, then looked up: a bank uses a handful of credits,
    asked once an option. One is made per writer (a quiz)."""

    __slots__ = ("nearest",)

    def __init__(self, nearest: bool):
        super().__init__()
        self.nearest = nearest

    def __missing__(self, credit: float) -> str | None:
        percent = exact_grade(credit)
        if percent is None and self.nearest:
            percent = nearest_grade(credit)
        if len(self) < 4096:  # a bound keeps odd input from growing it
            self[credit] = percent
        return percent

"""How close two numbers must be to count as the same, defined once for the checks, every writer
and every reader.

Platforms' own tolerances are facts of those platforms and stay with the modules that cite them
(Moodle's grade matching in writers/moodle/grades.py, its numerical margin in writers/moodle/common.py).
"""

from __future__ import annotations

# Full marks: credits written with seven decimals (0.3333333 three times) add up to full marks, and
# what validation accepts as full credit no writer or reader may judge otherwise. Moodle draws the
# same line: a fraction above 0.999999 is graded right (question/engine/states.php,
# graded_state_for_fraction).
FULL_CREDIT = 1e-6

# A platform's credit that only rounds a share to six decimals or more (GIFT's %33.3333%, Moodle
# XML's 0.3333333) is within half a unit of the sixth decimal of it: the canonical JSON writer
# leaves such a credit out as the default share it stands for.
ROUNDED_SHARE = 5e-7

# Two values computed by different routes (a share 1/3 against the credit written for it) that differ
# only by binary rounding.
ROUNDING = 1e-9


def is_full_credit(credit: float) -> bool:
    return abs(credit - 1) <= FULL_CREDIT


def reaches_full_credit(credit: float) -> bool:
    """Full credit or more: what an option that is not correct may not be worth, and what makes a
    platform's option the correct one of a single choice question."""
    return credit >= 1 - FULL_CREDIT


def same_but_for_rounding(a: float, b: float) -> bool:
    return abs(a - b) <= ROUNDING

"""How close two numbers must be to count as the same, defined once for the checks and every writer.

Platforms' own tolerances are facts of those platforms and stay with the modules that cite them
(Moodle's grade matching in writers/moodle/grades.py, its numerical margin in writers/moodle/common.py).
"""

from __future__ import annotations

# Full marks: credits written with seven decimals (0.3333333 three times) add up to full marks, and
# what validation accepts as full credit no writer may judge otherwise.
FULL_CREDIT = 1e-6

# Two values computed by different routes (a share 1/3 against the credit written for it) that differ
# only by binary rounding.
ROUNDING = 1e-9


def is_full_credit(credit: float) -> bool:
    return abs(credit - 1) <= FULL_CREDIT


def same_but_for_rounding(a: float, b: float) -> bool:
    return abs(a - b) <= ROUNDING

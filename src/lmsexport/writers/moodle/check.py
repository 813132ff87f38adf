"""What the Moodle XML and GIFT checks share: every credit judged against Moodle's grade list,
at the place of the credit (the credits of each question type are one table, `CREDITS`), saying
so when it is the default split rather than a value written.

The writers look the same credits up in a `grades.Percentages`, to write them, and report with
`grade_problems` as the checks do, so the problem is said once for both formats
(`moodle, gift: ...`), where the author can change it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Any

from ...model import (
    Description,
    Essay,
    FillInBlanks,
    Matching,
    MultipleResponse,
    Numerical,
    Ordering,
    Question,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
)
from ..reporter import Reporter
from .grades import GRADES, Percentages, exact_grade, nearest_grade

# Grades of Moodle's list that are exact fractions, for suggesting credits that add up to 1.
_EXACT_GRADES = tuple(Fraction(n, d) for n, d in (
    (1, 1), (9, 10), (5, 6), (4, 5), (3, 4), (7, 10), (2, 3), (3, 5), (1, 2), (2, 5), (1, 3), (3, 10),
    (1, 4), (1, 5), (1, 6), (1, 7), (1, 8), (1, 9), (1, 10), (1, 20)))


# Credits on Moodle's grade list as a bank writes them: the list's own fractions and the shares of
# the default split that are on it (1/3 is 0.333...3, within Moodle's tolerance of 0.3333333). A
# question whose credits are all among them has nothing for `grade_problems` to say of them.
LISTED_CREDITS = frozenset((*GRADES.values(), *(sign * k / n for sign in (1, -1) for n, k in (
    (3, 1), (3, 2), (6, 1), (6, 5), (7, 1), (9, 1)))))
_CREDIT = attrgetter("credit")
_CORRECT = attrgetter("correct")


def default_split(question: MultipleResponse) -> Fraction | None:
    """The share each correct option gets when no option has a credit written, or None when some
    option's credit differs from that split (the author wrote credits)."""
    correct = sum(1 for c in question.choices if c.correct)
    if not correct:
        return None
    share = 1.0 / correct
    if all(c.credit == (share if c.correct else -share) for c in question.choices):
        return Fraction(1, correct)
    return None


def suggested_credits(count: int) -> str:
    """Credits on Moodle's list for `count` correct options that add up to exactly 1, as even as
    possible: 'for example 9 options at 0.1 and 2 at 0.05'."""
    best: tuple[Fraction, int, Fraction, int] | None = None
    for high in _EXACT_GRADES:
        for low in _EXACT_GRADES:
            if low > high:
                continue
            for at_high in range(1, count + 1):
                if at_high * high + (count - at_high) * low == 1:
                    if best is None or high - low < best[0] - best[2]:
                        best = (high, at_high, low, count - at_high)
    if best is None:
        return "but Moodle's smallest grade is 5%, so no more than 20 correct options can share the marks: split the question"
    high, at_high, low, at_low = best
    wording = f"{at_high} {'option' if at_high == 1 else 'options'} at {_decimal(high)}"
    if at_low:
        wording += f" and {at_low} at {_decimal(low)}"
    return "for example " + wording


def _decimal(value: Fraction) -> str:
    """0.1 as 0.1; 1/3 as 0.3333333, which Moodle and the content's sum rule both accept."""
    return f"{float(value):g}" if len(f"{float(value):g}") < 8 else f"{float(value):.7f}"


def grade_problems(report: Reporter, question: Question) -> None:
    """Every credit of the question Moodle would not store as it is, at the credit: an error (the
    import would stop), or with nearest_grade a loss naming the grade it becomes."""
    if isinstance(question, MultipleResponse):
        # The default split gives each correct option 1/correct: only a share off the list makes
        # the options' credits worth comparing with the split.
        correct = sum(map(_CORRECT, question.choices))
        share = default_split(question) if correct and exact_grade(1.0 / correct) is None else None
        if share is not None:
            if report.options.nearest_grade:
                message = (f"the default split gives each of the {correct} correct options {float(share):g}, which is not one "
                           f"of Moodle's grade fractions; written as the nearest one, {nearest_grade(float(share))}% (the score changes)")
                report.loss(question, message, "options", code="moodle-grade")
            else:
                message = (f"the default split gives each of the {correct} correct options {float(share):g} "
                           f"({float(share) * 100:g}%), which is not one of Moodle's grade fractions, so Moodle would reject the "
                           f"whole file; write a credit on each option instead, {suggested_credits(correct)} (and wrong options "
                           f"at 0 or a negative grade of the list), or export with the nearest-grade option")
                report.error(question, message, "options", code="moodle-grade")
            return
    credited = CREDITS[type(question)]
    if credited is None:
        return
    items = getattr(question, credited.attribute)
    if LISTED_CREDITS.issuperset(map(_CREDIT, items)):  # the common case, told without a call per credit
        return
    for index, item in enumerate(items):
        credit = item.credit
        if exact_grade(credit) is not None:
            continue
        # The place and name of the credit are made only for a credit off the list.
        where, what = (credited.field, index, "credit"), credited.named(index, item)
        nearest = nearest_grade(credit)
        if report.options.nearest_grade:
            message = f"{what}: credit {credit:g} is not one of Moodle's grade fractions; written as the nearest one, {nearest}% (the score changes)"
            report.loss(question, message, *where, code="moodle-grade")
        else:
            message = (f"{what}: credit {credit:g} ({credit * 100:g}%) is not one of Moodle's grade fractions, so Moodle "
                       f"would reject the whole file; use an allowed value such as {nearest}% or export with the nearest-grade option")
            report.error(question, message, *where, code="moodle-grade")


@dataclass(frozen=True, slots=True)
class Credited:
    """Where a question type's credits stand: the model's attribute holding the credited items,
    its name in the content, and what a message calls the item at an index."""

    attribute: str
    field: str
    named: Callable[[int, Any], str]


_OPTIONS = Credited("choices", "options", lambda index, choice: f"option {choice.id}")

# The credits judged against Moodle's grade list, by question class. None: graded by Moodle itself
# (true/false, matching, ordering, essay, description) or, for a cloze question, with any
# fraction: no credit is judged against the grade list.
CREDITS: dict[type[Question], Credited | None] = {
    SingleChoice: _OPTIONS,
    MultipleResponse: _OPTIONS,
    ShortAnswer: Credited("answers", "answers", lambda index, answer: f"answer {answer.text!r}"),
    Numerical: Credited("answers", "answers", lambda index, answer: f"answer {index + 1}"),
    TrueFalse: None,
    Matching: None,
    Ordering: None,
    FillInBlanks: None,
    Essay: None,
    Description: None,
}


class CreditsChecked:
    """Mixed into a Moodle XML or GIFT writer run as its format's check: `grade_problems` judges
    the credits (said once for both formats), so the writer goes on with a grade Moodle stores,
    the nearest one for a credit off the list."""

    percentages: Percentages

    def __init__(self, report: Reporter):
        super().__init__(report)  # type: ignore[call-arg]  # the writer's own
        self.percentages = Percentages(nearest=True)

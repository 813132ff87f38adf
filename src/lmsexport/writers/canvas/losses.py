"""What one question loses in Canvas's classic quizzes, or what Canvas would import as something
else, each said at the value it is about. One rule function per question class and per blank
kind (tests/test_type_coverage.py fails for a class left out); the writer and its check both run
`question_rules`."""

from __future__ import annotations

import re
from collections.abc import Callable

from ...model import (
    Blank,
    Description,
    DropdownBlank,
    Essay,
    FillInBlanks,
    Matching,
    MultipleResponse,
    Numerical,
    NumericalBlank,
    Ordering,
    OrderingGrading,
    Question,
    ShortAnswer,
    ShortAnswerBlank,
    SingleChoice,
    TextFormat,
    TrueFalse,
)
from ...tolerances import is_full_credit as is_full
from ..literal_tex import literal_tex
from ..reporter import CASE, GRADER_INFO, RESPONSE_TEMPLATE, Reporter
from .blanks_item import accepted_texts
from .rules import off_rule_choices


def _percent(credit: float) -> str:
    return f"{credit * 100:g}%"


# TeX between MathJax's delimiters, which Canvas typesets wherever its HTML shows it.
_PLAIN = TextFormat.PLAIN  # read once: an Enum member read off its class is slow on Python 3.11
_TEX = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.S)


def question_rules(report: Reporter, question: Question, shuffled: bool) -> None:
    """Everything Canvas refuses or loses of `question`; `shuffled`: whether the quiz's answers
    are shuffled (Canvas shuffles per quiz)."""
    name = f"question {question.id!r}"
    for parts, text in question.texts():
        if text is None:
            continue
        if text.format is _PLAIN:
            # Both delimiters start with a backslash: a plain text without one shows no formula.
            if "\\" in text.source and (found := _TEX.search(text.source)):
                report.loss(question, f"{name}: Canvas typesets \\( \\) and \\[ \\] as formulas, so this plain text's '{found.group()}' "
                                      "shows as a formula (and an import reads it as one)", *parts, code="canvas-math")
        elif (literal := literal_tex(text, _TEX)) is not None:
            report.loss(question, f"{name}: Canvas typesets \\( \\) and \\[ \\] as formulas, so this text's literal '{literal}' "
                                  "shows as a formula (and an import reads it as one)", *parts, code="canvas-math")
    if not isinstance(question, Description) and question.feedback.partially_correct is not None:
        report.loss(question, f"{name}: Canvas has no partially-correct feedback; it is left out", "feedback", "partially_correct", code="canvas-feedback")
    RULES[type(question)](report, question, name)
    if not shuffled and isinstance(question, (SingleChoice, MultipleResponse)) and question.shuffle:
        reason = "a pinned option" if any(c.pinned for c in question.choices) else "another question's fixed order"
        report.loss(question, f"{name}: Canvas shuffles per quiz, not per question; its options are not shuffled because of {reason}",
                    "shuffle", code="canvas-shuffle")


def _description(report: Reporter, question: Description, name: str) -> None:
    feedback = question.feedback
    for where, text in ((("explanation",), feedback.general), (("feedback", "correct"), feedback.correct),
                        (("feedback", "partially_correct"), feedback.partially_correct), (("feedback", "incorrect"), feedback.incorrect)):
        if text is not None:
            report.loss(question, f"{name}: Canvas text-only questions show no feedback; it is left out", *where, code="canvas-feedback")


def _say_no_correct_option(report: Reporter, question: SingleChoice | MultipleResponse, name: str) -> None:
    report.error(question, f"{name}: no correct option; Canvas cannot tell what is right", "options", code="canvas-no-answer")


def _single_choice(report: Reporter, question: SingleChoice, name: str) -> None:
    # One walk over the options for both rules (a right option, and no credit on a wrong one):
    # this runs for most questions. The losses are said only when there is a right option.
    right = False
    paid_wrong = []
    for index, choice in enumerate(question.choices):
        if choice.correct:
            right = True
        elif choice.credit != 0:
            paid_wrong.append(index)
    if not right:
        _say_no_correct_option(report, question, name)
        return
    choices = question.choices
    for index in paid_wrong:
        choice = choices[index]
        report.loss(question, f"{name}: Canvas multiple choice is all or nothing; option {choice.id!r} ({_percent(choice.credit)}) earns 0",
                    "options", index, "credit", code="canvas-credit")


def _multiple_response(report: Reporter, question: MultipleResponse, name: str) -> None:
    n_correct = 0
    for choice in question.choices:  # a loop, not sum() over a generator: this runs for many questions
        if choice.correct:
            n_correct += 1
    if not n_correct:
        _say_no_correct_option(report, question, name)
        return
    off = off_rule_choices(question, n_correct)
    if off:
        # Canvas's rule is about the options together (each share is 1/number-of-right-answers),
        # and an option listed may have its credit by default: the place is the options.
        listed = ", ".join(f"{c.id!r} ({_percent(c.credit)})" for c in off)
        report.loss(question, f"{name}: Canvas scores multiple answers by its own rule (each right option earns, each wrong "
                              f"one costs, 1/number-of-right-answers, total at least 0); credits {listed} are not kept", "options", code="canvas-credit")


def _answers(report: Reporter, question: ShortAnswer | Numerical, name: str) -> None:
    if not any(is_full(a.credit) for a in question.answers):
        report.error(question, f"{name}: no answer with full credit; Canvas would import an essay question", "answers", code="canvas-no-answer")
        return
    for index, answer in enumerate(question.answers):
        if not is_full(answer.credit):
            report.loss(question, f"{name}: every answer Canvas lists is fully right, so answer {_answer_name(answer)} ({_percent(answer.credit)}) "
                                  "is left out with its feedback", "answers", index, "credit", code="canvas-credit")


def _short_answer(report: Reporter, question: ShortAnswer, name: str) -> None:
    _answers(report, question, name)
    if question.case_sensitive:
        report.lost(question, CASE, "case_sensitive")


def _matching(report: Reporter, question: Matching, name: str) -> None:
    if not question.pairs:
        report.error(question, f"{name}: a matching question needs at least one pair", "pairs", code="canvas-no-answer")


def _ordering(report: Reporter, question: Ordering, name: str) -> None:
    report.loss(question, f"{name}: Canvas classic quizzes have no ordering question: it becomes a matching question, "
                          f"each item matched to its place (1 to {len(question.items)}), the items listed in a scrambled order", code="canvas-ordering")
    if question.grading is not OrderingGrading.ABSOLUTE_POSITION:
        report.loss(question, f"{name}: Canvas scores each item matched to its right place (Moodle's absolute position), "
                              f"not by the grading '{question.grading.value}'", "grading", code="canvas-credit")


def _essay(report: Reporter, question: Essay, name: str) -> None:
    if question.grader_info is not None:
        report.lost(question, GRADER_INFO, "grader_info")
    if question.response_template is not None:
        report.lost(question, RESPONSE_TEMPLATE, "response_template")


def _nothing(report: Reporter, question: Question, name: str) -> None:
    """Canvas carries the question whole."""


def _fill_in_blanks(report: Reporter, question: FillInBlanks, name: str) -> None:
    kinds = {type(b) for b in question.blanks}
    mixed = DropdownBlank in kinds and len(kinds) > 1
    if mixed:
        dropdowns = ", ".join(repr(b.id) for b in question.blanks if type(b) is DropdownBlank)
        report.loss(question, f"{name}: Canvas cannot mix drop-downs and typed blanks in one question: it becomes fill in multiple "
                              f"blanks, and drop-down(s) {dropdowns} typed blanks that accept the correct option's text", "blanks", code="canvas-blanks")
    if len(set(question.blank_points)) > 1:
        report.loss(question, f"{name}: Canvas shares the points equally among the blanks; the blanks' own points are not kept", "blanks", code="canvas-credit")
    for index, blank in enumerate(question.blanks):
        where = ("blanks", index)
        BLANK_RULES[type(blank)](report, question, blank, f"{name}: blank {blank.id!r}", where, mixed)
        if any(f is not None for _, f in blank.own_texts()):
            report.loss(question, f"{name}: blank {blank.id!r}: Canvas's importer drops the feedback of each answer of a blank", *where, code="canvas-feedback")


def _short_answer_blank(report: Reporter, question: FillInBlanks, blank: ShortAnswerBlank, name: str, where: tuple, mixed: bool) -> None:
    for index, answer in enumerate(blank.answers):
        if not is_full(answer.credit):
            report.loss(question, f"{name}: every answer Canvas lists is fully right, so {answer.text!r} ({_percent(answer.credit)}) is left out",
                        *where, "answers", index, "credit", code="canvas-credit")
    if blank.case_sensitive:
        report.lost(question, CASE, *where, "case_sensitive")


def _numerical_blank(report: Reporter, question: FillInBlanks, blank: NumericalBlank, name: str, where: tuple, mixed: bool) -> None:
    report.loss(question, f"{name}: Canvas compares a blank's text, so the number must be typed exactly as "
                          + " or ".join(repr(t) for t in accepted_texts(blank)) + " (no tolerance, range or partial credit)", *where, code="canvas-number")


def _dropdown_blank(report: Reporter, question: FillInBlanks, blank: DropdownBlank, name: str, where: tuple, mixed: bool) -> None:
    if mixed:
        return  # a typed blank accepting the correct option's text: said once for the question
    for index, option in enumerate(blank.options):
        if not option.correct and option.credit != 0:
            report.loss(question, f"{name}: a Canvas drop-down is right or wrong; {option.id!r} ({_percent(option.credit)}) earns 0",
                        *where, "options", index, "credit", code="canvas-credit")


def _answer_name(answer) -> str:
    text = getattr(answer, "text", None)
    if text is not None:
        return repr(text)
    if answer.is_range:
        return f"[{answer.minimum:g}, {answer.maximum:g}]"
    return f"{answer.value:g}±{answer.tolerance:g}"


# The rules of each question type, keyed by the model's class.
RULES: dict[type[Question], Callable[[Reporter, Question, str], None]] = {
    SingleChoice: _single_choice,
    MultipleResponse: _multiple_response,
    TrueFalse: _nothing,
    ShortAnswer: _short_answer,
    Numerical: _answers,
    Matching: _matching,
    Ordering: _ordering,
    FillInBlanks: _fill_in_blanks,
    Essay: _essay,
    Description: _description,
}

# The rules of each blank kind (the blank's own losses; its answers' feedback is said by
# `_fill_in_blanks` for every kind).
BLANK_RULES: dict[type[Blank], Callable[[Reporter, FillInBlanks, Blank, str, tuple, bool], None]] = {
    ShortAnswerBlank: _short_answer_blank,
    NumericalBlank: _numerical_blank,
    DropdownBlank: _dropdown_blank,
}

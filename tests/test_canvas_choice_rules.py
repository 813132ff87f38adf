"""The Canvas rules of choice questions (`losses.RULES` of single choice and multiple answers)
walk the options once; held here to the rules as first written, which walked them once per rule
(kept below as the reference), over generated questions and the test data."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lmsexport.loader import load_quiz
from lmsexport.model import Choice, MultipleResponse, SingleChoice, Text
from lmsexport.writers.canvas import losses
from lmsexport.writers.canvas.rules import canvas_credit
from lmsexport.writers.reporter import Reporter
from lmsexport.writers.shared import ExportOptions
from lmsexport.tolerances import same_but_for_rounding
from quizzes import quiz_of

DATA = Path(__file__).parent / "data"


def _reference_no_correct_option(report, question, name) -> bool:
    for choice in question.choices:
        if choice.correct:
            return False
    report.error(question, f"{name}: no correct option; Canvas cannot tell what is right", "options", code="canvas-no-answer")
    return True


def _reference_single_choice(report, question, name) -> None:
    if _reference_no_correct_option(report, question, name):
        return
    for index, choice in enumerate(question.choices):
        if not choice.correct and choice.credit != 0:
            report.loss(question, f"{name}: Canvas multiple choice is all or nothing; option {choice.id!r} ({losses._percent(choice.credit)}) earns 0",
                        "options", index, "credit", code="canvas-credit")


def _reference_multiple_response(report, question, name) -> None:
    if _reference_no_correct_option(report, question, name):
        return
    n_correct = sum(1 for c in question.choices if c.correct)
    off = [c for c in question.choices if not same_but_for_rounding(c.credit, canvas_credit(c, n_correct))]
    if off:
        listed = ", ".join(f"{c.id!r} ({losses._percent(c.credit)})" for c in off)
        report.loss(question, f"{name}: Canvas scores multiple answers by its own rule (each right option earns, each wrong "
                              f"one costs, 1/number-of-right-answers, total at least 0); credits {listed} are not kept", "options", code="canvas-credit")


REFERENCE = {SingleChoice: _reference_single_choice, MultipleResponse: _reference_multiple_response}


def _said(rule, quiz, question) -> list:
    report = Reporter(quiz, "canvas", ExportOptions())
    rule(report, question, f"question {question.id!r}")
    return [(d.severity, d.code, d.message, d.pointer) for d in report.found]


_CREDITS = st.sampled_from([0.0, 1.0, -1.0, 0.5, -0.5, 1 / 3, -1 / 3, 0.25, 1e-9, 0.3333333]) | st.floats(-1, 1, allow_nan=False)
_CHOICES = st.lists(st.builds(lambda n, correct, credit: (n, correct, credit), st.integers(0, 99), st.booleans(), _CREDITS), max_size=7)


@given(kind=st.sampled_from([SingleChoice, MultipleResponse]), choices=_CHOICES)
def test_the_one_walk_rules_say_what_the_walk_per_rule_said(kind, choices):
    quiz = quiz_of({"id": "e", "type": "essay", "stem": "E"})
    question = kind(id="c", stem=Text("S"), choices=tuple(
        Choice(id=f"o{index}-{n}", text=Text("x"), correct=correct, credit=credit) for index, (n, correct, credit) in enumerate(choices)))
    assert _said(losses.RULES[kind], quiz, question) == _said(REFERENCE[kind], quiz, question)


def test_the_rules_say_the_same_of_every_choice_question_of_the_test_data():
    seen = 0
    for path in sorted(DATA.rglob("*.json")):
        quiz = load_quiz(path).quiz
        for question in quiz.questions if quiz is not None else ():
            if type(question) in REFERENCE:
                seen += 1
                assert _said(losses.RULES[type(question)], quiz, question) == _said(REFERENCE[type(question)], quiz, question), question.id
    assert seen > 20

"""Which option of a platform's single choice question is the correct one: the readers draw the line
where validation and Moodle do (tolerances.FULL_CREDIT; Moodle grades a fraction above 0.999999 as
right, question/engine/states.php), so an option Moodle grades as partially right is not read as
a second correct one."""

from __future__ import annotations

import pytest

from lmsexport.importers import read_source


def _moodle_xml(fraction: str) -> bytes:
    return (b'<?xml version="1.0"?><quiz><question type="multichoice"><name><text>q</text></name>'
            b'<questiontext format="html"><text>Pick</text></questiontext><single>true</single>'
            b'<answer fraction="' + fraction.encode() + b'"><text>this</text></answer>'
            b'<answer fraction="0"><text>no</text></answer></question></quiz>')


def _gift(fraction: str) -> bytes:
    return f"::q:: Pick {{=right ~%{fraction}%this ~no}}".encode()


@pytest.mark.parametrize("source, name", [(_moodle_xml, "q.xml"), (_gift, "q.gift")])
@pytest.mark.parametrize("fraction, correct", [("99.9995", False), ("99.99995", True), ("100", True)])
def test_an_option_is_correct_exactly_when_moodle_grades_it_right(source, name, fraction, correct):
    [bank] = read_source(source(fraction), name).banks
    [question] = bank.questions
    this = next(c for c in question.question.choices if c.text.source == "this")
    assert this.correct is correct
    assert this.credit == pytest.approx(float(fraction) / 100)


@pytest.mark.parametrize("credit, written", [(0.3333333, False), (0.333333, False), (1 / 3, False), (0.33333, True), (0.3334, True)])
def test_a_credit_that_only_rounds_the_default_share_is_left_out(credit, written):
    """Moodle XML stores 1/3 as 0.3333333 and GIFT as %33.3333%: the content file says nothing of
    such a credit, which is the default share; one that differs more is the author's own."""
    from lmsexport.importers.canonical_json import quiz_to_data
    from lmsexport.model import Choice, MultipleResponse, Quiz, Text

    choices = tuple(Choice(id=i, text=Text(i), correct=True, credit=credit) for i in "abc") + (Choice(id="d", text=Text("d"), correct=False, credit=-1 / 3),)
    quiz = Quiz(id="q", title="Q", language="en", questions=(MultipleResponse(id="m", stem=Text("Pick"), choices=choices),))
    options = quiz_to_data(quiz)["questions"][0]["options"]
    assert [("credit" in o) for o in options] == [written, written, written, False]

"""GIFT's missing word form (an answer block inside the text) imported as fill in the blanks with
one blank, as Moodle's GIFT importer reads it (question/format/gift/format.php: a text that does
not end with the block shows the blank as _____)."""

from __future__ import annotations

from pathlib import Path

from import_support import difference, round_trip

from lmsexport.importers import import_data
from lmsexport.loader import load_quiz
from lmsexport.model import DropdownBlank, FillInBlanks, NumericalBlank, ShortAnswerBlank, TrueFalse

ROOT = Path(__file__).resolve().parent.parent


def _questions(text: str):
    quizzes, problems = import_data(text.encode(), "bank.gift.txt", "gift")
    assert not [p for p in problems if p.is_error], problems
    return quizzes[0].quiz.questions


def test_each_kind_of_answer_block_inside_a_text_is_one_blank():
    choice, words, number, truth, ordinary = _questions(
        "Paris is in {=France ~%50%Belgium#Close ~Spain} and Madrid is in {=Spain ~France}.\n\n"
        "The capital of France is {=Paris =%50%paris} city.\n\n"
        "Two plus two is {#4:0.5 =%50%3..5} or so.\n\n"
        "The sun {T} rises in the east.\n\n"
        "Who is buried in Grant's tomb? {=Grant ~Nobody}\n")
    assert isinstance(choice, FillInBlanks) and choice.stem.source == \
        "Paris is in [[b1]] and Madrid is in {=Spain ~France}."  # the second block is text, as in Moodle
    [blank] = choice.blanks
    assert isinstance(blank, DropdownBlank)
    assert [(o.text, o.correct, o.credit) for o in blank.options] == [("France", True, 1.0), ("Belgium", False, 0.5), ("Spain", False, 0.0)]
    assert blank.options[1].feedback.source == "Close"
    assert isinstance(words.blanks[0], ShortAnswerBlank) and [a.text for a in words.blanks[0].answers] == ["Paris", "paris"]
    assert isinstance(number.blanks[0], NumericalBlank)
    assert [(a.low, a.high) for a in number.blanks[0].answers] == [(3.5, 4.5), (3.0, 5.0)]
    # True/false has no blank: the question keeps Moodle's _____.
    assert isinstance(truth, TrueFalse) and truth.stem.source.replace("\\", "") == "The sun _____ rises in the east."
    assert ordinary.type == "single_choice"


def test_our_one_blank_questions_survive_export_import_export():
    quiz = load_quiz(ROOT / "tests/data/one_blank.json").quiz
    first, second, _ = round_trip(quiz, "gift")
    assert not difference(first, second, "gift"), difference(first, second, "gift")
    # A blank at the end of a plain text goes out as a paragraph of HTML, so that Moodle reads a
    # missing word rather than an ordinary short answer question.
    assert b"::at-the-end::[html]<p>The bubble shrinks with more {" in first
    back = _questions(first.decode())
    assert [q.type for q in back] == ["fill_in_blanks"] * 4

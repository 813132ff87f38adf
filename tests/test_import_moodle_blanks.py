"""Moodle's embedded answers (cloze) and select missing words imported as fill in the blanks.

The expected values are what Moodle 4.5 and 5.0 stored for the same sub-questions (read from
their databases; ../shared/notes/importers-new-types.md, section 1, and its probes), not what our
writer writes."""

from __future__ import annotations

import pytest

from lmsexport.importers import import_data
from lmsexport.importers.moodle.cloze import extract
from lmsexport.model import DropdownBlank, FillInBlanks, NumericalBlank, ShortAnswerBlank


def _quiz(*questions: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + "\n".join(questions) + "\n</quiz>\n").encode()


def _cloze(text: str, name: str = "q", extra: str = "") -> str:
    return (f'<question type="cloze"><name><text>{name}</text></name>\n'
            f'<questiontext format="html"><text><![CDATA[{text}]]></text></questiontext>{extra}</question>')


def _import(data: bytes):
    quizzes, problems = import_data(data, "bank.xml", "moodle")
    assert not [p for p in problems if p.is_error], problems
    assert len(quizzes) == 1
    return quizzes[0]


# written in the question text -> the answers Moodle stored (and the feedback of the first)
STORED = [
    (r"{1:SA:=a\}b#fb \} x}", ["a}b"], "fb } x"),
    (r"{1:SA:=a\#b#fb \# x}", ["a#b"], "fb # x"),
    (r"{1:SA:=a\~b#fb \~ x}", ["a\\~b"], "fb \\~ x"),
    (r"{1:SA:=a\/b}", ["a\\/b"], None),
    (r"{1:SA:=a/b}", ["a/b"], None),
    (r'{1:SA:=a\"b}', ['a\\"b'], None),
    (r"{1:SA:=a\\b}", ["a\\\\b"], None),
    (r"{1:SA:=a&amp;b}", ["a&b"], None),
    (r"{1:SA:=a&b}", ["a&b"], None),
    (r"{1:SA:=a&amp;~=c}", ["a&~=c"], None),
    (r"{1:SA:=a&#126;b#fb &#126; &#125; x}", ["a~b"], "fb ~ } x"),
    (r"{1:SA:=a&#125;b}", ["a}b"], None),
    (r"{1:SA:=a&lt;b}", ["a<b"], None),
    (r"{1:SA:=say &quot;hi&quot;}", ['say "hi"'], None),
    (r"{1:SA:=a&#38;~=c}", ["a&", "c"], None),
    (r"{1:SA:=a&#92;~=c}", ["a\\", "c"], None),
    (r"{1:SA:=a\~=c}", ["a\\~=c"], None),
    (r"{1:SA:=a:b}", ["a:b"], None),
    (r"{1:SA:=50%}", ["50%"], None),
    (r"{1:SA:=a=b}", ["a=b"], None),
    ("{1:SA:=a\n~b}", ["a\n", "b"], None),
    (r"{1:SA:=a#fb with # and = inside~b#x}", ["a", "b"], "fb with # and = inside"),
    (r"{1:MC:=a\}b~c&#126;d~e&lt;b&gt;f}", ["a}b", "c~d", "e<b>f"], None),
]


@pytest.mark.parametrize("written,answers,feedback", STORED, ids=[s[0] for s in STORED])
def test_sub_questions_are_parsed_as_moodle_stores_them(written, answers, feedback):
    text, subs = extract(f"<p>X {written} Y</p>")
    assert text == "<p>X {#1} Y</p>"
    assert [a.answer for a in subs[0].alternatives] == answers
    assert subs[0].alternatives[0].feedback == feedback


def test_a_misspelt_type_or_a_space_is_text_and_the_question_a_draft_with_moodles_reason():
    assert extract("X {1:MC_H:=red~blue} {1: SA:=a}")[1] == []
    item = _import(_quiz(_cloze("<p>X {1: SA:=a} Y</p>", "spaced")))
    draft = item.quiz.questions[0]
    assert draft.draft and draft.stem.source == "<p>X {1: SA:=a} Y</p>"
    [message] = [d.message for d in item.diagnostics if d.code == "import-draft"]
    assert "at least one embedded answer" in message and "spaced" in message


def test_every_blank_kind_with_weights_credits_feedback_case_and_shuffle():
    text = ("<p>{1:SHORTANSWER:=Paris#Yes~%50%paris~*#Wrong} {2:SAC:=Ab} {2:MW:=w} {2:NM:=3.14:0.01~%25%3#close}"
            " {2:MULTICHOICE:=red~%10%blue#no} {2:MCS:=x~y} {2:NUMERICAL:=-2}</p>")
    item = _import(_quiz(_cloze(text, "all", "<defaultgrade>99</defaultgrade><penalty>0.5</penalty><idnumber>all</idnumber>")))
    question = item.quiz.questions[0]
    assert isinstance(question, FillInBlanks) and not question.draft
    # Moodle's mark is the sum of the weights; <defaultgrade> is not read for cloze.
    assert question.points == 13 and [b.points for b in question.blanks] == [1, 2, 2, 2, 2, 2, 2]
    assert question.penalty == 0.5
    assert question.stem.source == " ".join(f"[[b{n}]]" for n in range(1, 8))
    short, case, word, number, dropdown, shuffled, negative = question.blanks
    assert isinstance(short, ShortAnswerBlank) and not short.case_sensitive
    assert [(a.text, a.credit) for a in short.answers] == [("Paris", 1.0), ("paris", 0.5)]  # '*' has no counterpart
    assert short.answers[0].feedback.source == "Yes"
    assert case.case_sensitive and not word.case_sensitive
    assert isinstance(number, NumericalBlank)
    assert [(a.value, a.tolerance, a.credit) for a in number.answers] == [(3.14, 0.01, 1.0), (3.0, 0.0, 0.25)]
    assert isinstance(dropdown, DropdownBlank) and not dropdown.shuffle and shuffled.shuffle
    assert [(o.text, o.correct, o.credit) for o in dropdown.options] == [("red", True, 1.0), ("blue", False, 0.1)]
    assert negative.answers[0].value == -2
    losses = [d.message for d in item.diagnostics if d.code == "import-loss"]
    assert any("'*' (any other answer)" in m for m in losses), losses


def test_equal_weights_share_the_questions_points():
    question = _import(_quiz(_cloze("<p>{2:SA:=a} and {2:SA:=b}</p>"))).quiz.questions[0]
    assert question.points == 4 and [b.points for b in question.blanks] == [None, None]


def test_radio_layouts_become_drop_downs_with_a_warning():
    item = _import(_quiz(_cloze("<p>{1:MCV:=a~b} {1:MCHS:=c~d}</p>")))
    blanks = item.quiz.questions[0].blanks
    assert all(isinstance(b, DropdownBlank) for b in blanks) and not blanks[0].shuffle and blanks[1].shuffle
    losses = " ".join(d.message for d in item.diagnostics if d.code == "import-loss")
    assert "vertical radio buttons" in losses and "horizontal radio buttons" in losses


@pytest.mark.parametrize("text,reason", [
    ("{1:MULTIRESPONSE:=a~=b~c}", "several answers can be chosen"),
    ("{1:MRHS:=a~b}", "several answers can be chosen"),
    ("{1:MULTICHOICE:=Apple#Correct}", "fewer than 2 answers"),
    ("{1:MULTICHOICE:Pear#Incorrect~%50%Apple#Correct}", "100%"),
    ("{3:NUMERICAL:=zero}", "not a number"),
    ("{1:NM:=3,5:0,1}", "decimal comma"),
    ("[[b1]] {1:SA:=a}", "read as a blank"),
])
def test_what_moodle_refuses_or_the_content_cannot_hold_is_a_located_draft(text, reason):
    data = _quiz('<question type="category"><category><text>$course$/top/Bank</text></category></question>',
                 _cloze(f"<p>{text}</p>", "broken"))
    item = _import(data)
    draft = item.quiz.questions[0]
    assert draft.draft and draft.stem.source == f"<p>{text}</p>"
    [diagnostic] = [d for d in item.diagnostics if d.code == "import-draft"]
    assert reason in diagnostic.message and diagnostic.line == 4  # the <question> element's line


def test_the_texts_own_braces_and_backslash_answers():
    item = _import(_quiz(_cloze(r"<p>Set &#123;1, 2} has {1:SA:=a\~b} elements</p>")))
    question = item.quiz.questions[0]
    assert question.stem.source == "Set {1, 2} has [[b1]] elements"
    assert question.blanks[0].answers[0].text == "a\\~b"
    assert any("keeps the backslash" in d.message for d in item.diagnostics)


GAPSELECT = """<question type="gapselect">
    <name><text>gaps</text></name>
    <questiontext format="html"><text><![CDATA[<p>Water boils at [[1]] C; the sky is [[2]] and the sea is [[3]].</p>]]></text></questiontext>
    <generalfeedback format="html"><text>GF</text></generalfeedback>
    <defaultgrade>3</defaultgrade>
    <shuffleanswers>0</shuffleanswers>
    <correctfeedback format="html"><text>CF</text></correctfeedback>
    <shownumcorrect/>
    <selectoption><text>100</text><group>1</group></selectoption>
    <selectoption><text>blue</text><group>2</group></selectoption>
    <selectoption><text>green &amp; grey</text><group>2</group></selectoption>
    <selectoption><text>50</text><group>1</group></selectoption>
  </question>"""


def test_select_missing_words_become_drop_downs_of_each_gaps_group():
    question = _import(_quiz(GAPSELECT)).quiz.questions[0]
    assert isinstance(question, FillInBlanks) and not question.draft
    assert question.stem.source == "Water boils at [[b1]] C; the sky is [[b2]] and the sea is [[b3]]."
    assert question.points == 3 and question.feedback.correct.source == "CF"
    options = [[(o.text, o.correct) for o in b.options] for b in question.blanks]
    assert options == [[("100", True), ("50", False)], [("blue", True), ("green & grey", False)], [("blue", False), ("green & grey", True)]]
    assert not any(b.shuffle for b in question.blanks)


def test_a_gap_without_its_choice_and_drag_words_stay_drafts_with_their_reason():
    data = _quiz("""<question type="gapselect"><name><text>short</text></name>
    <questiontext format="html"><text><![CDATA[<p>A [[1]] B [[3]]</p>]]></text></questiontext>
    <selectoption><text>x</text><group>1</group></selectoption><selectoption><text>y</text><group>1</group></selectoption></question>""",
                 """<question type="ddwtos"><name><text>drag</text></name>
    <questiontext format="html"><text>A [[1]]</text></questiontext><dragbox><text>x</text><group>1</group></dragbox></question>""")
    item = _import(data)
    assert all(q.draft for q in item.quiz.questions)
    messages = [d.message for d in item.diagnostics if d.code == "import-draft"]
    assert "[[3]] has no choice" in messages[0] and "drag and drop into text" in messages[1]

"""A quiz's sections come back from lmsexport's own Moodle XML and GIFT exports (each section a
subcategory the writer marks as one); any other subcategory is a bank, and a quiz, of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from import_support import export

from lmsexport.importers import import_data
from lmsexport.loader import load_quiz
from lmsexport.model import TextFormat

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"moodle": "bank.xml", "gift": "bank.gift.txt"}


def _imported(data: bytes, format_name: str):
    quizzes, problems = import_data(data, NAMES[format_name], format_name)
    assert not [p for p in problems if p.is_error], problems
    return quizzes


@pytest.mark.parametrize("format_name", ["moodle", "gift"])
def test_our_export_imports_back_to_one_quiz_with_its_sections(format_name):
    quiz = load_quiz(ROOT / "tests/data/sections.json").quiz
    [item] = _imported(export(quiz, format_name), format_name)
    back = item.quiz
    assert (back.title, back.category) == (quiz.title, quiz.category)
    # In the order the export shows them: the writers write each section where it stands.
    assert [q.id for q in back.questions] == [q.id for _, members in quiz.layout() for q in members]
    warm_up, pipeline = back.sections
    assert (warm_up.id, warm_up.title, warm_up.question_ids, warm_up.pick) == ("warm-up", "Warm-up", ("w1", "w2", "w3"), 2)
    assert warm_up.instructions.source == "Answer quickly: two of these are drawn for you."
    assert warm_up.instructions.format is TextFormat.PLAIN
    assert (pipeline.title, pipeline.question_ids, pipeline.pick, pipeline.shuffle, pipeline.instructions) == \
        ("Pipeline parallelism", ("p2", "p1"), None, True, None)
    # The questions after the sections are the quiz's own again.
    assert [s for s, _ in back.layout()] == [None, warm_up, pipeline, None]


def test_markdown_instructions_come_back_as_markdown_from_gift():
    import dataclasses

    from lmsexport.model import Text

    quiz = load_quiz(ROOT / "tests/data/sections.json").quiz
    first = dataclasses.replace(quiz.sections[0], instructions=Text("Answer *quickly*.", TextFormat.MARKDOWN))
    quiz = dataclasses.replace(quiz, sections=(first, *quiz.sections[1:]))
    data = export(quiz, "gift")
    assert b"// instructions (markdown): Answer *quickly*.\n" in data
    [item] = _imported(data, "gift")
    assert item.quiz.sections[0].instructions == Text("Answer *quickly*.", TextFormat.MARKDOWN)


FOREIGN_XML = b"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/Physics</text></category><info format="html"><text></text></info></question>
  <question type="truefalse"><name><text>t1</text></name><questiontext format="html"><text>Light is a wave.</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
  <question type="category"><category><text>$course$/top/Physics/Waves</text></category>
    <info format="html"><text>&lt;p class="section-instructions"&gt;Not ours: no draw paragraph.&lt;/p&gt;</text></info></question>
  <question type="truefalse"><name><text>t2</text></name><questiontext format="html"><text>Sound needs a medium.</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
</quiz>
"""

FOREIGN_GIFT = """$CATEGORY: $course$/top/Physics

::t1::Light is a wave.{T}

// a comment of the author's
$CATEGORY: $course$/top/Physics/Waves

::t2::Sound needs a medium.{T}
""".encode()


@pytest.mark.parametrize("format_name,data", [("moodle", FOREIGN_XML), ("gift", FOREIGN_GIFT)])
def test_other_nested_categories_stay_one_quiz_each(format_name, data):
    quizzes = _imported(data, format_name)
    assert [(q.quiz.title, q.quiz.category, [x.id for x in q.quiz.questions], q.quiz.sections) for q in quizzes] == [
        ("Physics", (), ["t1"], ()), ("Waves", ("Physics",), ["t2"], ())]


def test_a_category_met_again_continues_its_quiz():
    data = FOREIGN_XML.replace(b"</quiz>", b"""  <question type="category"><category><text>$course$/top/Physics</text></category></question>
  <question type="truefalse"><name><text>t3</text></name><questiontext format="html"><text>Again.</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
</quiz>""")
    quizzes = _imported(data, "moodle")
    assert [[x.id for x in q.quiz.questions] for q in quizzes] == [["t1", "t3"], ["t2"]]

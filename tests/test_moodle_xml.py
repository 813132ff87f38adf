"""Moodle XML: every export is read back the way Moodle's importer reads it and compared with the content."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import CONTENT, DATA
from lxml import etree
from moodle_checks import HOSTILE, assert_same_quiz, hostile_quiz

from lmsexport.diagnostics import Severity
from lmsexport.loader import load_quiz
from lmsexport.model import Text, TextFormat
from lmsexport.readers.moodle_xml import read_moodle_xml
from lmsexport.writers import moodle_xml
from lmsexport.writers.moodle_grades import GRADES, exact_grade
from lmsexport.writers.shared import ExportOptions

QUIZZES = sorted(CONTENT.glob("*.json")) + [DATA / "every_type.json"]


def load(path: Path):
    return load_quiz(path).quiz


def export(quiz, **options):
    result = moodle_xml.render(quiz, ExportOptions(**options))
    assert not result.failed, [d.message for d in result.diagnostics if d.is_error]
    return result


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_every_quiz_reads_back_the_same(path):
    quiz = load(path)
    result = export(quiz)
    assert result.filename == f"{quiz.id}.xml"
    assert_same_quiz(read_moodle_xml(result.data), quiz, full=True)


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_a_hostile_string_in_every_field_survives(path):
    quiz = hostile_quiz(load(path))
    assert_same_quiz(read_moodle_xml(export(quiz).data), quiz, full=True)


def test_markdown_variant_survives():
    quiz = hostile_quiz(load(DATA / "every_type.json"))
    quiz = dataclasses.replace(quiz, questions=tuple(
        dataclasses.replace(q, stem=Text(HOSTILE, TextFormat.MARKDOWN)) for q in quiz.questions))
    assert_same_quiz(read_moodle_xml(export(quiz).data), quiz, full=True)


def test_structure_is_what_moodle_reads():
    quiz = load(DATA / "every_type.json")
    root = etree.fromstring(export(quiz).data)
    questions = root.findall("question")
    assert questions[0].get("type") == "category"
    assert questions[0].findtext("category/text") == (
        "$course$/top/Tests/Every type/Every type: {braces} ~tilde =equals #hash :colon \\backslash ]]> & "
        "<script>alert(1)<//script> 🚀"
    )
    types = [q.get("type") for q in questions[1:]]
    assert types == ["multichoice", "multichoice", "truefalse", "shortanswer", "numerical", "numerical", "matching", "essay", "description"]
    single, multi = questions[1], questions[2]
    assert single.findtext("single") == "true" and multi.findtext("single") == "false"
    assert multi.findtext("shuffleanswers") == "false"
    assert [a.get("fraction") for a in multi.findall("answer")] == ["50", "50", "-50", "-50"]
    assert single.findtext("idnumber") == "single" and single.findtext("defaultgrade") == "2"
    # The range [0.25, 0.5] is the value 0.375 with tolerance 0.125.
    assert questions[6].findtext("answer/text") == "0.375" and questions[6].findtext("answer/tolerance") == "0.125"
    # A distractor is a subquestion with empty text.
    assert questions[7].findall("subquestion")[-1].findtext("text") == ""
    for element in root.iter("answer"):
        if element.get("fraction") is not None:
            assert element.get("fraction") in GRADES


def test_same_content_same_bytes():
    quiz = load(DATA / "every_type.json")
    assert export(quiz).data == export(load(DATA / "every_type.json")).data


def test_drafts_only_gives_no_file_and_a_note():
    quiz = load(DATA / "every_type.json")
    drafts = dataclasses.replace(quiz, questions=tuple(dataclasses.replace(q, draft=True) for q in quiz.questions))
    result = moodle_xml.render(drafts, ExportOptions())
    assert result.data is None and not result.failed
    assert [d.severity for d in result.diagnostics] == [Severity.NOTE]


def _with_credit(credit: float):
    quiz = load(DATA / "every_type.json")
    single = quiz.questions[0]
    choices = (single.choices[0], dataclasses.replace(single.choices[2], credit=credit)) + single.choices[3:]
    return dataclasses.replace(quiz, questions=(dataclasses.replace(single, choices=choices),))


def test_thirds_map_onto_moodles_list():
    assert exact_grade(1 / 3) == "33.33333" and exact_grade(-2 / 3) == "-66.66667" and exact_grade(1 / 7) == "14.28571"
    root = etree.fromstring(export(_with_credit(1 / 3)).data)
    assert root.findall("question/answer")[1].get("fraction") == "33.33333"


def test_a_credit_off_the_list_is_an_error():
    result = moodle_xml.render(_with_credit(0.33), ExportOptions())
    assert result.data is None and result.failed
    assert any(d.code == "moodle-grade" and "33.33333" in d.message for d in result.diagnostics)


def test_nearest_grade_is_an_explicit_warning():
    result = moodle_xml.render(_with_credit(0.33), ExportOptions(nearest_grade=True))
    assert not result.failed
    assert any(d.severity is Severity.WARNING and d.code == "moodle-grade" for d in result.diagnostics)
    assert etree.fromstring(result.data).findall("question/answer")[1].get("fraction") == "33.33333"
    strict = moodle_xml.render(_with_credit(0.33), ExportOptions(nearest_grade=True, strict=True))
    assert strict.failed and strict.data is None


def test_strict_turns_losses_into_errors():
    quiz = load(DATA / "every_type.json")  # a pinned option and an option in French
    assert not moodle_xml.render(quiz, ExportOptions()).failed
    assert moodle_xml.render(quiz, ExportOptions(strict=True)).failed


def test_a_character_xml_cannot_hold_is_an_error():
    quiz = load(DATA / "every_type.json")
    bad = dataclasses.replace(quiz.questions[2], stem=Text("bell \x07"))
    result = moodle_xml.render(dataclasses.replace(quiz, questions=(bad,)), ExportOptions())
    assert result.failed and result.data is None


def test_moodles_own_invalid_grade_fixture_is_refused(shared_dir):
    # Moodle's fixture holds fraction="33": Moodle rejects it, and so does our grade list.
    read = read_moodle_xml((shared_dir / "fixtures/moodle_xml/moodle_error_invalid_grades.xml").read_bytes())
    credits = [c.credit for c in read.questions[0].choices]
    assert [exact_grade(c) for c in credits] == ["-50", None, "33.33333", "-50", "33.33333"]


def test_media_files_ride_inside_their_text():
    import base64

    from lmsexport.model import MediaFile

    quiz = load(DATA / "every_type.json")
    png = b"\x89PNG\r\n\x1a\n fake"
    stem = Text("See ![ring](<media/ring one.png>).", TextFormat.MARKDOWN)
    question = dataclasses.replace(quiz.questions[2], stem=stem)
    # The loader keeps each path as Markdown gives it: percent-encoded.
    quiz = dataclasses.replace(quiz, questions=(question,), media=(MediaFile("media/ring%20one.png", png, "image/png"),))
    text = etree.fromstring(export(quiz).data).find("question[@type='truefalse']/questiontext")
    assert 'src="@@PLUGINFILE@@/media/ring%20one.png"' in text.findtext("text")
    file = text.find("file")
    assert (file.get("name"), file.get("path"), file.get("encoding")) == ("ring one.png", "/media/", "base64")
    assert base64.b64decode(file.text) == png

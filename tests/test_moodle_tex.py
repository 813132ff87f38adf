"""What Moodle's MathJax filter would typeset in the Moodle XML and GIFT exports.

The filter marks a field for MathJax when its stored HTML holds \\( \\[ or $$, and MathJax then
typesets the whole field (tests/importers/test_moodle_math.py runs Moodle's own filter). A text
with no formula is written so that nothing in it can be typeset; a Markdown text with a formula
and a literal delimiter beside it cannot be, and validate and both writers say so, once.
"""

from __future__ import annotations

import json

import pytest

from lmsexport.formats import FORMATS
from lmsexport.loader import load_quiz
from lmsexport.pipeline import process_quiz
from lmsexport.writers.moodle import gift, moodle_xml
from lmsexport.writers.shared import ExportOptions

QUIZ = {"id": "tex", "title": "TeX", "language": "en", "text_format": "markdown", "questions": [
    {"id": "both", "type": "true_false", "stem": "A formula $x^2$ and a literal \\\\(y\\\\)", "answer": True,
     "explanation": "A formula $x$ and `\\(code\\)`, which MathJax skips"},
    {"id": "pick", "type": "single_choice", "stem": "Pick", "options": [
        {"id": "a", "text": "$a$ and \\$\\$b\\$\\$", "correct": True}, {"id": "b", "text": "&#92;(b&#92;) and $c$"},
        {"id": "c", "text": "No formula, a literal \\\\(d\\\\)"}, {"id": "d", "text": {"text": "Plain \\(e\\)", "format": "plain"}},
        # A lone delimiter opens nothing MathJax would typeset.
        {"id": "e", "text": "$e$ costs \\$\\$ and \\\\("}]},
]}
LOSS = "lost-literal-tex"


def _path(tmp_path):
    path = tmp_path / "tex.json"
    path.write_text(json.dumps(QUIZ), encoding="utf-8")
    return path


def test_a_literal_delimiter_beside_a_formula_is_said_once_for_both_moodle_formats(tmp_path):
    outcome = process_quiz(_path(tmp_path), tuple(FORMATS), ExportOptions(), render=False)
    said = [(d.pointer, d.formats) for d in outcome.diagnostics if d.code == LOSS]
    assert said == [("/questions/0/stem", ("moodle", "gift")), ("/questions/1/options/0/text", ("moodle", "gift")),
                    ("/questions/1/options/1/text", ("moodle", "gift"))]
    assert all(d.line is not None and d.loss for d in outcome.diagnostics if d.code == LOSS)


def test_the_writers_say_it_where_the_check_does_and_write_the_rest_as_text(tmp_path):
    quiz = load_quiz(_path(tmp_path)).quiz
    for writer in (moodle_xml, gift):
        export = writer.render(quiz, ExportOptions())
        assert [d.pointer for d in export.diagnostics if d.code == LOSS] == [
            "/questions/0/stem", "/questions/1/options/0/text", "/questions/1/options/1/text"]
        data = export.data.decode().replace("&\\#", "&#")  # GIFT escapes '#'
        assert "No formula, a literal &#92;(d&#92;)" in data  # nothing for the filter to see
        assert "A formula \\(x^2\\) and a literal \\(y\\)" in data.replace("\\\\", "\\")  # left as it is: it is said


def test_a_gift_missing_word_ending_with_its_blank_keeps_a_literal_delimiter_from_mathjax(tmp_path):
    # Such a text goes as block HTML of the text alone, which must be written as any plain text's HTML.
    path = tmp_path / "blank.json"
    path.write_text(json.dumps({"id": "b", "title": "B", "language": "en", "questions": [
        {"id": "c", "type": "fill_in_blanks", "stem": "Type \\(x\\) here: [[b]]",
         "blanks": [{"id": "b", "type": "short_answer", "answers": [{"text": "y"}]}]}]}), encoding="utf-8")
    data = gift.render(load_quiz(path).quiz, ExportOptions()).data.decode()
    assert "[html]<p>Type &\\#92;(x&\\#92;) here\\: {" in data, data


# The category's info is one field: a Markdown description with a formula has the filter mark it,
# and MathJax then typesets the description's literal delimiter and the level's or learning path's
# too, character references included (Moodle XML only: GIFT keeps these in comment lines).
CATEGORY = {"id": "info", "title": "Info", "language": "en", "level": "Level \\(1\\)", "learning_path": "Path",
            "description": {"text": "A formula $x$ and \\\\(y\\\\)", "format": "markdown"},
            "questions": [{"id": "q", "type": "true_false", "stem": "True?", "answer": True}]}


def test_a_literal_delimiter_in_a_category_info_with_a_formula_is_said(tmp_path):
    path = tmp_path / "info.json"
    path.write_text(json.dumps(CATEGORY), encoding="utf-8")
    outcome = process_quiz(path, tuple(FORMATS), ExportOptions(), render=False)
    assert sorted((d.pointer, d.formats) for d in outcome.diagnostics if d.code == LOSS) == [("/description", ("moodle",)), ("/level", ("moodle",))]
    written = moodle_xml.render(load_quiz(path).quiz, ExportOptions())
    assert sorted(d.pointer for d in written.diagnostics if d.code == LOSS) == ["/description", "/level"]
    # Without a formula in the description nothing in the info is typeset: nothing to say.
    path.write_text(json.dumps({**CATEGORY, "description": {"text": "No formula, a literal \\\\(y\\\\)", "format": "markdown"}}), encoding="utf-8")
    assert not [d for d in process_quiz(path, tuple(FORMATS), ExportOptions(), render=False).diagnostics if d.code == LOSS]


def test_four_dollars_beside_a_formula_are_said_for_both_moodle_formats(tmp_path):
    # Markdown makes no formula of `$$$$` (nothing stands between the pairs), so the HTML holds the
    # four dollars as written; the field's formula has the filter mark it, and MathJax takes them
    # for an empty display formula: they do not show.
    path = tmp_path / "dollars.json"
    path.write_text(json.dumps({"id": "d", "title": "D", "language": "en", "text_format": "markdown", "questions": [
        {"id": "q", "type": "true_false", "stem": "A formula $x$ and $$$$ as written", "answer": True},
        {"id": "r", "type": "true_false", "stem": "No formula: $$$$ shows", "answer": True}]}), encoding="utf-8")
    outcome = process_quiz(path, tuple(FORMATS), ExportOptions(), render=False)
    assert [(d.pointer, d.formats) for d in outcome.diagnostics if d.code == LOSS] == [("/questions/0/stem", ("moodle", "gift"))]


# A Markdown text with a formula, and whether MathJax would typeset something of it that is no formula.
FIELDS = [
    ("A formula $x$ and a literal \\\\(x\\\\), the same TeX", True),
    ("A literal \\\\(x\\\\) before the formula $x$", True),
    ("Twice the formula $x$ and $x$, nothing else", False),
    ("A display formula $$x^2$$ beside `code`", False),
    ("A display formula $$x^2$$ and its literal \\\\[x^2\\\\]", True),
    ("A formula \\(x\\) with no dollar and a literal \\\\(y\\\\)", True),
    ("A formula \\(x\\) with no dollar beside `code`", False),
]


@pytest.mark.parametrize("stem, said", FIELDS)
def test_a_literal_beside_the_same_formula_is_said_and_a_formula_alone_is_not(tmp_path, stem, said):
    path = tmp_path / "field.json"
    path.write_text(json.dumps({"id": "f", "title": "F", "language": "en", "text_format": "markdown", "questions": [
        {"id": "q", "type": "true_false", "stem": stem, "answer": True}]}), encoding="utf-8")
    outcome = process_quiz(path, tuple(FORMATS), ExportOptions(), render=False)
    assert [d.pointer for d in outcome.diagnostics if d.code == LOSS] == (["/questions/0/stem"] if said else [])

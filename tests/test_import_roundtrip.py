"""export -> import -> export gives the same bytes, for every format: what a format cannot carry
is dropped by the first export and stays dropped. Canvas carries no content ids (it names items
by hashes of them), so its packages are compared with those identifiers numbered in order."""

from __future__ import annotations

import json
import re
import os
import tempfile
from pathlib import Path

import pytest
from conftest import DATA
from hypothesis import HealthCheck, assume, given, settings
from import_support import WRITERS, difference, round_trip
from strategies import quiz as quizzes

from lmsexport.loader import load_quiz
from lmsexport.model import Text, TextFormat
from lmsexport.writers.shared import ExportOptions

ROOT = Path(__file__).resolve().parent.parent
# Every quiz of content/ and of tests/data (the all-types quiz, hostile strings, the new types,
# sections, media and math...). GIFT holds neither ordering nor a text of several blanks: its
# writer refuses these quizzes. Canvas holds an ordering as a matching of its items to the
# places 1..N; read back as matching, it must come out of the Canvas writer as the ordering did.
QUIZZES = [*sorted((ROOT / "content").glob("*.json")), *sorted((ROOT / "tests/data").glob("*.json")), ROOT / "tests/data/media/media_and_math.json"]
GIFT_REFUSES = {"blanks", "ordering"}
FORMATS = ["moodle", "gift", "qti", "canvas"]

# A fixed seed in CI, so that the suite is reproducible; the thorough profile explores freely.
settings.register_profile("import-ci", max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
settings.register_profile("import-thorough", max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("format_name", FORMATS)
@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_content_survives_export_import_export(path, format_name):
    quiz = load_quiz(path).quiz
    if format_name == "gift" and path.stem in GIFT_REFUSES:
        refused = WRITERS["gift"].render(quiz, ExportOptions())
        assert refused.data is None and any(d.code == "gift-unwritable" for d in refused.diagnostics)
        return
    first, second, _ = round_trip(quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# Cases the generated quizzes found: a carriage return in a plain text (CDATA in Moodle XML, where
# a standard XML parser would make it a line feed), a range whose middle is written in exponent
# form, a Markdown paragraph of only a no-break space (rendered as an empty <p>), an essay's and a
# true/false question's penalty of Moodle's usual default (their own defaults are 0 and 1), a
# title and an essay's response template ending in a no-break space, one ending in a tab, and a carriage return in a
# section's instructions (GIFT keeps them in comment lines, from which Moodle drops it).
EDGES = {"id": "edges", "title": "Edges\u00a0", "language": "en", "sections": [
    {"id": "s", "title": "S", "questions": ["cr", "tiny"], "instructions": "~ \r\n ~\r~"}], "questions": [
    {"id": "cr", "type": "single_choice", "stem": "Pick one", "options": [
        {"id": "a", "text": "~", "correct": True}, {"id": "b", "text": "~ \r\n ~"}]},
    {"id": "tiny", "type": "numerical", "stem": "How small?", "answers": [{"min": 0, "max": 1e-7}]},
    {"id": "empty", "type": "single_choice", "stem": "Pick one", "options": [
        {"id": "a", "text": "~", "correct": True}, {"id": "b", "text": {"text": "~\n\n\u00a0", "format": "markdown"}}]},
    {"id": "essay", "type": "essay", "stem": "Why?", "penalty": 0.3333333, "response_template": "x\u00a0"},
    {"id": "essay-tab", "type": "essay", "stem": "Why?", "response_template": "x\t"},
    {"id": "truth", "type": "true_false", "stem": "True?", "answer": True, "penalty": 0.3333333},
    {"id": "blank", "type": "fill_in_blanks", "stem": "As small as [[n]] here", "blanks": [
        {"id": "n", "type": "numerical", "answers": [{"min": 0, "max": 1e-7}]}]}]}


@pytest.mark.parametrize("format_name", ["moodle", "gift"])
def test_edge_cases_found_by_the_generators_survive(format_name, tmp_path):
    path = tmp_path / "edges.json"
    path.write_text(json.dumps(EDGES), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, _ = round_trip(loaded.quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# A range whose exact middle has 17 significant digits that are not the shortest spelling of the
# double nearest it (0.55808111258101756 is the double 0.5580811125810176): the writers give Moodle
# that double's shortest spelling, which is what Moodle grades with and what a second export writes.
@pytest.mark.parametrize("format_name", ["moodle", "gift"])
def test_a_range_whose_middle_has_17_digits_survives(format_name):
    from lmsexport.model import NumericAnswer, Numerical, Quiz, Text

    answer = NumericAnswer(minimum=0.13436424411240122, maximum=0.9817979810496339)
    question = Numerical(id="n", stem=Text("Where?"), answers=(answer,))
    first, second, _ = round_trip(Quiz(id="mid", title="Mid", language="en", questions=(question,)), format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


def _numbers(*answers):
    from lmsexport.model import NumericAnswer, Text

    return tuple(NumericAnswer(**{k: Text(v) if k == "feedback" else v for k, v in a.items()}) for a in answers)


# QTI: answers repeating a value or a range have a feedback rule each on the same condition; each
# must come back to its own answer, also when an earlier one has no feedback or the answers are
# not in the order written (best first).
@pytest.mark.parametrize("answers", [
    _numbers({"value": 1, "feedback": "A"}, {"value": 1, "credit": 0.5, "feedback": "B"}, {"value": 2, "credit": 0.5, "feedback": "C"}),
    _numbers({"value": 1}, {"value": 1, "credit": 0.5, "feedback": "B"}),
    _numbers({"minimum": 1, "maximum": 2, "feedback": "A"}, {"minimum": 1, "maximum": 2, "credit": 0.5},
             {"minimum": 1, "maximum": 2, "credit": 0.5, "feedback": "C"}),
    # Written best first, named after their place in the content: read back to that place.
    _numbers({"minimum": 0, "maximum": 0}, {"minimum": 0, "maximum": 0, "credit": 0.25},
             {"minimum": 0, "maximum": 0, "credit": 0.5, "feedback": "C"}),
], ids=["value", "value-first-without-feedback", "range", "not-best-first"])
def test_numerical_answers_repeating_a_condition_keep_their_feedback_through_qti(answers):
    from lmsexport.model import Numerical, Quiz, Text

    question = Numerical(id="n", stem=Text("How many?"), answers=answers)
    first, second, _ = round_trip(Quiz(id="same", title="Same", language="en", questions=(question,)), "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")


# Found by the thorough profile: the correct feedback of a numerical question of one answer is
# shown on that answer's test, so its rule repeats the scoring one for one: the reader took it for
# the answer's own feedback, and the second export had both.
@pytest.mark.parametrize("answer", [{"minimum": 0.0, "maximum": 0.0}, {"value": 2.0}, {"value": 2.0, "feedback": "Own"}])
def test_the_correct_feedback_of_a_numerical_question_of_one_answer_stays_the_questions(answer):
    from lmsexport.model import Feedback, Numerical, Quiz, Text

    question = Numerical(id="n", stem=Text("How many?"), answers=_numbers(answer), feedback=Feedback(correct=Text("Right")))
    first, second, _ = round_trip(Quiz(id="one", title="One", language="en", questions=(question,)), "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")


# Found by the thorough profile: a QTI blank worth 0 points beside others has rules that all add
# 0; the reader took it for a blank worth its share and read every credit as 0, a blank with no
# right answer, so the imported quiz did not load. It is a blank worth nothing, and said so.
def test_a_qti_numerical_blank_worth_nothing_beside_others_is_read_and_said():
    from lmsexport.model import FillInBlanks, NumericalBlank, Quiz, Text

    blanks = (NumericalBlank(id="a", answers=_numbers({"value": 1}), points=1.0), NumericalBlank(id="b", answers=_numbers({"value": 2}, {"value": 3, "credit": 0.5}), points=0.0))
    question = FillInBlanks(id="c", stem=Text("A [[a]] b [[b]]"), blanks=blanks, points=1.0)
    first, second, said = round_trip(Quiz(id="zero", title="Zero", language="en", questions=(question,)), "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")
    assert any("the blank 'b' (it is worth nothing, so its rules score 0)" in d.message for d in said)



# Found by the thorough profile too: a question worth 0 points with one blank has rules that all
# add 0, and the reader took the blank for one worth a point, so every credit read 0 and the
# imported quiz did not load. Its credits are not in the package: read as full credit, and said.
@pytest.mark.parametrize("blank", [
    {"id": "b", "type": "numerical", "answers": [{"min": 0.0, "max": 0.0}]},
    {"id": "b", "type": "short_answer", "answers": [{"text": "x"}]},
], ids=["numerical", "short_answer"])
def test_a_qti_question_of_one_blank_worth_nothing_is_read_and_said(blank, tmp_path):
    path = tmp_path / "zero.json"
    path.write_text(json.dumps({"id": "zero", "title": "Zero", "language": "en", "questions": [
        {"id": "c", "type": "fill_in_blanks", "points": 0, "stem": "A [[b]] c", "blanks": [blank]}]}), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, said = round_trip(loaded.quiz, "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")
    assert any("the blank 'b' (it is worth nothing, so its rules score 0)" in d.message for d in said)

def _load(data: dict):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quiz.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        result = load_quiz(path)
    assume(result.ok)
    return result.quiz


def _strings(value, plain: bool = True):
    """Every string of a generated quiz's JSON, with whether it is read as plain text: a
    {"text", "format"} object says so itself, the rest follow the nearest `text_format`."""
    if isinstance(value, str):
        yield value, plain
    elif isinstance(value, dict):
        if set(value) == {"text", "format"}:
            yield value["text"], value["format"] == "plain"
            return
        inner = plain if "text_format" not in value else value["text_format"] != "markdown"
        for item in value.values():
            yield from _strings(item, inner)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, plain)


_MATH_DELIMITER = re.compile(r"\\[(\[]")


def _plain_text_with_math_delimiters(data: dict, quiz) -> bool:
    """Canvas: it typesets \\( \\) and \\[ \\] wherever its HTML shows them, so a plain text holding
    them literally shows a formula (the writer says so: canvas-math) and comes back as Markdown
    with math, which the second export may write otherwise (a display formula as a block of its
    own); test_a_plain_text_holding_tex_delimiters_is_said_to_show_as_a_formula checks the warning."""
    return any(plain and _MATH_DELIMITER.search(text) for text, plain in _strings(data))


def _draw_of_a_cloze_moodle_scores_otherwise(data: dict, quiz) -> bool:
    """Moodle XML: a section drawing questions, one of them a cloze question that Moodle gives
    the sum of its blanks' whole weights instead of its points (the writer's moodle-cloze-points
    loss): imported, the questions drawn are not worth the same, which a draw must be, so the
    import keeps the section without its draw (and says so)."""
    from lmsexport.model import FillInBlanks
    from lmsexport.writers.moodle.moodle_xml.cloze import weights

    drawn = {qid for s in quiz.sections if s.pick is not None for qid in s.question_ids}
    return any(isinstance(q, FillInBlanks) and q.id in drawn and sum(weights(q.blank_points)) != q.points for q in quiz.questions)


# Moodle's MathJax filter typesets a field whose HTML holds \\( \\[ or $$: the Moodle XML and GIFT
# writers give a literal one of a text with no formula as character references, which Moodle
# shows as written (tests/importers/test_moodle_math.py), and the readers read them as text.
# Found by the thorough profile: plain texts in a language of their own, or in GIFT beside '->',
# went to Moodle as HTML that showed a formula. The quiz (tests/data/literal_tex.json) is the one
# whose texts tests/importers/test_moodle_math.py has Moodle show.


@pytest.mark.parametrize("format_name", ["moodle", "gift"])
def test_literal_tex_delimiters_survive_through_moodle(format_name):
    loaded = load_quiz(DATA / "literal_tex.json")
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, said = round_trip(loaded.quiz, format_name)
    assert "Écrivez &#92;(x&#92;), &#92;[y&#92;] ou &#36;&#36;z&#36;&#36;".encode() in first.replace(b"&\\#", b"&#")
    assert not difference(first, second, format_name), difference(first, second, format_name)
    assert not [d.message for d in said if d.code == "import-loss"], said


def test_a_backslash_reference_is_text_where_moodle_typesets_nothing_and_a_formula_where_it_does():
    from lmsexport.importers import import_data

    def stem(html: str):
        data = (f'<?xml version="1.0"?><quiz><question type="description"><name><text>d</text></name>'
                f'<questiontext format="html"><text><![CDATA[{html}]]></text></questiontext></question></quiz>').encode()
        (item,), _ = import_data(data, "quiz.xml", "moodle")
        return item.quiz.questions[0].stem

    literal = stem("<p>&#92;(x&#x5C;) costs &#36;&#36;5</p>")
    assert (literal.format, literal.source) == (TextFormat.MARKDOWN, "\\\\(x\\\\) costs \\$\\$5")  # text, not a formula
    # A field with a formula is typeset whole: MathJax finds "\\(" however it was written.
    formula = stem("<p>\\(y\\) and &#92;(x&#92;)</p>")
    assert (formula.format, formula.source) == (TextFormat.MARKDOWN, "\\(y\\) and \\(x\\)")


def test_a_literal_double_dollar_beside_a_formula_is_read_as_moodle_shows_it():
    from lmsexport.importers import import_data
    from lmsexport.model import Quiz, TrueFalse
    from lmsexport.writers.moodle import moodle_xml

    stem = Text("A formula $z$ and \\$\\$w\\$\\$", TextFormat.MARKDOWN)
    quiz = Quiz(id="both", title="Both", language="en", questions=(TrueFalse(id="t", stem=stem, answer=True),))
    export = moodle_xml.render(quiz, ExportOptions())
    assert [d.code for d in export.diagnostics if d.code == "lost-literal-tex"] == ["lost-literal-tex"]
    assert b"\\(z\\) and $$w$$" in export.data  # what Moodle typesets whole
    (item,), _ = import_data(export.data, "quiz.xml", "moodle")
    assert item.quiz.questions[0].stem == Text("A formula \\(z\\) and \\[w\\]", TextFormat.MARKDOWN)


def _foreign_stems(data: bytes, name: str, fmt: str):
    from lmsexport.importers import import_data

    (item,), said = import_data(data, name, fmt)
    assert not [d.message for d in said if d.code == "import-loss"], said
    return [(q.stem.format, q.stem.source) for q in item.quiz.questions]


# Moodle's MathJax filter marks a field holding $$ as it does one holding \( or \[, and MathJax
# typesets $$...$$ as a display formula (filter/mathjaxloader, MathJax's default delimiters): a
# foreign text holding one is read as the formula it shows, as \[...\] is; in code or pre, which
# MathJax skips, and as character references in a field the filter does not mark, it is text.
DOLLAR_FORMULAS = [
    ("<p>Solve $$x^2$$ now</p>", "Solve \\[x^2\\] now"),
    ("<p>$$a$$ beside <code>$$b$$</code></p>", "\\[a\\] beside `$$b$$`"),
    ("<pre>$$b$$</pre>\n<p>$$a$$</p>", "```\n$$b$$\n```\n\n\\[a\\]"),
    ("<p>&#36;&#36;x&#36;&#36;</p>", "\\$\\$x\\$\\$"),
    ("<p>\\(y\\) and &#36;&#36;x&#36;&#36;</p>", "\\(y\\) and \\[x\\]"),  # marked: MathJax reads the page's dollars
]


@pytest.mark.parametrize(("html", "markdown"), DOLLAR_FORMULAS, ids=range(len(DOLLAR_FORMULAS)))
def test_a_foreign_moodle_xml_text_with_double_dollars_is_read_as_the_display_formula_it_shows(html, markdown):
    data = (f'<?xml version="1.0"?><quiz><question type="description"><name><text>d</text></name>'
            f'<questiontext format="html"><text><![CDATA[{html}]]></text></questiontext></question></quiz>').encode()
    assert _foreign_stems(data, "quiz.xml", "moodle") == [(TextFormat.MARKDOWN, markdown)]


def test_a_foreign_gift_text_with_double_dollars_is_read_as_the_display_formula_it_shows():
    data = "::q:: Solve $$x^2$$ now {T}\n\n::r:: [html]Keep &#36;&#36;x&#36;&#36; {T}\n".encode()
    assert _foreign_stems(data, "quiz.gift", "gift") == [(TextFormat.MARKDOWN, "Solve \\[x^2\\] now"),
                                                         (TextFormat.MARKDOWN, "Keep \\$\\$x\\$\\$")]


# Found by the thorough profile: a matching answer (or distractor) ending in a no-break space,
# which Canvas keeps (it strips ASCII white space only, as Ruby does) and the Canvas reader cut;
# a drop-down option ending in one, which Moodle keeps too.
_WORTHLESS = {"text": "z\u00a0", "credit": 0, "feedback": "Not this"}
NO_BREAK_ANSWERS = {"id": "no-break", "title": "No-break", "language": "en", "questions": [
    {"id": "m", "type": "matching", "stem": "Match", "pairs": [{"id": "a", "prompt": "A", "answer": "x\u00a0"},
                                                              {"id": "b", "prompt": "B", "answer": "\u00a0y"}],
     "distractors": [{"id": "d", "text": "z\u00a0"}]},
    # And a drop-down's options and a typed blank's answers: Moodle's cloze parser trims nothing,
    # Canvas strips ASCII white space only; the Moodle and Canvas readers took the space away.
    {"id": "c", "type": "fill_in_blanks", "stem": "Pick [[b]]", "blanks": [
        {"id": "b", "type": "dropdown", "options": [{"id": "x", "text": "x\u00a0", "correct": True}, {"id": "y", "text": "\u00a0y"},
                                                    {"id": "z", "text": "z \u00a0"}]}]},
    {"id": "t", "type": "fill_in_blanks", "stem": "Type [[b]]", "blanks": [
        {"id": "b", "type": "short_answer", "answers": [{"text": "x\u00a0"}, {"text": "\u00a0y"}, _WORTHLESS]}]},
    # QTI: an answer worth nothing is in the rules alone, for its feedback; the QTI reader read a
    # blank's without its no-break space, and a short answer question's not at all.
    {"id": "s", "type": "short_answer", "stem": "Type", "answers": [{"text": "x"}, _WORTHLESS, {"text": "\u00a0y", "feedback": "g"}]}]}


@pytest.mark.parametrize("format_name", FORMATS)
def test_answers_and_options_ending_in_a_no_break_space_survive(format_name, tmp_path):
    path = tmp_path / "no-break.json"
    path.write_text(json.dumps(NO_BREAK_ANSWERS), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, _ = round_trip(loaded.quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


def _literal_double_dollars_beside_a_formula(data: dict, quiz) -> bool:
    """Moodle XML and GIFT: a Markdown text with a formula and a literal $$ beside it, which
    Moodle's MathJax typesets with the formula (the writers' lost-literal-tex): imported, a
    $$...$$ is the display formula it shows, which the second export writes as \\[...\\];
    test_a_literal_double_dollar_beside_a_formula_is_read_as_moodle_shows_it checks the reading."""
    from lmsexport.writers.moodle.common import html_of, typesets_literal_tex

    for text, plain in _strings(data):
        markdown = Text(text, TextFormat.MARKDOWN)
        if not plain and typesets_literal_tex(markdown) and "$$" in html_of(markdown, False):
            return True
    return False


# Generated quizzes a format is known not to give back byte for byte, each with a test of its own:
# (the formats, what such a quiz holds, from its JSON or its model). The platform shows them
# otherwise than written (the first export says so), the import reads what it shows, and from the
# second export on the round trip holds byte for byte: the change happens once and stays.
_LEFT_OUT = [
    ({"canvas"}, _plain_text_with_math_delimiters),
    ({"moodle"}, _draw_of_a_cloze_moodle_scores_otherwise),
    ({"moodle", "gift"}, _literal_double_dollars_beside_a_formula),
]


def _second_and_third(quiz, format_name: str) -> tuple[bytes, bytes | None]:
    """The export of what the first export imports to, and the export of what that one imports to."""
    from import_support import export, import_back

    first = export(quiz, format_name)
    with tempfile.TemporaryDirectory() as folder:
        ((_, again),) = import_back(first, format_name, Path(folder), quiz.media if format_name == "gift" else ())
    second, third, _ = round_trip(again, format_name)
    return second, third


# One quiz of each kind _LEFT_OUT names, written out: its first export is shown otherwise than
# written and says so; the second export survives byte for byte.
SHOWN_OTHERWISE = {
    "canvas": {"id": "tex", "title": "TeX", "language": "en", "questions": [
        {"id": "t", "type": "true_false", "stem": "A\\[y\\]b\n\nc", "answer": True}]},
    "moodle": {"id": "draw", "title": "Draw", "language": "en", "questions": [
        {"id": "c", "type": "fill_in_blanks", "points": 3, "stem": "A [[a]] and [[b]]",
         "blanks": [{"id": "a", "type": "short_answer", "answers": [{"text": "x"}]},
                    {"id": "b", "type": "short_answer", "answers": [{"text": "y"}]}]},
        {"id": "t", "type": "true_false", "points": 3, "stem": "True?", "answer": True},
        {"id": "u", "type": "true_false", "points": 3, "stem": "Also true?", "answer": True}],
        "sections": [{"id": "s", "title": "S", "questions": ["c", "t", "u"], "pick": 2}]},
    "gift": {"id": "both", "title": "Both", "language": "en", "questions": [
        {"id": "t", "type": "true_false", "stem": {"text": "A formula $z$ and \\$\\$w\\$\\$", "format": "markdown"}, "answer": True}]},
}
SHOWN_OTHERWISE_SAID = {"canvas": "canvas-math", "moodle": "moodle-cloze-points", "gift": "lost-literal-tex"}


@pytest.mark.parametrize("format_name", sorted(SHOWN_OTHERWISE))
def test_what_a_platform_shows_otherwise_changes_once_and_stays(format_name, tmp_path):
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps(SHOWN_OTHERWISE[format_name]), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    quiz = loaded.quiz
    assert any(format_name in formats and holds(SHOWN_OTHERWISE[format_name], quiz) for formats, holds in _LEFT_OUT)
    first, second, _ = round_trip(quiz, format_name)
    assert difference(first, second, format_name)  # shown otherwise: the first round trip changes it
    writer = WRITERS[format_name]
    assert SHOWN_OTHERWISE_SAID[format_name] in {d.code for d in writer.render(quiz, ExportOptions()).diagnostics}
    assert not difference(*_second_and_third(quiz, format_name), format_name)


@pytest.mark.parametrize("format_name", FORMATS)
def test_generated_quizzes_survive_export_import_export(format_name):
    profile = "import-thorough" if os.environ.get("LMSEXPORT_HYPOTHESIS_PROFILE") == "thorough" else "import-ci"

    @settings(settings.get_profile(profile))
    @given(data=quizzes())
    def check(data):
        from import_support import export

        quiz = _load(data)
        shown_otherwise = any(format_name in formats and holds(data, quiz) for formats, holds in _LEFT_OUT)
        assume(export(quiz, format_name) is not None)  # a quiz a format refuses (GIFT and '->') has no export to import
        if shown_otherwise:
            assert not difference(*_second_and_third(quiz, format_name), format_name)
            return
        first, second, said = round_trip(quiz, format_name)
        # MathML back to LaTeX is not always exact (a formula of stray symbols); the import says so
        # where it happens, and such a quiz cannot come back byte for byte.
        assume(not any("MathML formula that LaTeX cannot say exactly" in d.message for d in said))
        # QTI: a question worth 0 points scores every answer 0, so its answers' credits are not in
        # the package; the import reads them as full credit and says so, and feedback that depends
        # on them (partially correct) then shows on other answers.
        assume(not any("worth nothing, so its rules score 0" in d.message for d in said))
        assert not difference(first, second, format_name), difference(first, second, format_name)

    check()


# A draft standing first in a section: the first export placed the section where the draft stood,
# which no export holds; what the import gives back places it at its first exported question.
DRAFT_FIRST = {"id": "draft-first", "title": "Draft first", "language": "en", "questions": [
    {"id": "d", "type": "true_false", "stem": "D?", "answer": True, "draft": True},
    {"id": "x", "type": "true_false", "stem": "X?", "answer": True},
    {"id": "y", "type": "true_false", "stem": "Y?", "answer": False}],
    "sections": [{"id": "s", "title": "S", "questions": ["d", "y"]}]}


@pytest.mark.parametrize("format_name", FORMATS)
def test_a_draft_first_in_a_section_survives(format_name, tmp_path):
    path = tmp_path / "draft-first.json"
    path.write_text(json.dumps(DRAFT_FIRST), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, _ = round_trip(loaded.quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)



# Found by the thorough profile: a section's Markdown instructions with a quote (rendered &quot;,
# which the QTI reader now keeps in a test's rubrics as in items), and tags that differ only by
# white space at their ends, which are one tag once trimmed (the model held it twice, and the
# import's quiz, listing it twice, did not load).
QUOTES_AND_TAGS = {"id": "quotes-tags", "title": "Quotes and tags", "language": "en", "text_format": "markdown", "tags": ["x", " x"],
                   "questions": [{"id": "q", "type": "true_false", "stem": 'A "quote"', "answer": True, "tags": ["~", "\t ~", "à"]},
                                 {"id": "r", "type": "true_false", "stem": "R", "answer": False}],
                   "sections": [{"id": "s", "title": "S", "questions": ["q"], "instructions": 'say "hi"'}]}


@pytest.mark.parametrize("format_name", FORMATS)
def test_quoted_instructions_and_tags_trimmed_alike_survive(format_name, tmp_path):
    path = tmp_path / "quotes-tags.json"
    path.write_text(json.dumps(QUOTES_AND_TAGS), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    assert loaded.quiz.tags == ("x",) and loaded.quiz.questions[0].tags == ("~", "à")
    first, second, _ = round_trip(loaded.quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# GIFT: Moodle turns placeholders (&&058; ...) in a question name into their characters, and
# reads a $CATEGORY line through its escapes alone (a doubled backslash is one; '&&092;' becomes
# a backslash): the writer writes a name, and '&&092;' in a category, as Moodle will read them (the
# losses are said), and doubles a category's backslashes, so the first export holds what an
# import gives back. tests/importers/test_moodle.py checks the names and paths Moodle stores.
GIFT_NAMES = ROOT / "tests/data/gift_names.json"


def test_gift_names_and_categories_with_placeholders_survive():
    loaded = load_quiz(GIFT_NAMES)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, _ = round_trip(loaded.quiz, "gift")
    assert not difference(first, second, "gift"), difference(first, second, "gift")
    said = {d.code for d in WRITERS["gift"].render(loaded.quiz, ExportOptions()).diagnostics}
    assert {"gift-name", "gift-category"} <= said

# A Markdown text with a backslash before a space at the end of a line: markdown-it renders the
# two together and keeps the space ('\\ \n'); the readers give back Markdown that renders so
# (a backslash before a space needs no escape), not one whose space Markdown trims.
@pytest.mark.parametrize("format_name", FORMATS)
@pytest.mark.parametrize("text", ["\\ \r\n ~", "a\\  \nb", "\\\\ \n~"], ids=["crlf", "two-spaces", "two-backslashes"])
def test_a_backslash_and_a_space_ending_a_markdown_line_survive(format_name, text):
    from lmsexport.model import Choice, Quiz, SingleChoice, Text, TextFormat

    choices = (Choice(id="a", text=Text("~"), correct=True, credit=1.0), Choice(id="b", text=Text(text, TextFormat.MARKDOWN), correct=False, credit=0.0))
    question = SingleChoice(id="c", stem=Text("Pick one"), choices=choices)
    first, second, _ = round_trip(Quiz(id="bs", title="Bs", language="en", questions=(question,)), format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# GIFT cannot say that case counts, and Moodle's GIFT import stores every answer but grades a
# response by the first that matches without case: of answers differing only in case, the writer
# writes the one of best credit (a student typing it exactly gets what the content says) and says,
# at each other, that it is left out; `validate` says so too. A short answer and a lone blank alike.
CASE_TWINS = ROOT / "tests/data/case_twins.json"


def test_gift_writes_one_of_answers_differing_only_in_case():
    from lmsexport.api import validate

    loaded = load_quiz(CASE_TWINS)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    done = WRITERS["gift"].render(loaded.quiz, ExportOptions())
    text = done.data.decode("utf-8")
    assert "Which?{\n\t=%100%A#[plain]upper\n\t=%100%B\n}" in text and "Type {\n\t=%100%A\n} here" in text, text
    left_out = {(d.pointer, d.line) for d in validate(CASE_TWINS, formats=["gift"]) if d.code == "lost-case" and "left out" in d.message}
    assert {pointer for pointer, _ in left_out} == {"/questions/0/answers/0/text", "/questions/1/blanks/0/answers/1/text"}, left_out
    assert all(line for _, line in left_out), left_out
    assert {d.pointer for d in done.diagnostics if d.code == "lost-case" and "left out" in d.message} == {p for p, _ in left_out}
    first, second, _ = round_trip(loaded.quiz, "gift")
    assert not difference(first, second, "gift"), difference(first, second, "gift")


# A Markdown paragraph of only a no-break space renders as an empty <p></p> (markdown-it trims
# it), which shows nothing but stays in the text: the QTI reader keeps an empty paragraph of the
# text (it drops only the blocks that removing the interactions empties) and writes it <p></p>.
@pytest.mark.parametrize("format_name", ["qti", "canvas"])
def test_a_no_break_space_paragraph_survives_qti_and_canvas(format_name):
    from lmsexport.model import Quiz, Text, TextFormat, TrueFalse

    question = TrueFalse(id="q", stem=Text("a\n\n\xa0\n\nb", TextFormat.MARKDOWN), answer=True)
    first, second, _ = round_trip(Quiz(id="nbsp", title="Nbsp", language="en", questions=(question,)), format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# TeX delimiters in a plain text, or escaped in Markdown, beside a formula: QTI's formulas are
# MathML, so the QTI reader reads a backslash of the text as text and only MathML as a formula;
# Moodle XML and GIFT give Moodle a plain text as plain text, which no filter typesets. Canvas
# typesets them (its writer says so, canvas-math), so its import reads a formula.
@pytest.mark.parametrize("format_name", ["qti", "moodle", "gift"])
@pytest.mark.parametrize("text", [Text("see \\(a+b\\) and \\[c\\]"), Text("a \\(x^2\\) beside \\\\(a\\\\) and \\\\[b\\\\]", TextFormat.MARKDOWN)],
                         ids=["plain", "markdown"])
def test_literal_math_delimiters_survive(format_name, text):
    from lmsexport.model import Quiz, TrueFalse

    question = TrueFalse(id="q", stem=text, answer=True, true_feedback=text)
    first, second, _ = round_trip(Quiz(id="tex", title="Tex", language="en", questions=(question,)), format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# Canvas holds value ± tolerance as the exact answer and two bounds; the writer gives the bounds as
# exact decimals, from which the reader takes the tolerance back in decimal: a tolerance of many
# digits, a small one, and one below the spacing of doubles at its value all come back.
@pytest.mark.parametrize("value,tolerance", [(1.7976931348623157e308, 0.5), (1, 1e-09), (0.1, 0.12345678901234568), (-3.3, 1234.5678)])
def test_tolerances_survive_canvas(value, tolerance):
    from lmsexport.model import NumericAnswer, Numerical, Quiz, Text

    question = Numerical(id="n", stem=Text("How big?"), answers=(NumericAnswer(value=value, tolerance=tolerance),))
    first, second, _ = round_trip(Quiz(id="big", title="Big", language="en", questions=(question,)), "canvas")
    assert not difference(first, second, "canvas"), difference(first, second, "canvas")


# QTI fill in the blanks: blanks standing in the text in another order than the content lists them
# (the item declares them in the content's order and numbers their feedback so), and a blank worth
# nothing (its rules score 0, so the right option's credit is read as full).
_DROPDOWN = [{"id": "r", "text": "}", "correct": True}, {"id": "o1", "text": "}}", "feedback": "not this"}]
BLANKS_EDGES = {"id": "blank-edges", "title": "Blank edges", "language": "en", "questions": [
    {"id": "order", "type": "fill_in_blanks", "stem": " [[ [[b1]] \u00a0[[ [[b0]] ", "blanks": [
        {"id": "b0", "type": "dropdown", "points": 0.75, "options": _DROPDOWN},
        {"id": "b1", "type": "short_answer", "points": 0.25, "answers": [{"text": "x", "feedback": "yes"}]}]},
    {"id": "worthless", "type": "fill_in_blanks", "stem": "[[b0]] and [[b1]]", "blanks": [
        {"id": "b0", "type": "dropdown", "points": 1, "options": _DROPDOWN},
        {"id": "b1", "type": "dropdown", "points": 0, "options": _DROPDOWN}]}]}


@pytest.mark.parametrize("format_name", ["qti", "canvas"])
def test_blanks_out_of_order_or_worth_nothing_survive(format_name, tmp_path):
    path = tmp_path / "blanks.json"
    path.write_text(json.dumps(BLANKS_EDGES), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, _ = round_trip(loaded.quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# Found by the thorough profile: a blank beside brackets of the text ('[[' then the blank is
# '[[[b]' in Canvas): Canvas's importer takes the string '[b]' wherever it stands, and so does
# the reader, which took it only away from other brackets and put the blank at the text's end.
_BRACKETED = {"[[[[b]]": ("b",), "[[b]]]] and [[[c]]]": ("b", "c"), "x [ [[b]] ] [[c]]": ("b", "c")}


# GIFT holds one blank per question: it writes the one-blank text only.
@pytest.mark.parametrize("stem,format_name", [(s, f) for s in _BRACKETED for f in FORMATS if f != "gift" or len(_BRACKETED[s]) == 1])
def test_blanks_beside_brackets_survive(stem, format_name):
    from lmsexport.api import load

    blanks = [{"id": name, "type": "short_answer", "answers": [{"text": "}}"}]} for name in _BRACKETED[stem]]
    loaded = load({"id": "brackets", "title": "Brackets", "language": "en", "questions": [
        {"id": "q", "type": "fill_in_blanks", "stem": stem, "blanks": blanks}]})
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, _ = round_trip(loaded.quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


# Found by the thorough profile: a formula alone in an option or an ordering item is the whole
# text, which the QTI reader made a span keeping the <math>'s attributes (a loss said for
# nothing); and a blank named with the longest content id, which the Canvas reader cut shorter.
def test_a_formula_alone_in_an_option_and_the_longest_blank_name_survive():
    from lmsexport.api import load

    name = "b" * 64
    loaded = load({"id": "alone", "title": "Alone", "language": "en", "text_format": "markdown", "questions": [
        {"id": "o", "type": "ordering", "stem": "Order", "items": [{"id": "a", "text": "$x^2$"}, {"id": "b", "text": "b"}]},
        {"id": "c", "type": "single_choice", "stem": "Pick", "options": [{"id": "a", "text": "$y$", "correct": True}, {"id": "b", "text": "b"}]},
        {"id": "f", "type": "fill_in_blanks", "stem": f"Type [[{name}]]", "blanks": [{"id": name, "type": "short_answer", "answers": [{"text": "x"}]}]}]})
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    for format_name in FORMATS:
        if format_name == "gift":
            continue  # GIFT has no ordering question
        first, second, said = round_trip(loaded.quiz, format_name)
        assert not difference(first, second, format_name), (format_name, difference(first, second, format_name))
        assert not [d.message for d in said if d.code == "import-loss"], (format_name, said)

def test_the_left_out_cases_are_recognised_and_nothing_else():
    from lmsexport.model import NumericAnswer, Numerical, Quiz, Section, Text

    literal = {"text_format": "plain", "questions": [{"stem": "see \\(a+b\\)"}]}
    assert _plain_text_with_math_delimiters(literal, None)
    assert not _plain_text_with_math_delimiters({**literal, "text_format": "markdown"}, None)
    assert _plain_text_with_math_delimiters({"text_format": "markdown", "stem": {"text": "\\[x\\]", "format": "plain"}}, None)
    assert not _plain_text_with_math_delimiters({"stem": "$x$ costs $5"}, None)
    wide = Numerical(id="w", stem=Text("How big?"), answers=(NumericAnswer(value=1.0, tolerance=0.5),))
    from lmsexport.model import FillInBlanks, ShortAnswerBlank, AcceptedAnswer

    blanks = tuple(ShortAnswerBlank(id=b, answers=(AcceptedAnswer(text="x"),)) for b in ("b", "c"))
    cloze = FillInBlanks(id="f", stem=Text("[[b]] [[c]]"), blanks=blanks)  # 1 point, weights 1 and 1
    drawn = Quiz(id="q", title="Q", language="en", questions=(wide, cloze), sections=(Section(id="s", title="S", question_ids=("w", "f"), pick=1),))
    assert _draw_of_a_cloze_moodle_scores_otherwise({}, drawn)
    plain = Quiz(id="q", title="Q", language="en", questions=(wide, cloze), sections=(Section(id="s", title="S", question_ids=("w", "f")),))
    assert not any(holds({"stem": "plain"}, plain) for _, holds in _LEFT_OUT)


# Moodle shows a category's info with format_text, its filters included (the question bank's
# category list), so the quiz's description, level and learning path and a section's
# instructions, plain text in the info's HTML, get a literal \( \[ or $$ as character references
# (shown as written) and are read back exactly.
CATEGORY_TEX = {"id": "category-tex", "title": "Category TeX", "language": "en",
                "description": "Write \\(x\\) or $$y$$ \\", "level": "\\[1\\]", "learning_path": "$$ and \\(",
                "sections": [{"id": "s", "title": "S", "questions": ["q"], "instructions": "Type \\(a\\)\nthen $$b$$"}],
                "questions": [{"id": "q", "type": "true_false", "stem": "True?", "answer": True}]}


@pytest.mark.parametrize("level", [True, False], ids=["with-level", "description-alone"])
def test_category_info_holding_literal_tex_is_shown_as_written_and_read_back(level, tmp_path):
    from lxml import etree

    from lmsexport.importers import import_data

    data = dict(CATEGORY_TEX) if level else {k: v for k, v in CATEGORY_TEX.items() if k not in ("level", "learning_path")}
    path = tmp_path / "category-tex.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = load_quiz(path)
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    first, second, _ = round_trip(loaded.quiz, "moodle")
    infos = etree.fromstring(first).xpath("//question[@type='category']/info/text/text()")
    assert len(infos) == 2 and all("&#92;" in info for info in infos), infos
    assert not [info for info in infos if re.search(r"\\[(\[]|\$\$", info)], infos  # nothing the filter would mark
    assert not difference(first, second, "moodle"), difference(first, second, "moodle")
    (item,), _ = import_data(first, "quiz.xml", "moodle")
    read = item.quiz
    assert (read.description, read.level, read.learning_path) == (loaded.quiz.description, loaded.quiz.level, loaded.quiz.learning_path)
    assert read.sections[0].instructions == loaded.quiz.sections[0].instructions

"""Canvas's own QTI import classes (../shared/harness/canvas) on every Canvas and QTI 2.1 export.

What Canvas built (type, points, right answers, each feedback, texts, images, languages) is
compared with the content. Expected texts are the visible text of the content, derived here: a
plain text is its own visible text, Markdown goes through markdown-it-py directly. Nothing is
taken from the writers' rendering. A Canvas field holds HTML (`*_html`, `html`, the question
text) or plain text that Canvas shows as it is: a plain text holding `&amp;` is what students read.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest
from lxml import html as lxml_html
from markdown_it import MarkdownIt

from lmsexport.loader import load_quiz
from lmsexport.model import (
    Description,
    DropdownBlank,
    FillInBlanks,
    Matching,
    NumericalBlank,
    Ordering,
    MultipleResponse,
    Numerical,
    ShortAnswer,
    SingleChoice,
    Text,
    TextFormat,
    TrueFalse,
)
from lmsexport.writers import canvas, qti
from lmsexport.writers.qti import platform_losses
from lmsexport.writers.shared import ExportOptions

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"
DATA = ROOT / "tests" / "data"
# The harness folder and the skip where Ruby or its libraries are missing: conftest's canvas_harness.


@dataclass
class Imported:
    summary: dict  # the harness's summary: types, warnings, quizzes with the points of each reference
    questions: list[dict]  # the question hashes Canvas built, in package order
    path_map: dict[str, str]  # package path -> attachment migration id
    files: dict[str, bytes]  # the package
    quizzes: list[dict]  # the quiz hashes Canvas built


def canvas_import(harness: Path, data: bytes, folder: Path) -> Imported:
    """Runs Canvas's importer classes on a package (the QTI 1.2 of the Canvas target goes through
    Canvas's QTIMigrationTool first, as in Canvas)."""
    folder.mkdir(parents=True, exist_ok=True)
    package, full = folder / "package.zip", folder / "full.json"
    package.write_bytes(data)
    env = {**os.environ, "QTI_PYTHON": sys.executable, "CANVAS_FULL_JSON": str(full)}
    run = subprocess.run(
        ["bash", str(harness / "canvas-qti-import.sh"), str(harness / "canvas-src"), str(package)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert run.returncode in (0, 3), run.stdout + run.stderr
    built = json.loads(full.read_text())
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    return Imported(json.loads(run.stdout), [q["question"] for q in built["questions"]], built["path_map"], files, built["quizzes"])


# ---------------------------------------------------------------- visible text, derived here

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def _collapse(text: str) -> str:
    return " ".join(text.split())


_BLOCKS = ("p", "div", "li", "tr", "td", "th", "pre", "blockquote", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6")


def visible_html(markup: str) -> str:
    """What a browser shows of an HTML fragment, white space collapsed, a line break as a space.
    A formula in MathML counts as [math] (the harness's stand-in sanitiser strips MathML that real
    Canvas keeps); the fallback text of a player is not text."""
    if not markup.strip():
        return ""
    root = lxml_html.fragment_fromstring(markup, create_parent="div")
    for br in root.iter("br"):
        br.tail = " " + (br.tail or "")
    for block in root.iter(*_BLOCKS):  # a block starts a line of its own
        block.tail = " " + (block.tail or "")
    for element in list(root.iter("math", "{http://www.w3.org/1998/Math/MathML}math", "audio", "video", "object")):
        tail = ("[math]" if "math" in element.tag else "") + (element.tail or "")
        parent, previous = element.getparent(), element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
        parent.remove(element)
    return _collapse(root.text_content())


# Formulas in Markdown, as the README defines them; a dollar next to a digit or a space is text.
_FORMULA = re.compile(
    r"\$\$(?P<d1>.+?)\$\$|\\\[(?P<d2>.+?)\\\]|\\\((?P<i1>.+?)\\\)|(?<![\\$\w])\$(?!\s)(?P<i2>.+?)(?<!\s)\$(?!\d)", re.S
)


def visible(text: Text | None, target: str = "canvas") -> str:
    """The visible text of content. Formulas reach Canvas as \\(...\\) and \\[...\\] from the Canvas
    target, as MathML ([math], see visible_html) from QTI."""
    if text is None:
        return ""
    if text.format is TextFormat.PLAIN:
        return _collapse(text.source)
    formulas: list[str] = []

    def hold(match: re.Match) -> str:
        display = match["d1"] or match["d2"]
        latex = (display or match["i1"] or match["i2"]).strip()
        formulas.append("[math]" if target == "qti" else (f"\\[{latex}\\]" if display else f"\\({latex}\\)"))
        return f"FORMULA{len(formulas) - 1}X"

    shown_text = visible_html(_MARKDOWN.render(_FORMULA.sub(hold, text.source)))
    return re.sub(r"FORMULA(\d+)X", lambda m: formulas[int(m[1])], shown_text)


def shown(record: dict, field: str, html_field: str | None = None) -> str:
    """What Canvas shows of a field: its HTML twin when there is one, else the plain text as it is."""
    markup = record.get(html_field or f"{field}_html")
    if markup:
        return visible_html(markup)
    return _collapse(record.get(field) or "")


# ---------------------------------------------------------------- the quizzes

# Hostile strings: escaped characters next to each other and separated by single spaces, a
# literal `]]>`, text that looks like markup and like entities.
AMP = "Is < > or & & right? ]]> &amp; &lt;b&gt;"
TAGS = "<b> <i> & </i> ]]>"
HOSTILE = {
    "$schema": "../schema/quiz.schema.json",
    "id": "hostile-canvas",
    "title": "Hostile & <strings> ]]>",
    "language": "en",
    "text_format": "plain",
    "questions": [
        {"id": "single", "type": "single_choice", "stem": AMP, "explanation": "General: " + AMP,
         "feedback": {"correct": "Right " + TAGS, "incorrect": "Wrong " + AMP},
         "options": [
             {"id": "a", "text": "a & b < c", "correct": True, "feedback": "Option " + AMP},
             {"id": "b", "text": TAGS, "feedback": "Two\n\nparagraphs & " + TAGS},
             {"id": "c", "text": "Réponse & fin", "language": "fr", "feedback": "En & français"},
         ]},
        {"id": "multi", "type": "multiple_response", "stem": {"text": "**ring** *attention* & <x> ]]>", "format": "markdown"},
         "feedback": {"correct": {"text": "*all* & <y>", "format": "markdown"}, "incorrect": "none & < >"},
         "explanation": {"text": "first & <p>\n\nsecond ]]>", "format": "markdown"},
         "options": [
             {"id": "a", "text": "x & y", "correct": True, "feedback": {"text": "one & <a>", "format": "markdown"}},
             {"id": "b", "text": "<x> & <y>", "correct": True},
             {"id": "c", "text": "& &", "feedback": "no & no"},
         ]},
        {"id": "tf", "type": "true_false", "stem": "True & false < ]]>", "answer": False,
         "true_feedback": "T & < ]]>", "false_feedback": "F &amp; &lt;", "explanation": "TF & general"},
        {"id": "short", "type": "short_answer", "stem": "Type & < ]]>",
         "answers": [{"text": "a & b", "feedback": "Good & < ]]>"}, {"text": "<tag>", "feedback": "Also & good"}]},
        {"id": "range", "type": "numerical", "stem": "Between 0.1 & 0.3", "points": 2,
         "answers": [{"min": 0.1, "max": 0.3, "feedback": "In & range"}]},
        {"id": "exact", "type": "numerical", "stem": "Twelve < thirteen",
         "answers": [{"value": 12, "tolerance": 0.5, "feedback": "Twelve & so"}]},
        {"id": "match", "type": "matching", "stem": "Match & < ]]>",
         "pairs": [{"id": "p1", "prompt": "left & < ]]>", "answer": "right & one"},
                   {"id": "p2", "prompt": {"text": "*em* & <q>", "format": "markdown"}, "answer": "right two"}],
         "distractors": [{"id": "d1", "text": "none & nothing"}]},
        {"id": "essay", "type": "essay", "stem": "Explain & <why> ]]>", "points": 3, "explanation": "Essay & general"},
        {"id": "intro", "type": "description", "stem": "Read & <this> ]]>"},
        {"id": "order", "type": "ordering", "stem": "Order & < ]]>",
         "items": [{"id": "i1", "text": "first & < ]]>"}, {"id": "i2", "text": "second & &"}, {"id": "i3", "text": "third"}]},
        {"id": "blanks", "type": "fill_in_blanks", "stem": "Type [[w]] & pick [[d]] < ]]>",
         "blanks": [{"id": "w", "type": "short_answer", "answers": [{"text": "a & b"}]},
                    {"id": "d", "type": "dropdown", "options": [{"id": "x", "text": "x & y", "correct": True}, {"id": "z", "text": "z < w"}]}]},
        {"id": "drops", "type": "fill_in_blanks", "stem": "Pick [[d]] & go",
         "blanks": [{"id": "d", "type": "dropdown", "options": [{"id": "x", "text": "x & y", "correct": True}, {"id": "z", "text": "z < w"}]}]},
    ],
}
# The visible strings of some hostile texts, written out: the derivation above must agree.
LITERAL = {
    AMP: "Is < > or & & right? ]]> &amp; &lt;b&gt;",
    "Two\n\nparagraphs & " + TAGS: "Two paragraphs & <b> <i> & </i> ]]>",
}


@pytest.fixture(scope="module")
def hostile_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "hostile-canvas.json"
    path.write_text(json.dumps(HOSTILE, ensure_ascii=False), encoding="utf-8")
    return path


QUIZZES = [
    *sorted(CONTENT.glob("*.json")),
    *(DATA / name for name in ("every_type.json", "hostile_strings.json", "media/media_and_math.json", "ordering.json",
                               "blanks.json", "sections.json", "sections_with_drafts.json")),
    "hostile",
]


def _quiz_path(name, hostile_path: Path) -> Path:
    return hostile_path if name == "hostile" else name


WRITERS = {"canvas": canvas.render, "qti": qti.render}


@pytest.fixture(scope="module", params=[(t, q) for t in WRITERS for q in QUIZZES], ids=lambda p: f"{p[0]}-{getattr(p[1], 'stem', p[1])}")
def imported(request, hostile_path, tmp_path_factory, canvas_harness):
    target, name = request.param
    quiz = load_quiz(_quiz_path(name, hostile_path)).quiz
    export = WRITERS[target](quiz, ExportOptions())
    assert export.data is not None, export.diagnostics
    result = canvas_import(canvas_harness, export.data, tmp_path_factory.mktemp(target))
    assert len(result.questions) == len(quiz.exported_questions), result.summary["warnings"]
    return target, _InOrder(quiz, target), result


class _InOrder:
    """The quiz, its exported questions in the order of the package: the Canvas target writes
    them as shown (sections together), the QTI manifest lists them in content order."""

    def __init__(self, quiz, target: str):
        self._quiz = quiz
        self.exported_questions = (
            tuple(q for _, members in quiz.layout() for q in members) if target == "canvas" else quiz.exported_questions
        )
        self.shown = tuple(q for _, members in quiz.layout() for q in members)

    def __getattr__(self, name):
        return getattr(self._quiz, name)


def _blank_shown(target: str, question: FillInBlanks, blank_id: str) -> str:
    """A typed blank shows as [name]; from QTI, a drop-down among typed blanks shows its options'
    texts run together (the loss table's dropdown_among_typed)."""
    blank = next(b for b in question.blanks if b.id == blank_id)
    if target == "qti" and isinstance(blank, DropdownBlank):
        return "".join(o.text for o in blank.options)
    return f"[RESPONSE_{blank_id}]" if target == "qti" else f"[{blank_id}]"


def _dropdowns_only(question) -> bool:
    return isinstance(question, FillInBlanks) and all(isinstance(b, DropdownBlank) for b in question.blanks)


def expected_type(target: str, question) -> str:
    if isinstance(question, FillInBlanks):
        if _dropdowns_only(question):  # Canvas guesses no type for inlineChoiceInteraction
            return "multiple_dropdowns_question" if target == "canvas" else "Error"
        return "fill_in_multiple_blanks_question"
    return (CANVAS_TYPES if target == "canvas" else QTI_TYPES)[question.type]


# What each content type becomes in Canvas, written out (not the writers' tables).
CANVAS_TYPES = {
    "single_choice": "multiple_choice_question", "multiple_response": "multiple_answers_question",
    "true_false": "true_false_question", "short_answer": "short_answer_question", "numerical": "numerical_question",
    "matching": "matching_question", "essay": "essay_question", "description": "text_only_question",
    "ordering": "matching_question",
}
QTI_TYPES = {**CANVAS_TYPES, "short_answer": "fill_in_multiple_blanks_question", "numerical": "fill_in_multiple_blanks_question"}


def test_no_import_problem(imported):
    target, quiz, result = imported
    warnings = result.summary["warnings"]
    broken = {q.id for q in quiz.exported_questions if expected_type(target, q) == "Error"}
    # What the loss table announces as an "Error" item; nothing else may fail.
    warnings = [w for w in warnings if w.split(":")[0] not in broken]
    assert result.summary["ok"] or broken, result.summary
    if target == "qti":
        # The harness counts feedback that landed nowhere: in QTI, only what the loss table says goes.
        may_drop = {q.id for q in quiz.exported_questions
                    if {"answer_feedback", "partially_correct_feedback"} & {l.feature for l in platform_losses.found_in(q, quiz)}}
        dropped = re.compile(r"^(.+): \d+ feedback element\(s\) dropped$")
        warnings = [w for w in warnings if not (dropped.match(w) and dropped.match(w).group(1) in may_drop)]
    if target == "qti":
        # A QTI option whose text is only markup ("<b> <i>") keeps Canvas's placeholder as its
        # plain-text twin (clear_html deletes it all); Canvas shows its HTML, read by test_right_answers.
        warnings = [w for w in warnings if not w.endswith(": 'No answer text provided.' placeholder used")]
    assert warnings == []


def test_types_and_points(imported):
    target, quiz, result = imported
    assert [q["question_type"] for q in result.questions] == [expected_type(target, q) for q in quiz.exported_questions]
    if target == "canvas":
        points = [float(q["points_possible"]) for q in result.questions]
    else:  # Canvas takes QTI points from the test's <weight>, not from the items, in the order shown
        (test,) = result.summary["quizzes"]
        points = test["ref_points"]
    assert points == [0.0 if isinstance(q, Description) else float(q.points) for q in quiz.shown]


def test_question_texts_exactly(imported):
    target, quiz, result = imported
    for question, built in zip(quiz.exported_questions, result.questions):
        if built["question_type"] == "Error":
            continue  # announced by the loss table; test_no_import_problem
        text = visible_html(built["question_text"])
        if target == "qti" and isinstance(question, (ShortAnswer, Numerical)):
            # The blank, shown where the textEntryInteraction stood.
            assert text.endswith(" [RESPONSE]"), text
            text = text.removesuffix(" [RESPONSE]")
        stem = question.stem
        if isinstance(question, FillInBlanks):  # each blank shows as Canvas's [name]
            stem = Text(re.sub(r"\[\[([^\]]+)\]\]", lambda m: _blank_shown(target, question, m[1]), stem.source), stem.format)
        assert text == visible(stem, target), question.id  # images: test_images_are_course_files


def _answers_by_text(built: dict) -> dict[str, dict]:
    return {shown(a, "text", "html"): a for a in built["answers"]}


def test_right_answers(imported):
    target, quiz, result = imported

    def visible(text):
        return visible_text(text, target)

    for question, built in zip(quiz.exported_questions, result.questions):
        answers = built.get("answers", [])
        right = sorted(shown(a, "text", "html") for a in answers if a.get("weight", 0) > 0)
        if isinstance(question, (SingleChoice, MultipleResponse)):
            assert right == sorted(visible(c.text) for c in question.choices if c.correct), question.id
            assert sorted(shown(a, "text", "html") for a in answers) == sorted(visible(c.text) for c in question.choices)
        elif isinstance(question, TrueFalse):
            assert [a["text"] for a in answers] == ["True", "False"]
            assert right == ["True" if question.answer else "False"]
        elif isinstance(question, ShortAnswer):
            full = [a.text for a in question.answers if a.credit >= 1]
            if target == "canvas":
                assert sorted(a["text"] for a in answers) == sorted(full)
            else:  # Canvas reads only the correct response of a QTI blank
                best = max(question.answers, key=lambda a: a.credit)
                assert [(a["blank_id"], a["text"]) for a in answers] == [("RESPONSE", best.text)]
        elif isinstance(question, Numerical):
            _check_numbers(target, question, answers)
        elif isinstance(question, Ordering):
            pairs = sorted((shown(a, "left") or a["text"], _collapse(a["right"])) for a in answers)
            places = [(visible(item.text), str(place)) for place, item in enumerate(question.items, 1)]
            # Canvas's matching from QTI pairs each place with its item, as plain text through its
            # clear_html (the loss table's ordering row); ours, each item with its place.
            expected = places if target == "canvas" else [(p, _clear_html(t)) for t, p in places]
            assert pairs == sorted(expected), question.id
        elif isinstance(question, FillInBlanks) and built["question_type"] != "Error":
            _check_blanks(target, question, answers)
        elif isinstance(question, Matching):
            pairs = sorted((shown(a, "left"), a["right"]) for a in answers)
            assert pairs == sorted((visible(p.prompt), p.answer) for p in question.pairs)
            offered = sorted(m["text"] for m in built["matches"])
            assert offered == sorted({p.answer for p in question.pairs} | {d.text for d in question.distractors})


def _clear_html(text: str) -> str:
    """Canvas's clear_html (html_helper.rb), which order_interaction.rb applies to each item: it
    deletes whatever lies between a < and the next >, and entity-like text such as &amp;."""
    text = re.sub(r"</?[^>\n]*>", "", text)
    text = re.sub(r"&#\d+;", lambda m: chr(int(m[0][2:-1])), text)
    return _collapse(re.sub(r"&\w+;", "", text))


def _check_blanks(target: str, question: FillInBlanks, answers: list[dict]) -> None:
    """Per blank, the answers Canvas accepts: every full-credit one from the Canvas target, only
    the correct response (the best answer, a range's midpoint) from QTI."""
    numeric = {b.id for b in question.blanks if isinstance(b, NumericalBlank)}

    def norm(blank_id, text):
        return (blank_id, repr(float(text)) if blank_id in numeric else text)

    seen = sorted(norm(a["blank_id"].removeprefix("RESPONSE_"), a["text"]) for a in answers if a.get("weight", 0) > 0)
    expected = []
    for blank in question.blanks:
        if isinstance(blank, DropdownBlank):
            # From QTI, a drop-down among typed blanks accepts its right option's identifier (the
            # loss table's dropdown_among_typed); the test quizzes' option ids are their texts.
            expected += [(blank.id, o.text if target == "canvas" else o.id) for o in blank.options if o.correct]
            continue
        accepted = [a for a in blank.answers if a.credit >= 1] if target == "canvas" else [max(blank.answers, key=lambda a: a.credit)]
        for answer in accepted:
            if isinstance(blank, NumericalBlank):
                value = answer.value if not answer.is_range else (answer.minimum + answer.maximum) / 2
                expected.append(norm(blank.id, value))
            else:
                expected.append((blank.id, answer.text))
    assert seen == sorted(expected), question.id


visible_text = None  # set below: `visible` under a name the tests' local helpers can reach


def _check_numbers(target: str, question: Numerical, answers: list[dict]) -> None:
    full = [a for a in question.answers if a.credit >= 1]
    if target == "canvas":
        read = []
        for a in answers:
            if a["numerical_answer_type"] == "range_answer":
                read.append(("range", a["start"], a["end"]))
            else:
                read.append(("exact", a["exact"], a["margin"]))
        assert read == [("range", a.minimum, a.maximum) if a.is_range else ("exact", a.value, a.tolerance) for a in full]
        return
    (answer,) = answers
    best = max(question.answers, key=lambda a: a.credit)
    given = answer["text"]
    if best.is_range:
        # Inside the range, its middle, and no float noise in the digits.
        assert best.minimum <= float(given) <= best.maximum
        assert float(given) == pytest.approx((best.minimum + best.maximum) / 2)
        assert len(given) <= len(repr(best.minimum)) + len(repr(best.maximum))
    else:
        assert float(given) == best.value


visible_text = visible


def test_range_midpoint_is_written_exactly(tmp_path, hostile_path, canvas_harness):
    quiz = load_quiz(hostile_path).quiz
    built = canvas_import(canvas_harness, qti.render(quiz, ExportOptions()).data, tmp_path)
    index = [q.id for q in quiz.exported_questions].index("range")
    assert [a["text"] for a in built.questions[index]["answers"]] == ["0.2"]  # not 0.1, not 0.20000000000000001


def _outcome_feedback(question, target) -> dict[str, str]:
    given = question.feedback
    if isinstance(question, Description):
        return {"correct": "", "incorrect": "", "neutral": ""}
    return {kind: visible(text, target) for kind, text in (("correct", given.correct), ("incorrect", given.incorrect), ("neutral", given.general))}


def test_every_feedback_string_exactly(imported):
    target, quiz, result = imported

    def visible(text):
        return visible_text(text, target)

    for question, built in zip(quiz.exported_questions, result.questions):
        seen = {kind: shown(built, f"{kind}_comments") for kind in ("correct", "incorrect", "neutral")}
        assert seen == _outcome_feedback(question, target), question.id
        answers = built.get("answers", [])
        if isinstance(question, (SingleChoice, MultipleResponse)):
            by_text = _answers_by_text(built)
            for choice in question.choices:
                assert shown(by_text[visible(choice.text)], "comments") == visible(choice.feedback), (question.id, choice.id)
        elif isinstance(question, TrueFalse):
            feedback = {a["text"]: shown(a, "comments") for a in answers}
            assert feedback == {"True": visible(question.true_feedback), "False": visible(question.false_feedback)}
        elif isinstance(question, ShortAnswer) and target == "canvas":
            feedback = {a["text"]: shown(a, "comments") for a in answers}
            assert feedback == {a.text: visible(a.feedback) for a in question.answers if a.credit >= 1}
        elif isinstance(question, Numerical) and target == "canvas":
            assert [shown(a, "comments") for a in answers] == [visible(a.feedback) for a in question.answers if a.credit >= 1]


def test_hostile_strings_read_as_written(tmp_path, hostile_path, canvas_harness):
    """The same check with the visible strings written out, for both targets."""
    quiz = load_quiz(hostile_path).quiz
    for source, expected in LITERAL.items():
        assert visible(Text(source)) == expected
    for target, render in WRITERS.items():
        built = canvas_import(canvas_harness, render(quiz, ExportOptions()).data, tmp_path / target).questions[0]
        assert visible_html(built["question_text"]) == LITERAL[AMP]
        assert shown(built, "neutral_comments") == "General: " + LITERAL[AMP]
        assert shown(built, "incorrect_comments") == "Wrong " + LITERAL[AMP]
        assert shown(built, "correct_comments") == "Right <b> <i> & </i> ]]>"
        comments = [shown(a, "comments") for a in built["answers"]]
        assert comments == ["Option " + LITERAL[AMP], LITERAL["Two\n\nparagraphs & " + TAGS], "En & français"], target
        if target == "canvas":
            # The plain-text twins Canvas keeps beside the HTML (its clear_html of it) read right too:
            # the Canvas target writes references as numbers, which clear_html decodes.
            assert [a["text"] for a in built["answers"]] == ["a & b < c", TAGS, "Réponse & fin"]
            assert built["correct_comments"] == "Right <b> <i> & </i> ]]>"
            assert [_collapse(a["comments"]) for a in built["answers"]][2] == "En & français"


def test_languages(imported):
    target, quiz, result = imported

    def visible(text):
        return visible_text(text, target)

    for question, built in zip(quiz.exported_questions, result.questions):
        root = lxml_html.fragment_fromstring(built["question_text"], create_parent="div")
        languages = [e.get("lang") for e in root.iter() if e.get("lang")]
        texts = {shown(a, "text", "html"): a.get("html", "") for a in built.get("answers", [])}
        if target == "canvas":
            assert languages[:1] == [quiz.language_of(question)], question.id
            for choice in getattr(question, "choices", ()):
                if choice.language and choice.language != quiz.language_of(question):
                    assert f'lang="{choice.language}"' in texts[visible(choice.text)]
        else:  # what the loss table says: Canvas keeps no language of a QTI item
            assert languages == [] and not any("lang=" in h for h in texts.values()), question.id


# Images only: the harness's stand-in sanitiser drops the address of <audio> and <object>.
_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.(?:png|jpe?g|gif|svg|webp))\)", re.I)


def test_images_are_course_files(imported):
    """Every image the content shows, in the stem, the feedback and the options, is a course file
    of the package holding the media's bytes."""
    target, quiz, result = imported
    if not quiz.media:
        return
    by_id = {migration: path for path, migration in result.path_map.items()}
    prefix = "$CANVAS_OBJECT_REFERENCE$/attachments/"
    kept = {("stem",), ("explanation",), ("feedback", "correct"), ("feedback", "incorrect")}
    for question, built in zip(quiz.exported_questions, result.questions):
        expected = [
            path
            for place, text in question.texts()
            if text is not None and (place in kept or place[0] == "options")
            for path in _IMAGE.findall(text.source)
        ]
        html = [built["question_text"], *(built.get(f"{k}_comments_html", "") for k in ("correct", "incorrect", "neutral"))]
        html += [a.get(key, "") for a in built.get("answers", []) for key in ("html", "comments_html")]
        sources = [unquote(img.get("src")) for h in html if h for img in lxml_html.fragment_fromstring(h, create_parent="div").iter("img")]
        assert len(sources) == len(expected), question.id
        for source in sources:
            assert source.startswith(prefix), source
            packaged = by_id[source.removeprefix(prefix)]
            assert result.files[packaged] == quiz.media_file(packaged.removeprefix("web_resources/")).data
        assert sorted(by_id[s.removeprefix(prefix)].removeprefix("web_resources/") for s in sources) == sorted(expected), question.id


# ---------------------------------------------------------------- the loss table, checked

def _loss_checks(imported: Imported):
    """One check per row of platform_losses: what Canvas built for a question that has the feature."""

    def answers(built):
        return built["answers"]

    (test,) = imported.summary["quizzes"]

    def blanks(b):
        return [a["blank_id"].removeprefix("RESPONSE_") for a in answers(b)]

    def dropdown_typed(q, b):
        dropdowns = [x for x in q.blanks if isinstance(x, DropdownBlank)]
        return b["question_type"] == "fill_in_multiple_blanks_question" and all(
            # The fixture's option ids are valid QTI identifiers, written as they are.
            [a["text"] for a in answers(b) if a["blank_id"] == f"RESPONSE_{x.id}"] == [o.id for o in x.options if o.correct]
            and "".join(o.text for o in x.options) in visible_html(b["question_text"])
            for x in dropdowns
        )

    return {
        ("short_answer", "type"): lambda q, b: b["question_type"] == "fill_in_multiple_blanks_question",
        ("numerical", "type"): lambda q, b: b["question_type"] == "fill_in_multiple_blanks_question",
        ("short_answer", "alternatives"): lambda q, b: len(answers(b)) == 1 < len(q.answers),
        # A blank's answer is its text alone: nothing says how to compare it.
        ("short_answer", "case_sensitive"): lambda q, b: all(set(a) <= {"id", "weight", "text", "blank_id"} for a in answers(b)),
        ("numerical", "tolerance"): lambda q, b: [float(a["text"]) for a in answers(b)] == [q.answers[0].value]
        and not any("margin" in a for a in answers(b)),
        ("numerical", "range"): lambda q, b: float(answers(b)[0]["text"]) not in (q.answers[0].minimum, q.answers[0].maximum),
        (None, "answer_feedback"): lambda q, b: not any(a.get("comments") for a in answers(b)),
        ("single_choice", "partial_credit"): lambda q, b: sorted(a["weight"] for a in answers(b)) == [0] * (len(answers(b)) - 1) + [100],
        ("multiple_response", "credits"): lambda q, b: {a["weight"] for a in answers(b)} <= {0, 100},
        (None, "partially_correct_feedback"): lambda q, b: visible(q.feedback.partially_correct) not in json.dumps(b, ensure_ascii=False),
        (None, "option_language"): lambda q, b: "lang=" not in json.dumps(answers(b)),
        (None, "question_language"): lambda q, b: "lang=" not in b["question_text"],
        ("essay", "grader_info"): lambda q, b: visible(q.grader_info) not in json.dumps(b, ensure_ascii=False),
        ("essay", "response_template"): lambda q, b: q.response_template not in json.dumps(b, ensure_ascii=False),
        # Canvas reads only a section's ordering, which the package does not set.
        (None, "shuffle"): lambda q, b: not test.get("shuffle_answers"),
        ("ordering", "type"): lambda q, b: b["question_type"] == "matching_question"
        and sorted(a["text"] for a in answers(b)) == [str(n) for n in range(1, len(q.items) + 1)],
        ("fill_in_blanks", "dropdowns_only"): lambda q, b: b["question_type"] == "Error",
        ("fill_in_blanks", "dropdown_among_typed"): dropdown_typed,
        ("fill_in_blanks", "alternatives"): lambda q, b: sorted(blanks(b)) == sorted(x.id for x in q.blanks),
    }


def _section_checks(imported: Imported):
    """The rows about sections: what Canvas built of the quiz for a section that has the feature."""
    (quiz,) = imported.quizzes
    entries = quiz["questions"]
    texts = [e.get("question_text") for e in entries if e["question_type"] == "text_only_question"]
    return {
        (None, "section_title"): lambda s: s.title in texts,
        (None, "section_instructions"): lambda s: visible(s.instructions) not in json.dumps(imported.quizzes, ensure_ascii=False),
        (None, "section_shuffle"): lambda s: quiz.get("shuffle_answers") is True,
    }


LOSSY = {
    "$schema": "../schema/quiz.schema.json",
    "id": "lossy", "title": "Lossy", "language": "en", "text_format": "plain",
    "questions": [
        {"id": "essay", "type": "essay", "stem": "Why?", "grader_info": "Look for idle stages", "response_template": "Because"},
        {"id": "partial", "type": "single_choice", "stem": "Pick",
         "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": 0.5}, {"id": "c", "text": "C"}]},
        {"id": "weights", "type": "multiple_response", "stem": "Pick two", "feedback": {"partially_correct": "Half there"},
         "options": [{"id": "a", "text": "A", "correct": True, "credit": 0.7}, {"id": "b", "text": "B", "correct": True, "credit": 0.3},
                     {"id": "c", "text": "C", "language": "fr"}]},
        {"id": "case", "type": "short_answer", "stem": "Name it", "case_sensitive": True,
         "answers": [{"text": "NCCL", "feedback": "Yes"}, {"text": "RCCL"}]},
        {"id": "tolerance", "type": "numerical", "stem": "About 3", "answers": [{"value": 3, "tolerance": 0.5, "feedback": "Near"}]},
        {"id": "range", "type": "numerical", "stem": "Between", "answers": [{"min": 1, "max": 2}]},
    ],
}


LOSSY_SECTIONS = {
    "$schema": "../schema/quiz.schema.json",
    "id": "lossy-sections", "title": "Lossy sections", "language": "en", "text_format": "plain",
    "questions": [
        {"id": "order", "type": "ordering", "stem": "In order", "items": [{"id": "a", "text": "First"}, {"id": "b", "text": "Second"}, {"id": "c", "text": "Third"}]},
        {"id": "mixed", "type": "fill_in_blanks", "stem": "Use [[lib]] for [[size]] messages.",
         "blanks": [{"id": "lib", "type": "short_answer", "answers": [{"text": "NCCL"}, {"text": "nccl"}]},
                    {"id": "size", "type": "dropdown", "options": [{"id": "l", "text": "large", "correct": True}, {"id": "s", "text": "small"}]}]},
        {"id": "drops", "type": "fill_in_blanks", "stem": "Pick [[one]].",
         "blanks": [{"id": "one", "type": "dropdown", "options": [{"id": "x", "text": "X", "correct": True}, {"id": "y", "text": "Y"}]}]},
    ],
    "sections": [{"id": "all", "title": "All of it", "instructions": "Read the stems twice", "shuffle": True, "questions": ["order", "mixed", "drops"]}],
}


def _import_fixture(harness: Path, data: dict, folder: Path):
    folder.mkdir(parents=True)
    path = folder / f"{data['id']}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    quiz = load_quiz(path).quiz
    export = qti.render(quiz, ExportOptions())
    return quiz, export, canvas_import(harness, export.data, folder / "import")


def test_every_row_of_the_loss_table_is_what_canvas_does(tmp_path, canvas_harness):
    rows = {(loss.question_type, loss.feature) for loss in platform_losses.LOSSES if loss.platform == "Canvas"}
    found, checked, messages = set(), set(), set()
    for data in (LOSSY, LOSSY_SECTIONS):
        quiz, export, built = _import_fixture(canvas_harness, data, tmp_path / data["id"])
        checks = _loss_checks(built)
        sections = _section_checks(built)
        checked |= set(checks) | set(sections)
        for question, hashed in zip(quiz.exported_questions, built.questions):
            for loss in platform_losses.found_in(question, quiz):
                assert checks[(loss.question_type, loss.feature)](question, hashed), (question.id, loss.feature)
                found.add((loss.question_type, loss.feature))
        for index, loss in platform_losses.found_in_sections(quiz):
            assert sections[(loss.question_type, loss.feature)](quiz.sections[index]), loss.feature
            found.add((loss.question_type, loss.feature))
        messages |= {(d.severity.value, d.pointer, d.message) for d in export.diagnostics if d.code == "qti-platform"}
    assert rows == checked, "every row needs a check against the importer, and every check a row"
    assert found == rows, "the fixtures must exercise every row"
    # Each row reaches the writer's diagnostics: warnings where scoring differs, at the question.
    assert ("warning", "/questions/5", "on import into Canvas: only the range's midpoint, written as correct response, "
            "is accepted; the range is dropped") in messages
    assert all(loss.effect in " ".join(m for _, _, m in messages) for loss in platform_losses.LOSSES)


def test_a_random_draw_of_a_qti_section_is_a_canvas_question_group(tmp_path, canvas_harness):
    quiz = load_quiz(DATA / "sections.json").quiz
    built = canvas_import(canvas_harness, qti.render(quiz, ExportOptions()).data, tmp_path)
    (test,) = built.quizzes
    groups = {g["title"]: g for g in test["questions"] if g["question_type"] == "question_group"}
    drawn = [s for s in quiz.sections if s.pick is not None]
    assert drawn and {s.title: s.pick for s in drawn} == {t: g["pick_count"] for t, g in groups.items()}
    exported = {q.id for q in quiz.exported_questions}
    for section in drawn:
        members = [r["migration_id"] for r in groups[section.title]["questions"]]
        assert members == [q for q in section.question_ids if q in exported]


@pytest.mark.parametrize("target", WRITERS)
def test_a_section_of_drafts_is_no_canvas_group_and_the_others_stay(target, tmp_path, canvas_harness):
    # The other questions are checked field by field by the tests above (sections_with_drafts.json
    # is one of their quizzes); here, the quiz's layout as Canvas built it, written out by hand:
    # "Drafted for later" (d1, d2) is no group, the warm-up draws 2 of its 3 questions (w4 is a
    # draft), the pipeline questions follow as the content orders them (QTI's sections each with
    # the text of their title, which Canvas makes of an assessmentSection).
    quiz = load_quiz(DATA / "sections_with_drafts.json").quiz
    built = canvas_import(canvas_harness, WRITERS[target](quiz, ExportOptions()).data, tmp_path)
    (test,) = built.quizzes
    names = {q["migration_id"]: q["question_name"] for q in built.questions}

    def layout(entry):
        if entry["question_type"] == "question_group":
            return (entry["title"], entry["pick_count"], [names[r["migration_id"]] for r in entry["questions"]])
        if entry["question_type"] == "text_only_question":  # Canvas shows a QTI section's title as a text
            return ("text", entry["question_text"])
        return names[entry["migration_id"]]

    warm_up = ("Warm-up", 2, ["w1", "w2", "w3"])
    expected = {"canvas": ["intro", warm_up, "p2", "p1", "outro"],
                "qti": ["intro", ("text", "Warm-up"), warm_up, ("text", "Pipeline parallelism"), "p2", "p1", "outro"]}
    assert [layout(e) for e in test["questions"]] == expected[target]


@pytest.mark.parametrize("target", WRITERS)
def test_a_section_whose_first_question_is_a_draft_stands_at_its_first_exported_question(target, tmp_path, canvas_harness):
    # The section's first question in the content's order is a draft, and a question outside the
    # section stands between it and the section's first exported question: the section follows
    # that question, where its questions are, not the draft's place.
    def true_false(qid, draft=False):
        return {"id": qid, "type": "true_false", "stem": f"Statement {qid}.", "answer": True, **({"draft": True} if draft else {})}

    source = tmp_path / "late.json"
    source.write_text(json.dumps({
        "id": "late-section", "title": "A section after a draft", "language": "en",
        "questions": [true_false("first"), true_false("early", draft=True), true_false("between"),
                      true_false("s1"), true_false("s2"), true_false("last")],
        "sections": [{"id": "part", "title": "Part", "questions": ["early", "s2", "s1"]}]}), encoding="utf-8")
    built = canvas_import(canvas_harness, WRITERS[target](load_quiz(source).quiz, ExportOptions()).data, tmp_path)
    (test,) = built.quizzes
    names = {q["migration_id"]: q["question_name"] for q in built.questions}
    shown = [("text", e["question_text"]) if e["question_type"] == "text_only_question" else names[e["migration_id"]]
             for e in test["questions"]]
    expected = {"canvas": ["first", "between", "s2", "s1", "last"],
                "qti": ["first", "between", ("text", "Part"), "s2", "s1", "last"]}
    assert shown == expected[target]


def test_a_no_break_space_at_an_end_of_an_answer_is_kept_by_canvas_and_read_back(tmp_path, canvas_harness):
    """Canvas strips an answer's white space as Ruby does, ASCII only: a no-break space at an end
    of a matching answer, a distractor, a drop-down option or a typed blank's answer is what
    Canvas stores, and what the import reads."""
    from lmsexport.api import load
    from lmsexport.importers import import_data

    loaded = load({"id": "m", "title": "M", "language": "en", "questions": [
        {"id": "m", "type": "matching", "stem": "Match", "pairs": [{"id": "a", "prompt": "A", "answer": "x\u00a0"},
                                                                  {"id": "b", "prompt": "B", "answer": "\u00a0y"}],
         "distractors": [{"id": "d", "text": "z\u00a0"}]},
        {"id": "c", "type": "fill_in_blanks", "stem": "Pick [[b]]", "blanks": [
            {"id": "b", "type": "dropdown", "options": [{"id": "x", "text": "x\u00a0", "correct": True}, {"id": "y", "text": "y"}]}]},
        {"id": "t", "type": "fill_in_blanks", "stem": "Type [[t]]", "blanks": [
            {"id": "t", "type": "short_answer", "answers": [{"text": "\u00a0t"}]}]}]})
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    data = canvas.render(loaded.quiz, ExportOptions()).data
    built, dropdown, typed = canvas_import(canvas_harness, data, tmp_path).questions
    assert [a["right"] for a in built["answers"]] == ["x\u00a0", "\u00a0y"]
    assert sorted(m["text"] for m in built["matches"]) == ["x\u00a0", "z\u00a0", "\u00a0y"]
    assert [(a["blank_id"], a["text"]) for a in dropdown["answers"] + typed["answers"] if a["weight"] == 100] == [("b", "x\u00a0"), ("t", "\u00a0t")]
    (item,), _ = import_data(data, "quiz.zip", "canvas")
    question, cloze, blank = item.quiz.questions
    assert [p.answer for p in question.pairs] == ["x\u00a0", "\u00a0y"] and [d.text for d in question.distractors] == ["z\u00a0"]
    assert [o.text for o in cloze.blanks[0].options] == ["x\u00a0", "y"] and [a.text for a in blank.blanks[0].answers] == ["\u00a0t"]

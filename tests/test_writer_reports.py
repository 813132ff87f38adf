"""What the writers and the format checks say goes through one reporter (writers/reporter.py):
each diagnostic names its format when it is made, stands at the exact value it is about, and is
settled once (placed, merged across formats, made an error under --strict) in pipeline.settle."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from conftest import CONTENT, DATA, ROOT

import lmsexport
from lmsexport.diagnostics import Severity
from lmsexport.formats import FORMATS
from lmsexport.loader import load_quiz
from lmsexport.pipeline import process_quiz, settle
from lmsexport.writers.shared import ExportOptions

PACKAGE = Path(lmsexport.__file__).parent
WRITERS = PACKAGE / "writers"
CORPUS = sorted([*DATA.rglob("*.json"), *CONTENT.glob("*.json"), *(ROOT / "examples").glob("*.json")])
OPTION_SETS = [ExportOptions(), ExportOptions(nearest_grade=True), ExportOptions(media_base_url="https://example.org/m/")]


def _said(path: Path, options: ExportOptions):
    """(format, diagnostic) for everything each format's check and writer say of a loadable quiz."""
    result = load_quiz(path)
    if not result.ok:
        return result, []
    found = []
    for name, fmt in FORMATS.items():
        found += [(name, d) for d in fmt.check(result.quiz, options)]
        found += [(name, d) for d in fmt.render(result.quiz, options).diagnostics]
    return result, found


# What a writer may say of a whole question, section or quiz rather than of one value in it, and why.
WHOLE = {
    "canvas-ordering": "Canvas has no ordering question: the question as a whole becomes another type",
    "gift-unwritable": "GIFT has no ordering question: the question as a whole cannot be written",
    "qti-platform": "what a platform's importer changes of a question or section as a whole",
    "canvas-section": "Canvas has no sections: the section's layout",
    "moodle-section": "a Moodle bank holds no quiz layout: the section's",
    "qti-section": "a section whose questions are all drafts, left out of the test as a whole",
    "canvas-metadata": "a note listing the quiz's fields Canvas has no place for",
    "moodle-metadata": "a note listing the quiz's fields Moodle does not keep",
    "nothing-to-export": "a quiz of drafts only",
    "gift-media-base-url": "an option, not the content",
}
_WHOLE_PLACE = re.compile(r"(/questions/\d+|/sections/\d+|)")


def test_every_writer_and_check_diagnostic_names_its_format_and_stands_at_a_written_value():
    """Nothing after a writer adds its format (the pipeline passes diagnostics on as they are),
    so a diagnostic built outside the reporter would have none and fail here. Each is placed in
    the file the way semantic checks are, and a diagnostic about a question stands at a value the
    author wrote (the credit, the tag, the answer), not at a parent found instead; only what is
    about a whole question, section or quiz (WHOLE) stands there."""
    said = 0
    wholes = set()
    for path in CORPUS:
        for options in OPTION_SETS:
            result, found = _said(path, options)
            for name, d in found:
                said += 1
                assert d.formats == (name,), (path, d)
                assert d.file == str(path)
                [placed] = settle([d], False, result.source) or [d]
                if d.loss and not result.source.has(d.pointer):
                    continue  # a loss of a default, which settle drops (proved below)
                assert placed.line is not None and placed.column is not None, (path, d)
                if d.pointer.startswith("/questions/"):
                    assert result.source.has(d.pointer), (path, d)
                if _WHOLE_PLACE.fullmatch(d.pointer):
                    wholes.add(d.code)
                    assert d.code in WHOLE, (path, d)  # said of a whole: the value it is about must be named
    assert {"canvas-ordering", "qti-platform", "moodle-section"} <= wholes  # the walk met what it allows
    assert said > 500  # the corpus makes every format say a lot: the loop above judged something


def test_a_loss_of_a_default_is_dropped_by_settle_alone(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"id": "q", "title": "T", "language": "en", "questions": [
        {"id": "e", "type": "essay", "stem": "S"}]}), encoding="utf-8")
    result = load_quiz(path)
    [lines] = [d for d in FORMATS["gift"].check(result.quiz, ExportOptions()) if d.code == "gift-essay"]
    assert lines.pointer == "/questions/0/lines" and lines.loss
    assert [d for d in settle([lines], False, result.source)] == []


def _write(tmp_path: Path, *questions: dict) -> Path:
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"id": "q", "title": "T", "language": "en", "questions": list(questions)}, indent=2), encoding="utf-8")
    return path


def test_a_loss_several_formats_share_is_said_once_naming_each(tmp_path):
    path = _write(tmp_path, {"id": "e", "type": "essay", "stem": "S", "grader_info": "G", "response_template": "T", "penalty": 0.5},
                  {"id": "s", "type": "short_answer", "stem": "S", "case_sensitive": True, "answers": [{"text": "a"}]})
    outcome = process_quiz(path, tuple(FORMATS), ExportOptions(), render=False)
    by_place = {}
    for d in outcome.diagnostics:
        if d.loss:
            by_place.setdefault(d.pointer, []).append(d)
    assert [d.formats for d in by_place["/questions/0/grader_info"]] == [("canvas", "gift")]
    assert [d.formats for d in by_place["/questions/0/response_template"]] == [("canvas", "gift")]
    assert [d.formats for d in by_place["/questions/0/penalty"]] == [("qti", "gift")]
    assert [d.formats for d in by_place["/questions/1/case_sensitive"]] == [("canvas", "gift")]
    # The same under --strict: one error for the formats together, the loss flag kept.
    strict = process_quiz(path, tuple(FORMATS), ExportOptions(strict=True), render=False)
    [penalty] = [d for d in strict.diagnostics if d.pointer == "/questions/0/penalty"]
    assert penalty.severity is Severity.ERROR and penalty.loss and penalty.formats == ("qti", "gift")


def test_a_lone_blank_in_gift_is_judged_as_the_question_it_becomes(tmp_path):
    """GIFT writes a one-blank question as Moodle's question of the blank's kind: its credits must
    be on Moodle's grade list and its case sensitivity is lost, each said at the blank's value
    (the writer wrote nothing for such a question, and said nothing)."""
    path = _write(tmp_path, {"id": "b", "type": "fill_in_blanks", "stem": "It is [[x]].", "blanks": [
        {"id": "x", "type": "short_answer", "case_sensitive": True, "answers": [{"text": "yes"}, {"text": "maybe", "credit": 0.37}]}]})
    for render in (False, True):
        outcome = process_quiz(path, ("gift",), ExportOptions(), render=render)
        assert {(d.pointer, d.code, d.severity) for d in outcome.diagnostics} == {
            ("/questions/0/blanks/0/case_sensitive", "lost-case", Severity.WARNING),
            ("/questions/0/blanks/0/answers/1/credit", "moodle-grade", Severity.ERROR),
        }
        assert outcome.exports == ()


def _calls_and_imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("diagnostics"):
            yield from (f"import {a.name}" for a in node.names)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Diagnostic":
            yield "Diagnostic("
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Diagnostic":
            yield "Diagnostic("


def test_only_the_reporter_makes_diagnostics_in_the_writers():
    """The writers' modules import from diagnostics.py only the type (for annotations) and
    pointer_join; only reporter.py builds a Diagnostic."""
    allowed = {"import Diagnostic", "import pointer_join"}
    modules = sorted(WRITERS.rglob("*.py"))
    assert len(modules) > 40
    found = {str(p.relative_to(WRITERS)): sorted(set(_calls_and_imports(p)) - allowed) for p in modules if p.name != "reporter.py"}
    assert {name: what for name, what in found.items() if what} == {}
    assert "Diagnostic(" in set(_calls_and_imports(WRITERS / "reporter.py"))  # the scan sees what it looks for


def test_strict_is_applied_in_one_place():
    """Only settle turns losses into errors: no other module reads the strict option beyond
    passing it on, and no writer reads it at all."""
    readers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "importers" in path.parts or path.name in ("cli.py", "config.py"):
            continue  # the import command's own --strict, and the option's parsing
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "strict":
                readers.append(str(path.relative_to(PACKAGE)))
            if isinstance(node, ast.If) and isinstance(node.test, ast.BoolOp):
                names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
                if "strict" in names:
                    readers.append(f"{path.relative_to(PACKAGE)}: if strict")
    # pipeline passes options.strict to settle, which alone tests it; export.py passes it on.
    assert sorted(set(readers)) == ["pipeline.py", "pipeline.py: if strict"]


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_reporter_is_bound_to_a_registered_format(name):
    from lmsexport.writers.reporter import Reporter

    quiz = load_quiz(DATA / "every_type.json").quiz
    assert Reporter(quiz, name, ExportOptions()).format == name
    with pytest.raises(ValueError, match=f"^unknown format '{name.upper()}x'$"):
        Reporter(quiz, name.upper() + "x", ExportOptions())


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_reporter_gives_no_bytes_once_an_error_is_said_and_keeps_them_after_warnings_and_notes(name):
    from lmsexport.writers.reporter import Reporter

    quiz = load_quiz(DATA / "every_type.json").quiz
    report = Reporter(quiz, name, ExportOptions())
    report.loss(quiz.questions[0], "lost", code="x-loss")
    report.platform_warning(None, "changed", code="x-platform")
    report.note(None, "noted", code="x-note")
    kept = report.export("quiz.out", b"bytes")
    assert (kept.filename, kept.data, [d.code for d in kept.diagnostics]) == ("quiz.out", b"bytes", ["x-loss", "x-platform", "x-note"])
    report.error(quiz.questions[0], "refused", "stem", code="x-error")
    refused = report.export("quiz.out", b"bytes")
    assert (refused.filename, refused.data, refused.diagnostics[-1].pointer) == ("quiz.out", None, "/questions/0/stem")


def test_a_name_moodle_changes_is_said_at_the_title_or_the_id(tmp_path):
    path = _write(tmp_path, {"id": "t", "type": "essay", "stem": "S", "title": "<b>Bold</b> name &&058;"})
    outcome = process_quiz(path, ("moodle", "gift"), ExportOptions(), render=True)
    found = {(d.code, d.pointer, d.formats) for d in outcome.diagnostics if d.code.endswith("-name")}
    assert found == {("moodle-name", "/questions/0/title", ("moodle", "gift")), ("gift-name", "/questions/0/title", ("gift",))}
    assert {(d.line, d.column) for d in outcome.diagnostics if d.code.endswith("-name")} == {(10, 16)}  # the title's value


def test_a_name_moodle_changes_stands_at_the_id_when_the_question_has_no_title():
    """A model built otherwise than by loading (the API, an importer) may have such an id; the
    name Moodle shows is then the id, and the loss stands there."""
    from quizzes import quiz_of
    from lmsexport.writers.moodle.gift.check import check as check_gift
    from lmsexport.writers.moodle.moodle_xml.check import check as check_moodle_xml

    quiz = quiz_of({"id": "x" * 300, "type": "essay", "stem": "S"}, {"id": "a&&058;b", "type": "essay", "stem": "S"})
    assert sorted((d.pointer, d.code) for d in check_moodle_xml(quiz, ExportOptions()) if d.code.endswith("-name")) == [
        ("/questions/0/id", "moodle-name")]
    assert sorted((d.pointer, d.code) for d in check_gift(quiz, ExportOptions()) if d.code.endswith("-name")) == [
        ("/questions/0/id", "moodle-name"), ("/questions/1/id", "gift-name")]


@pytest.mark.parametrize("name, filename", [("canvas", "q.zip"), ("gift", "q.gift.txt"), ("moodle", "q.xml"), ("qti", "q.zip")])
def test_a_quiz_of_drafts_only_names_the_file_it_does_not_write(name, filename):
    """The API's export of such a quiz: the file name the format gives the quiz (as in exports/),
    no bytes, and the note that says why."""
    from quizzes import quiz_of
    from lmsexport.api import export

    done = export(quiz_of({"id": "d", "type": "essay", "stem": "S", "draft": True}), name)
    assert (done.filename, done.data) == (filename, None)
    assert [d.code for d in done.diagnostics] == ["nothing-to-export"]


def test_an_error_is_no_loss_and_strict_leaves_it_as_it_was_said(tmp_path):
    """Eleven correct options split 1/11 each, a grade Moodle refuses: an error of the check and of
    the writer alike, never a loss (so not one "under --strict"), reported as no loss."""
    options = [{"id": f"o{i}", "text": f"O{i}", "correct": True} for i in range(11)] + [{"id": "w", "text": "W"}]
    path = _write(tmp_path, {"id": "m", "type": "multiple_response", "stem": "S", "options": options})
    for render in (False, True):
        outcome = process_quiz(path, ("moodle",), ExportOptions(strict=True), render=render)
        said = [(d.severity, d.loss, d.pointer, d.message.startswith("the default split gives each of the 11 correct options 0.0909091 (9.09091%)"),
                 d.message.endswith("(an error under --strict)")) for d in outcome.diagnostics if d.code == "moodle-grade"]
        assert said == [(Severity.ERROR, False, "/questions/0/options", True, False)], render


def test_a_platform_warning_is_no_loss_and_stays_a_warning_under_strict(tmp_path):
    """A range scores in the package, but Canvas's importer keeps only its midpoint: the file
    carries everything, so even --strict leaves that a warning, at the question."""
    path = _write(tmp_path, {"id": "r", "type": "numerical", "stem": "S", "answers": [{"min": 0.1, "max": 0.3}]})
    for render in (False, True):
        outcome = process_quiz(path, ("qti",), ExportOptions(strict=True), render=render)
        said = [(d.severity, d.loss, d.pointer, d.message.startswith("on import into Canvas"), d.message.endswith("(an error under --strict)"))
                for d in outcome.diagnostics if d.code == "qti-platform" and d.severity is not Severity.NOTE]
        assert said == [(Severity.WARNING, False, "/questions/0", True, False)], render
        assert [d.loss for d in outcome.diagnostics if d.severity is Severity.NOTE] == [False] * 2  # notes are no loss either

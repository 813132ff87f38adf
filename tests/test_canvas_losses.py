"""What Canvas cannot carry: warnings per question, errors under --strict, nothing written then."""

from __future__ import annotations

import pytest
from canvas_reader import CANVAS, read_package
from conftest import CONTENT, DATA
from quizzes import quiz_of

from lmsexport.diagnostics import Severity
from lmsexport.loader import load_quiz
from lmsexport.canonical import build_quiz
from lmsexport.writers import canvas
from lmsexport.writers.canvas.check import check as check_canvas
from lmsexport.writers.shared import ExportOptions
from lmsexport.pipeline import export_quiz


def _codes(export):
    return sorted((d.pointer, d.code) for d in export.diagnostics if d.severity is not Severity.NOTE)


def test_every_type_warnings_name_each_loss():
    export = canvas.render(load_quiz(DATA / "every_type.json").quiz, ExportOptions())
    assert export.data is not None
    assert _codes(export) == sorted(
        [
            # each at the value it is about, as validate reports it
            ("/questions/0/options/2/credit", "canvas-credit"),  # option c: 50% in a single choice
            ("/questions/0/shuffle", "canvas-shuffle"),  # pinned "all of the above"
            ("/questions/1/feedback/partially_correct", "canvas-feedback"),
            ("/questions/3/answers/1/credit", "canvas-credit"),  # 'nccl' at 50%
            ("/questions/3/case_sensitive", "lost-case"),
            ("/questions/4/answers/1/credit", "canvas-credit"),  # 16 ± 0.5 at 50%
            ("/questions/7/grader_info", "lost-grader-info"),
            ("/questions/7/response_template", "lost-response-template"),
        ]
    )
    assert all(d.severity is Severity.WARNING for d in export.diagnostics if d.code != "canvas-metadata")


def test_strict_turns_losses_into_errors_and_writes_nothing():
    export = export_quiz(load_quiz(DATA / "every_type.json").quiz, "canvas", ExportOptions(strict=True))
    assert export.data is None and export.failed
    assert {d.code for d in export.diagnostics if d.is_error} >= {"canvas-credit", "lost-case", "lost-grader-info"}


@pytest.mark.parametrize("path", sorted(CONTENT.glob("*.json")), ids=lambda p: p.stem)
def test_real_content_loses_nothing_scored(path):
    export = export_quiz(load_quiz(path).quiz, "canvas", ExportOptions(strict=True))
    assert export.data is not None, export.diagnostics


def _multi(options):
    return {"id": "m", "type": "multiple_response", "stem": "Pick", "options": options}


def test_multiple_answers_by_canvas_rule_is_not_a_loss():
    quiz = quiz_of(_multi([{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "correct": True}, {"id": "c", "text": "C"}]))
    assert _codes(canvas.render(quiz, ExportOptions())) == []


@pytest.mark.parametrize(
    "options",
    [
        # a wrong option that costs nothing
        [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": 0}],
        # unequal weights on right options
        [{"id": "a", "text": "A", "correct": True, "credit": 0.7}, {"id": "b", "text": "B", "correct": True, "credit": 0.3}],
    ],
)
def test_multiple_answers_weights_canvas_cannot_keep(options):
    export = canvas.render(quiz_of(_multi(options)), ExportOptions())
    assert _codes(export) == [("/questions/0/options", "canvas-credit")]
    assert export_quiz(quiz_of(_multi(options)), "canvas", ExportOptions(strict=True)).data is None


def test_negative_and_partial_single_choice_credit():
    quiz = quiz_of(
        {
            "id": "s",
            "type": "single_choice",
            "stem": "Pick",
            "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": -0.5}],
        }
    )
    export = canvas.render(quiz, ExportOptions())
    assert _codes(export) == [("/questions/0/options/1/credit", "canvas-credit")]
    item = read_package(export.data).items[0]
    assert len(item.right) == 1  # the penalised option is not made right


def test_numeric_bounds_are_exact_decimals():
    quiz = quiz_of({"id": "n", "type": "numerical", "stem": "x", "answers": [{"value": 0.1, "tolerance": 0.2}]})
    (kind, exact, low, high), = read_package(canvas.render(quiz, ExportOptions()).data).items[0].numeric
    assert (exact, low, high) == ("0.1", "-0.1", "0.3")


def test_shuffle_is_per_quiz():
    choice = {"id": "s", "type": "single_choice", "stem": "Pick", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]}
    shuffled = read_package(canvas.render(quiz_of(choice), ExportOptions()).data)
    assert shuffled.meta.findtext(f"{CANVAS}shuffle_answers") == "true"
    fixed = dict(choice, id="f", shuffle=False)
    export = canvas.render(quiz_of(choice, fixed), ExportOptions())
    assert read_package(export.data).meta.findtext(f"{CANVAS}shuffle_answers") == "false"
    assert _codes(export) == [("/questions/0/shuffle", "canvas-shuffle")]


def test_nothing_to_export_writes_nothing():
    export = canvas.render(quiz_of({"id": "d", "type": "essay", "stem": "x", "draft": True}), ExportOptions())
    assert export.data is None and export.diagnostics


def test_answer_ids_are_distinct_numbers_and_stable():
    options = [{"id": f"o{i}", "text": str(i), "correct": i == 0} for i in range(300)]
    quiz = quiz_of({"id": "s", "type": "single_choice", "stem": "Pick", "options": options})
    item = read_package(canvas.render(quiz, ExportOptions()).data).items[0]
    assert len(set(item.answer_ids)) == 300 and all(i.isdigit() for i in item.answer_ids)
    assert read_package(canvas.render(quiz, ExportOptions()).data).items[0].answer_ids == item.answer_ids


def test_an_option_in_another_language_with_block_markdown_gets_a_div():
    quiz = build_quiz({"id": "langs", "title": "L", "language": "en", "text_format": "markdown", "questions": [
        {"id": "q", "type": "single_choice", "stem": "Which?", "options": [
            {"id": "a", "text": "Benn.\n\nÑaar.", "correct": True, "language": "wo"},
            {"id": "b", "text": "Short", "language": "wo"}]}]}, "langs.json")
    export = canvas.render(quiz, ExportOptions())
    package = read_package(export.data)
    labels = list(package.items[0].labels.values())
    assert labels[0].startswith('<div lang="wo"><p>Benn.</p>') and labels[1] == '<span lang="wo">Short</span>'


def test_the_check_places_each_loss_at_the_value_it_is_about():
    """validate points at the value a loss is about (what the author would change): the check's
    places, written out."""
    from lmsexport.writers.canvas.check import check

    found = list(check(load_quiz(DATA / "every_type.json").quiz, ExportOptions()))
    assert sorted((d.pointer, d.code) for d in found if d.severity is not Severity.NOTE) == sorted(
        [
            ("/questions/0/options/2/credit", "canvas-credit"),
            ("/questions/0/shuffle", "canvas-shuffle"),
            ("/questions/1/feedback/partially_correct", "canvas-feedback"),
            ("/questions/3/answers/1/credit", "canvas-credit"),
            ("/questions/3/case_sensitive", "lost-case"),
            ("/questions/4/answers/1/credit", "canvas-credit"),
            ("/questions/7/grader_info", "lost-grader-info"),
            ("/questions/7/response_template", "lost-response-template"),
        ]
    )


def test_a_blank_answer_at_full_credit_written_with_seven_decimals_is_accepted():
    # Validation takes 0.9999999 as full credit; Canvas must accept the answer worth it, and say
    # nothing is dropped.
    quiz = quiz_of({"id": "fb", "type": "fill_in_blanks", "stem": "It is [[b]].",
                    "blanks": [{"id": "b", "type": "short_answer", "answers": [{"text": "yes", "credit": 0.9999999}]}]})
    export = canvas.render(quiz, ExportOptions())
    item = read_package(export.data).items[0]
    assert "yes" in item.labels.values()
    assert not [d for d in export.diagnostics if d.code == "canvas-credit"]


def test_the_check_refuses_what_canvas_would_import_as_another_type():
    """The loader refuses these first; a model built otherwise (the API, an importer) meets the
    same refusal from the check as from the writer, at the answers or options it is about, for Canvas alone."""
    quiz = quiz_of(
        {"id": "s", "type": "short_answer", "stem": "S", "answers": [{"text": "a", "credit": 0.5}]},
        {"id": "c", "type": "single_choice", "stem": "C", "options": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}]},
        {"id": "n", "type": "numerical", "stem": "N", "answers": [{"value": 1, "credit": 0.5}]})
    expected = [
        ("q.json", "/questions/0/answers", "canvas-no-answer", "question 's': no answer with full credit; Canvas would import an essay question"),
        ("q.json", "/questions/1/options", "canvas-no-answer", "question 'c': no correct option; Canvas cannot tell what is right"),
        ("q.json", "/questions/2/answers", "canvas-no-answer", "question 'n': no answer with full credit; Canvas would import an essay question"),
    ]
    checked = [d for d in check_canvas(quiz, ExportOptions()) if d.is_error]
    assert [(d.file, d.pointer, d.code, d.message) for d in checked] == expected
    assert all(d.formats == ("canvas",) for d in checked)
    export = canvas.render(quiz, ExportOptions())
    assert export.data is None
    assert [(d.file, d.pointer, d.code, d.message) for d in export.diagnostics if d.is_error] == expected


@pytest.mark.parametrize("points, expected", [
    ((1, 1), []),  # shuffled, of equal points: a question group, nothing lost
    ((1, 2), [("/sections/0/shuffle", "canvas-section", Severity.WARNING)]),  # a group would give both the same points
])
def test_a_shuffled_section_is_a_group_only_when_its_questions_are_worth_the_same(points, expected):
    quiz = quiz_of(*({"id": f"q{i}", "type": "essay", "stem": "E", "points": p} for i, p in enumerate(points)),
                   sections=[{"id": "s", "title": "S", "shuffle": True, "questions": ["q0", "q1"]}])
    checked = [(d.pointer, d.code, d.severity) for d in check_canvas(quiz, ExportOptions()) if d.code == "canvas-section"]
    assert checked == expected
    assert [(d.pointer, d.code, d.severity) for d in canvas.render(quiz, ExportOptions()).diagnostics if d.code == "canvas-section"] == expected


def test_a_plain_text_holding_tex_delimiters_is_said_to_show_as_a_formula():
    # Canvas typesets \( \) and \[ \] wherever its HTML shows them: a plain text's literal ones
    # become a formula (and an import of the package reads one). Markdown's formulas are meant so.
    from lmsexport.api import validate

    question = {"id": "c", "type": "single_choice", "stem": "see \\(a+b\\) here", "options": [
        {"id": "a", "text": "\\[x\\]", "correct": True}, {"id": "b", "text": {"text": "\\(y\\)", "format": "markdown"}},
        {"id": "d", "text": "a \\( alone"}]}
    said = [d for d in validate({"id": "q", "title": "T", "language": "en", "questions": [question]}, formats=["canvas"]) if d.code == "canvas-math"]
    assert [(d.pointer, d.severity) for d in said] == [("/questions/0/stem", Severity.WARNING), ("/questions/0/options/0/text", Severity.WARNING)]
    assert all(d.line for d in said) and "'\\(a+b\\)'" in said[0].message

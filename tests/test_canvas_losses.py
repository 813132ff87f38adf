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
    assert all(d.line for d in said)
    assert [d.message for d in said] == [
        f"question 'c': Canvas typesets \\( \\) and \\[ \\] as formulas, so this plain text's '{tex}' shows as a formula (and an import reads it as one)"
        for tex in ("\\(a+b\\)", "\\[x\\]")]


def test_a_markdown_texts_literal_tex_delimiters_are_said_to_show_as_a_formula():
    # Markdown's literal \\( (escaped, or a character reference) is a \( in the HTML, which
    # Canvas typesets as it typesets the formulas; in code MathJax typesets nothing.
    from lmsexport.api import validate

    question = {"id": "c", "type": "single_choice", "stem": {"text": "see \\\\(a+b\\\\) here", "format": "markdown"}, "options": [
        {"id": "a", "text": {"text": "$x$ and &#92;[y&#92;]", "format": "markdown"}, "correct": True},
        {"id": "b", "text": {"text": "$x$ and `\\(code\\)`", "format": "markdown"}},
        {"id": "d", "text": {"text": "a lone \\\\( and $z$", "format": "markdown"}}]}
    said = [d for d in validate({"id": "q", "title": "T", "language": "en", "questions": [question]}, formats=["canvas"]) if d.code == "canvas-math"]
    assert [d.pointer for d in said] == ["/questions/0/stem", "/questions/0/options/0/text"]
    assert [d.message for d in said] == [
        f"question 'c': Canvas typesets \\( \\) and \\[ \\] as formulas, so this text's literal '{tex}' shows as a formula (and an import reads it as one)"
        for tex in ("\\(a+b\\)", "\\[y\\]")]


def _losses(quiz):
    """What the check and the writer say Canvas loses, as (pointer, code, message), notes left out;
    the two must say the same."""
    checked = sorted((d.pointer, d.code, d.message) for d in check_canvas(quiz, ExportOptions()) if d.severity is not Severity.NOTE)
    written = sorted((d.pointer, d.code, d.message) for d in canvas.render(quiz, ExportOptions()).diagnostics
                     if d.severity is not Severity.NOTE)
    assert checked == written
    return checked


def test_each_blank_kind_says_what_canvas_loses_at_the_value_in_its_words():
    mixed = {"id": "mix", "type": "fill_in_blanks", "stem": "[[d]] [[s]] [[n]]", "blanks": [
        {"id": "d", "type": "dropdown", "points": 1, "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": 0.5}]},
        {"id": "s", "type": "short_answer", "points": 2, "case_sensitive": True,
         "answers": [{"text": "x", "feedback": "Right."}, {"text": "y", "credit": 0.5}]},
        {"id": "n", "type": "numerical", "points": 1, "answers": [{"value": 8}, {"value": 16}, {"min": 7, "max": 9, "credit": 0.25}]},
    ]}
    dropdowns = {"id": "dd", "type": "fill_in_blanks", "stem": "[[e]] [[f]]", "blanks": [
        {"id": "e", "type": "dropdown", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}, {"id": "c", "text": "C", "credit": 0.25}]},
        {"id": "f", "type": "dropdown", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": -0.5}]},
    ]}
    assert _losses(quiz_of(mixed, dropdowns)) == sorted([
        ("/questions/0/blanks", "canvas-blanks", "question 'mix': Canvas cannot mix drop-downs and typed blanks in one question: it becomes "
                                                 "fill in multiple blanks, and drop-down(s) 'd' typed blanks that accept the correct option's text"),
        ("/questions/0/blanks", "canvas-credit", "question 'mix': Canvas shares the points equally among the blanks; the blanks' own points are not kept"),
        # the drop-down of a mixed question becomes a typed blank: its 50% wrong option is not said again
        ("/questions/0/blanks/1", "canvas-feedback", "question 'mix': blank 's': Canvas's importer drops the feedback of each answer of a blank"),
        ("/questions/0/blanks/1/answers/1/credit", "canvas-credit", "question 'mix': blank 's': every answer Canvas lists is fully right, so 'y' (50%) is left out"),
        ("/questions/0/blanks/1/case_sensitive", "lost-case", "answers are compared without case: case sensitivity is lost"),
        ("/questions/0/blanks/2", "canvas-number", "question 'mix': blank 'n': Canvas compares a blank's text, so the number must be typed exactly as "
                                                   "'8' or '16' (no tolerance, range or partial credit)"),
        ("/questions/1/blanks/0/options/2/credit", "canvas-credit", "question 'dd': blank 'e': a Canvas drop-down is right or wrong; 'c' (25%) earns 0"),
        ("/questions/1/blanks/1/options/1/credit", "canvas-credit", "question 'dd': blank 'f': a Canvas drop-down is right or wrong; 'b' (-50%) earns 0"),
    ])


def test_a_partly_right_answer_is_named_as_written_in_the_loss():
    quiz = quiz_of(
        {"id": "s", "type": "short_answer", "stem": "S", "answers": [{"text": "nccl"}, {"text": "rccl", "credit": 0.5}]},
        {"id": "n", "type": "numerical", "stem": "N", "answers": [{"value": 8}, {"min": 7, "max": 9.5, "credit": 0.5},
                                                                 {"value": 16, "tolerance": 0.25, "credit": 0.125}]})
    assert _losses(quiz) == [
        ("/questions/0/answers/1/credit", "canvas-credit", "question 's': every answer Canvas lists is fully right, so answer 'rccl' (50%) is left out with its feedback"),
        ("/questions/1/answers/1/credit", "canvas-credit", "question 'n': every answer Canvas lists is fully right, so answer [7, 9.5] (50%) is left out with its feedback"),
        ("/questions/1/answers/2/credit", "canvas-credit", "question 'n': every answer Canvas lists is fully right, so answer 16±0.25 (12.5%) is left out with its feedback"),
    ]


def test_an_ordering_question_says_it_becomes_matching_and_loses_its_grading_unless_by_position():
    items = [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}, {"id": "c", "text": "C"}]
    quiz = quiz_of({"id": "p", "type": "ordering", "stem": "O", "grading": "absolute_position", "items": items},
                   {"id": "w", "type": "ordering", "stem": "O", "grading": "all_or_nothing", "items": items[:2]})
    becomes = ("Canvas classic quizzes have no ordering question: it becomes a matching question, each item matched to its place "
               "(1 to {}), the items listed in a scrambled order")
    assert _losses(quiz) == [
        ("/questions/0", "canvas-ordering", "question 'p': " + becomes.format(3)),
        ("/questions/1", "canvas-ordering", "question 'w': " + becomes.format(2)),
        ("/questions/1/grading", "canvas-credit", "question 'w': Canvas scores each item matched to its right place (Moodle's absolute "
                                                  "position), not by the grading 'all_or_nothing'"),
    ]


def test_a_matching_question_without_pairs_is_refused_at_its_pairs():
    quiz = quiz_of({"id": "e", "type": "essay", "stem": "E"}, {"id": "m", "type": "matching", "stem": "M", "pairs": []})
    assert [(d.pointer, d.code, d.message) for d in check_canvas(quiz, ExportOptions()) if d.is_error] == [
        ("/questions/1/pairs", "canvas-no-answer", "question 'm': a matching question needs at least one pair")]
    assert canvas.render(quiz, ExportOptions()).data is None


def test_a_text_only_question_loses_each_feedback_at_its_place():
    text = "Read this."
    quiz = quiz_of({"id": "d", "type": "description", "stem": "D", "explanation": text,
                    "feedback": {"correct": text, "partially_correct": text, "incorrect": text}})
    lost = "question 'd': Canvas text-only questions show no feedback; it is left out"
    assert _losses(quiz) == [("/questions/0/explanation", "canvas-feedback", lost),
                             ("/questions/0/feedback/correct", "canvas-feedback", lost),
                             ("/questions/0/feedback/incorrect", "canvas-feedback", lost),
                             ("/questions/0/feedback/partially_correct", "canvas-feedback", lost)]


def test_an_unshuffled_option_list_says_why_in_its_words_and_no_correct_option_is_refused_alone():
    """Canvas shuffles all questions' options or none: a question asking to shuffle is not, and
    the loss names why (its own pinned option, or another question's fixed order). A question with
    no correct option is refused, and nothing else is said of its options."""
    options = [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]
    quiz = quiz_of({"id": "p", "type": "single_choice", "stem": "P", "shuffle": True,
                    "options": [*options, {"id": "c", "text": "All", "pinned": True}]},
                   {"id": "s", "type": "single_choice", "stem": "S", "shuffle": True, "options": options},
                   {"id": "f", "type": "single_choice", "stem": "F", "shuffle": False, "options": options},
                   {"id": "n", "type": "single_choice", "stem": "N", "shuffle": False,
                    "options": [{"id": "a", "text": "A"}, {"id": "b", "text": "B", "credit": 0.5}]})
    said = [(d.pointer, d.code, d.message) for d in check_canvas(quiz, ExportOptions()) if d.severity is not Severity.NOTE]
    not_shuffled = "Canvas shuffles per quiz, not per question; its options are not shuffled because of {}"
    assert sorted(said) == [
        ("/questions/0/shuffle", "canvas-shuffle", "question 'p': " + not_shuffled.format("a pinned option")),
        ("/questions/1/shuffle", "canvas-shuffle", "question 's': " + not_shuffled.format("another question's fixed order")),
        ("/questions/3/options", "canvas-no-answer", "question 'n': no correct option; Canvas cannot tell what is right")]


def test_drop_downs_among_typed_blanks_of_one_kind_and_multiple_answers_say_their_options_in_words():
    """Two kinds of blank (drop-downs with short answers) are a mix as three are, and each
    drop-down is named; a multiple response question names each credit off Canvas's rule, and
    one with no correct option is refused alone."""
    dropdown = {"type": "dropdown", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]}
    mixed = {"id": "two", "type": "fill_in_blanks", "stem": "[[d1]] [[s]] [[d2]]", "blanks": [
        {"id": "d1", **dropdown}, {"id": "s", "type": "short_answer", "answers": [{"text": "x"}]}, {"id": "d2", **dropdown}]}
    weighted = _multi([{"id": "a", "text": "A", "correct": True, "credit": 0.7}, {"id": "b", "text": "B", "correct": True, "credit": 0.3}])
    none_right = {**_multi([{"id": "a", "text": "A"}, {"id": "b", "text": "B", "credit": 0.5}]), "id": "z"}
    said = [(d.pointer, d.code, d.message) for d in check_canvas(quiz_of(mixed, weighted, none_right), ExportOptions())
            if d.severity is not Severity.NOTE]
    assert sorted(said) == [
        ("/questions/0/blanks", "canvas-blanks", "question 'two': Canvas cannot mix drop-downs and typed blanks in one question: it becomes "
                                                 "fill in multiple blanks, and drop-down(s) 'd1', 'd2' typed blanks that accept the correct option's text"),
        ("/questions/1/options", "canvas-credit", "question 'm': Canvas scores multiple answers by its own rule (each right option earns, each wrong "
                                                  "one costs, 1/number-of-right-answers, total at least 0); credits 'a' (70%), 'b' (30%) are not kept"),
        ("/questions/2/options", "canvas-no-answer", "question 'z': no correct option; Canvas cannot tell what is right"),
    ]

"""`lmsexport validate`: every rule has a bad file; each gives its message, its place and exit 1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CONTENT, DATA
from lmsexport.cli import app

BAD = DATA / "bad"
runner = CliRunner()


def validate_json(*paths: Path | str):
    result = runner.invoke(app, ["validate", *map(str, paths), "--output-format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout)


# file, a phrase of the message, line, JSON pointer
CASES = [
    ("truncated.json", "a ',' or a closing bracket was expected", 7, ""),
    ("trailing_comma.json", "no trailing commas", 6, ""),
    ("latin1.json", "not valid UTF-8 (byte 0xE9 at line 3, column 16); it looks like Latin-1", 3, ""),
    ("utf16.json", "the file is UTF-16, not UTF-8", 1, ""),
    ("empty.json", "the file is empty", 1, ""),
    ("whitespace_only_file.json", "the file is empty", 1, ""),
    ("not_an_object.json", "expected an object", 1, ""),
    ("duplicate_key.json", "the key 'title' appears twice", 4, "/title"),
    ("nan.json", "NaN is not a finite number", 6, "/questions/0/points"),
    ("infinity.json", "Infinity is not a finite number", 6, "/questions/0/answers/0/value"),
    ("huge_number.json", "1e400 is not a finite number", 6, "/questions/0/answers/0/value"),
    ("unknown_property.json", "unknown property 'explantion' (did you mean 'explanation'?)", 21, "/questions/0/explantion"),
    ("missing_stem.json", "the required property 'stem' is missing", 6, "/questions/0"),
    ("unknown_type.json", "'fill_in' is not allowed here; use one of: single_choice", 8, "/questions/0/type"),
    ("bad_quiz_id.json", "'Bad Quiz' is not a valid quiz id", 2, "/id"),
    ("credit_out_of_range.json", "1.5 is above the largest allowed value, 1", 15, "/questions/0/options/0/credit"),
    ("numerical_negative_tolerance.json", "-1 is below the smallest allowed value, 0", 13, "/questions/0/answers/0/tolerance"),
    ("numerical_value_and_range.json", "either 'value'", 11, "/questions/0/answers/0"),
    ("malformed_language.json", "'en_US' is not a well-formed language tag", 21, "/questions/0/language"),
    ("duplicate_question_id.json", "the question id 'q1' is used twice", 23, "/questions/1/id"),
    ("duplicate_question_id_case.json", "'pipeline' differs from 'Pipeline' only by case", 23, "/questions/1/id"),
    ("duplicate_option_id.json", "the option id 'a' is used twice", 17, "/questions/0/options/1/id"),
    ("single_two_correct.json", "exactly one correct option; 2 are marked correct (a, b)", 10, "/questions/0/options"),
    ("single_no_correct.json", "exactly one correct option; none is marked correct", 10, "/questions/0/options"),
    ("single_one_option.json", "needs at least two options", 10, "/questions/0/options"),
    ("multiple_no_correct.json", "needs at least one correct option", 10, "/questions/0/options"),
    ("multiple_credits_not_full.json", "add up to 0.75; they must add up to 1", 10, "/questions/0/options"),
    ("multiple_wrong_option_positive.json", "an option that is not correct cannot be worth a positive credit", 19, "/questions/0/options/1/credit"),
    ("short_answer_no_full_credit.json", "at least one answer must be worth full credit", 10, "/questions/0/answers"),
    ("numerical_range_inverted.json", "the range is empty: min 5 is above max 1", 11, "/questions/0/answers/0"),
    ("matching_duplicate_prompt.json", "this prompt is already used by another pair", 18, "/questions/0/pairs/1/prompt"),
    ("matching_one_pair.json", "needs at least two pairs", 10, "/questions/0/pairs"),
    ("matching_distractor_is_answer.json", "this distractor is also the answer of a pair", 25, "/questions/0/distractors/0/text"),
    ("unknown_language.json", "'xx' is not a registered language tag", 4, "/language"),
    ("unknown_option_language.json", "'qq' is not a registered language tag", 15, "/questions/0/options/0/language"),
    ("control_character.json", "U+0007, which XML (and so every export) cannot carry", 6, "/questions/0/stem"),
    ("lone_surrogate.json", "U+D800", 6, "/questions/0/stem"),
    ("noncharacter_fffe.json", "U+FFFE", 6, "/questions/0/stem"),
    ("whitespace_stem.json", "the question text cannot be only white space", 9, "/questions/0/stem"),
    ("unsafe_javascript_link.json", "uses 'javascript:', which platforms may run or block", 10, "/questions/0/stem"),
    ("unsafe_data_url.json", "uses 'data:'", 15, "/questions/0/options/0/feedback"),
    ("markdown_renders_nothing.json", "an option's text cannot be only white space", 19, "/questions/0/options/1/text"),
    ("matching_answer_two_lines.json", "cannot show a line break: write it on one line", 14, "/questions/0/pairs/0/answer"),
    ("whitespace_option.json", "an option's text cannot be only white space", 18, "/questions/0/options/1/text"),
]


@pytest.mark.parametrize("name, phrase, line, pointer", CASES, ids=[c[0] for c in CASES])
def test_bad_file_gives_located_error(name, phrase, line, pointer):
    code, report = validate_json(BAD / name)
    assert code == 1
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    matching = [d for d in errors if phrase in d["message"]]
    assert matching, f"no error says {phrase!r}: {[d['message'] for d in errors]}"
    found = matching[0]
    assert found["file"] == str(BAD / name)
    assert found["line"] == line
    assert found["column"] is not None and found["column"] >= 1
    assert found["pointer"] == pointer
    assert report["summary"]["errors"] >= 1


def test_every_bad_file_is_covered():
    assert {p.name for p in BAD.iterdir()} == {c[0] for c in CASES}


def test_content_validates_clean():
    code, report = validate_json(CONTENT)
    assert code == 0
    # The warnings would be what build reports, losses of the formats: the content loses nothing.
    assert report["summary"] == {"quizzes": 4, "questions": 30, "drafts": 5, "errors": 0, "warnings": 0,
                                 "formats": ["qti", "canvas", "moodle", "gift"]}
    assert {d["code"] for d in report["diagnostics"] if d["severity"] == "warning"} == set()
    notes = [d for d in report["diagnostics"] if d["severity"] == "note" and d["code"] == "draft"]
    assert len(notes) == 5 and all("is a draft" in d["message"] for d in notes)


def test_default_path_is_content(monkeypatch):
    monkeypatch.chdir(CONTENT.parent)
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0
    assert result.stdout.strip().endswith("4 quizzes, 30 questions (5 drafts): 0 errors, 0 warnings")


def test_reports_every_problem_not_the_first():
    code, report = validate_json(BAD)
    assert code == 1
    files_with_errors = {d["file"] for d in report["diagnostics"] if d["severity"] == "error"}
    assert len(files_with_errors) == len(CASES)


def test_utf8_bom_is_accepted(tmp_path):
    source = (CONTENT / "ai-hardware-software-stack.json").read_bytes()
    quiz = tmp_path / "bom.json"
    quiz.write_bytes(b"\xef\xbb\xbf" + source)
    code, report = validate_json(quiz)
    assert code == 0 and report["summary"]["errors"] == 0


def test_duplicate_quiz_ids_across_files(tmp_path):
    for name in ("one.json", "two.json"):
        shutil.copy(CONTENT / "model-pipeline-parallelism.json", tmp_path / name)
    code, report = validate_json(tmp_path)
    assert code == 1
    [duplicate] = [d for d in report["diagnostics"] if d["code"] == "duplicate-id"]
    assert duplicate["file"] == str(tmp_path / "two.json") and duplicate["pointer"] == "/id"
    assert "'model-pipeline-parallelism' is already used by" in duplicate["message"]


def test_deeply_nested_arrays(tmp_path):
    quiz = tmp_path / "deep.json"
    quiz.write_text("[" * 200_000 + "]" * 200_000)
    code, report = validate_json(quiz)
    assert code == 1
    assert "nested too deeply" in report["diagnostics"][0]["message"]


def test_oversized_file(tmp_path):
    quiz = tmp_path / "huge.json"
    with quiz.open("wb") as stream:
        stream.truncate(50 * 1024 * 1024)  # sparse: costs no disk
    code, report = validate_json(quiz)
    assert code == 1
    assert "over the 20 MB limit" in report["diagnostics"][0]["message"]


def test_folder_without_quizzes(tmp_path):
    (tmp_path / "notes.txt").write_text("not a quiz")
    code, report = validate_json(tmp_path)
    assert code == 1
    assert report["diagnostics"][0]["message"] == "this folder holds no quiz files (*.json)"


def test_missing_path(tmp_path):
    code, report = validate_json(tmp_path / "nowhere")
    assert code == 1
    assert report["diagnostics"][0] == {**report["diagnostics"][0], "file": str(tmp_path / "nowhere"), "message": "no such file or folder"}


def test_symlink_loop(tmp_path):
    shutil.copy(CONTENT / "model-pipeline-parallelism.json", tmp_path / "quiz.json")
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    code, report = validate_json(tmp_path)
    assert code == 1
    assert any("loops back" in d["message"] for d in report["diagnostics"])
    assert report["summary"]["quizzes"] == 1


def test_github_format_annotations():
    result = runner.invoke(app, ["validate", str(BAD / "single_two_correct.json"), "--format", "github"])
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"::error file={BAD / 'single_two_correct.json'},line=10,col=18,title=lmsexport::")
    assert result.stdout.splitlines()[-1].startswith("::error title=lmsexport::1 quiz, 1 question (0 drafts): 1 error")


def test_text_format_has_place_and_no_colour_off_terminal():
    result = runner.invoke(app, ["validate", str(BAD / "duplicate_key.json")])
    assert result.exit_code == 1
    assert f"{BAD / 'duplicate_key.json'}:4:3: error: the key 'title' appears twice" in result.stdout
    assert "\x1b[" not in result.stdout


def test_colour_on_a_terminal_unless_no_color(monkeypatch):
    import io

    from lmsexport.diagnostics import error
    from lmsexport.report import print_diagnostics

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    stream = Terminal()
    print_diagnostics([error("bad", "f.json", "/x", line=1, column=2)], "text", stream)
    assert "\x1b[31merror\x1b[0m" in stream.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    stream = Terminal()
    print_diagnostics([error("bad", "f.json", "/x", line=1, column=2)], "text", stream)
    assert "\x1b[" not in stream.getvalue()


def test_usage_error_exits_2():
    result = runner.invoke(app, ["validate", "--format", "xml"])
    assert result.exit_code == 2


def test_schema_errors_in_one_question_do_not_hide_the_other_problems(tmp_path):
    quiz = tmp_path / "mixed.json"
    quiz.write_text(json.dumps({"id": "mixed", "title": "T\ud800 \ufffe", "language": "en", "questions": [
        {"id": "a", "type": "essay", "stem": "S", "bogus": 1},
        {"id": "a", "type": "single_choice", "stem": "x", "options": [
            {"id": "o", "text": "a", "correct": True}, {"id": "o", "text": "b", "correct": True}]},
        {"id": "A", "type": "essay", "stem": "   "}]}), encoding="utf-8")
    code, report = validate_json(quiz)
    assert code == 1
    found = {(d["pointer"], d["message"].split(":")[0]) for d in report["diagnostics"]}
    assert found >= {
        ("/questions/0/bogus", "unknown property 'bogus'; allowed here"),
        ("/title", "this text holds the characters U+D800, U+FFFE, which XML (and so every export) cannot carry"),
        ("/questions/1/id", "the question id 'a' is used twice"),
        ("/questions/2/id", "the question id 'A' differs from 'a' only by case"),
        ("/questions/1/options/1/id", "the option id 'o' is used twice"),
        ("/questions/1/options", "a single choice question has exactly one correct option; 2 are marked correct (o, o)"),
        ("/questions/2/stem", "the question text cannot be only white space (at /questions/2/stem)".split(" (at")[0]),
    }


def test_a_positive_credit_on_a_wrong_option_is_not_counted_in_the_correct_options_sum():
    code, report = validate_json(BAD / "multiple_wrong_option_positive.json")
    assert code == 1
    assert [d["message"] for d in report["diagnostics"]] == ["an option that is not correct cannot be worth a positive credit"]


# The tolerances validate and every writer and reader judge numbers by (lmsexport/tolerances.py), at their bounds.

def test_values_a_billionth_apart_or_closer_differ_by_rounding_alone():
    from lmsexport.tolerances import same_but_for_rounding

    assert same_but_for_rounding(0.1 + 0.2, 0.3)
    assert same_but_for_rounding(0.0, 1e-9) and same_but_for_rounding(1e-9, 0.0)  # the bound is included
    assert not same_but_for_rounding(0.0, 2e-9) and not same_but_for_rounding(1 / 3, 0.3333333)


def test_full_credit_is_one_within_a_millionth():
    from lmsexport.tolerances import is_full_credit, reaches_full_credit

    assert is_full_credit(1.0) and is_full_credit(0.3333333 * 3) and is_full_credit(1.0000005)
    assert not is_full_credit(0.99999) and not is_full_credit(1.00001)
    assert reaches_full_credit(0.9999995) and reaches_full_credit(1.0) and reaches_full_credit(1.5)
    # Moodle's import matches 99.9999% to 100% (within 1e-5) and grades it right
    # (tests/importers/test_moodle.py): a millionth below 1 reaches full credit.
    assert reaches_full_credit(0.999999)
    assert not reaches_full_credit(0.99999)


def test_a_wrong_option_worth_99_9999_percent_is_refused_as_a_second_right_answer(tmp_path):
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps({"id": "q", "title": "T", "language": "en", "questions": [
        {"id": "s", "type": "single_choice", "stem": "Pick", "options": [
            {"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": 0.999999}]}]}), encoding="utf-8")
    code, report = validate_json(path)
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert code == 1 and [d["pointer"] for d in errors] == ["/questions/0/options/1/credit"], errors


# -- hostile files ------------------------------------------------------------------------------

HUGE = int("9" * 330)


@pytest.mark.parametrize("field, question", [
    ("points", {"id": "q", "type": "essay", "stem": "S", "points": HUGE}),
    ("value", {"id": "q", "type": "numerical", "stem": "S", "answers": [{"value": HUGE}]}),
    ("tolerance", {"id": "q", "type": "numerical", "stem": "S", "answers": [{"value": 1, "tolerance": HUGE}]}),
    ("min", {"id": "q", "type": "numerical", "stem": "S", "answers": [{"min": -HUGE, "max": 1}]}),
    ("max", {"id": "q", "type": "numerical", "stem": "S", "answers": [{"min": 1, "max": HUGE}]}),
])
def test_huge_integer_literals_are_located_errors(tmp_path, field, question):
    quiz = tmp_path / "huge.json"
    quiz.write_text(json.dumps({"id": "huge", "title": "T", "language": "en", "questions": [question]}, indent=2), encoding="utf-8")
    code, report = validate_json(quiz)
    assert code == 1
    [problem] = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert problem["pointer"].endswith("/" + field) and problem["line"] > 1 and problem["column"] > 1
    assert "(330 digits) is not a finite number: it is too large for a double" in problem["message"]
    build = runner.invoke(app, ["build", str(quiz), "-o", str(tmp_path / "out")])
    assert build.exit_code == 1 and build.exception is None or isinstance(build.exception, SystemExit)


def test_a_link_to_dev_zero_is_refused_without_reading_it(tmp_path):
    if not Path("/dev/zero").exists():
        pytest.skip("this system has no /dev/zero")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    code, report = validate_json(tmp_path)
    assert code == 1
    [problem] = report["diagnostics"]
    assert problem["file"].endswith("zero.json") and problem["line"] == 1
    assert "not a regular file" in problem["message"]


def test_a_fifo_named_like_a_quiz_is_refused_and_does_not_hang(tmp_path):
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("this system has no FIFOs")
    os.mkfifo(tmp_path / "x.json")
    code, report = validate_json(tmp_path)  # would block for ever if the FIFO were opened
    assert code == 1
    assert "not a regular file" in report["diagnostics"][0]["message"]
    code, report = validate_json(tmp_path / "x.json")
    assert code == 1 and report["diagnostics"][0]["line"] == 1


def test_a_file_growing_past_the_limit_is_read_only_up_to_it(tmp_path, monkeypatch):
    from lmsexport import loader

    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 1000)
    reads = []
    real = loader.read_limited
    monkeypatch.setattr(loader, "read_limited", lambda path, limit: reads.append(limit) or real(path, limit))
    quiz = tmp_path / "big.json"
    quiz.write_bytes(b" " * 5000 + b"{}")
    result = loader.load_quiz(quiz)
    assert reads == [1000] and "over the 0 MB limit" in result.diagnostics[0].message
    assert len(real(quiz, 1000)) == 1001


def test_schema_error_for_an_object_names_its_keys(tmp_path):
    code, report = validate_json(BAD / "not_an_object.json")
    assert "expected an object {...} with 'id', 'title', 'language', 'questions', found a list" in report["diagnostics"][0]["message"]
    quiz = tmp_path / "q.json"
    quiz.write_text('{"id": "a", "title": "T", "language": "en", "questions": [3]}', encoding="utf-8")
    code, report = validate_json(quiz)
    assert [d["message"] for d in report["diagnostics"]] == ["expected an object {...} with 'id', 'type', 'stem', found a number"]


def test_a_quiz_with_errors_counts_its_questions():
    code, report = validate_json(BAD / "missing_stem.json")
    assert code == 1 and report["summary"]["questions"] >= 1
    result = runner.invoke(app, ["validate", str(BAD / "missing_stem.json")])
    assert ", 0 questions" not in result.stdout


def test_diagnostics_are_sorted_by_file_then_line(tmp_path):
    quiz = tmp_path / "q.json"
    quiz.write_text(json.dumps({"id": "q", "title": "T", "language": "en", "questions": [
        {"id": "a", "type": "short_answer", "stem": "S", "answers": [{"text": "a -> b"}]},
        {"id": "b", "type": "single_choice", "stem": "S", "options": [{"id": "x", "text": "X", "correct": True}, {"id": "y", "text": "Y", "credit": 0.37}]},
        {"id": "c", "type": "essay", "stem": "S", "penalty": 0.1, "grader_info": "G"},
    ]}, indent=2), encoding="utf-8")
    shutil.copy(quiz, tmp_path / "a.json")
    (tmp_path / "a.json").write_text(quiz.read_text().replace('"id": "q"', '"id": "a-quiz"'), encoding="utf-8")
    code, report = validate_json(tmp_path)
    places = [(d["file"], d["line"], d["column"]) for d in report["diagnostics"]]
    assert places == sorted(places) and len(places) >= 8


# -- the reporter: default, quiet, verbose ------------------------------------------------------

def _many_losses(tmp_path: Path) -> Path:
    quiz = tmp_path / "losses.json"
    quiz.write_text(json.dumps({"id": "losses", "title": "T", "language": "en", "questions": [
        {"id": f"q{i}", "type": "essay", "stem": "S", "penalty": 0.1, "grader_info": "G"} for i in range(6)]}, indent=2), encoding="utf-8")
    return quiz


def test_default_shows_each_kind_of_loss_once_and_counts_them(tmp_path):
    result = runner.invoke(app, ["validate", str(_many_losses(tmp_path))])
    assert result.exit_code == 0
    warnings = [line for line in result.stdout.splitlines() if ": warning: " in line]
    code, report = validate_json(tmp_path / "losses.json")
    kinds = {(tuple(d["formats"]), d["code"]) for d in report["diagnostics"] if d["severity"] == "warning"}
    assert len(warnings) == len(kinds) < report["summary"]["warnings"]
    counted = [line for line in result.stdout.splitlines() if line.startswith("warnings by kind: ")]
    assert counted and "6 canvas, gift lost-grader-info" in counted[0] and "--verbose shows every one" in counted[0]
    # each loss is placed at the value lost
    assert any(line.startswith(f"{tmp_path / 'losses.json'}:") and "(at /questions/0/grader_info)" in line for line in warnings)


def test_verbose_shows_every_occurrence_and_quiet_none(tmp_path):
    quiz = _many_losses(tmp_path)
    verbose = runner.invoke(app, ["validate", str(quiz), "--verbose"])
    every = [line for line in verbose.stdout.splitlines() if ": warning: " in line]
    quiet = runner.invoke(app, ["validate", str(quiz), "--quiet"])
    assert not [line for line in quiet.stdout.splitlines() if ": warning: " in line]
    assert "warnings by kind:" in quiet.stdout
    code, report = validate_json(quiz)
    assert len(every) == report["summary"]["warnings"] == len([d for d in report["diagnostics"] if d["severity"] == "warning"])


def test_a_loss_of_several_formats_is_said_once_naming_them(tmp_path):
    quiz = tmp_path / "tags.json"
    quiz.write_text(json.dumps({"id": "tags", "title": "T", "language": "en", "questions": [
        {"id": "q", "type": "single_choice", "stem": "S", "shuffle": True, "options": [
            {"id": "a", "text": "A", "correct": True, "pinned": True}, {"id": "b", "text": "B"}]}]}, indent=2), encoding="utf-8")
    code, report = validate_json(quiz)
    pinned = [d for d in report["diagnostics"] if d["code"] == "moodle-pinned"]
    assert len(pinned) == 1 and pinned[0]["formats"] == ["moodle", "gift"]
    text = runner.invoke(app, ["validate", str(quiz)]).stdout
    assert ": warning: moodle, gift: Moodle cannot keep options in place" in text


def test_no_loss_is_reported_for_a_default_the_author_never_wrote(tmp_path):
    quiz = tmp_path / "essay.json"
    quiz.write_text(json.dumps({"id": "essay", "title": "T", "language": "en", "questions": [
        {"id": "q", "type": "essay", "stem": "S"}, {"id": "r", "type": "essay", "stem": "S", "lines": 20}]}, indent=2), encoding="utf-8")
    code, report = validate_json(quiz)
    sizes = [d for d in report["diagnostics"] if "response size" in d["message"]]
    assert [d["pointer"] for d in sizes] == ["/questions/1/lines"]


# -- examples/ ---------------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_examples_hold_one_complete_quiz_per_question_type(tmp_path):
    from lmsexport.model import QUESTION_TYPES
    from lmsexport.schema import quiz_schema

    schema = quiz_schema()["$defs"]
    files = sorted(EXAMPLES.glob("*.json"))
    assert [p.stem for p in files] == sorted(QUESTION_TYPES)
    common = set.intersection(*(set(schema[t]["properties"]) for t in QUESTION_TYPES))
    for path in files:
        question = json.loads(path.read_text(encoding="utf-8"))["questions"][0]
        assert question["type"] == path.stem
        own = set(schema[path.stem]["properties"]) - common
        assert own | {"id", "type", "title", "stem", "points", "explanation"} <= set(question), path.name
        options = question.get("options", [])
        if options:
            assert set(schema["choice"]["properties"]) <= {key for option in options for key in option}, path.name
    # GIFT has no ordering question and one blank per question: those two examples leave it out.
    without_gift = {"ordering", "fill_in_blanks"}
    code, report = validate_json(EXAMPLES, "--format", "qti,canvas,moodle")
    assert code == 0 and report["summary"]["errors"] == 0 and report["summary"]["quizzes"] == len(QUESTION_TYPES)
    code, report = validate_json(*(p for p in files if p.stem not in without_gift))
    assert code == 0, [d["message"] for d in report["diagnostics"] if d["severity"] == "error"]
    gift_errors = {Path(d["file"]).stem for d in validate_json(EXAMPLES)[1]["diagnostics"] if d["severity"] == "error"}
    assert gift_errors == without_gift
    build = runner.invoke(app, ["build", str(EXAMPLES), "-o", str(tmp_path / "out"), "--format", "qti,canvas,moodle"])
    assert build.exit_code == 0, build.output
    exports = [p for p in (tmp_path / "out").rglob("example-*") if ".lmsexport" not in p.parts]  # not the build cache
    assert len(exports) == 3 * len(QUESTION_TYPES)


def test_github_annotations_carry_every_warning_whatever_the_level(tmp_path):
    quiz = _many_losses(tmp_path)
    code, report = validate_json(quiz)
    for level in ([], ["--quiet"]):
        result = runner.invoke(app, ["validate", str(quiz), "--output-format", "github", *level])
        assert len([line for line in result.stdout.splitlines() if line.startswith("::warning ")]) == report["summary"]["warnings"]


@pytest.mark.parametrize("style", ["json", "text", "github"])
def test_validate_in_several_processes_reports_what_one_process_does(style, tmp_path, monkeypatch):
    """--jobs spreads the quizzes over processes; the report is the same, byte for byte: each
    outcome comes back with its diagnostics placed (line and column), and duplicate quiz ids
    across files are still found."""
    from lmsexport import pipeline

    bank = tmp_path / "bank"
    shutil.copytree(CONTENT, bank / "content")
    shutil.copytree(DATA, bank / "data")
    shutil.copy(CONTENT / "model-pipeline-parallelism.json", bank / "data" / "same-id.json")
    here: list[Path] = []  # quizzes processed in this process (a worker's appends stay in the worker)
    real = pipeline.process_quiz
    monkeypatch.setattr(pipeline, "process_quiz", lambda path, *args, **kwargs: here.append(path) or real(path, *args, **kwargs))
    one = runner.invoke(app, ["validate", str(bank), "--output-format", style, "--verbose"])
    in_one = len(here)
    two = runner.invoke(app, ["validate", str(bank), "--output-format", style, "--verbose", "--jobs", "2"])
    assert in_one > 20 and len(here) == in_one  # with --jobs 2 no quiz was processed here
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout and one.stderr == two.stderr
    assert "is already used by" in one.stdout and "1e400 is not a finite number" in one.stdout

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
    result = runner.invoke(app, ["validate", *map(str, paths), "--format", "json"])
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
    # The warnings are what build reports: losses of the formats (GIFT cannot state an option's language).
    assert report["summary"] == {"quizzes": 4, "questions": 30, "drafts": 5, "errors": 0, "warnings": 2,
                                 "formats": ["qti", "canvas", "moodle", "gift"]}
    assert {d["code"] for d in report["diagnostics"] if d["severity"] == "warning"} == {"moodle-language"}
    notes = [d for d in report["diagnostics"] if d["severity"] == "note" and d["code"] == "draft"]
    assert len(notes) == 5 and all("is a draft" in d["message"] for d in notes)


def test_default_path_is_content(monkeypatch):
    monkeypatch.chdir(CONTENT.parent)
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0
    assert result.stdout.strip().endswith("4 quizzes, 30 questions (5 drafts): 0 errors, 2 warnings")


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

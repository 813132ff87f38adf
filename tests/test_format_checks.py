"""`validate` is the one truth: each format's check finds every problem its writer reports, so
what `validate` passes `build` writes. Proved over the test corpus and over generated quizzes,
and case by case for what the writers can refuse."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import invalid_quiz, quiz as quizzes
from typer.testing import CliRunner

from conftest import CONTENT, DATA, ROOT
from lmsexport.cli import app
from lmsexport.formats import FORMATS
from lmsexport.loader import load_quiz
from lmsexport.pipeline import process_quiz, settle, unchecked
from lmsexport.writers.shared import ExportOptions

runner = CliRunner()
ALL = tuple(FORMATS)
OPTION_SETS = [ExportOptions(), ExportOptions(strict=True), ExportOptions(nearest_grade=True),
               ExportOptions(media_base_url="https://example.org/media/")]
CORPUS = sorted([*DATA.rglob("*.json"), *CONTENT.glob("*.json"), *(ROOT / "examples").glob("*.json")])


def _errors(outcome):
    return sorted((d.file, d.line, d.column, d.pointer, d.code, d.formats, d.message) for d in outcome.diagnostics if d.is_error)


def _agree(path: Path, options: ExportOptions) -> None:
    checked = process_quiz(path, ALL, options, render=False)
    built = process_quiz(path, ALL, options, render=True)
    assert _errors(checked) == _errors(built), path
    assert checked.diagnostics == built.diagnostics, path
    result = load_quiz(path)
    if result.ok:  # the writers themselves say nothing their check did not
        for name, fmt in FORMATS.items():
            checked, export = list(fmt.check(result.quiz, options)), fmt.render(result.quiz, options)
            said = unchecked(checked, export.diagnostics)
            assert said == [], (path, name, said)
            if not export.failed:  # build takes a writer's own word: it must be its check's, each at the same place
                assert sorted(map(repr, export.diagnostics)) == sorted(map(repr, checked)), (path, name)


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "strict", "nearest-grade", "media-base-url"])
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_validate_and_build_agree_over_the_corpus(path, options):
    _agree(path, options)


@st.composite
def troubled_quiz(draw):
    """A generated quiz, sometimes with what only a format refuses: credits off Moodle's list,
    the default split of many correct options, '->' in a short answer, a tab in a tag."""
    data = draw(quizzes(max_questions=4))
    trouble = draw(st.sampled_from(["none", "credit", "split", "arrow", "tag", "lines", "drafts"]))
    questions = data["questions"]
    if trouble == "credit":
        questions.append({"id": "credit", "type": "single_choice", "stem": "S", "options": [
            {"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": draw(st.sampled_from([0.37, 0.333, 0.01]))}]})
    elif trouble == "split":
        n = draw(st.sampled_from([7, 11, 12, 13]))
        questions.append({"id": "split", "type": "multiple_response", "stem": "S",
                          "options": [{"id": f"o{i}", "text": f"O{i}", "correct": i < n} for i in range(n + 1)]})
    elif trouble == "arrow":
        questions.append({"id": "arrow", "type": "short_answer", "stem": "S", "answers": [{"text": "a -> b"}]})
    elif trouble == "tag":
        questions[0]["tags"] = ["fine", "tab\there"]
    elif trouble == "drafts":
        for question in questions:
            question["draft"] = True
    elif trouble == "lines":
        questions.append({"id": "essay", "type": "essay", "stem": "S", "lines": draw(st.sampled_from([10, 15, 20]))})
    return data


@settings(max_examples=int(os.environ.get("LMSEXPORT_AGREE_EXAMPLES", "40")), deadline=None)
@given(data=troubled_quiz(), options=st.sampled_from(OPTION_SETS))
def test_validate_and_build_agree_over_generated_quizzes(tmp_path_factory, data, options):
    path = tmp_path_factory.mktemp("agree") / "quiz.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    _agree(path, options)


# Orders as the API may pass them: the family's shared rules are said by whichever comes first.
FORMAT_CHOICES = [ALL, ("moodle", "gift"), ("gift", "moodle"), ("qti", "gift", "canvas", "moodle"), ("moodle",), ("gift",),
                  ("canvas", "moodle"), ("gift", "qti")]


def _each_check_alone(path: Path, formats: tuple[str, ...], options: ExportOptions) -> tuple:
    """What validate says, the plain way: the loader's diagnostics and each format's check run on
    its own (Moodle XML and GIFT each saying the rules they share), settled together."""
    result = load_quiz(path, placed=False)
    found = list(result.diagnostics)
    if result.ok:
        for name in formats:
            found += FORMATS[name].check(result.quiz, options)
    return tuple(settle(found, options.strict, result.source))


@settings(max_examples=int(os.environ.get("LMSEXPORT_AGREE_EXAMPLES", "40")) * 2, deadline=None)
@given(data=troubled_quiz() | invalid_quiz().map(lambda case: case[1]), options=st.sampled_from(OPTION_SETS),
       formats=st.sampled_from(FORMAT_CHOICES))
def test_the_rules_moodle_xml_and_gift_share_said_once_are_what_both_checks_say(tmp_path_factory, data, options, formats):
    path = tmp_path_factory.mktemp("family") / "quiz.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    each_alone = _each_check_alone(path, formats, options)
    assert tuple(process_quiz(path, formats, options, render=False).diagnostics) == each_alone
    # build's writers say them once too, the first of the family for all
    assert tuple(process_quiz(path, formats, options, render=True).diagnostics) == each_alone


def test_the_rules_moodle_xml_and_gift_share_are_said_once_by_the_first_of_them():
    from lmsexport.formats import families

    assert families(ALL) == {"moodle": ("moodle", "gift"), "gift": ()}
    assert families(("gift", "qti", "moodle")) == {"gift": ("moodle", "gift"), "moodle": ()}
    assert families(("gift",)) == {} and families(("qti", "canvas")) == {}


# -- what a writer refuses, found by validate, at its place -------------------------------------

def _write(tmp_path: Path, questions: list, **quiz) -> Path:
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps({"id": "q", "title": "T", "language": "en", **quiz, "questions": questions}, indent=2), encoding="utf-8")
    return path


def _validate(*args) -> tuple[int, list[dict]]:
    result = runner.invoke(app, ["validate", *map(str, args), "--output-format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout)["diagnostics"]


@pytest.mark.parametrize("correct, suggestion", [
    (11, "for example 9 options at 0.1 and 2 at 0.05"),
    (13, "for example 7 options at 0.1 and 6 at 0.05"),
    (19, "for example 1 option at 0.1 and 18 at 0.05"),  # one option, said in the singular
])
def test_default_split_off_moodle_grades_is_found_by_validate_with_what_to_write(tmp_path, correct, suggestion):
    options = [{"id": f"o{i}", "text": f"Option {i}", "correct": i < correct} for i in range(correct + 1)]
    path = _write(tmp_path, [{"id": "many", "type": "multiple_response", "stem": "Pick", "options": options}])
    code, found = _validate(path)
    assert code == 1
    [grade] = [d for d in found if d["code"] == "moodle-grade"]
    assert grade["formats"] == ["moodle", "gift"]  # said once, for both formats
    assert grade["pointer"] == "/questions/0/options" and grade["line"] == 10
    assert f"the default split gives each of the {correct} correct options" in grade["message"]
    assert f"write a credit on each option instead, {suggestion} (and wrong options" in grade["message"]
    # validate says no more than build: build fails on the same error and writes nothing.
    build = runner.invoke(app, ["build", str(path), "-o", str(tmp_path / "out")])
    assert build.exit_code == 1 and "the default split gives each" in build.stderr
    assert not (tmp_path / "out" / "moodle").exists() or not any((tmp_path / "out" / "moodle").iterdir())


def test_suggested_credits_are_on_moodles_list_and_add_up_to_one():
    from lmsexport.writers.moodle.check import suggested_credits
    from lmsexport.writers.moodle.grades import exact_grade

    assert "no more than 20 correct options" in suggested_credits(21)
    for count in range(1, 21):
        words = suggested_credits(count).removeprefix("for example ").replace(" and", "").split(" at ")
        # '9 options at 0.1 2 at 0.05' -> [(9, 0.1), (2, 0.05)]
        numbers = " ".join(words).replace("options", "").replace("option", "").split()
        pairs = [(int(numbers[i]), float(numbers[i + 1])) for i in range(0, len(numbers), 2)]
        assert sum(n for n, _ in pairs) == count
        assert abs(sum(n * v for n, v in pairs) - 1) < 1e-6, count  # the content's own rule for full marks
        assert all(exact_grade(v) is not None for _, v in pairs)


# Between 11 and 19 correct options each would get between 1/19 and 1/11, between Moodle's grades
# 5% and 10%: the most even credits on the list mix those two (n options at 0.1, the rest at 0.05,
# n*0.1 + (count-n)*0.05 = 1), written by hand.
@pytest.mark.parametrize("count, suggestion", [
    (11, "for example 9 options at 0.1 and 2 at 0.05"),
    (12, "for example 8 options at 0.1 and 4 at 0.05"),
    (13, "for example 7 options at 0.1 and 6 at 0.05"),
    (14, "for example 6 options at 0.1 and 8 at 0.05"),
    (15, "for example 5 options at 0.1 and 10 at 0.05"),
    (16, "for example 4 options at 0.1 and 12 at 0.05"),
    (17, "for example 3 options at 0.1 and 14 at 0.05"),
    (18, "for example 2 options at 0.1 and 16 at 0.05"),
    (19, "for example 1 option at 0.1 and 18 at 0.05"),
    (21, "but Moodle's smallest grade is 5%, so no more than 20 correct options can share the marks: split the question"),
])
def test_the_suggested_credits_are_the_most_even_on_moodles_list(count, suggestion):
    from lmsexport.writers.moodle.check import suggested_credits

    assert suggested_credits(count) == suggestion


def test_seven_correct_options_are_on_moodles_list(tmp_path):
    options = [{"id": f"o{i}", "text": f"Option {i}", "correct": i < 7} for i in range(8)]
    code, found = _validate(_write(tmp_path, [{"id": "seven", "type": "multiple_response", "stem": "Pick", "options": options}]))
    assert code == 0 and not [d for d in found if d["code"] == "moodle-grade"]


def test_explicit_credit_off_the_list_is_located_at_the_credit(tmp_path):
    path = _write(tmp_path, [{"id": "s", "type": "single_choice", "stem": "S", "options": [
        {"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": 0.37}]}])
    code, found = _validate(path)
    assert code == 1
    [grade] = [d for d in found if d["code"] == "moodle-grade"]
    assert (grade["pointer"], grade["line"], grade["formats"]) == ("/questions/0/options/1/credit", 19, ["moodle", "gift"])
    # --format narrows: without the Moodle family nothing refuses it.
    result = runner.invoke(app, ["validate", str(path), "--format", "qti,canvas"])
    assert result.exit_code == 0


def test_gift_short_answer_with_an_arrow_is_found_by_validate(tmp_path):
    path = _write(tmp_path, [{"id": "s", "type": "short_answer", "stem": "S", "answers": [{"text": "ok"}, {"text": "a -> b", "credit": 0.5}]}])
    code, found = _validate(path)
    assert code == 1
    [arrow] = [d for d in found if d["code"] == "gift-unwritable"]
    assert (arrow["pointer"], arrow["formats"], arrow["line"]) == ("/questions/0/answers/1/text", ["gift"], 15)
    assert runner.invoke(app, ["validate", str(path), "--format", "moodle"]).exit_code == 0


def test_a_tab_in_a_tag_is_reported_at_the_tag_once_for_both_moodle_formats(tmp_path):
    path = _write(tmp_path, [{"id": "s", "type": "essay", "stem": "S", "tags": ["fine", "tab\there"]},
                             {"id": "t", "type": "essay", "stem": "T"}], tags=["quiz\ttag"])
    code, found = _validate(path, "--strict")
    assert code == 1
    tags = [d for d in found if d["code"] in ("moodle-tag", "gift-tag")]
    assert {d["pointer"] for d in tags} == {"/questions/0/tags/1", "/tags/0"}
    # The quiz's tag applies to both questions but is one value: said once per format rule.
    assert len([d for d in tags if d["pointer"] == "/tags/0"]) == 2  # Moodle's rule and GIFT's
    assert all(d["severity"] == "error" and d["line"] for d in tags)


def test_the_same_quiz_id_in_two_files_is_found_by_validate(tmp_path):
    for name in ("a.json", "b.json"):
        shutil.copy(CONTENT / "model-pipeline-parallelism.json", tmp_path / name)
    code, found = _validate(tmp_path)
    assert code == 1
    [duplicate] = [d for d in found if d["code"] == "duplicate-id"]
    assert duplicate["file"].endswith("b.json") and duplicate["pointer"] == "/id" and duplicate["line"] == 3


def test_an_unsafe_media_base_url_is_refused_by_the_gift_check_itself():
    from lmsexport.pipeline import export_quiz

    quiz = load_quiz(DATA / "media" / "media_and_math.json").quiz
    refused = export_quiz(quiz, "gift", ExportOptions(media_base_url="javascript:alert(1)//"))
    assert refused.data is None
    assert [d.code for d in refused.diagnostics if d.is_error] == ["gift-media-base-url"]
    assert export_quiz(quiz, "gift", ExportOptions(media_base_url="https://example.org/m/")).data is not None


def _readme_formats() -> list[tuple[str, str]]:
    """(target, file) of each row of the README's opening table of formats."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("| target | file | for |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split(" | ") for line in table.strip().splitlines()[1:]]
    return [(cells[0].lstrip("| "), cells[1]) for cells in rows]


def test_the_readme_table_is_the_registry():
    assert _readme_formats() == [(f.title, f"`exports/{f.folder}/<quiz>{f.extension}`") for f in FORMATS.values()]


def test_the_registry_is_what_the_cli_shows():
    root_help = runner.invoke(app, ["--help"]).stdout
    build_help = " ".join(runner.invoke(app, ["build", "--help"]).stdout.split())
    for fmt in FORMATS.values():
        assert fmt.name in root_help and fmt.name in build_help
        assert callable(fmt.check) and callable(fmt.render)


@pytest.mark.parametrize("credit", [0.9999995, 0.9999999])
def test_full_credit_means_the_same_to_validation_and_every_writer(tmp_path, credit):
    path = _write(tmp_path, [{"id": "s", "type": "short_answer", "stem": "S", "answers": [{"text": "x", "credit": credit}]},
                             {"id": "n", "type": "numerical", "stem": "N", "answers": [{"value": 1, "credit": credit}]}])
    code, found = _validate(path)
    assert code == 0 and not [d for d in found if d["severity"] != "note"], found
    build = runner.invoke(app, ["build", str(path), "-o", str(tmp_path / "out")])
    assert build.exit_code == 0, build.output
    assert len([p for p in (tmp_path / "out").rglob("q.*") if ".lmsexport" not in p.parts]) == 4  # not the build cache


def test_the_one_definition_of_what_xml_cannot_carry_is_lxmls():
    from lxml import etree

    from lmsexport.model import NOT_XML

    for code in [*range(0x0, 0x110), *range(0xD7F0, 0xE010), 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF]:
        character = chr(code)
        try:
            etree.fromstring(f"<a>&#{code};</a>")
            refused = False
        except etree.XMLSyntaxError:
            refused = True
        assert bool(NOT_XML.search(character)) == refused, hex(code)


# -- the QTI check renders only the Markdown that could hold what QTI refuses or loses ----------

_MARKDOWN_PIECES = ["# ", "## ", "> ", "- ", "* ", "+ ", "1. ", "2) ", "10. ", "```", "~~~", "    ", "**", "*", "_", "`", "---",
                    "***", "===", "|", " | ", "[", "](", "]: ", "!", "<", ">", "&", "&copy;", "&#0;", "\n", "\n\n", "  \n", "\t",
                    "word", "ëé", "x", "(", ")", '"', "'", ":", "#", "~", "\\", "$", "http://a.b", "<http://a.b>", "1", ".",
                    # what the check leaves unrendered: a backslash before anything but ( and [, an & that starts no entity
                    "\\(", "\\)", "\\[", "\\]", "\\*", "\\\n", "C:\\p", "&D", "&x;", "&#", "&#10;", "&#x1F600;", ";"]


@settings(max_examples=int(os.environ.get("LMSEXPORT_AGREE_EXAMPLES", "40")) * 10, deadline=None)
@given(pieces=st.lists(st.sampled_from(_MARKDOWN_PIECES), min_size=1, max_size=30))
def test_markdown_the_qti_check_does_not_render_renders_to_what_qti_takes_as_it_is(pieces):
    from lmsexport import text as rich
    from lmsexport.model import Text, TextFormat
    from lmsexport.writers.qti.check import _cannot_trouble_qti
    from lmsexport.writers.qti.context import ITEM_STYLE
    from lmsexport.writers.qti.xhtml import fragment

    text = Text("".join(pieces), TextFormat.MARKDOWN)
    if _cannot_trouble_qti(text):
        for html in (rich.to_html(text, ITEM_STYLE), rich.to_inline_html(text, ITEM_STYLE)):
            found = fragment(html)
            assert found.errors == () and found.lost == (), (text.source, html)


@pytest.mark.parametrize("source", ["| a | b |\n|:--|--:|\n| 1 | 2 |", "2. second\n3. third", "- 5. nested", "> 7) quoted",
                                    '[a](https://a.b "title")', "![x](a.png 'title')", "$x^$", "<b>raw</b>", "&#0;", "&#x0;",
                                    "&nbsp; x", "\\(x^\\)", "\\[x^\\]", "a \\[x^\\] b"])
def test_markdown_that_could_trouble_qti_is_rendered_by_the_check(source):
    from lmsexport.model import Text, TextFormat
    from lmsexport.writers.qti.check import _cannot_trouble_qti

    assert not _cannot_trouble_qti(Text(source, TextFormat.MARKDOWN))
    assert not _cannot_trouble_qti(Text(source, TextFormat.HTML))


def test_what_the_unrendered_syntax_excludes_does_give_qti_diagnostics(tmp_path):
    """The rule is not idle: a table and a list starting at 2 lose something in QTI."""
    path = _write(tmp_path, [{"id": "q", "type": "essay", "stem": {"text": "| a | b |\n|:--|--:|\n| 1 | 2 |\n\n2. x\n3. y",
                                                                    "format": "markdown"}}])
    code, diagnostics = _validate(path)
    lost = {d["message"] for d in diagnostics if d["code"] == "qti-loss"}
    assert any("table column alignment" in m for m in lost) and any("first number" in m for m in lost), diagnostics


def test_a_quiz_of_drafts_only_is_a_note_of_every_format_and_no_file(tmp_path):
    path = _write(tmp_path, [{"id": "d", "type": "essay", "stem": "S", "draft": True}])
    code, found = _validate(path)
    assert code == 0
    notes = sorted((d["formats"], d["severity"], d["pointer"], d["message"]) for d in found if d["code"] == "nothing-to-export")
    assert notes == [([name], "note", "", f"no question to export (all are drafts): no {shown} file is written")
                     for name, shown in (("canvas", "Canvas"), ("gift", "GIFT"), ("moodle", "Moodle XML"), ("qti", "QTI"))]
    build = runner.invoke(app, ["build", str(path), "-o", str(tmp_path / "out")])
    assert build.exit_code == 0 and not [p for p in (tmp_path / "out").rglob("*") if p.is_file() and ".lmsexport" not in p.parts]


# Moodle reads a $CATEGORY line through escapedchar_pre alone: the writer doubles backslashes,
# and escapes and placeholders reach Moodle as written; only '&&092;' becomes a backslash.
@pytest.mark.parametrize("title, section_title, changed", [
    ("A \\# B", "S", None),  # GIFT's escape in the quiz's category
    ("A B", "x &&058; y", None),  # Moodle's placeholder in a section's subcategory
    ("A # B", "x ~ y", None),  # GIFT's specials
    ("A &&092; B", "S", "/title"),
    ("A B", "x &&092;", "/sections/0/title"),
])
def test_a_category_path_moodle_would_change_is_a_gift_loss(tmp_path, title, section_title, changed):
    path = _write(tmp_path, [{"id": "e", "type": "essay", "stem": "E"}], title=title,
                  sections=[{"id": "s", "title": section_title, "questions": ["e"]}])
    code, found = _validate(path)
    assert code == 0
    losses = [(d["severity"], d["pointer"], d["formats"], d["message"]) for d in found if d["code"] == "gift-category"]
    assert losses == ([("warning", changed, ["gift"], "category name: Moodle's GIFT import turns '&&092;' in a $CATEGORY line into a backslash")]
                      if changed else [])


def test_media_in_the_quiz_description_is_a_moodle_xml_loss_at_the_description(tmp_path):
    shutil.copytree(DATA / "media" / "media", tmp_path / "media")
    path = _write(tmp_path, [{"id": "e", "type": "essay", "stem": "E"}],
                  description={"text": "See ![a ring of four GPUs](media/ring.png) and ![a bubble](media/bubble.svg)",
                               "format": "markdown"})
    code, found = _validate(path)
    assert code == 0
    losses = [(d["severity"], d["pointer"], d["formats"], d["message"]) for d in found if d["code"] == "moodle-media"]
    assert losses == [("warning", "/description", ["moodle"], "the description's media files (media/ring.png, media/bubble.svg) cannot ride with "
                                                             "a Moodle category description: Moodle will show them broken")]


def test_with_the_nearest_grade_the_default_split_off_moodles_list_is_a_loss_naming_the_grade(tmp_path):
    options = [{"id": f"o{i}", "text": f"Option {i}", "correct": i < 11} for i in range(12)]
    path = _write(tmp_path, [{"id": "many", "type": "multiple_response", "stem": "Pick", "options": options}])
    code, found = _validate(path, "--nearest-grade")
    assert code == 0
    losses = [(d["severity"], d["pointer"], d["formats"], d["message"]) for d in found if d["code"] == "moodle-grade"]
    # 1/11 = 0.0909091 lies between Moodle's 5% and 10%: 10% is nearer.
    assert losses == [("warning", "/questions/0/options", ["moodle", "gift"],
                       "the default split gives each of the 11 correct options 0.0909091, which is not one of Moodle's "
                       "grade fractions; written as the nearest one, 10% (the score changes)")]


# What the corpus lacks: a cloze question's points written as its blanks' weights (the header's
# own points, not the question's), and a credit off Moodle's list beside other rules of its
# question, which the check judges with the nearest grade whatever the options say.
_ODD_POINTS_AND_CREDITS = [
    {"id": "cloze-points", "type": "fill_in_blanks", "points": 0.123456789, "penalty": 0.123456789,
     "stem": "A ring all-reduce over [[gpus]] GPUs.",
     "blanks": [{"id": "gpus", "type": "numerical", "answers": [{"value": 8}]}]},
    {"id": "off-list", "type": "single_choice", "points": 0.123456789, "penalty": 0.33,
     "stem": "Which rank holds the tensor?", "tags": ["all reduce", "all-reduce", "All-Reduce"],
     "feedback": {"correct": "Right", "incorrect": "No"},
     "options": [{"id": "a", "text": "Every rank", "correct": True, "feedback": "Yes"},
                 {"id": "b", "text": "Rank 0", "credit": 0.33, "feedback": "Only the root", "pinned": True},
                 {"id": "c", "text": "None"}]},
    {"id": "off-list-many", "type": "multiple_response", "points": 0.123456789,
     "stem": "Which hold it?", "options": [{"id": "a", "text": "Every rank", "correct": True, "credit": 0.37},
                                           {"id": "b", "text": "Rank 0", "correct": True, "credit": 0.63},
                                           {"id": "c", "text": "None", "credit": -0.33}]},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "strict", "nearest-grade", "media-base-url"])
def test_validate_and_build_agree_over_odd_points_and_credits(tmp_path, options):
    path = _write(tmp_path, _ODD_POINTS_AND_CREDITS)
    assert load_quiz(path).ok  # the writers' side of _agree needs a quiz that loads
    _agree(path, options)

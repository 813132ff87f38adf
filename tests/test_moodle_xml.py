"""Moodle XML: every export is read back the way Moodle's importer reads it and compared with the content."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import CONTENT, DATA
from quizzes import loaded, quiz_of
from lxml import etree
from moodle_checks import (
    HOSTILE,
    HOSTILE_DESCRIPTION,
    HOSTILE_LEVEL,
    assert_same_languages,
    assert_same_quiz,
    assert_same_text,
    hostile_quiz,
)
from shown_text import shows

from lmsexport.diagnostics import Severity
from lmsexport.model import Text, TextFormat
from lmsexport.importers.moodle.reader import read_moodle_xml
from lmsexport.writers.moodle import moodle_xml
from lmsexport.writers.moodle.grades import GRADES, exact_grade
from lmsexport.writers.shared import ExportOptions
from lmsexport.pipeline import export_quiz

QUIZZES = sorted(CONTENT.glob("*.json")) + [DATA / "every_type.json"]


def export(quiz, **options):
    result = moodle_xml.render(quiz, ExportOptions(**options))
    assert not result.failed, [d.message for d in result.diagnostics if d.is_error]
    return result


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_every_quiz_reads_back_the_same(path):
    quiz = loaded(path)
    result = export(quiz)
    assert result.filename == f"{quiz.id}.xml"
    assert_same_quiz(read_moodle_xml(result.data), quiz, full=True)


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_a_hostile_string_in_every_field_survives(path):
    quiz = hostile_quiz(loaded(path))
    assert_same_quiz(read_moodle_xml(export(quiz).data), quiz, full=True)


def test_markdown_variant_survives():
    quiz = hostile_quiz(loaded(DATA / "every_type.json"))
    quiz = dataclasses.replace(quiz, questions=tuple(
        dataclasses.replace(q, stem=Text(HOSTILE, TextFormat.MARKDOWN)) for q in quiz.questions))
    assert_same_quiz(read_moodle_xml(export(quiz).data), quiz, full=True)


def test_structure_is_what_moodle_reads():
    quiz = loaded(DATA / "every_type.json")
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
    quiz = loaded(DATA / "every_type.json")
    assert export(quiz).data == export(loaded(DATA / "every_type.json")).data


def test_drafts_only_gives_no_file_and_a_note():
    quiz = loaded(DATA / "every_type.json")
    drafts = dataclasses.replace(quiz, questions=tuple(dataclasses.replace(q, draft=True) for q in quiz.questions))
    result = moodle_xml.render(drafts, ExportOptions())
    assert result.data is None and not result.failed
    assert [d.severity for d in result.diagnostics] == [Severity.NOTE]


def _with_credit(credit: float):
    quiz = loaded(DATA / "every_type.json")
    single = quiz.questions[0]
    choices = (single.choices[0], dataclasses.replace(single.choices[2], credit=credit)) + single.choices[3:]
    return dataclasses.replace(quiz, questions=(dataclasses.replace(single, choices=choices),))


def test_thirds_map_onto_moodles_list():
    assert exact_grade(1 / 3) == "33.33333" and exact_grade(-2 / 3) == "-66.66667" and exact_grade(1 / 7) == "14.28571"
    root = etree.fromstring(export(_with_credit(1 / 3)).data)
    assert root.findall("question/answer")[1].get("fraction") == "33.33333"


# Moodle's match of a credit against its list (lib/questionlib.php, match_grade_options with
# 'error', Moodle 4.5), over the fractions of question/engine/bank.php as Moodle keys them: a
# fraction is matched when it is less than 0.00001 away; at exactly that distance it is not.
_MOODLE_MATCHES_GRADE = r"""
$raw = [0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25, 0.2, 0.1666667,
        0.1428571, 0.125, 0.1111111, 0.1, 0.05];
$full = ['0.0' => 1, '1.0' => 1];
foreach ($raw as $fraction) { $full["{$fraction}"] = 1; }
foreach (array_reverse($raw) as $fraction) { $full['' . (-$fraction)] = 1; }
$full['-1.0'] = 1;
foreach (json_decode(stream_get_contents(STDIN)) as $grade) {
    $match = 'false';
    foreach ($full as $value => $option) {
        if (abs($grade - $value) < 0.00001) { $match = (string) $value; break; }
    }
    echo $match, "\n";
}
"""


def test_a_credit_at_moodles_tolerance_from_a_grade_is_refused_as_moodle_refuses_it():
    import json
    import shutil
    import subprocess

    credits = [1e-05, -1e-05, 9.99999e-06, -9.99999e-06, 0.10001, 0.1 + 9.9e-06, 1 - 9.9e-06, 0.8333333 + 9e-06, 0.52]
    assert [exact_grade(c) for c in credits] == [None, None, "0", "0", "10", "10", "100", "83.33333", None]
    if shutil.which("php") is None:
        pytest.skip("php is not installed: Moodle's grade match cannot run (apt-get install php-cli)")
    php = subprocess.run(["php", "-r", _MOODLE_MATCHES_GRADE], input=json.dumps(credits), capture_output=True, text=True)
    assert php.returncode == 0, php.stderr
    assert php.stdout.split() == ["false", "false", "0.0", "0.0", "0.1", "0.1", "1.0", "0.8333333", "false"]


def test_a_credit_off_the_list_is_an_error():
    result = moodle_xml.render(_with_credit(0.33), ExportOptions())
    assert result.data is None and result.failed
    assert any(d.code == "moodle-grade" and "33.33333" in d.message for d in result.diagnostics)


def test_nearest_grade_is_an_explicit_warning():
    result = moodle_xml.render(_with_credit(0.33), ExportOptions(nearest_grade=True))
    assert not result.failed
    assert any(d.severity is Severity.WARNING and d.code == "moodle-grade" for d in result.diagnostics)
    assert etree.fromstring(result.data).findall("question/answer")[1].get("fraction") == "33.33333"
    strict = export_quiz(_with_credit(0.33), "moodle", ExportOptions(nearest_grade=True, strict=True))
    assert strict.failed and strict.data is None


def test_strict_turns_losses_into_errors():
    quiz = loaded(DATA / "every_type.json")  # a pinned option and an option in French
    assert not moodle_xml.render(quiz, ExportOptions()).failed
    assert export_quiz(quiz, "moodle", ExportOptions(strict=True)).failed


def test_moodles_own_invalid_grade_fixture_is_refused(shared_dir):
    # Moodle's fixture holds fraction="33": Moodle rejects it, and so does our grade list.
    read = read_moodle_xml((shared_dir / "fixtures/moodle_xml/moodle_error_invalid_grades.xml").read_bytes())
    credits = [c.credit for c in read.questions[0].choices]
    assert [exact_grade(c) for c in credits] == ["-50", None, "33.33333", "-50", "33.33333"]


# (file as named on disk, its address in HTML, Moodle's file name and file path): Moodle's file
# areas give each file a path that starts and ends with '/', the root being '/' alone.
MEDIA_PLACES = [
    ("media/ring one.png", "media/ring%20one.png", "ring one.png", "/media/"),
    ("ring.png", "ring.png", "ring.png", "/"),
    ("media/figures/ring.png", "media/figures/ring.png", "ring.png", "/media/figures/"),
]


@pytest.mark.parametrize("path, address, name, folder", MEDIA_PLACES, ids=[p[0] for p in MEDIA_PLACES])
def test_media_files_ride_inside_their_text(path, address, name, folder):
    import base64

    from lmsexport.model import MediaFile

    quiz = loaded(DATA / "every_type.json")
    png = b"\x89PNG\r\n\x1a\n fake"
    stem = Text(f"See ![ring](<{path}>).", TextFormat.MARKDOWN)
    question = dataclasses.replace(quiz.questions[2], stem=stem)
    # The model names each file as it is named on disk; addresses in HTML are percent-encoded.
    quiz = dataclasses.replace(quiz, questions=(question,), media=(MediaFile(path, png, "image/png"),))
    text = etree.fromstring(export(quiz).data).find("question[@type='truefalse']/questiontext")
    assert f'src="@@PLUGINFILE@@/{address}"' in text.findtext("text")
    [file] = text.findall("file")
    assert (file.get("name"), file.get("path"), file.get("encoding")) == (name, folder, "base64")
    assert base64.b64decode(file.text) == png


# -- languages -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_languages_are_stated_and_read_back(path):
    quiz = loaded(path)
    result = export(quiz)
    assert "moodle-language" not in {d.code for d in result.diagnostics}
    read = read_moodle_xml(result.data, language=quiz.language)
    assert_same_languages(read, quiz, options=True)
    assert_same_languages(read_moodle_xml(export(hostile_quiz(quiz)).data, language=quiz.language), quiz, options=True)


def test_a_language_is_an_html_wrapper_with_the_same_characters():
    quiz = loaded(CONTENT / "sequence-parallelism-ring-attention.json")
    root = etree.fromstring(export(quiz).data)
    english = [q for q in quiz.exported_questions if q.language == "en"][0]
    element = root.find(f"question[idnumber='{english.id}']")
    stem = element.find("questiontext")
    assert stem.get("format") == "html"
    assert stem.findtext("text").startswith('<div lang="en">') and stem.findtext("text").endswith("</div>")
    assert shows(stem.findtext("text"), english.stem)
    # An option in Wolof inside an English question states its own language.
    question = next(q for q in quiz.exported_questions if any(c.language for c in getattr(q, "choices", ())))
    choice_index, choice = next((i, c) for i, c in enumerate(question.choices) if c.language)
    answer = root.find(f"question[idnumber='{question.id}']").findall("answer")[choice_index]
    assert answer.get("format") == "html"
    assert answer.findtext("text").startswith(f'<span lang="{choice.language}">') and answer.findtext("text").endswith("</span>")
    assert shows(answer.findtext("text"), choice.text)


def test_a_markdown_option_with_blocks_gets_a_div():
    quiz = loaded(DATA / "every_type.json")
    single = quiz.questions[0]
    choices = (dataclasses.replace(single.choices[0], text=Text("one\n\ntwo", TextFormat.MARKDOWN), language="wo"),) + single.choices[1:]
    quiz = dataclasses.replace(quiz, questions=(dataclasses.replace(single, choices=choices),))
    text = etree.fromstring(export(quiz).data).find("question/answer").findtext("text")
    assert text == '<div lang="wo"><p>one</p>\n<p>two</p></div>'
    read = read_moodle_xml(export(quiz).data, language=quiz.language)
    assert read.questions[0].choices[0].language == "wo"
    assert read.questions[0].choices[0].text.source == "<p>one</p>\n<p>two</p>"


# -- quiz metadata ---------------------------------------------------------------------------------

def _with_metadata(path, **changes):
    return dataclasses.replace(loaded(path), **changes)


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_metadata_survives(path):
    quiz = loaded(path)
    read = read_moodle_xml(export(quiz).data)
    assert (read.level, read.learning_path) == (quiz.level, quiz.learning_path)
    assert_same_text(read.description, quiz.description, "description")


def test_hostile_metadata_survives_character_for_character():
    quiz = _with_metadata(CONTENT / "model-pipeline-parallelism.json", level=HOSTILE_LEVEL, learning_path=HOSTILE_LEVEL[::-1],
                          description=Text(HOSTILE_DESCRIPTION))
    data = export(quiz).data
    info = etree.fromstring(data).find("question[@type='category']/info")
    assert info.get("format") == "html" and '<p class="quiz-level">' in info.findtext("text")
    read = read_moodle_xml(data)
    assert (read.level, read.learning_path, read.description) == (quiz.level, quiz.learning_path, quiz.description)


def test_markdown_description_with_level_reads_back_as_html():
    quiz = _with_metadata(DATA / "every_type.json", level="B2", learning_path=None)
    read = read_moodle_xml(export(quiz).data)
    assert read.level == "B2" and read.learning_path is None
    assert_same_text(read.description, quiz.description, "description")


# -- media and math --------------------------------------------------------------------------------

MEDIA = DATA / "media" / "media_and_math.json"


def _texts_with_media(quiz):
    """(question, text) for every text of a question that shows a media file."""
    from lmsexport.text import media_references
    for question in quiz.exported_questions:
        for _, text in question.texts():
            if text is not None and media_references(text):
                yield question, text


def test_every_media_file_rides_in_each_text_that_uses_it():
    import base64

    from lmsexport.text import media_references

    quiz = loaded(MEDIA)
    assert {m.mime for m in quiz.media} >= {"image/png", "image/svg+xml", "audio/mpeg"}
    root = etree.fromstring(export(quiz).data)
    checked = 0
    for question, text in _texts_with_media(quiz):
        element = root.find(f"question[idnumber='{question.id}']")
        holders = [e for e in element.iter() if e.find("text") is not None and e.find("file") is not None]
        paths = media_references(text)
        # The XML field whose <text> renders this content text.
        holder = next(h for h in holders if all(f"@@PLUGINFILE@@/{p}" in h.findtext("text") for p in paths))
        files = {f.get("path") + f.get("name"): base64.b64decode(f.text) for f in holder.findall("file")}
        for path in paths:
            assert files["/" + path] == quiz.media_file(path).data
            assert f'"@@PLUGINFILE@@/{path}"' in holder.findtext("text")
            checked += 1
    assert checked >= 6  # ring (stem and feedback), schedule, bubble, ring again, clip


def test_every_formula_survives_for_mathjax():
    quiz = loaded(MEDIA)
    read = read_moodle_xml(export(quiz).data)
    stems = {q.id: q.stem.source for q in read.questions}
    assert "\\[M = 2 + 2 + 12 = \\sum_{k} b_k\\]" in stems["memory"] and "\\(M\\)" in stems["memory"]
    assert "\\(e^{m_{old} - m_{new}}\\)" in stems["softmax"]
    assert "\\[\\ell_{new} = \\ell_{old}\\, e^{m_{old}-m_{new}} + \\sum_j e^{x_j - m_{new}}\\]" in stems["softmax"]
    assert "\\(2\\frac{N-1}{N}\\)" in read.questions[0].feedback.general.source
    # "$2 and ... $1" is money, not a formula.
    assert "$2" in stems["price"] and "\\(" not in stems["price"]
    assert "\\(M = 16\\Psi\\)" in read.description.source


def test_outcome_feedback_of_short_answer_and_numerical_is_a_warning():
    from lmsexport.canonical import build_quiz

    quiz = build_quiz({"id": "outcome", "title": "Outcome", "language": "en", "questions": [
        {"id": "s", "type": "short_answer", "stem": "Name it.", "answers": [{"text": "NCCL"}], "feedback": {"incorrect": "No."}},
        {"id": "n", "type": "numerical", "stem": "How many?", "answers": [{"value": 4}], "feedback": {"correct": "Yes.", "partially_correct": "Close."}},
    ]}, "outcome.json")
    result = moodle_xml.render(quiz, ExportOptions())
    warnings = [d for d in result.diagnostics if d.code == "lost-outcome-feedback"]
    assert [(d.pointer, d.message) for d in warnings] == [
        ("/questions/0/feedback", "no incorrect feedback by outcome (only feedback by answer): it is left out"),
        ("/questions/1/feedback", "no correct, partially correct feedback by outcome (only feedback by answer): it is left out"),
    ]
    assert export_quiz(quiz, "moodle", ExportOptions(strict=True)).data is None


def test_category_names_longer_than_moodle_stores_are_cut_with_a_warning():
    from lmsexport.canonical import build_quiz

    quiz = build_quiz({"id": "long", "title": "T" * 300, "language": "en", "category": ["C" * 260],
                       "questions": [{"id": "q", "type": "true_false", "stem": "s", "answer": True}]}, "long.json")
    result = export(quiz)
    category = etree.fromstring(result.data).findtext("question[@type='category']/category/text")
    assert category == "$course$/top/" + "C" * 255 + "/" + "T" * 255
    assert len([d for d in result.diagnostics if d.code == "moodle-category"]) == 2


# -- what Moodle's own parser needs --------------------------------------------------------------

def test_every_text_with_an_escaped_character_is_one_cdata_section():
    # Moodle's parser drops a chunk of character data that is only white space, and each entity
    # is a chunk: "&lt; &gt;" would arrive as "<>". A CDATA section is one chunk.
    data = export(loaded(DATA / "hostile_strings.json")).data.decode()
    assert "<text><![CDATA[Is < > or & & right?]]></text>" in data
    assert "<text><![CDATA[<b> <i>]]></text>" in data
    assert "<text><![CDATA[<strong>ring</strong> <em>attention</em>]]></text>" in data
    assert "<text><![CDATA[Option feedback & & ]]]]><![CDATA[>]]></text>" in data
    assert "&lt;" not in "".join(line for line in data.splitlines() if "<text>" in line and "CDATA" not in line)
    for element in etree.fromstring(data.encode()).iter("text"):
        assert "]]>" not in (element.text or "") or "]]>" in data


def test_a_carriage_return_rides_inside_cdata():
    quiz = loaded(DATA / "every_type.json")
    stem = Text("line\rnext & more")
    quiz = dataclasses.replace(quiz, questions=(dataclasses.replace(quiz.questions[0], stem=stem),))
    assert "<text><![CDATA[line\rnext & more]]></text>" in export(quiz).data.decode()


def test_a_range_is_an_exact_decimal_value_and_tolerance():
    root = etree.fromstring(export(loaded(DATA / "hostile_strings.json")).data)
    numerical = root.find("question[@type='numerical']")
    pairs = [(a.findtext("text"), a.findtext("tolerance")) for a in numerical.findall("answer")]
    # In doubles [0.1, 0.3] gives 0.09999999999999999 and [0.2, 0.7] 0.44999999999999996.
    assert pairs == [("0.2", "0.1"), ("0.45", "0.25"), ("1.2", "0.1")]
    assert "moodle-range" not in {d.code for d in export(loaded(DATA / "hostile_strings.json")).diagnostics}


def test_difficulty_and_source_have_no_place_a_note():
    notes = [d for d in export(loaded(DATA / "every_type.json")).diagnostics if d.code == "moodle-metadata"]
    assert [d.severity for d in notes] == [Severity.NOTE]
    assert "difficulty" in notes[0].message and "source" in notes[0].message
    bare = dataclasses.replace(loaded(DATA / "every_type.json"), difficulty=None, source=None)
    assert "moodle-metadata" not in {d.code for d in export(bare).diagnostics}


def test_a_cloze_question_carries_each_media_file_it_shows_once(tmp_path):
    import base64
    import json
    import shutil

    media = DATA / "media" / "media"
    shutil.copytree(media, tmp_path / "media")
    question = {"id": "pictured", "type": "fill_in_blanks", "points": 1,
                "stem": "![ring](media/ring.png) then ![plan](media/schedule.png): [[size]] and ![ring](media/ring.png)",
                "blanks": [{"id": "size", "type": "short_answer", "answers": [{"text": "large", "feedback": "![ring](media/ring.png)"}]}]}
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps({"id": "q", "title": "T", "language": "en", "text_format": "markdown", "questions": [question]}),
                    encoding="utf-8")
    text = etree.fromstring(export(loaded(path)).data).find("question[@type='cloze']/questiontext")
    files = [(f.get("name"), f.get("path"), base64.b64decode(f.text)) for f in text.findall("file")]
    assert files == [("ring.png", "/media/", (media / "ring.png").read_bytes()),
                     ("schedule.png", "/media/", (media / "schedule.png").read_bytes())]
    assert text.findtext("text").count("@@PLUGINFILE@@/media/ring.png") == 3  # twice in the stem, once in a feedback


# Moodle's grading of a numerical answer (question/type/numerical/question.php, Moodle 4.5:
# get_tolerance_interval, nominal tolerance, and within_tolerance), run by PHP on the value and
# tolerance as the file holds them: whether a response at each bound of the range is accepted.
_MOODLE_ACCEPTS_BOUNDS = r"""
$epsilon = pow(10, -1 * ini_get('precision'));
foreach (json_decode(stream_get_contents(STDIN), true) as [$answer, $tolerance, $low, $high]) {
    $answer = (float) $answer; $tolerance = (float) $tolerance;
    $tolerance = $tolerance + $epsilon * max(abs($tolerance), abs($answer), $epsilon);
    [$min, $max] = [$answer - $tolerance, $answer + $tolerance];
    echo ($min <= (float) $low && (float) $low <= $max && $min <= (float) $high && (float) $high <= $max) ? "1\n" : "0\n";
}
"""


def test_moodle_grading_accepts_both_bounds_of_each_range_as_written_and_nothing_is_said_lost():
    import json
    import random
    import shutil
    import subprocess

    from quizzes import quiz_of

    if shutil.which("php") is None:
        pytest.skip("php is not installed: Moodle's numerical grading cannot run (apt-get install php-cli)")
    # Ranges whose bounds, in doubles, lie a rounding error off value ± tolerance: Moodle's margin
    # (10^-14 of the largest of value and tolerance) takes them in; one about 0, one far from it,
    # one wide about 0, one of a single number and one centred on 0.
    ranges = [(55.258829, 59.637828999999996), (-393262.9781341648, -393262.39055355865),
              (-650499240.6628883, 650499240.7628883), (2.0, 2.0), (-1.0, 1.0)]
    # And 2,000 more, drawn over every decimal exponent a double has, of every width against their
    # place, some across zero, near the largest double or among the subnormals.
    draw = random.Random(20261201)
    for _ in range(2000):
        scale = 10.0 ** draw.randint(-320, 307)
        low = draw.uniform(-1, 1) * scale
        high = low + abs(draw.choice([draw.uniform(0, 1) * scale, abs(low) * 10.0 ** -draw.randint(1, 16), 0.0]))
        if high != float("inf"):
            ranges.append((low, high))
    questions = [{"id": f"n{start}", "type": "numerical", "stem": "N",
                  "answers": [{"min": low, "max": high} for low, high in ranges[start:start + 100]]}
                 for start in range(0, len(ranges), 100)]
    result = export(quiz_of(*questions))
    assert not result.diagnostics, [d.message for d in result.diagnostics]
    written = [(a.findtext("text"), a.findtext("tolerance"))
               for q in etree.fromstring(result.data).findall("question[@type='numerical']") for a in q.findall("answer")]
    assert len(written) == len(ranges)
    assert written[3:5] == [("2", "0"), ("0", "1")]
    php = subprocess.run(["php", "-d", "precision=14", "-r", _MOODLE_ACCEPTS_BOUNDS], capture_output=True, text=True,
                         input=json.dumps([[value, tolerance, repr(low), repr(high)] for (value, tolerance), (low, high) in zip(written, ranges)]))
    assert php.returncode == 0, php.stderr
    assert php.stdout.split() == ["1"] * len(ranges)


def test_a_markdown_text_is_html_and_in_another_language_wrapped_by_its_kind():
    """Markdown goes out rendered, format="html"; in another language than the quiz's, a block
    text is wrapped in a <div lang>, a short inline one in a <span lang>."""
    from quizzes import quiz_of

    quiz = quiz_of({"id": "c", "type": "single_choice", "stem": "**Choose**", "options": [
        {"id": "a", "text": "*oui*", "language": "fr", "correct": True}, {"id": "b", "text": "`no`"}]},
        {"id": "d", "type": "description", "stem": "*Lis*", "language": "fr"}, text_format="markdown")
    root = etree.fromstring(export(quiz).data)
    choice, description = root.find("question[@type='multichoice']"), root.find("question[@type='description']")
    fields = [(e.get("format"), e.findtext("text")) for e in (choice.find("questiontext"), *choice.findall("answer"),
                                                               description.find("questiontext"))]
    assert fields == [("html", "<p><strong>Choose</strong></p>"), ("html", '<span lang="fr"><em>oui</em></span>'),
                      ("html", "<code>no</code>"), ("html", '<div lang="fr"><p><em>Lis</em></p></div>')]
    # Laid out as every field of the file is, one element a line, two spaces a level.
    assert ('\n    <questiontext format="html">\n      <text><![CDATA[<div lang="fr"><p><em>Lis</em></p></div>]]></text>\n'
            '    </questiontext>\n') in export(quiz).data.decode()


def test_a_numerical_answers_credit_off_moodles_list_is_refused_at_that_answer_by_its_number():
    from quizzes import quiz_of
    from lmsexport.writers.moodle.moodle_xml.check import check

    quiz = quiz_of({"id": "n", "type": "numerical", "stem": "N", "answers": [{"value": 1}, {"value": 2, "credit": 0.52}]})
    for diagnostics in (list(check(quiz, ExportOptions())), moodle_xml.render(quiz, ExportOptions()).diagnostics):
        refused = [(d.pointer, d.message.split(";")[0]) for d in diagnostics if d.code == "moodle-grade"]
        assert refused == [("/questions/0/answers/1/credit", "answer 2: credit 0.52 (52%) is not one of Moodle's grade fractions, "
                                                              "so Moodle would reject the whole file")]
    nearest = ExportOptions(nearest_grade=True)
    for diagnostics in (list(check(quiz, nearest)), moodle_xml.render(quiz, nearest).diagnostics):
        assert [(d.pointer, d.message) for d in diagnostics if d.code == "moodle-grade"] == [
            ("/questions/0/answers/1/credit", "answer 2: credit 0.52 is not one of Moodle's grade fractions; written as the nearest one, "
                                              "50% (the score changes)")]


# Moodle's question/format.php, split_category_path (4.5): the path splits at a '/' that has no
# '/' beside it, then each name has '//' made '/' and is trimmed.
_MOODLE_SPLITS_CATEGORY_PATH = r"""
$path = stream_get_contents(STDIN);
$names = array();
foreach (preg_split('~(?<!/)/(?!/)~', $path) as $rawname) {
    $names[] = trim(str_replace('//', '/', $rawname));
}
echo json_encode($names);
"""


@pytest.mark.parametrize("names, written", [
    (["a/b"], "$course$/top/a//b/T"),
    (["/lead"], "$course$/top/ //lead/T"),
    (["trail/"], "$course$/top/trail// /T"),
    (["/both/"], "$course$/top/ //both// /T"),
    (["//"], "$course$/top/ //// /T"),
], ids=["inside", "leading", "trailing", "both", "only-slashes"])
def test_a_category_name_with_a_slash_at_an_edge_is_written_padded_and_moodle_reads_it_back(names, written):
    import json
    import shutil
    import subprocess

    from quizzes import quiz_of

    quiz = quiz_of({"id": "t", "type": "true_false", "stem": "S", "answer": True}, category=names)
    path = etree.fromstring(export(quiz).data).findtext("question[@type='category']/category/text")
    assert path == written
    if shutil.which("php") is None:
        pytest.skip("php is not installed: Moodle's category path split cannot run (apt-get install php-cli)")
    php = subprocess.run(["php", "-r", _MOODLE_SPLITS_CATEGORY_PATH], input=path, capture_output=True, text=True)
    assert php.returncode == 0, php.stderr
    assert json.loads(php.stdout) == ["$course$", "top", *names, "T"]


def test_each_field_is_block_or_inline_html_by_its_place_with_media_and_in_another_language():
    """A stem is block HTML and an option or an answer's feedback inline, whether the text shows
    a media file (rendered for @@PLUGINFILE@@), is Markdown or is plain text in another language."""
    from quizzes import quiz_of

    from lmsexport.model import MediaFile

    shown = quiz_of({"id": "c", "type": "single_choice", "stem": "See ![ring](media/ring.png)", "options": [
        {"id": "a", "text": "![ring](media/ring.png)", "correct": True, "feedback": "*well*"}, {"id": "b", "text": "none"}]},
        text_format="markdown")
    shown = dataclasses.replace(shown, media=(MediaFile("media/ring.png", b"PNG", "image/png"),))
    [question] = etree.fromstring(export(shown).data).findall("question[@type='multichoice']")
    image = '<img src="@@PLUGINFILE@@/media/ring.png" alt="ring" />'
    assert [(e.tag, e.findtext("text"), [f.get("name") for f in e.findall("file")])
            for e in (question.find("questiontext"), *question.findall("answer"), question.find("answer/feedback"))] == [
        ("questiontext", f"<p>See {image}</p>", ["ring.png"]), ("answer", image, ["ring.png"]),
        ("answer", "none", []), ("feedback", "<em>well</em>", [])]
    french = quiz_of({"id": "s", "type": "short_answer", "stem": "Dis", "language": "fr",
                      "answers": [{"text": "oui", "feedback": "Bien  vu"}]})
    [question] = etree.fromstring(export(french).data).findall("question[@type='shortanswer']")
    assert (question.findtext("questiontext/text"), question.findtext("answer/feedback/text")) == (
        '<div lang="fr"><p>Dis</p></div>', '<span lang="fr">Bien \u00a0vu</span>')


def test_what_moodle_changes_in_category_names_and_the_metadata_it_drops_is_said_in_words_at_each_name():
    """Both Moodle formats say, at each category name and at the title (which Moodle makes the
    innermost category), what Moodle changes in it: a name of 256 characters is cut (255 are
    kept), HTML tags, line breaks and outer spaces are stripped. The note names the metadata
    Moodle drops from each format; GIFT's comments count as dropped."""
    from quizzes import quiz_of

    from lmsexport.writers.moodle import gift

    quiz = quiz_of({"id": "t", "type": "true_false", "stem": "S", "answer": True},
                   category=["C" * 255, "D" * 256, "<b>x</b>", "a\nb", "a < b"], title="<i>Bank</i>",
                   difficulty="hard", source={"url": "https://example.org/bank"}, description="Desc", level="L1", learning_path="LP")
    strips = "Moodle strips HTML tags, line breaks and outer spaces from category names"
    changed = [
        ("/category/1", "WARNING", "moodle-category", "category name '" + "D" * 40 + "'...: Moodle stores 255 characters of a "
                                                      "category name; it is cut there"),
        ("/category/2", "WARNING", "moodle-category", f"category name '<b>x</b>': {strips}"),
        ("/category/3", "WARNING", "moodle-category", f"category name 'a\\nb': {strips}"),
        ("/title", "WARNING", "moodle-category", f"category name '<i>Bank</i>': {strips}"),
    ]
    said = {name: [(d.pointer, d.severity.name, d.code, d.message) for d in writer.render(quiz, ExportOptions()).diagnostics]
            for name, writer in (("Moodle XML", moodle_xml), ("GIFT", gift))}
    assert said == {
        "Moodle XML": [("", "NOTE", "moodle-metadata", "Moodle XML has no place for the quiz's difficulty and source: Moodle does not keep them"),
                       *changed],
        "GIFT": [("", "NOTE", "moodle-metadata", "GIFT has no place for the quiz's difficulty and source; its description, level, "
                                                 "learning path ride in comment lines, which Moodle skips: Moodle does not keep them"),
                 *changed],
    }
    named = quiz_of({"id": "t", "type": "true_false", "stem": "S", "answer": True}, source={"name": "N"}, level="L1")
    assert [(d.code, d.message) for d in gift.render(named, ExportOptions()).diagnostics] == [
        ("moodle-metadata", "GIFT has no place for the quiz's source; its level ride in comment lines, which Moodle skips: "
                            "Moodle does not keep them")]
    assert [d.message for d in moodle_xml.render(named, ExportOptions()).diagnostics] == [
        "Moodle XML has no place for the quiz's source: Moodle does not keep them"]


def test_a_questions_own_tags_are_written_each_once_in_order():
    """Loading makes each tag once; a quiz built otherwise (an importer's) may repeat one, and
    each format writes it once all the same."""
    from quizzes import quiz_of

    from lmsexport.writers.moodle import gift

    quiz = quiz_of(*({"id": qid, "type": "true_false", "stem": "S", "answer": True} for qid in "tuv"))
    tags = (("b", "a", "b"), ("z", "z"), ("y", "x"))
    quiz = dataclasses.replace(quiz, questions=tuple(dataclasses.replace(q, tags=t) for q, t in zip(quiz.questions, tags)))
    written = [[t.findtext("text") for t in q.findall("tags/tag")]
               for q in etree.fromstring(export(quiz).data).findall("question[@type='truefalse']")]
    assert written == [["b", "a"], ["z"], ["y", "x"]]
    lines = [line for line in gift.render(quiz, ExportOptions()).data.decode().splitlines() if line.startswith("// [id:")]
    assert lines == ["// [id:t] [tag:b] [tag:a]", "// [id:u] [tag:z]", "// [id:v] [tag:y] [tag:x]"]


def test_what_moodle_changes_in_a_question_name_or_a_tag_is_said_at_it():
    """Moodle keeps 255 characters of a name and strips its tags (a '<' that starts none stays),
    and keeps 50 characters of a tag, without '<', '>', '`' and repeated spaces."""
    from quizzes import quiz_of

    def question(qid, **fields):
        return {"id": qid, "type": "true_false", "stem": "S", "answer": True, **fields}

    quiz = quiz_of(question("a", title="N" * 255), question("b", title="M" * 256), question("c", title="a < b"),
                   question("d", title="<i>x</i>"), question("e", tags=["t" * 50, "u" * 51, "a  b", "x<y"]))
    name = "Moodle strips HTML tags and outer spaces from names and cuts them at 255 characters"
    tag = "Moodle drops '<', '>', '`', control characters and repeated spaces from tags and keeps 50 characters"
    assert [(d.pointer, d.code, d.message) for d in moodle_xml.render(quiz, ExportOptions()).diagnostics] == [
        ("/questions/1/title", "moodle-name", f"question name '{'M' * 256}': {name}"),
        ("/questions/3/title", "moodle-name", f"question name '<i>x</i>': {name}"),
        ("/questions/4/tags/1", "moodle-tag", f"tag '{'u' * 51}': {tag}"),
        ("/questions/4/tags/2", "moodle-tag", f"tag 'a  b': {tag}"),
        ("/questions/4/tags/3", "moodle-tag", f"tag 'x<y': {tag}"),
    ]


def test_a_pinned_option_of_a_shuffled_question_is_said_to_move_at_its_pin():
    from quizzes import quiz_of

    options = [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}, {"id": "all", "text": "All", "pinned": True}]
    quiz = quiz_of({"id": "p", "type": "single_choice", "stem": "P", "options": options},
                   {"id": "f", "type": "single_choice", "stem": "F", "shuffle": False, "options": options})
    assert [(d.pointer, d.code, d.message) for d in moodle_xml.render(quiz, ExportOptions()).diagnostics] == [
        ("/questions/0/options/2/pinned", "moodle-pinned", "Moodle cannot keep options in place while it shuffles: pinned option all will move")]


def test_a_field_left_empty_is_written_whole_with_an_empty_text():
    # The lines written out by hand: a question without general feedback or feedback by outcome,
    # and options without feedback (the writer makes these fields once, apart from the others).
    quiz = quiz_of({"id": "c", "type": "single_choice", "stem": "Choose", "options": [
        {"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]})
    data = export(quiz).data.decode("utf-8")
    for tag, indent in (("generalfeedback", "    "), ("correctfeedback", "    "), ("partiallycorrectfeedback", "    "),
                        ("incorrectfeedback", "    "), ("feedback", "      ")):
        assert f'\n{indent}<{tag} format="html">\n{indent}  <text></text>\n{indent}</{tag}>\n' in data, tag
    root = etree.fromstring(data.encode("utf-8"))
    assert all(not (e.tail or "").strip() for e in root.iter()), "text between the elements"

"""GIFT: every export is parsed back the way Moodle's GIFT importer parses it and compared with the content."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import CONTENT, DATA
from quizzes import loaded
from moodle_checks import HOSTILE, HOSTILE_DESCRIPTION, HOSTILE_LEVEL, assert_same_languages, assert_same_quiz, hostile_quiz

from lmsexport.diagnostics import Severity
from lmsexport.model import AcceptedAnswer, MatchPair, Text, TextFormat
from lmsexport.importers.gift.reader import blocks, read_gift
from lmsexport.writers.moodle import gift
from lmsexport.writers.shared import ExportOptions
from lmsexport.pipeline import export_quiz

QUIZZES = sorted(CONTENT.glob("*.json")) + [DATA / "every_type.json"]


def export(quiz, **options):
    result = gift.render(quiz, ExportOptions(**options))
    assert not result.failed, [d.message for d in result.diagnostics if d.is_error]
    return result


def codes(result):
    return {d.code for d in result.diagnostics}


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_every_quiz_reads_back_the_same(path):
    quiz = loaded(path)
    result = export(quiz)
    assert result.filename == f"{quiz.id}.gift.txt"
    assert_same_quiz(read_gift(result.data), quiz, full=False)


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_a_hostile_string_in_every_field_survives(path):
    quiz = hostile_quiz(loaded(path))
    result = export(quiz)
    # One block per question plus the category: no blank line of the content split a question.
    assert len(blocks(result.data.decode())) == len(quiz.exported_questions) + 1
    assert_same_quiz(read_gift(result.data), quiz, full=False)


def markdown_general(question):
    # A description has no answer block, so GIFT has nowhere for its general feedback (a warning).
    return None if question.type == "description" else Text(HOSTILE, TextFormat.MARKDOWN)


def test_markdown_variant_survives():
    quiz = hostile_quiz(loaded(DATA / "every_type.json"))
    quiz = dataclasses.replace(quiz, questions=tuple(
        dataclasses.replace(q, stem=Text(HOSTILE, TextFormat.MARKDOWN), feedback=dataclasses.replace(q.feedback, general=markdown_general(q)))
        for q in quiz.questions))
    text = export(quiz).data.decode()
    assert "[markdown]" not in text.replace("[markdown]%-50%", "")  # Markdown goes out rendered, as [html]
    assert_same_quiz(read_gift(text), quiz, full=False)


def test_text_of_the_file():
    text = export(loaded(DATA / "every_type.json")).data.decode()
    assert "$CATEGORY: $course$/top/Tests/Every type/Every type: " in text
    assert "\t=[plain]Every rank \\= all#[plain]Yes \\~ indeed \\= true \\# ok\n" in text
    assert "\t~%50%[plain]نعم — right-to-left text#[plain]Half credit\n" in text
    assert "\t~%-50%[plain]malloc#[plain]Not a collective.\n" in text
    assert "{TRUE#[plain]It does split layers \\{\\#\\}.#[plain]Correct\\: stages hold layers.####[plain]Stages" in text
    # A range goes out as Moodle stores it, value:tolerance, in exact decimals.
    assert "\t=%100%0.375:0.125\n" in text
    assert "\t= -> the vocabulary\n" in text
    # '->' inside a prompt would end it: a plain prompt holding one goes out as escaped HTML.
    assert "\t=[html]Pipeline -&gt; parallelism -> the layers \\= stages\n" in text
    assert "::essay::[plain]Explain why a pipeline has a bubble.{}" in text
    assert "// [id:single] [tag:fixture] [tag:all-types] [tag:all-reduce]" in text


def test_what_gift_cannot_carry_is_a_warning_per_question():
    result = export(loaded(DATA / "every_type.json"))
    by_question = {}
    for d in result.diagnostics:  # each at the value lost, below its question
        by_question.setdefault("/".join(d.pointer.split("/")[:3]), set()).add(d.code)
    assert {"moodle-pinned", "gift-points", "lost-penalty", "lost-outcome-feedback"} <= by_question["/questions/0"]
    assert "gift-shuffle" in by_question["/questions/1"]
    assert "lost-case" in by_question["/questions/3"]
    assert {"lost-grader-info", "lost-response-template", "gift-essay"} <= by_question["/questions/7"]
    assert all(d.severity is Severity.WARNING for d in result.diagnostics if d.code != "moodle-metadata")
    strict = export_quiz(loaded(DATA / "every_type.json"), "gift", ExportOptions(strict=True))
    assert strict.failed and strict.data is None


def test_same_content_same_bytes():
    assert export(loaded(DATA / "every_type.json")).data == export(loaded(DATA / "every_type.json")).data


def test_drafts_only_gives_no_file_and_a_note():
    quiz = loaded(DATA / "every_type.json")
    drafts = dataclasses.replace(quiz, questions=tuple(dataclasses.replace(q, draft=True) for q in quiz.questions))
    result = gift.render(drafts, ExportOptions())
    assert result.data is None and not result.failed
    assert [d.severity for d in result.diagnostics] == [Severity.NOTE]


def _question(index, **changes):
    quiz = loaded(DATA / "every_type.json")
    return dataclasses.replace(quiz, questions=(dataclasses.replace(quiz.questions[index], **changes),))


def test_a_short_answer_gift_cannot_carry_is_an_error():
    for bad in ("a -> b", "x &&058; y"):
        result = gift.render(_question(3, answers=(AcceptedAnswer(text=bad),)), ExportOptions())
        assert result.failed and result.data is None, bad


def test_a_plain_text_with_placeholders_goes_out_as_html():
    quiz = _question(2, stem=Text("keep &&058; and &&092; as they are"))
    text = export(quiz).data.decode()
    assert "[html]<p>keep &amp;&amp;058; and &amp;&amp;092; as they are</p>" in text
    assert_same_quiz(read_gift(text), quiz, full=False)


def test_a_matching_answer_may_hold_an_arrow():
    quiz = _question(6, pairs=(MatchPair(id="a", prompt=Text("p"), answer="x -> y"), MatchPair(id="b", prompt=Text("q"), answer="z")))
    assert_same_quiz(read_gift(export(quiz).data), quiz, full=False)


def test_a_credit_off_moodles_list_is_an_error():
    quiz = loaded(DATA / "every_type.json")
    single = quiz.questions[0]
    choices = (single.choices[0], dataclasses.replace(single.choices[1], credit=0.67)) + single.choices[2:]
    bad = dataclasses.replace(quiz, questions=(dataclasses.replace(single, choices=choices),))
    assert gift.render(bad, ExportOptions()).failed
    near = gift.render(bad, ExportOptions(nearest_grade=True))
    assert not near.failed and "~%66.66667%[plain]Only rank 0" in near.data.decode()


def test_the_category_line_reaches_moodle_as_written():
    # Moodle undoes a doubled backslash in a $CATEGORY line and keeps its placeholders: each
    # backslash is written twice; only '&&092;', which Moodle makes a backslash, is a loss.
    quiz = dataclasses.replace(loaded(DATA / "every_type.json"), title="a\\:b &&058;")
    result = export(quiz)
    assert "/a\\\\:b &&058;\n" in result.data.decode() and "gift-category" not in codes(result)
    assert "gift-category" in codes(export(dataclasses.replace(quiz, title="a&&092;b")))


def test_media_files_are_a_warning():
    from lmsexport.model import MediaFile

    quiz = _question(2, stem=Text("See ![ring](media/ring.png).", TextFormat.MARKDOWN))
    quiz = dataclasses.replace(quiz, media=(MediaFile("media/ring.png", b"png", "image/png"),))
    assert "gift-media" in codes(export(quiz))


# -- languages -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_question_languages_are_stated_and_read_back(path):
    quiz = loaded(path)
    result = export(quiz)
    read = read_gift(result.data, language=quiz.language)
    assert_same_languages(read, quiz, options=False)
    assert_same_languages(read_gift(export(hostile_quiz(quiz)).data, language=quiz.language), quiz, options=False)
    # Options in a language of their own are carried too: nothing about languages is a loss.
    assert "moodle-language" not in {d.code for d in result.diagnostics}
    assert_same_languages(read, quiz, options=True)


def test_an_option_language_is_an_html_wrapper():
    text = export(loaded(DATA / "every_type.json")).data.decode()
    assert "\t~[html]<span lang\\=\"fr\">All of the above</span>\n" in text


def test_a_question_language_is_an_html_wrapper():
    quiz = loaded(CONTENT / "sequence-parallelism-ring-attention.json")
    english = next(q for q in quiz.exported_questions if q.language == "en")
    text = export(quiz).data.decode()
    assert f"// [id:{english.id}]" in text
    block = text[text.index(f"// [id:{english.id}]"):].split("\n\n")[0]
    assert '::[html]<div lang\\="en">' in block


# -- quiz metadata ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_metadata_survives(path):
    quiz = loaded(path)
    read = read_gift(export(quiz).data)
    assert (read.id, read.title, read.description, read.level, read.learning_path) == (
        quiz.id, quiz.title, quiz.description, quiz.level, quiz.learning_path)


def test_hostile_metadata_survives_in_comment_lines():
    quiz = dataclasses.replace(loaded(CONTENT / "model-pipeline-parallelism.json"), level=HOSTILE_LEVEL,
                               learning_path=HOSTILE_LEVEL[::-1], description=Text(HOSTILE_DESCRIPTION), title="T\nitle: {x}")
    data = export(quiz).data.decode()
    head = data[: data.index("$CATEGORY:")]
    # Every line of the header is a comment: nothing of the values became GIFT.
    assert all(line.startswith("// ") for line in head.split("\n")[:-1])
    assert len(blocks(data)) == len(quiz.exported_questions) + 1
    read = read_gift(data)
    assert (read.title, read.description, read.level, read.learning_path) == (quiz.title, quiz.description, quiz.level, quiz.learning_path)
    assert_same_quiz(dataclasses.replace(read, title=quiz.title), quiz, full=False)


# -- media and math --------------------------------------------------------------------------------

MEDIA = DATA / "media" / "media_and_math.json"
MEDIA_QUESTIONS = {"ring", "bubble", "softmax", "listen"}


def test_media_without_a_base_url_are_a_warning_per_text():
    from lmsexport.diagnostics import pointer_join
    from lmsexport.text import media_references

    quiz = loaded(MEDIA)
    result = export(quiz)
    warned = {d.pointer for d in result.diagnostics if d.code == "gift-media"}
    assert {"/".join(p.split("/")[:3]) for p in warned} == {q.location.pointer for q in quiz.exported_questions if q.id in MEDIA_QUESTIONS}
    # each at the text that shows the file
    assert warned == {pointer_join(q.location.pointer, *parts) for q in quiz.exported_questions for parts, text in q.texts()
                      if text is not None and media_references(text)}
    strict = export_quiz(quiz, "gift", ExportOptions(strict=True))
    assert strict.failed and strict.data is None


def test_media_with_a_base_url_are_absolute_links():
    from lmsexport.text import media_references

    def question_texts(question):
        return (text for _, text in question.texts() if text is not None)

    quiz = loaded(MEDIA)
    for base in ("https://cdn.example.org/quiz", "https://cdn.example.org/quiz/"):
        result = export(quiz, media_base_url=base)
        assert "gift-media" not in codes(result)
        read = {q.id: q for q in read_gift(result.data).questions}
        for question in quiz.exported_questions:
            for text in question_texts(question):
                for path in media_references(text):
                    rendered = [t.source for t in question_texts(read[question.id]) if t is not None]
                    assert any(f'src="https://cdn.example.org/quiz/{path}"' in source for source in rendered), (question.id, path)
    strict = export_quiz(quiz, "gift", ExportOptions(strict=True, media_base_url="https://x.org/"))
    assert "gift-media" not in codes(strict)


def test_every_formula_survives_with_its_braces():
    quiz = loaded(MEDIA)
    data = export(quiz).data.decode()
    assert "\\\\(e^\\{m_\\{old\\} - m_\\{new\\}\\}\\\\)" in data  # braces escaped for GIFT
    read = read_gift(data)
    stems = {q.id: q.stem.source for q in read.questions}
    assert "\\[M = 2 + 2 + 12 = \\sum_{k} b_k\\]" in stems["memory"] and "\\(M\\)" in stems["memory"]
    assert "\\(e^{m_{old} - m_{new}}\\)" in stems["softmax"]
    assert "\\[\\ell_{new} = \\ell_{old}\\, e^{m_{old}-m_{new}} + \\sum_j e^{x_j - m_{new}}\\]" in stems["softmax"]
    assert "\\(2\\frac{N-1}{N}\\)" in read.questions[0].feedback.general.source
    assert_same_quiz(read, quiz, full=False)


def test_a_tag_ending_in_a_backslash_is_left_out_with_a_warning():
    from lmsexport.canonical import build_quiz

    quiz = build_quiz({"id": "tags", "title": "Tags", "language": "en", "tags": ["back\\"], "questions": [
        {"id": "sc", "type": "true_false", "stem": "s", "answer": True, "tags": ["q tag", "mid\\dle"]}]}, "tags.json")
    result = export(quiz)
    assert "[tag:back\\]" not in result.data.decode()
    assert [d.code for d in result.diagnostics if d.code == "gift-tag"] == ["gift-tag"]
    assert read_gift(result.data).questions[0].tags == ("q tag", "mid\\dle")


def test_a_range_is_an_exact_decimal_value_and_tolerance():
    text = export(loaded(DATA / "hostile_strings.json")).data.decode()
    # Moodle computes min..max in doubles: [0.1, 0.3] would be 0.2 ± 0.09999999999999998.
    assert "\t=%100%0.2:0.1#" in text and "\t=%50%0.45:0.25\n" in text and "\t=%25%1.2:0.1\n" in text
    assert ".." not in text.split("::range::")[1].split("\n\n")[0]


def test_difficulty_source_and_commented_metadata_are_a_note():
    notes = [d for d in export(loaded(DATA / "every_type.json")).diagnostics if d.code == "moodle-metadata"]
    assert len(notes) == 1 and notes[0].severity is Severity.NOTE
    for name in ("difficulty", "source", "description", "level", "learning path"):
        assert name in notes[0].message


def test_a_media_file_shown_in_a_stem_and_an_option_is_linked_in_block_and_inline_html():
    """With a base URL, a stem showing an image is a paragraph of HTML and an option showing one
    the image alone, GIFT's own characters escaped."""
    from quizzes import quiz_of

    from lmsexport.model import MediaFile

    quiz = quiz_of({"id": "c", "type": "single_choice", "stem": "See ![ring](media/ring.png)", "options": [
        {"id": "a", "text": "![ring](media/ring.png)", "correct": True}, {"id": "b", "text": "none"}]}, text_format="markdown")
    quiz = dataclasses.replace(quiz, media=(MediaFile("media/ring.png", b"PNG", "image/png"),))
    image = '<img src\\="https\\://cdn.example.org/q/media/ring.png" alt\\="ring" />'
    assert f"::c::[html]<p>See {image}</p>{{\n\t=[html]{image}\n\t~[html]none\n}}\n" in export(
        quiz, media_base_url="https://cdn.example.org/q/").data.decode()


# A missing word question whose text ends with its blank: Moodle would read a text that ends with
# its answer block as an ordinary question, so the text goes out as block HTML, the block inside
# its last paragraph, whatever the text's format; in another language, in a <div lang>.
MISSING_WORD_AT_THE_END = [
    ("plain", {"stem": 'Say "it": a = b\n\nthen [[x]]'}, None,
     '::p::[html]<p>Say "it"\\: a \\= b</p><p>then {\n\t=%100%nccl\n}</p>'),
    ("plain", {"stem": "Dis  [[x]]", "language": "fr"}, None,
     '::p::[html]<div lang\\="fr"><p>Dis \u00a0{\n\t=%100%nccl\n}</p></div>'),
    ("markdown", {"stem": "See ![ring](media/ring.png) *then* [[x]]"}, "https://cdn.example.org/q/",
     '::p::[html]<p>See <img src\\="https\\://cdn.example.org/q/media/ring.png" alt\\="ring" /> <em>then</em> {\n\t=%100%nccl\n}</p>'),
    ("markdown", {"stem": "*Dis* [[x]]", "language": "fr"}, "https://cdn.example.org/q/",
     '::p::[html]<div lang\\="fr"><p><em>Dis</em> {\n\t=%100%nccl\n}</p></div>'),
    ("plain", {"stem": "Middle [[x]] end"}, None, "::p::[plain]Middle {\n\t=%100%nccl\n} end"),
    # TeX delimiters in a text with no formula, as character references Moodle's MathJax filter does not see
    ("plain", {"stem": "Type \\(x\\) here: [[x]]"}, None, "::p::[html]<p>Type &\\#92;(x&\\#92;) here\\: {\n\t=%100%nccl\n}</p>"),
    ("plain", {"stem": "Costs $$5, $1 or \\[y\\]: [[x]]"}, None,
     "::p::[html]<p>Costs &\\#36;&\\#36;5, &\\#36;1 or &\\#92;[y&\\#92;]\\: {\n\t=%100%nccl\n}</p>"),
]


@pytest.mark.parametrize("text_format, fields, base, written", MISSING_WORD_AT_THE_END,
                         ids=["plain", "plain-in-french", "markdown-with-media", "markdown-in-french", "blank-inside", "tex-delimiters",
                              "double-dollars"])
def test_a_missing_word_ending_its_text_is_written_as_block_html(text_format, fields, base, written):
    from quizzes import quiz_of

    from lmsexport.model import MediaFile

    blanks = [{"id": "x", "type": "short_answer", "answers": [{"text": "nccl"}]}]
    quiz = quiz_of({"id": "p", "type": "fill_in_blanks", "blanks": blanks, **fields}, text_format=text_format)
    quiz = dataclasses.replace(quiz, media=(MediaFile("media/ring.png", b"PNG", "image/png"),))
    assert f"// [id:p]\n{written}\n" in export(quiz, media_base_url=base).data.decode()

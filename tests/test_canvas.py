"""The Canvas package, parsed back: types, points, right answers and every feedback text."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from canvas_reader import CANVAS, CP, QTI, read_package
from conftest import CONTENT, DATA
from lxml import html as lxml_html
from shown_text import expected_shown, shown, shows

from lmsexport.loader import load_quiz
from lmsexport.model import (
    Description,
    Essay,
    Matching,
    MultipleResponse,
    Numerical,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
)
from lmsexport.writers import canvas
from lmsexport.writers.shared import ExportOptions

TYPES = {
    SingleChoice: "multiple_choice_question",
    TrueFalse: "true_false_question",
    MultipleResponse: "multiple_answers_question",
    ShortAnswer: "short_answer_question",
    Numerical: "numerical_question",
    Matching: "matching_question",
    Essay: "essay_question",
    Description: "text_only_question",
}
QUIZ_FILES = sorted(CONTENT.glob("*.json")) + [DATA / "every_type.json"]


def _load(path):
    return load_quiz(path).quiz


@pytest.fixture(scope="module", params=QUIZ_FILES, ids=lambda p: p.stem)
def exported(request):
    quiz = _load(request.param)
    export = canvas.render(quiz, ExportOptions())
    assert export.data is not None, export.diagnostics
    return quiz, export, read_package(export.data)




def _feedback_ident(item, answer_key):
    return item.answer_feedback.get(answer_key)


def test_layout_is_canvas_export(exported):
    quiz, export, package = exported
    assert export.filename == f"{quiz.id}.zip"
    ident = package.assessment.find(f"{QTI}assessment").get("ident")
    assert sorted(package.names) == sorted(
        ["imsmanifest.xml", f"{ident}/{ident}.xml", f"{ident}/assessment_meta.xml", "non_cc_assessments/"]
    )
    # Canvas finds a quiz's settings at <assessment ident>/assessment_meta.xml.
    assert package.meta.get("identifier") == ident
    meta_resource = package.manifest.find(f"{CP}resources/{CP}resource[@type='associatedcontent/imscc_xmlv1p1/learning-application-resource']")
    assert meta_resource.get("href") == f"{ident}/assessment_meta.xml"
    # Anything that looks like QTI 2 would skip Canvas's QTI 1.2 conversion.
    assert not any("imsqti_v2" in ns or "qtiv2" in ns for ns in package.manifest.nsmap.values())
    assert "QTIv2." not in package.manifest.findtext(f"{CP}metadata/{CP}schema")


def test_quiz_settings(exported):
    quiz, _, package = exported
    meta = package.meta
    assert meta.findtext(f"{CANVAS}title") == quiz.title
    # The description Canvas shows starts with the quiz's own; its metadata paragraphs follow.
    assert shown(meta.findtext(f"{CANVAS}description") or "<p></p>").startswith(expected_shown(quiz.description) if quiz.description else "")
    points = sum(q.points for q in quiz.exported_questions if not isinstance(q, Description))
    assert float(meta.findtext(f"{CANVAS}points_possible")) == pytest.approx(points)
    assert package.assessment.find(f"{QTI}assessment").get("title") == quiz.title


def test_every_exported_question_once_in_order(exported):
    quiz, _, package = exported
    questions = quiz.exported_questions
    assert len(package.items) == len(questions)
    assert len({i.ident for i in package.items}) == len(questions)
    for question, item in zip(questions, package.items):
        assert item.question_type == TYPES[type(question)]
        assert item.title == (question.title or question.id)
        expected_points = 0 if isinstance(question, Description) else question.points
        assert item.points == expected_points
        assert item.stem_html.startswith(f'<div lang="{quiz.language_of(question)}">') and item.stem_html.endswith("</div>")
        assert shows(item.stem_html, question.stem), (item.stem_html, question.stem)


def test_general_correct_incorrect_feedback(exported):
    quiz, _, package = exported
    for question, item in zip(quiz.exported_questions, package.items):
        if isinstance(question, Description):
            assert item.feedback == {}
            continue
        fb = question.feedback
        for ident, text in (("general_fb", fb.general), ("correct_fb", fb.correct), ("general_incorrect_fb", fb.incorrect)):
            if text is None:
                assert ident not in item.feedback
            else:
                assert item.feedback[ident].startswith('<div lang="') and shows(item.feedback[ident], text), item.feedback[ident]


def _check_choices(question, item, cardinality_right, language):
    assert list(item.labels) == item.answer_ids
    assert len(set(item.answer_ids)) == len(item.answer_ids) and all(i.isdigit() for i in item.answer_ids)
    by_id = dict(zip(item.answer_ids, question.choices))
    for answer_id, choice in by_id.items():
        assert shows(item.labels[answer_id], choice.text), (item.labels[answer_id], choice.text)
        if choice.language and choice.language != language:
            assert f'lang="{choice.language}"' in item.labels[answer_id]
        if choice.feedback is None:
            assert f"{answer_id}_fb" not in item.feedback
        else:
            assert item.answer_feedback[answer_id] == f"{answer_id}_fb"
            assert item.feedback[f"{answer_id}_fb"].startswith('<div lang="') and shows(item.feedback[f"{answer_id}_fb"], choice.feedback), item.feedback[f"{answer_id}_fb"]
    assert sorted(item.right) == sorted(i for i, c in by_id.items() if c.correct)
    assert len(item.right) == 1 or cardinality_right


def test_choice_questions(exported):
    quiz, _, package = exported
    for question, item in zip(quiz.exported_questions, package.items):
        if isinstance(question, SingleChoice):
            _check_choices(question, item, False, quiz.language_of(question))
        elif isinstance(question, MultipleResponse):
            _check_choices(question, item, True, quiz.language_of(question))
        elif isinstance(question, TrueFalse):
            true_id, false_id = item.answer_ids
            # Canvas keeps true/false only when the answers read True and False.
            assert item.labels == {true_id: "True", false_id: "False"}
            assert item.right == [true_id if question.answer else false_id]
            for answer_id, text in ((true_id, question.true_feedback), (false_id, question.false_feedback)):
                if text is not None:
                    assert item.feedback[item.answer_feedback[answer_id]].startswith('<div lang="') and shows(item.feedback[item.answer_feedback[answer_id]], text), item.feedback[item.answer_feedback[answer_id]]


def test_short_answers_and_numbers(exported):
    quiz, _, package = exported
    for question, item in zip(quiz.exported_questions, package.items):
        if isinstance(question, ShortAnswer):
            full = [a for a in question.answers if a.credit == 1]
            assert item.right == [a.text for a in full]
            for answer in full:
                if answer.feedback is not None:
                    assert item.feedback[item.answer_feedback[answer.text]].startswith('<div lang="') and shows(item.feedback[item.answer_feedback[answer.text]], answer.feedback), item.feedback[item.answer_feedback[answer.text]]
        elif isinstance(question, Numerical):
            full = [a for a in question.answers if a.credit == 1]
            assert len(item.numeric) == len(full) == len(item.answer_ids)
            for index, (answer, read) in enumerate(zip(full, item.numeric)):
                if answer.is_range:
                    # Exact bounds, read as numbers (-0.0 is written 0.0, the same number).
                    assert read[0] == "range" and (float(read[1]), float(read[2])) == (answer.minimum, answer.maximum), read
                else:
                    kind, exact, low, high = read
                    assert kind == "exact" and float(exact) == answer.value
                    # Canvas reads the margin back as upper - exact in decimal.
                    assert Decimal(high) - Decimal(exact) == Decimal(repr(answer.tolerance))
                    assert Decimal(exact) - Decimal(low) == Decimal(repr(answer.tolerance))
                if answer.feedback is not None:
                    assert item.feedback[item.answer_feedback[str(index)]].startswith('<div lang="') and shows(item.feedback[item.answer_feedback[str(index)]], answer.feedback), item.feedback[item.answer_feedback[str(index)]]


def test_matching(exported):
    quiz, _, package = exported
    for question, item in zip(quiz.exported_questions, package.items):
        if not isinstance(question, Matching):
            continue
        assert list(item.prompts) == item.answer_ids
        for answer_id, pair in zip(item.answer_ids, question.pairs):
            assert shows(item.prompts[answer_id], pair.prompt), (item.prompts[answer_id], pair.prompt)
            assert item.matches[answer_id] == pair.answer
        expected = list(dict.fromkeys([p.answer for p in question.pairs] + [d.text for d in question.distractors]))
        assert item.offered == expected


def test_drafts_are_left_out():
    quiz = _load(DATA / "every_type.json")
    titles = [i.title for i in read_package(canvas.render(quiz, ExportOptions()).data).items]
    assert "unfinished" not in titles
    assert any(q.draft for q in quiz.questions)


def test_same_content_same_bytes():
    quiz = _load(DATA / "every_type.json")
    first = canvas.render(quiz, ExportOptions()).data
    again = canvas.render(_load(DATA / "every_type.json"), ExportOptions()).data
    assert first == again


def test_hostile_plain_text_shows_exactly():
    quiz = _load(DATA / "every_type.json")
    package = read_package(canvas.render(quiz, ExportOptions()).data)
    single = package.items[0]
    stem = lxml_html.fragment_fromstring(single.stem_html)
    for br in stem.iter("br"):
        br.tail = "\n" + (br.tail or "")
    assert stem.text_content() == quiz.questions[0].stem.source
    assert "<b>" not in single.stem_html and "<script>" not in single.feedback["general_incorrect_fb"]


def test_an_essay_is_scored_by_hand_its_only_condition_is_any_answer():
    """QTI 1.2's <other/> in an essay's one response condition (Canvas's own exports write it so):
    any answer, no score set, the teacher grades it."""
    from lxml import etree
    from packages import canvas_assessment, entries
    from quizzes import quiz_of

    files = entries(canvas.render(quiz_of({"id": "e", "type": "essay", "stem": "E"}), ExportOptions()).data)
    root = etree.fromstring(files[canvas_assessment(files)])
    conditions = root.findall(f".//{QTI}item/{QTI}resprocessing/{QTI}respcondition")
    assert [[child.tag for child in c.find(f"{QTI}conditionvar")] for c in conditions] == [[f"{QTI}other"]]
    assert conditions[0].find(f"{QTI}setvar") is None


# Text made of the characters of markup and of the references the escaping rewrites, and any other.
_PIECES = st.sampled_from(["<", ">", "&", ";", "amp", "lt", "gt", "quot", "#", "34", '"', "\r", "\n", "x", "é", "🇸🇳"])
_MARKUP = st.lists(_PIECES).map("".join) | st.text()


@given(language=_MARKUP, html=_MARKUP)
def test_a_div_lang_escaped_apart_reads_as_the_whole(language, html):
    """The writer escapes a stem's or feedback's `<div lang>` once per language and the text
    alone: the pieces must read as the whole escaped at once, references and all."""
    from html import escape

    from lmsexport.writers.canvas.item import _END_DIV, _div_lang
    from lmsexport.writers.canvas.qti12 import html_text

    whole = html_text(f'<div lang="{escape(language)}">{html}</div>')
    assert _div_lang(language) + html_text(html) + _END_DIV == whole

"""One question as a Canvas item: the frame every type shares (metadata, stem, feedback)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from html import escape

from ...model import (
    Description,
    Essay,
    FillInBlanks,
    Matching,
    MultipleResponse,
    Numerical,
    Ordering,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Text,
    TrueFalse,
)
from ...text import to_html
from ...text.blanks import fill
from . import identifiers
from .media import STYLE
from .qti12 import escaped_material, html_text, itemfeedback, other
from ..xml import attribute
from .xml import INDENT, Lines

QUESTION_TYPES: dict[type[Question], str] = {
    SingleChoice: "multiple_choice_question",
    TrueFalse: "true_false_question",
    MultipleResponse: "multiple_answers_question",
    ShortAnswer: "short_answer_question",
    Numerical: "numerical_question",
    Matching: "matching_question",
    Ordering: "matching_question",  # each item matched to its place: see matching_item.py
    FillInBlanks: "fill_in_multiple_blanks_question",  # or multiple drop-downs: see blanks_item.py
    Essay: "essay_question",
    Description: "text_only_question",
}

# Canvas's exporter leaves out the catch-all incorrect condition for types that add up parts.
_ADDS_PARTS = {"matching_question", "fill_in_multiple_blanks_question", "multiple_dropdowns_question"}


# An f-string, not a template for str.format: formatting this one by name took microseconds an item.
def _metadata(question_type: str, points: str, answer_ids: str, bank_ident: str) -> str:
    return f"""\
        <itemmetadata>
          <qtimetadata>
            <qtimetadatafield>
              <fieldlabel>question_type</fieldlabel>
              <fieldentry>{question_type}</fieldentry>
            </qtimetadatafield>
            <qtimetadatafield>
              <fieldlabel>points_possible</fieldlabel>
              <fieldentry>{points}</fieldentry>
            </qtimetadatafield>
            <qtimetadatafield>
              <fieldlabel>original_answer_ids</fieldlabel>
              <fieldentry>{answer_ids}</fieldentry>
            </qtimetadatafield>
            <qtimetadatafield>
              <fieldlabel>assessment_question_identifierref</fieldlabel>
              <fieldentry>{bank_ident}</fieldentry>
            </qtimetadatafield>
          </qtimetadata>
        </itemmetadata>
"""
_OUTCOMES = """\
          <outcomes>
            <decvar maxvalue="100" minvalue="0" varname="SCORE" vartype="Decimal"/>
          </outcomes>
"""


def decimal_text(value: Decimal | float) -> str:
    """A number as plain decimal digits, exact for the float the content holds."""
    if isinstance(value, Decimal):
        return format(value, "f")
    return _float_text(float(value))


@lru_cache(maxsize=4096)
def _float_text(value: float) -> str:
    return format(Decimal(repr(value)), "f")


def html(text: Text) -> str:
    """Block-level XHTML of a text, media addressed as Canvas's export does."""
    return to_html(text, STYLE)


@dataclass(slots=True)
class ItemParts:
    """What a type builder fills in: the answers' ids and feedback, and the scoring conditions."""

    quiz: Quiz
    question: Question
    language: str  # the question's, which its options and prompts are compared with
    presentation: Lines
    resprocessing: Lines
    number: identifiers.NumberIds
    correct_feedback: str | None  # the ident of the feedback shown on a right answer, if any
    answer_ids: list[str]
    answer_feedback: list[tuple[str, Text]]


@lru_cache(maxsize=256)  # a quiz is in a language or two, and every stem and feedback opens so
def _div_lang(language: str) -> str:
    """`<div lang>` as the character data of a mattext. Canvas quizzes have no language of their
    own; the lang attribute survives its sanitiser. `html_text` escapes character by character and
    rewrites references, which hold neither "<" nor ">", so the opening and the closing `</div>`
    escaped apart read as the whole escaped at once."""
    return html_text(f'<div lang="{escape(language)}">')


_END_DIV = html_text("</div>")


def stem_text(language: str, question: Question) -> str:
    """The stem in its `<div lang>`, as the character data of a mattext."""
    stem = html(question.stem)
    if isinstance(question, FillInBlanks):  # Canvas names a blank [name] in the text
        stem = fill(stem, lambda name: f"[{name}]")
    return f"{_div_lang(language)}{html_text(stem)}{_END_DIV}"


def canvas_question_type(question: Question) -> str:
    if isinstance(question, FillInBlanks):
        from .blanks_item import canvas_type  # it builds on this module

        return canvas_type(question)
    return QUESTION_TYPES[type(question)]


def feedback_text(language: str, text: Text) -> str:
    """Feedback in a `<div lang>`, as the character data of a mattext. Canvas's importer
    (html_helper.rb, detect_html) unwraps attribute-less <p>, <div> and <span> around a feedback
    and, when only text is left, keeps that text still HTML-escaped, so students would read
    "&amp;"; a wrapper with an attribute stops it and the feedback stays HTML. The language is a
    true attribute of the text, and Canvas keeps it."""
    return f"{_div_lang(language)}{html_text(html(text))}{_END_DIV}"


# The item's children, and the lines without content around them, at the item's depth of 4.
_PRESENTATION, _END_PRESENTATION = f"{INDENT[4]}<presentation>\n", f"{INDENT[4]}</presentation>\n"
_RESPROCESSING = f"{INDENT[4]}<resprocessing>\n{_OUTCOMES}"
_END_RESPROCESSING = f"{INDENT[4]}</resprocessing>\n"
_END_ITEM = f"{INDENT[3]}</item>\n"


def build_item(quiz: Quiz, question: Question, fill) -> list[str]:
    """The item element of `question`, as the strings that make it up in order; `fill(parts)`
    writes the type's presentation and scoring."""
    question_type = canvas_question_type(question)
    language = quiz.language_of(question)
    presentation = Lines(5, [_PRESENTATION])
    escaped_material(presentation, stem_text(language, question))
    if question_type == "text_only_question":
        presentation.parts.append(_END_PRESENTATION)
        head = _item_head(quiz, question, question_type, "0", "")
        return [head, *presentation.parts, _END_ITEM]

    feedback = question.feedback
    resprocessing = Lines(5, [_RESPROCESSING])
    if feedback.general is not None:
        other(resprocessing, "Yes", "general_fb")
    parts = ItemParts(quiz, question, language, presentation, resprocessing, identifiers.NumberIds(quiz, question),
                      "correct_fb" if feedback.correct is not None else None, [], [])
    fill(parts)
    presentation.parts.append(_END_PRESENTATION)
    if feedback.incorrect is not None and question_type not in _ADDS_PARTS:
        other(resprocessing, "Yes", "general_incorrect_fb")
    resprocessing.parts.append(_END_RESPROCESSING)
    out = [_item_head(quiz, question, question_type, decimal_text(question.points), ",".join(parts.answer_ids))]
    out += presentation.parts
    out += resprocessing.parts
    if feedback.general is not None:
        out.append(itemfeedback("general_fb", feedback_text(language, feedback.general)))
    if feedback.correct is not None:
        out.append(itemfeedback("correct_fb", feedback_text(language, feedback.correct)))
    if feedback.incorrect is not None:
        out.append(itemfeedback("general_incorrect_fb", feedback_text(language, feedback.incorrect)))
    for answer_id, text in parts.answer_feedback:
        out.append(itemfeedback(f"{answer_id}_fb", feedback_text(language, text)))
    out.append(_END_ITEM)
    return out


def _item_head(quiz: Quiz, question: Question, question_type: str, points: str, answer_ids: str) -> str:
    title = attribute(question.title or question.id)
    return (f'{INDENT[3]}<item ident="{identifiers.item_ident(quiz, question)}" title="{title}">\n'
            + _metadata(question_type, points, answer_ids, identifiers.bank_item_ident(quiz, question)))

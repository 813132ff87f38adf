"""One question as a Canvas item: the frame every type shares (metadata, stem, feedback)."""

from __future__ import annotations

from dataclasses import dataclass, field
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
from .qti12 import html_material, itemfeedback, other
from ..xml import attribute
from .xml import Lines

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


@dataclass
class ItemParts:
    """What a type builder fills in: the answers' ids and feedback, and the scoring conditions."""

    quiz: Quiz
    question: Question
    presentation: Lines
    resprocessing: Lines | None
    number: identifiers.NumberIds
    answer_ids: list[str] = field(default_factory=list)
    answer_feedback: list[tuple[str, Text]] = field(default_factory=list)

    @property
    def correct_feedback(self) -> str | None:
        return "correct_fb" if self.question.feedback.correct is not None else None


@lru_cache(maxsize=256)  # a quiz is in a language or two, and every stem and feedback opens so
def _div_lang(language: str) -> str:
    return f'<div lang="{escape(language)}">'


def stem_html(quiz: Quiz, question: Question) -> str:
    # Canvas quizzes have no language of their own; the lang attribute survives its sanitiser.
    stem = html(question.stem)
    if isinstance(question, FillInBlanks):  # Canvas names a blank [name] in the text
        stem = fill(stem, lambda name: f"[{name}]")
    return f"{_div_lang(quiz.language_of(question))}{stem}</div>"


def canvas_question_type(question: Question) -> str:
    if isinstance(question, FillInBlanks):
        from .blanks_item import canvas_type  # it builds on this module

        return canvas_type(question)
    return QUESTION_TYPES[type(question)]


def feedback_html(language: str, text: Text) -> str:
    """Feedback in a `<div lang>`. Canvas's importer (html_helper.rb, detect_html) unwraps
    attribute-less <p>, <div> and <span> around a feedback and, when only text is left, keeps that
    text still HTML-escaped, so students would read "&amp;"; a wrapper with an attribute stops it
    and the feedback stays HTML. The language is a true attribute of the text, and Canvas keeps it."""
    return f"{_div_lang(language)}{html(text)}</div>"


def build_item(quiz: Quiz, question: Question, fill) -> str:
    """The item element of `question`; `fill(parts)` writes the type's presentation and scoring."""
    question_type = canvas_question_type(question)
    text_only = question_type == "text_only_question"
    presentation = Lines(4)
    presentation.open("presentation")
    html_material(presentation, stem_html(quiz, question))
    resprocessing = feedback_lines = None
    answer_ids = ""
    if not text_only:
        feedback = question.feedback
        resprocessing = Lines(5)
        if feedback.general is not None:
            other(resprocessing, "Yes", "general_fb")
        parts = ItemParts(quiz, question, presentation, resprocessing, identifiers.NumberIds(quiz, question))
        fill(parts)
        if feedback.incorrect is not None and question_type not in _ADDS_PARTS:
            other(resprocessing, "Yes", "general_incorrect_fb")
        answer_ids = ",".join(parts.answer_ids)
        feedback_lines = Lines(4)
        language = quiz.language_of(question)
        for ident, text in (
            ("general_fb", feedback.general),
            ("correct_fb", feedback.correct),
            ("general_incorrect_fb", feedback.incorrect),
        ):
            if text is not None:
                itemfeedback(feedback_lines, ident, feedback_html(language, text))
        for answer_id, text in parts.answer_feedback:
            itemfeedback(feedback_lines, f"{answer_id}_fb", feedback_html(language, text))
    presentation.close("presentation")

    title = attribute(question.title or question.id)
    out = [
        f'      <item ident="{identifiers.item_ident(quiz, question)}" title="{title}">\n',
        _metadata(question_type, "0" if text_only else decimal_text(question.points), answer_ids,
                  identifiers.bank_item_ident(quiz, question)),
    ]
    out += presentation.parts
    if resprocessing is not None:
        out.append("        <resprocessing>\n")
        out.append(_OUTCOMES)
        out += resprocessing.parts
        out.append("        </resprocessing>\n")
        out += feedback_lines.parts
    out.append("      </item>\n")
    return "".join(out)

"""One question as a Canvas item: the frame every type shares (metadata, stem, feedback)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from html import escape

from lxml import etree

from ...model import (
    Description,
    Essay,
    Matching,
    MultipleResponse,
    Numerical,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Text,
    TrueFalse,
)
from ...text import to_html
from . import identifiers
from .qti import html_material, itemfeedback, meta_field, other, sub

QUESTION_TYPES: dict[type[Question], str] = {
    SingleChoice: "multiple_choice_question",
    TrueFalse: "true_false_question",
    MultipleResponse: "multiple_answers_question",
    ShortAnswer: "short_answer_question",
    Numerical: "numerical_question",
    Matching: "matching_question",
    Essay: "essay_question",
    Description: "text_only_question",
}

# Canvas's exporter leaves out the catch-all incorrect condition for types that add up parts.
_ADDS_PARTS = {"matching_question"}


def decimal_text(value: Decimal | float) -> str:
    """A number as plain decimal digits, exact for the float the content holds."""
    if not isinstance(value, Decimal):
        value = Decimal(repr(float(value)))
    return format(value, "f")


@dataclass
class ItemParts:
    """What a type builder fills in: the answers' ids and feedback, and the scoring conditions."""

    quiz: Quiz
    question: Question
    presentation: etree._Element
    resprocessing: etree._Element | None
    number: identifiers.NumberIds
    answer_ids: list[str] = field(default_factory=list)
    answer_feedback: list[tuple[str, Text]] = field(default_factory=list)

    @property
    def correct_feedback(self) -> str | None:
        return "correct_fb" if self.question.feedback.correct is not None else None


def stem_html(quiz: Quiz, question: Question) -> str:
    # Canvas quizzes have no language of their own; the lang attribute survives its sanitiser.
    return f'<div lang="{escape(quiz.language_of(question))}">{to_html(question.stem)}</div>'


def build_item(section: etree._Element, quiz: Quiz, question: Question, fill) -> None:
    """Append `question` to `section`; `fill(parts)` writes the type's presentation and scoring."""
    question_type = QUESTION_TYPES[type(question)]
    text_only = question_type == "text_only_question"
    item = sub(section, "item", {"ident": identifiers.item_ident(quiz, question), "title": question.title or question.id})
    metadata = sub(sub(item, "itemmetadata"), "qtimetadata")
    meta_field(metadata, "question_type", question_type)
    meta_field(metadata, "points_possible", "0" if text_only else decimal_text(question.points))
    meta_field(metadata, "original_answer_ids", "")
    answer_ids_entry = metadata[-1][1]
    meta_field(metadata, "assessment_question_identifierref", identifiers.bank_item_ident(quiz, question))

    presentation = sub(item, "presentation")
    html_material(presentation, stem_html(quiz, question))
    if text_only:
        return

    resprocessing = sub(item, "resprocessing")
    sub(
        sub(resprocessing, "outcomes"),
        "decvar",
        {"maxvalue": "100", "minvalue": "0", "varname": "SCORE", "vartype": "Decimal"},
    )
    feedback = question.feedback
    if feedback.general is not None:
        other(resprocessing, "Yes", "general_fb")
    parts = ItemParts(quiz, question, presentation, resprocessing, identifiers.NumberIds(quiz, question))
    fill(parts)
    if feedback.incorrect is not None and question_type not in _ADDS_PARTS:
        other(resprocessing, "Yes", "general_incorrect_fb")
    answer_ids_entry.text = ",".join(parts.answer_ids)

    for ident, text in (
        ("general_fb", feedback.general),
        ("correct_fb", feedback.correct),
        ("general_incorrect_fb", feedback.incorrect),
    ):
        if text is not None:
            itemfeedback(item, ident, to_html(text))
    for answer_id, text in parts.answer_feedback:
        itemfeedback(item, f"{answer_id}_fb", to_html(text))

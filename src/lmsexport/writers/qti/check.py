"""The QTI check: every problem `render` reports, without building any item.

An item can only be refused for what its texts hold (QTI's XHTML, see `xhtml.py`) and for
identifiers that collide; it loses what QTI has no place for (a penalty, feedback on an outcome
an unscored question never reaches, an ordering grading QTI cannot express). This module walks
each question's texts with the writer's own context, in the order and at the places the item
builders render them, and applies the builders' other rules directly. A text is rendered only
when its rendering could hold something QTI refuses or loses (`_cannot_trouble_qti`): plain
text is escaped paragraphs only, and most Markdown uses none of the syntax that could. The
tests hold this check to the writer diagnostic by diagnostic, over the corpus and generated
quizzes (tests/test_format_checks.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ...diagnostics import Diagnostic
from ...model import (
    Blank, Description, DropdownBlank, Essay, FillInBlanks, Matching, MultipleResponse, Numerical, NumericalBlank, Ordering, Question, Quiz,
    ShortAnswer, ShortAnswerBlank, SingleChoice, Text, TextFormat, TrueFalse,
)
from ..reporter import PENALTY, Reporter, nothing_to_export, sections_of_drafts
from ..shared import ExportOptions
from . import _section, report_platform_losses
from .context import ItemContext
from .choices import option_identifier  # the writer's cache of option identifiers
from .names import choice_identifier, identifier
from .item import _BUILDERS as SCORED  # the types with an interaction that has a right answer
from .matching import identifiers as matching_identifiers
from .ordering import expressible_grading

# Markdown whose HTML can hold only paragraphs, headings, emphasis, code, lists without a start
# number, block quotes and rules, all of which QTI takes as they are: no table (|), link or
# image ([ !), formula ($, or \( and \[), entity (& and a name and ';', or &#), autolink or
# angle bracket (<), and no numbered list marker at the start of a line (a list starting at
# another number than 1 has a `start`). A backslash before anything else only escapes it, and
# an ampersand that starts no entity is text ("R&D"): both are escaped as any text is.
# `TROUBLE` says it in one pattern; `may_trouble_qti` says the same (a property test holds it to
# the pattern, tests/test_qti_fast_paths.py) with substring tests, several times quicker on the
# texts of a bank, which hold none of these characters.
TROUBLE = re.compile(r"[<|\[!$]|\\[(\[]|&(?:#|[A-Za-z][A-Za-z0-9]*;)|^[ \t>*+\-]*\d+[.)]", re.MULTILINE)
_NAMED_ENTITY = re.compile(r"&[A-Za-z][A-Za-z0-9]*;")
# A numbered list marker at the start of one line (`^` of TROUBLE, tried line by line).
_NUMBER_MARKER = re.compile(r"[ \t>*+\-]*\d+[.)]")


def may_trouble_qti(source: str) -> bool:
    """Whether `TROUBLE` is found in the Markdown source."""
    # "\[" holds "[", so of the escapes only "\(" needs a test of its own.
    if "<" in source or "|" in source or "[" in source or "!" in source or "$" in source or "\\(" in source:
        return True
    if "&" in source and ("&#" in source or _NAMED_ENTITY.search(source) is not None):
        return True
    if "." not in source and ")" not in source:  # every list marker ends in one of them
        return False
    if "\n" not in source:
        return _NUMBER_MARKER.match(source) is not None
    for line in source.split("\n"):  # the marker's characters hold no line break
        if _NUMBER_MARKER.match(line) is not None:
            return True
    return False


# TextFormat's members, read once (an Enum member read off its class is slow on Python 3.11).
_PLAIN, _MARKDOWN = TextFormat.PLAIN, TextFormat.MARKDOWN


def _cannot_trouble_qti(text: Text) -> bool:
    format = text.format
    return format is _PLAIN or (format is _MARKDOWN and not may_trouble_qti(text.source))


class _CheckingContext(ItemContext):
    """The writer's context, rendering only the texts that could be refused or lose something."""

    __slots__ = ()

    def block(self, text: Text, *where: str | int) -> str:
        return "" if _cannot_trouble_qti(text) else super().block(text, *where)

    def inner_block(self, text: Text, *where: str | int) -> str:
        return "" if _cannot_trouble_qti(text) else super().inner_block(text, *where)

    def inline(self, text: Text, *where: str | int) -> str:
        return "" if _cannot_trouble_qti(text) else super().inline(text, *where)


def check(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    questions = quiz.exported_questions
    if not questions:  # the writer's own note: no file for a quiz of drafts only
        yield from nothing_to_export(Reporter(quiz, "qti", options), "", "QTI").diagnostics
        return
    report = Reporter(quiz, "qti", options)
    taken: set[str] = set()
    for question in questions:
        item_id = identifier(question.id)
        if item_id in taken:
            report.error(question, f"the identifier '{item_id}' is used by another question", "id", code="qti")
        taken.add(item_id)
        _item(_CheckingContext(report, question, quiz.language_of(question)), question)
    sections_of_drafts(report, "qti-section")
    for section, _ in quiz.layout():
        _section(quiz, section, report)
    report_platform_losses(quiz, report)
    yield from report.found


def _item(ctx: _CheckingContext, question: Question) -> None:
    """What `item.assessment_item` reports, in its order: the interaction's rules and texts,
    the feedback, the stem, an essay's grader information, the penalty."""
    answer_feedback = _interaction(ctx, question)
    scored = type(question) in SCORED  # the others (essay, description) have no right answer
    given = question.feedback
    outcome = (("correct", given.correct), ("partially_correct", given.partially_correct), ("incorrect", given.incorrect))
    if not scored:
        for key, text in outcome:
            if text is not None:
                ctx.report.loss(question, f"this question has no right answer, so its {key} feedback is never shown; it is left out", "feedback", key,
                                code="qti-loss")
    # Shown in this order: per-answer feedback, the outcome's, the general feedback. A plain
    # text is escaped paragraphs only (`_cannot_trouble_qti`): most are not even asked about.
    for text, where in answer_feedback:
        if text is not None and text.format is not _PLAIN:
            ctx.inner_block(text, *where)
    if scored:
        for key, text in outcome:
            if text is not None and text.format is not _PLAIN:
                ctx.inner_block(text, "feedback", key)
    general = given.general
    if general is not None and general.format is not _PLAIN:
        ctx.inner_block(general, "explanation")
    if question.stem.format is not _PLAIN:
        ctx.block(question.stem, "stem")
    if isinstance(question, Essay) and question.grader_info is not None:
        ctx.block(question.grader_info, "grader_info")
    if question.penalty:
        ctx.report.lost(question, PENALTY, "penalty")


def _interaction(ctx: _CheckingContext, question: Question) -> list[tuple[Text | None, tuple]]:
    """The interaction's own rules and texts; its per-answer feedback (text, place) in the order
    the item shows it."""
    return INTERACTION_RULES[type(question)](ctx, question)


def _choices(ctx: _CheckingContext, question: SingleChoice | MultipleResponse) -> list[tuple[Text | None, tuple]]:
    choices = question.choices
    ids = {option_identifier(c.id) for c in choices}
    if len(ids) != len(choices):
        ctx.report.error(question, "two options have the same identifier", "options", code="qti")
    feedback = []  # only the options that have feedback: `_item` renders no other
    for index, choice in enumerate(choices):
        if choice.text.format is not _PLAIN:
            ctx.inline(choice.text, "options", index, "text")
        if choice.feedback is not None:
            feedback.append((choice.feedback, ("options", index, "feedback")))
    return feedback


def _true_false(ctx: _CheckingContext, question: TrueFalse) -> list[tuple[Text | None, tuple]]:
    return [(question.true_feedback, ("true_feedback",)), (question.false_feedback, ("false_feedback",))]


def _short_answer(ctx: _CheckingContext, question: ShortAnswer) -> list[tuple[Text | None, tuple]]:
    return [(a.feedback, ("answers", i, "feedback")) for i, a in enumerate(question.answers)]


def _numerical(ctx: _CheckingContext, question: Numerical) -> list[tuple[Text | None, tuple]]:
    ranked = sorted(enumerate(question.answers), key=lambda pair: -pair[1].credit)  # the order answers are tried
    return [(a.feedback, ("answers", i, "feedback")) for i, a in ranked]


def _matching(ctx: _CheckingContext, question: Matching) -> list[tuple[Text | None, tuple]]:
    matching_identifiers(ctx, question)
    for index, pair in enumerate(question.pairs):
        ctx.inline(pair.prompt, "pairs", index, "prompt")
    return []


def _ordering(ctx: _CheckingContext, question: Ordering) -> list[tuple[Text | None, tuple]]:
    ids = [choice_identifier(item.id) for item in question.items]
    if len(set(ids)) != len(ids):
        ctx.report.error(question, "two items have the same identifier", "items", code="qti")
    expressible_grading(ctx, question, len(ids))
    for index, item in enumerate(question.items):
        ctx.inline(item.text, "items", index, "text")
    return []


def _blanks(ctx: _CheckingContext, question: FillInBlanks) -> list[tuple[Text | None, tuple]]:
    found: list[tuple[Text | None, tuple]] = []
    for index, blank in enumerate(question.blanks):
        found += BLANK_FEEDBACK[type(blank)](blank, ("blanks", index))
    return found


def _no_interaction(ctx: _CheckingContext, question: Question) -> list[tuple[Text | None, tuple]]:
    return []


def _answer_feedback(blank: ShortAnswerBlank | NumericalBlank, where: tuple) -> list[tuple[Text | None, tuple]]:
    return [(a.feedback, (*where, "answers", j, "feedback")) for j, a in enumerate(blank.answers)]


def _option_feedback(blank: DropdownBlank, where: tuple) -> list[tuple[Text | None, tuple]]:
    return [(o.feedback, (*where, "options", j, "feedback")) for j, o in enumerate(blank.options)]


INTERACTION_RULES: dict[type[Question], Callable[[_CheckingContext, Any], list[tuple[Text | None, tuple]]]] = {
    SingleChoice: _choices,
    MultipleResponse: _choices,
    TrueFalse: _true_false,
    ShortAnswer: _short_answer,
    Numerical: _numerical,
    Matching: _matching,
    Ordering: _ordering,
    FillInBlanks: _blanks,
    Essay: _no_interaction,
    Description: _no_interaction,
}

BLANK_FEEDBACK: dict[type[Blank], Callable[[Any, tuple], list[tuple[Text | None, tuple]]]] = {
    ShortAnswerBlank: _answer_feedback,
    NumericalBlank: _answer_feedback,
    DropdownBlank: _option_feedback,
}

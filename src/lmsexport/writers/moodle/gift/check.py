"""The GIFT check: every problem `render` reports, found by the writer's own code with the
rendering of texts left out, so the check and the writer cannot disagree."""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Diagnostic
from ....model import Question, Quiz, Text
from ..check import exact_or_nearest, grade_problems
from ..common import category_path, dropped_metadata, question_diagnostics, quiz_diagnostics, section_category_path, section_note
from ...shared import ExportOptions, nothing_to_export
from . import _category_losses, media_base_url_errors
from .questions import BlockWriter


class _CheckingWriter(BlockWriter):
    """The block writer with no text rendered and credits judged by `grade_problems`."""

    def rich(self, text: Text, inline: bool) -> str:
        return ""

    def grade(self, question: Question, credit: float, what: str) -> str | None:
        return exact_or_nearest(credit)


def check(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    questions = quiz.exported_questions
    if not questions:  # the writer's own note: no file for a quiz of drafts only
        yield from nothing_to_export(quiz, "", "GIFT").diagnostics
        return
    yield from media_base_url_errors(quiz, options)
    yield from quiz_diagnostics(quiz, options)
    dropped = dropped_metadata(quiz, "GIFT", in_comments=True)
    if dropped is not None:
        yield dropped
    yield from _category_losses(quiz, category_path(quiz), options)
    writer = _CheckingWriter(quiz, options)
    for section, members in quiz.layout():
        if section is not None:
            section_path = section_category_path(quiz, section)
            yield section_note(quiz, section, section_path)
            yield from _category_losses(quiz, section_path, options)
        for question in members:
            yield from question_diagnostics(quiz, question, options)
            yield from grade_problems(quiz, question, options)
            writer.block(question)
    yield from writer.diagnostics

"""The GIFT check: every problem `render` reports, found by the writer's own code with the
rendering of texts left out, so the check and the writer cannot disagree."""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Diagnostic
from ....model import Quiz, Section, Text
from ..check import CreditsChecked, checked_questions
from ..common import category_path, quiz_diagnostics, section_category_path, section_note
from ...shared import ExportOptions, nothing_to_export
from . import _category_losses, media_base_url_errors
from .questions import BlockWriter


class _CheckingWriter(CreditsChecked, BlockWriter):
    """The block writer with no text rendered and credits judged by `grade_problems`."""

    def rich(self, text: Text, inline: bool) -> str:
        return ""


def check(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    questions = quiz.exported_questions
    if not questions:  # the writer's own note: no file for a quiz of drafts only
        yield from nothing_to_export(quiz, "", "GIFT").diagnostics
        return
    yield from media_base_url_errors(quiz, options)
    yield from quiz_diagnostics(quiz, options, "GIFT", in_comments=True)
    yield from _category_losses(quiz, category_path(quiz), options)
    writer = _CheckingWriter(quiz, options)

    def section_diagnostics(section: Section) -> Iterator[Diagnostic]:
        section_path = section_category_path(quiz, section)
        yield section_note(quiz, section, section_path)
        yield from _category_losses(quiz, section_path, options)

    yield from checked_questions(quiz, options, writer.block, section_diagnostics)
    yield from writer.diagnostics

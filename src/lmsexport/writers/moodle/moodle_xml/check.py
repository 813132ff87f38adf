"""The Moodle XML check: every problem `render` reports, found by the writer's own code with
the rendering of texts left out, so the check and the writer cannot disagree."""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Diagnostic
from ....model import Choice, Quiz, Section, Text
from ....text import media_references
from ..check import CreditsChecked, checked_questions
from ..common import quiz_diagnostics, quiz_loss, section_category_path, section_note
from ...shared import ExportOptions, nothing_to_export
from .fields import Fields
from .questions import QuestionWriter


class _NoText(Fields):
    def inner(self, indent: str, text: Text | None, inline: bool, lang: str | None) -> tuple[str, str]:
        return "html", ""

    def field(self, indent: str, tag: str, text: Text | None, inline: bool = False, lang: str | None = None) -> str:
        return ""


class _CheckingWriter(CreditsChecked, QuestionWriter):
    """The question writer with no text rendered and credits judged by `grade_problems`."""

    def __init__(self, quiz: Quiz, options: ExportOptions):
        super().__init__(quiz, options)
        self.fields = _NoText(quiz)

    def choice_answer(self, percent: str, choice: Choice) -> str:
        return ""


def check(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    questions = quiz.exported_questions
    if not questions:  # the writer's own note: no file for a quiz of drafts only
        yield from nothing_to_export(quiz, "", "Moodle XML").diagnostics
        return
    yield from quiz_diagnostics(quiz, options, "Moodle XML")
    media = media_references(quiz.description) if quiz.media else []
    if media:
        message = f"the description's media files ({', '.join(media)}) cannot ride with a Moodle category description: Moodle will show them broken"
        yield quiz_loss(quiz, message, options, "moodle-media", "/description")
    writer = _CheckingWriter(quiz, options)

    def section_diagnostics(section: Section) -> Iterator[Diagnostic]:
        yield section_note(quiz, section, section_category_path(quiz, section))

    yield from checked_questions(quiz, options, writer.write, section_diagnostics)
    yield from writer.diagnostics

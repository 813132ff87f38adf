"""The QTI check: every problem `render` reports, found by the writer's own item code with plain
texts left out. Markdown is still rendered: only its HTML can tell whether QTI holds it (the
rendering is cached, so `build` pays for it once)."""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Diagnostic
from ...model import Quiz, Text, TextFormat
from ..shared import ExportOptions, nothing_to_export, sections_of_drafts_notes
from . import _section, report_platform_losses
from .context import ItemContext
from .item import assessment_item
from .names import identifier
from .problems import Problems


class _CheckingContext(ItemContext):
    __slots__ = ()

    def block(self, text: Text, *where: str | int) -> str:
        return "" if text.format is TextFormat.PLAIN else super().block(text, *where)

    def inline(self, text: Text, *where: str | int) -> str:
        return "" if text.format is TextFormat.PLAIN else super().inline(text, *where)


def check(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    questions = quiz.exported_questions
    if not questions:  # the writer's own note: no file for a quiz of drafts only
        yield from nothing_to_export(quiz, "", "QTI").diagnostics
        return
    problems = Problems(quiz, options)
    taken: set[str] = set()
    for question in questions:
        item_id = identifier(question.id)
        if item_id in taken:
            problems.error(question, f"the identifier '{item_id}' is used by another question", "id")
        taken.add(item_id)
        ctx = _CheckingContext(problems, question, quiz.language_of(question))
        assessment_item(ctx, item_id)
    problems.found.extend(sections_of_drafts_notes(quiz, "qti-section"))
    for section, _ in quiz.layout():
        _section(quiz, section, problems)
    report_platform_losses(quiz, problems)
    yield from problems.found

"""The QTI check: every problem `render` reports, found by the writer's own item code with plain
texts left out. Markdown is still rendered: only its HTML can tell whether QTI holds it (the
rendering is cached, so `build` pays for it once)."""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Diagnostic
from ...model import Quiz, Text, TextFormat
from ..reporter import Reporter, nothing_to_export
from ..shared import ExportOptions
from . import _section, report_platform_losses
from .context import ItemContext
from .item import assessment_item
from .names import identifier


class _CheckingContext(ItemContext):
    __slots__ = ()

    def block(self, text: Text, *where: str | int) -> str:
        return "" if text.format is TextFormat.PLAIN else super().block(text, *where)

    def inline(self, text: Text, *where: str | int) -> str:
        return "" if text.format is TextFormat.PLAIN else super().inline(text, *where)


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
        ctx = _CheckingContext(report, question, quiz.language_of(question))
        assessment_item(ctx, item_id)
    for section, _ in quiz.layout():
        _section(quiz, section, report)
    report_platform_losses(quiz, report)
    yield from report.found

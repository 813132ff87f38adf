"""Diagnostics of one export, each at the most precise place in the content."""

from __future__ import annotations

from ...diagnostics import Diagnostic, error, note, pointer_join, warning
from ...model import Question, Quiz
from ..shared import ExportOptions, loss_warning


class Problems:
    def __init__(self, quiz: Quiz, options: ExportOptions):
        self.quiz = quiz
        self.options = options
        self.found: list[Diagnostic] = []

    def pointer(self, question: Question | None, *parts: str | int) -> str:
        base = question.location.pointer if question is not None else ""
        return pointer_join(base, *parts)

    def error(self, question: Question | None, message: str, *parts: str | int, code: str = "qti") -> None:
        self.found.append(error(message, self.quiz.location.file, self.pointer(question, *parts), code=code))

    def loss(self, question: Question, message: str, *parts: str | int, code: str = "qti-loss") -> None:
        self.found.append(loss_warning(self.quiz, question, message, self.options, code, self.pointer(question, *parts)))

    def platform_warning(self, question: Question | None, message: str, *parts: str | int) -> None:
        self.found.append(warning(message, self.quiz.location.file, self.pointer(question, *parts), code="qti-platform"))

    def platform_note(self, message: str, *parts: str | int) -> None:
        self.found.append(note(message, self.quiz.location.file, self.pointer(None, *parts) if parts else "", code="qti-platform"))

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.found)

"""The Canvas check: every problem `render` reports, from the same rule functions, without
building any item. (Characters XML cannot carry never reach a writer: loading refuses them.)"""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Diagnostic, error
from ...model import Quiz
from ..shared import ExportOptions, loss_warning, nothing_to_export, sections_of_drafts_notes
from . import _dropped_metadata, _section_losses
from .losses import loss_place, question_errors, question_losses
from .rules import shuffle_answers


def check(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    questions = quiz.exported_questions
    if not questions:  # the writer's own note: no file for a quiz of drafts only
        yield from nothing_to_export(quiz, "", "Canvas").diagnostics
        return
    shuffled = shuffle_answers(quiz)
    yield from sections_of_drafts_notes(quiz, "canvas-section")
    for section, members in quiz.layout():
        if section is not None:
            # As render decides: a group gives each of its questions the same points.
            equal = len({q.points for q in members}) == 1
            yield from _section_losses(quiz, section, section.pick is not None or (section.shuffle and equal), options)
        for question in members:
            for code, message in question_errors(question):
                yield error(message, quiz.location.file, question.location.pointer, code=code)
            for code, message in question_losses(question, shuffled):
                yield loss_warning(quiz, question, message, options, code, loss_place(question, code, message))
    metadata = _dropped_metadata(quiz)
    if metadata is not None:
        yield metadata

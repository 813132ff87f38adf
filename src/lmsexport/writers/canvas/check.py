"""The Canvas check: every problem `render` reports, from the same rule functions, without
building any item. (Characters XML cannot carry never reach a writer: loading refuses them.)"""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import Diagnostic
from ...model import Quiz
from ..reporter import Reporter, nothing_to_export
from ..shared import ExportOptions
from . import dropped_metadata, is_group, section_losses
from .losses import question_rules
from .rules import shuffle_answers


def check(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    report = Reporter(quiz, "canvas", options)
    if not quiz.exported_questions:  # the writer's own note: no file for a quiz of drafts only
        return iter(nothing_to_export(report, "", "Canvas").diagnostics)
    shuffled = shuffle_answers(quiz)
    for section, members in quiz.layout():
        if section is not None:
            section_losses(report, section, is_group(section, members))
        for question in members:
            question_rules(report, question, shuffled)
    dropped_metadata(report)
    return iter(report.found)

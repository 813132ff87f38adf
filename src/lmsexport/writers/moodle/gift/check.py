"""The GIFT check: every problem `render` reports, found by the writer's own code with the
rendering of texts left out, so the check and the writer cannot disagree."""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Diagnostic
from ....model import MultipleResponse, Question, Quiz, SingleChoice, Text
from ..check import CreditsChecked
from ..common import checked
from ...reporter import Reporter
from ...shared import ExportOptions
from . import quiz_reported, section_reported
from .questions import BlockWriter


class _CheckingWriter(CreditsChecked, BlockWriter):
    """The block writer with no text rendered and credits judged by `grade_problems`. The parts
    that are only strings, of texts and of values the rules judge elsewhere, are not built at all:
    the question's name, the lines of a choice block."""

    def rich(self, text: Text, inline: bool) -> str:
        return ""

    def name(self, question: Question) -> str:  # what the check would write is not kept
        return ""

    def choice_lines(self, question: SingleChoice | MultipleResponse, single: bool, percents: list[str]) -> str:
        return ""


def check(quiz: Quiz, options: ExportOptions, family: tuple[str, ...] | None = None) -> Iterator[Diagnostic]:
    return checked(Reporter(quiz, "gift", options), "GIFT", lambda report: _CheckingWriter(report).block, quiz_reported, section_reported, family)

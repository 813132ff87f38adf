"""The GIFT check: every problem `render` reports, found by the writer's own code with the
rendering of texts left out, so the check and the writer cannot disagree."""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Diagnostic
from ....model import Question, Quiz, Text
from ..check import CreditsChecked
from ..common import checked
from ...reporter import Reporter
from ...shared import ExportOptions
from . import quiz_reported, section_reported
from .questions import BlockWriter


class _CheckingWriter(CreditsChecked, BlockWriter):
    """The block writer with no text rendered and credits judged by `grade_problems`."""

    def rich(self, text: Text, inline: bool) -> str:
        return ""

    def name(self, question: Question) -> str:  # what the check would write is not kept
        return ""

    def in_own_language(self, text: Text, lang: str) -> str:
        return ""


def check(quiz: Quiz, options: ExportOptions, family: tuple[str, ...] | None = None) -> Iterator[Diagnostic]:
    return checked(Reporter(quiz, "gift", options), "GIFT", lambda report: _CheckingWriter(report).block, quiz_reported, section_reported, family)

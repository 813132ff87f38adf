"""The Moodle XML check: every problem `render` reports, found by the writer's own code with
the rendering of texts left out, so the check and the writer cannot disagree."""

from __future__ import annotations

from collections.abc import Iterator

from ....diagnostics import Diagnostic
from ....model import MultipleResponse, Question, Quiz, SingleChoice, Text
from ..check import CreditsChecked
from ..common import checked
from ...reporter import Reporter
from ...shared import ExportOptions
from . import quiz_reported, section_reported
from .fields import Fields
from .questions import DEFAULT_PENALTY, QuestionWriter


class _NoText(Fields):
    def inner(self, indent: str, text: Text | None, inline: bool, lang: str | None) -> tuple[str, str]:
        return "html", ""

    def field(self, indent: str, tag: str, text: Text | None, inline: bool = False, lang: str | None = None) -> str:
        return ""


class _CheckingWriter(CreditsChecked, QuestionWriter):
    """The question writer with no text rendered and credits judged by `grade_problems`. The parts
    that are only strings made of texts (fields) and of values the rules judge elsewhere are not
    built at all: answers, the feedback by outcome, the tags."""

    def __init__(self, report: Reporter):
        super().__init__(report)
        self.fields = _NoText(report.quiz)

    def header(self, question: Question, kind: str, default_penalty: float = DEFAULT_PENALTY, questiontext: str | None = None,
               points: float | None = None) -> str:
        self.judged_points(question, default_penalty, points)  # what the header would write is not kept
        return ""

    def choice_answers(self, question: SingleChoice | MultipleResponse, percents: list[str]) -> str:
        return ""

    def plain_answer(self, percent: str, content: str, feedback: Text | None, extra: str = "") -> str:
        return ""

    def combined_feedback(self, question: Question, shownumcorrect: bool) -> str:
        return ""

    def tags(self, question: Question) -> str:
        return ""


def check(quiz: Quiz, options: ExportOptions, family: tuple[str, ...] | None = None) -> Iterator[Diagnostic]:
    return checked(Reporter(quiz, "moodle", options), "Moodle XML", lambda report: _CheckingWriter(report).write, quiz_reported, section_reported, family)

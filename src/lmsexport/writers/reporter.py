"""The one way a writer or a format's check says what it finds.

A `Reporter` is made for one quiz and one format (its name in the registry) and collects that
format's diagnostics, each at the place of the value it is about: a question or section and the
JSON pointer tokens below it (the credit, not the question), or the quiz itself. Every
diagnostic names its format here, when it is made. Nothing here decides severity beyond what
the finder knows: a loss (what the format cannot carry) is a warning flagged as a loss, and
`pipeline.settle` alone turns losses into errors under --strict, places each diagnostic at its
line and column, and says once a loss several formats share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..diagnostics import Diagnostic, Severity, pointer_join
from ..formats import FORMATS
from ..model import Location, Quiz
from .shared import Export, ExportOptions


class Placed(Protocol):
    """A question or a section: anything that knows where it stands in the content."""

    @property
    def location(self) -> Location: ...


@dataclass(frozen=True, slots=True)
class SharedLoss:
    """A loss more than one format has, in one wording and under one code, so that `settle` says
    it once where it stands, naming every format that has it ("canvas, gift: ...")."""

    code: str
    message: str


GRADER_INFO = SharedLoss(code="lost-grader-info", message="no place for an essay's grader information: it is left out")
RESPONSE_TEMPLATE = SharedLoss(code="lost-response-template", message="no place for an essay's response template: it is left out")
PENALTY = SharedLoss(code="lost-penalty", message="no penalty for another try: the penalty is left out")
CASE = SharedLoss(code="lost-case", message="answers are compared without case: case sensitivity is lost")
LITERAL_TEX = SharedLoss(code="lost-literal-tex", message="Moodle's MathJax filter typesets this text's formulas and, with them, its literal "
                                                         "\\( \\[ or $$ outside code: that part shows as a formula too")


# Severity's members, read once: an Enum member read as a class attribute is slow on Python 3.11,
# and a bank's writers say hundreds of thousands of things.
_ERROR, _WARNING, _NOTE = Severity.ERROR, Severity.WARNING, Severity.NOTE


def outcome_feedback(kinds: list[str]) -> SharedLoss:
    """Feedback by outcome (correct, partially_correct, incorrect: the ones written) that a
    question type has no place for."""
    named = ", ".join(k.replace("_", " ") for k in kinds)
    return SharedLoss(code="lost-outcome-feedback", message=f"no {named} feedback by outcome (only feedback by answer): it is left out")


class Reporter:
    """What one format says of one quiz, in the order it is found."""

    __slots__ = ("errors", "file", "format", "formats", "found", "options", "quiz")

    def __init__(self, quiz: Quiz, format_name: str, options: ExportOptions):
        if format_name not in FORMATS:
            raise ValueError(f"unknown format {format_name!r}")
        self.quiz = quiz
        self.file = quiz.location.file
        self.format = format_name
        self.formats = (format_name,)  # what every diagnostic names
        self.options = options
        self.found: list[Diagnostic] = []
        self.errors = 0  # counted as they come: writers ask `failed` after each question

    def error(self, at: Placed | None, message: str, *parts: str | int, code: str) -> None:
        """The format cannot be written (or imported) with this: nothing is exported."""
        self.errors += 1
        self._add(_ERROR, at, message, parts, code, False)

    def loss(self, at: Placed | None, message: str, *parts: str | int, code: str) -> None:
        """The format cannot carry the value at this place: a warning, an error under --strict."""
        self._add(_WARNING, at, message, parts, code, True)

    def lost(self, at: Placed | None, shared: SharedLoss, *parts: str | int) -> None:
        """A loss other formats have too, in the words and code they all use."""
        self._add(_WARNING, at, shared.message, parts, shared.code, True)

    def platform_warning(self, at: Placed | None, message: str, *parts: str | int, code: str) -> None:
        """The export carries everything but a platform changes it on import: never an error."""
        self._add(_WARNING, at, message, parts, code, False)

    def note(self, at: Placed | None, message: str, *parts: str | int, code: str) -> None:
        self._add(_NOTE, at, message, parts, code, False)

    def _add(self, severity: Severity, at: Placed | None, message: str, parts: tuple[str | int, ...], code: str, loss: bool) -> None:
        pointer = pointer_join(at.location.pointer if at is not None else "", *parts)
        self.found.append(Diagnostic(severity, message, self.file, pointer, code=code, formats=self.formats, loss=loss))

    @property
    def failed(self) -> bool:
        return self.errors > 0

    def export(self, filename: str, data: bytes | None = None) -> Export:
        """The export file with what was found; no bytes when anything is an error."""
        return Export(filename, None if self.failed else data, tuple(self.found))


def sections_of_drafts(report: Reporter, code: str) -> None:
    """A note for each section whose questions are all drafts, which no writer writes (Quiz.layout
    leaves it out): a section with nothing in it would reach the platform as an empty category,
    assessmentSection or group."""
    for section in report.quiz.sections_of_drafts:
        report.note(section, f"section {section.id!r}: all its questions are drafts, so the section is left out", code=code)


def nothing_to_export(report: Reporter, filename: str, format_title: str) -> Export:
    """No file at all for a quiz whose questions are all drafts (Moodle even throws on an empty
    quiz); a note says why."""
    report.note(None, f"no question to export (all are drafts): no {format_title} file is written", code="nothing-to-export")
    return report.export(filename)

"""What each platform keeps, changes or drops, per question: the diagnostics `build` reports
when it exports the quiz (the format's check and writer, settled once by pipeline.settle: losses
of defaults dropped, each at the value it is about), attached to the question their JSON pointer
names.

There is no list of platform limits here: a writer that learns to carry something, or finds a
new loss, changes the preview with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, error
from ..formats import FORMATS
from ..jsonsource import ParsedJson
from ..model import Quiz
from ..writers.shared import ExportOptions

PLATFORM_NAMES = {name: f.label for name, f in FORMATS.items()}
_QUESTION = re.compile(r"^/questions/(\d+)(?=/|$)")
_SECTION = re.compile(r"^/sections/(\d+)(?=/|$)")


def question_index(pointer: str) -> int | None:
    """The question a JSON pointer is in ("/questions/3/options/0/text" -> 3), or None."""
    match = _QUESTION.match(pointer)
    return int(match.group(1)) if match else None


def platform_name(format_name: str) -> str:
    return PLATFORM_NAMES.get(format_name, format_name)


@dataclass
class PlatformNotes:
    """Diagnostics by question index (None: about the quiz as a whole) or by section index,
    then by format."""

    formats: tuple[str, ...]
    by_question: dict[int | None, dict[str, list[Diagnostic]]] = field(default_factory=dict)
    by_section: dict[int, dict[str, list[Diagnostic]]] = field(default_factory=dict)

    def add(self, format_name: str, diagnostic: Diagnostic) -> None:
        section = _SECTION.match(diagnostic.pointer)
        if section:
            place = self.by_section.setdefault(int(section.group(1)), {})
        else:
            place = self.by_question.setdefault(question_index(diagnostic.pointer), {})
        place.setdefault(format_name, []).append(diagnostic)

    def of(self, index: int | None) -> dict[str, list[Diagnostic]]:
        return self.by_question.get(index, {})

    def of_section(self, index: int) -> dict[str, list[Diagnostic]]:
        return self.by_section.get(index, {})

    def by_format(self) -> dict[str, list[Diagnostic]]:
        """Every diagnostic of the quiz, by format."""
        found: dict[str, list[Diagnostic]] = {}
        for per_format in [*self.by_question.values(), *self.by_section.values()]:
            for name, diagnostics in per_format.items():
                found.setdefault(name, []).extend(diagnostics)
        return found


def platform_notes(quiz: Quiz, options: ExportOptions, formats: Iterable[str] = tuple(FORMATS),
                   source: ParsedJson | None = None) -> PlatformNotes:
    """`source`: the parsed file, which tells a value the author wrote from a default."""
    from ..pipeline import export_quiz  # loaded on first use, as the writers are

    notes = PlatformNotes(tuple(formats))
    for name in notes.formats:
        try:
            export = export_quiz(quiz, name, options, source)
        except Exception as problem:  # a defect of ours: shown and reported, the preview goes on
            message = f"internal error while writing {name} ({type(problem).__name__}: {problem}); please report it with this quiz"
            notes.add(name, error(message, quiz.location.file, code="internal"))
            continue
        for diagnostic in export.diagnostics:
            notes.add(name, diagnostic)
    return notes


def without_question_prefix(message: str, question_id: str) -> str:
    """Inside a question's card, "question 'x': " in front of a message only repeats its name."""
    prefix = f"question {question_id!r}: "
    return message[len(prefix):] if message.startswith(prefix) else message

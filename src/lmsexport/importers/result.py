"""What a format reader hands to the import: banks of questions with their places, still in the
platform's own HTML, plus the files they show."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from ..model import Question, Source, Text


@dataclass
class Unread:
    """A question the reader cannot turn into the model, kept with what it says."""

    kind: str
    name: str
    text: str
    reason: str
    idnumber: str = ""
    tags: tuple[str, ...] = ()


@dataclass
class SourceQuestion:
    """One question as read, with where it stands in the input (file, member of a package, line)."""

    question: Question | Unread
    line: int | None = None
    member: str | None = None
    losses: list[str] = field(default_factory=list)  # what the reader could not carry, in words
    quotes_as_entities: bool = False  # its file wrote '"' as &quot; (which Markdown rendering does)


@dataclass
class SourceSection:
    """A section of a quiz as read: `places` are its questions' indexes in the bank."""

    id: str
    title: str
    places: list[int]
    instructions: Text | None = None
    pick: int | None = None
    shuffle: bool = False
    line: int | None = None


@dataclass
class SourceBank:
    """A category, quiz or question bank of the input: it becomes one quiz file."""

    names: list[str]  # category path, outermost first; the last name is the title
    questions: list[SourceQuestion] = field(default_factory=list)
    description: Text | None = None
    level: str | None = None
    learning_path: str | None = None
    language: str | None = None
    quiz_id: str | None = None  # an id the input states (our own exports carry it)
    tags: tuple[str, ...] = ()
    difficulty: str | None = None
    member: str | None = None
    source: Source | None = None
    sections: list[SourceSection] = field(default_factory=list)
    losses: list[tuple[str, int | None, str | None]] = field(default_factory=list)  # (what, line, member) of the quiz's own layout


@dataclass
class SourceFile:
    """Everything read from one input file."""

    format: str
    banks: list[SourceBank] = field(default_factory=list)
    media: dict[str, bytes] = field(default_factory=dict)  # local path -> bytes
    diagnostics: list[Diagnostic] = field(default_factory=list)

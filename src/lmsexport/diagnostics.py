"""Problems found in content, as values: each has a place and a plain message.

Writers and format checks say what a format loses with `loss` diagnostics (a warning flagged as
a loss); whether a loss is an error (`--strict`) is decided once, where diagnostics are settled
(`settle` in pipeline.py), never by the code that finds the loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: Severity
    message: str
    file: str = ""
    pointer: str = ""
    line: int | None = None
    column: int | None = None
    code: str = ""
    # The export formats the problem concerns, in registry order: () for the content itself.
    formats: tuple[str, ...] = ()
    # True when a format cannot carry something the author wrote (an error under --strict).
    loss: bool = False

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @property
    def kind(self) -> str:
        """What the summary counts warnings by: the formats and the code."""
        return (", ".join(self.formats) + " " if self.formats else "") + (self.code or "other")


def error(message: str, file: str = "", pointer: str = "", *, code: str = "", line: int | None = None, column: int | None = None) -> Diagnostic:
    return Diagnostic(Severity.ERROR, message, file, pointer, line, column, code)


def warning(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    return Diagnostic(Severity.WARNING, message, file, pointer, code=code)


def note(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    return Diagnostic(Severity.NOTE, message, file, pointer, code=code)


def loss(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    """A format cannot carry what stands at `pointer`: a warning, an error under --strict."""
    return Diagnostic(Severity.WARNING, message, file, pointer, code=code, loss=True)


def pointer_join(base: str, *parts: str | int) -> str:
    """Append JSON pointer tokens, escaping '~' and '/' as RFC 6901 requires."""
    for part in parts:
        base += "/" + str(part).replace("~", "~0").replace("/", "~1")
    return base

"""Problems found in content, as values: each has a place and a plain message."""

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

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def error(message: str, file: str = "", pointer: str = "", *, code: str = "", line: int | None = None, column: int | None = None) -> Diagnostic:
    return Diagnostic(Severity.ERROR, message, file, pointer, line, column, code)


def warning(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    return Diagnostic(Severity.WARNING, message, file, pointer, code=code)


def note(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    return Diagnostic(Severity.NOTE, message, file, pointer, code=code)


def pointer_join(base: str, *parts: str | int) -> str:
    """Append JSON pointer tokens, escaping '~' and '/' as RFC 6901 requires."""
    for part in parts:
        base += "/" + str(part).replace("~", "~0").replace("/", "~1")
    return base

"""Problems found in content, as values: each has a place and a plain message.

Writers and format checks say what a format loses with `loss` diagnostics (a warning flagged as
a loss); whether a loss is an error (`--strict`) is decided once, where diagnostics are settled
(`settle` in pipeline.py), never by the code that finds the loss.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


# Severity's members, read once: an Enum member read off its class is slow on Python 3.11, and a
# bank's checks make and test hundreds of thousands of diagnostics.
_ERROR, _WARNING, _NOTE = Severity.ERROR, Severity.WARNING, Severity.NOTE


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem: how severe, what it says, where it is (file, JSON pointer, line and column),
    its code, the formats it concerns and whether a format loses what the author wrote."""

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
        return self.severity is _ERROR

    @property
    def kind(self) -> str:
        """What the summary counts warnings by: the formats and the code."""
        return kind_of(self.formats, self.code)

    def __reduce__(self) -> tuple:
        # Pickled as the arguments that make it: a --jobs worker sends back a quiz's hundreds,
        # and the state functions of a slotted dataclass look its fields up for every object.
        return Diagnostic, _field_values(self)


_field_values = attrgetter(*(f.name for f in fields(Diagnostic)))  # in the order __init__ takes them


def kind_of(formats: Sequence[str], code: str) -> str:
    return (", ".join(formats) + " " if formats else "") + (code or "other")


def error(message: str, file: str = "", pointer: str = "", *, code: str = "", line: int | None = None, column: int | None = None) -> Diagnostic:
    return Diagnostic(_ERROR, message, file, pointer, line, column, code)


def warning(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    return Diagnostic(_WARNING, message, file, pointer, code=code)


def note(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    return Diagnostic(_NOTE, message, file, pointer, code=code)


def loss(message: str, file: str = "", pointer: str = "", *, code: str = "") -> Diagnostic:
    """A format cannot carry what stands at `pointer`: a warning, an error under --strict."""
    return Diagnostic(_WARNING, message, file, pointer, code=code, loss=True)


def pointer_join(base: str, *parts: str | int) -> str:
    """Append JSON pointer tokens, escaping '~' and '/' as RFC 6901 requires."""
    for part in parts:
        base += "/" + str(part).replace("~", "~0").replace("/", "~1")
    return base


class RecordedDiagnostics(Sequence[Diagnostic]):
    """Diagnostics kept as rows of a record (the build cache) or as diagnostics not yet placed
    at their line and column (`pipeline.settle`): a Diagnostic is made only for a row asked for. A cached quiz of a large bank replays tens of thousands of
    warnings, and a report at the default level prints only its errors and the first warning of
    each kind: the counts, the kinds and those rows (`shown`) are all it needs."""

    __slots__ = ("_make", "_rows", "counts", "kinds", "shown", "row_kinds", "severities")

    def __init__(self, rows: list, make: Callable[[object], Diagnostic], severities: list[Severity], kinds: list[str | None]):
        """`severities` and `kinds` (None but for a warning): one per row, as `make` would give them."""
        self._rows, self._make = rows, make
        self.severities, self.row_kinds = severities, kinds
        self.counts = {"errors": 0, "warnings": 0, "notes": 0}
        self.kinds: dict[str, int] = {}
        self.shown: list[int] = []  # every error and the first warning of each kind, in order
        for index, (severity, kind) in enumerate(zip(severities, kinds)):
            self.counts[_COUNTED[severity]] += 1
            if kind is not None:
                seen = self.kinds.get(kind, 0)
                self.kinds[kind] = seen + 1
                if not seen:
                    self.shown.append(index)
            elif severity is _ERROR:
                self.shown.append(index)

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._make(row) for row in self._rows[index]]
        return self._make(self._rows[index])

    def __iter__(self) -> Iterator[Diagnostic]:
        return map(self._make, self._rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        # Sent to another process (a worker's outcome) as the diagnostics themselves.
        return (tuple, (tuple(self),))


_COUNTED = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.NOTE: "notes"}

"""Showing diagnostics: for people (text, colour on a terminal), for tools (JSON), for GitHub Actions."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import TextIO

from .diagnostics import Diagnostic, RecordedDiagnostics, Severity

# The shape of `validate --output-format json` (report.schema.json in the package). Raised only
# when a field changes meaning or goes away; new fields may appear within a version.
REPORT_VERSION = 1

_COLOURS = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m", Severity.NOTE: "\x1b[36m"}
_RESET = "\x1b[0m"


def utf8_output(*streams: TextIO) -> None:
    """Write UTF-8 whatever the console's code page says.

    Redirected output on Windows gets the ANSI code page (cp1252), which cannot carry most of the
    world's letters: a Wolof or Greek message would be a UnicodeEncodeError traceback. JSON is
    UTF-8 by its standard, and CI logs read UTF-8. Anything UTF-8 itself cannot carry (a lone
    surrogate quoted from a broken file) is written as a backslash escape rather than crash.
    """
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="backslashreplace")


def use_colour(stream: TextIO) -> bool:
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


def place(d: Diagnostic) -> str:
    where = d.file or "-"
    if d.line is not None:
        where += f":{d.line}"
        if d.column is not None:
            where += f":{d.column}"
    return where


def as_text(d: Diagnostic, colour: bool = False) -> str:
    label = d.severity.value
    if colour:
        label = _COLOURS[d.severity] + label + _RESET
    pointer = f" (at {d.pointer})" if d.pointer else ""
    return f"{place(d)}: {label}: {_formats(d)}{d.message}{pointer}"


def _formats(d: Diagnostic) -> str:
    """'moodle, gift: ' before the message of a problem of those formats."""
    return ", ".join(d.formats) + ": " if d.formats else ""


def _github_escape(value: str, property_value: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def as_github(d: Diagnostic) -> str:
    command = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}[d.severity]
    properties = [f"file={_github_escape(d.file, True)}"] if d.file else []
    if d.line is not None:
        properties.append(f"line={d.line}")
        if d.column is not None:
            properties.append(f"col={d.column}")
    properties.append("title=lmsexport")
    pointer = f" (at {d.pointer})" if d.pointer else ""
    return f"::{command} {','.join(properties)}::{_github_escape(_formats(d) + d.message + pointer)}"


def as_dict(d: Diagnostic) -> dict:
    return {"severity": d.severity.value, "file": d.file, "line": d.line, "column": d.column,
            "pointer": d.pointer, "code": d.code, "formats": list(d.formats), "loss": d.loss, "message": d.message}


def print_diagnostics(diagnostics: Iterable[Diagnostic], style: str, stream: TextIO | None = None, show_notes: bool = True) -> None:
    stream = stream or sys.stdout
    colour = style == "text" and use_colour(stream)
    for d in diagnostics:
        if d.severity is Severity.NOTE and not show_notes:
            continue
        stream.write((as_github(d) if style == "github" else as_text(d, colour)) + "\n")


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def counts(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    if isinstance(diagnostics, RecordedDiagnostics):
        return dict(diagnostics.counts)
    result = {"errors": 0, "warnings": 0, "notes": 0}
    for d in diagnostics:
        result[_COUNTED[d.severity]] += 1
    return result


_COUNTED = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.NOTE: "notes"}


def dump_json(payload: dict, stream: TextIO | None = None) -> None:
    stream = stream or sys.stdout
    json.dump(payload, stream, ensure_ascii=False, indent=2)
    stream.write("\n")


class Reporter:
    """The one sink of diagnostics for people. What each level shows, for the text style:

    - default: every error; each kind of warning (its formats and code) the first time it
      occurs, the rest counted; at the end one line counting the warnings by kind;
    - quiet: errors only, and the counting line;
    - verbose: every error, warning and note as it occurs.

    The github style is for tools: every error and warning whatever the level, notes with
    verbose. (JSON is written whole by `validate`.) Counts stay small (one per kind), so a bank
    of 100,000 questions is reported without holding its warnings.
    """

    def __init__(self, stream: TextIO | str, style: str = "text", level: str = "default"):
        # "stdout" or "stderr": looked up at each write, so that lines go through a progress
        # display's redirection while it is shown.
        self._stream = stream
        self.style = style
        self.level = level
        self.colour = style == "text" and use_colour(self.stream)
        self.totals = {"errors": 0, "warnings": 0, "notes": 0}
        self.kinds: dict[str, int] = {}

    @property
    def stream(self) -> TextIO:
        return getattr(sys, self._stream) if isinstance(self._stream, str) else self._stream

    def report(self, diagnostics: Iterable[Diagnostic]) -> None:
        if isinstance(diagnostics, RecordedDiagnostics) and self.style == "text" and self.level != "verbose":
            self._report_recorded(diagnostics)
            return
        totals, kinds = self.totals, self.kinds
        for d in diagnostics:
            severity = d.severity
            totals[_COUNTED[severity]] += 1
            if severity is Severity.WARNING:
                kind = d.kind
                seen = kinds.get(kind, 0)
                kinds[kind] = seen + 1
                if self.style == "text" and (self.level == "quiet" or (self.level == "default" and seen)):
                    continue
            elif severity is Severity.NOTE and self.level != "verbose":
                continue
            self.stream.write((as_github(d) if self.style == "github" else as_text(d, self.colour)) + "\n")

    def _report_recorded(self, diagnostics: RecordedDiagnostics) -> None:
        """What `report` does, from the counts and the rows it would print: every error and, at
        the default level, the first warning of each kind not met in an earlier quiz."""
        for index in diagnostics.shown:  # made (and placed) only when printed
            if diagnostics.severities[index] is Severity.ERROR or (self.level == "default" and diagnostics.row_kinds[index] not in self.kinds):
                self.stream.write(as_text(diagnostics[index], self.colour) + "\n")
        for key, value in diagnostics.counts.items():
            self.totals[key] += value
        for kind, count in diagnostics.kinds.items():
            self.kinds[kind] = self.kinds.get(kind, 0) + count

    def kinds_line(self) -> str | None:
        """'warnings by kind: 12 gift gift-penalty, 1 canvas canvas-essay (11 more warnings not shown; ...)'."""
        if not self.kinds:
            return None
        ranked = sorted(self.kinds.items(), key=lambda item: (-item[1], item[0]))
        line = "warnings by kind: " + ", ".join(f"{count} {kind}" for kind, count in ranked)
        hidden = sum(self.kinds.values()) - (0 if self.level == "quiet" else len(self.kinds))  # what text left out
        if hidden and self.level != "verbose" and self.style == "text":
            line += f" ({plural(hidden, 'more warning')} not shown; --verbose shows every one)"
        return line

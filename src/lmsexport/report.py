"""Showing diagnostics: for people (text, colour on a terminal), for tools (JSON), for GitHub Actions."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import TextIO

from .diagnostics import Diagnostic, Severity

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
    return f"{place(d)}: {label}: {d.message}{pointer}"


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
    return f"::{command} {','.join(properties)}::{_github_escape(d.message + pointer)}"


def as_dict(d: Diagnostic) -> dict:
    return {"severity": d.severity.value, "file": d.file, "line": d.line, "column": d.column,
            "pointer": d.pointer, "code": d.code, "message": d.message}


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
    result = {"errors": 0, "warnings": 0, "notes": 0}
    for d in diagnostics:
        result[{Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.NOTE: "notes"}[d.severity]] += 1
    return result


def dump_json(payload: dict, stream: TextIO | None = None) -> None:
    stream = stream or sys.stdout
    json.dump(payload, stream, ensure_ascii=False, indent=2)
    stream.write("\n")

"""The Python API: load and validate a quiz, export it to bytes, with problems as values.

    import lmsexport

    result = lmsexport.load("content/ring.json")          # a path (str or Path), JSON text or a dict
    for d in result.diagnostics:                           # every problem, as the CLI reports it
        print(d.severity.value, d.file, d.line, d.pointer, d.code, d.message)
    if result.ok:
        moodle = lmsexport.export(result.quiz, "moodle")   # an Export: .data (bytes or None), .diagnostics
        open(moodle.filename, "wb").write(moodle.data)

Nothing here writes files, prints or exits; the CLI is built on the same functions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Union

from .diagnostics import Diagnostic, Severity
from .formats import FORMATS
from .loader import LoadResult, load_bytes, load_quiz
from .media import DEFAULT_MAX_MEDIA_BYTES
from .model import Quiz
from .pipeline import export_quiz, process_quiz
from .writers.shared import Export, ExportOptions

__all__ = ["FORMATS", "Diagnostic", "Export", "LoadResult", "Quiz", "Severity", "Source", "export", "load", "validate"]

#: A quiz: a path to its file (`str` or `os.PathLike`), its JSON text (`str` starting with `{`, or
#: `bytes`), or the parsed JSON as a `dict`.
Source = Union[str, bytes, "os.PathLike[str]", Mapping[str, Any]]


def load(source: Source, *, media_folder: str | os.PathLike[str] | None = None,
         max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES, name: str | None = None) -> LoadResult:
    """Parse, validate and build one quiz. Never raises for bad content: `result.ok` says whether
    it can be exported, `result.diagnostics` holds every error, warning and note with its place,
    and `result.quiz` is the model (None when the quiz could not be built).

    A path's media files are looked up beside the file; for JSON text or a dict, in
    `media_folder` (default: the current folder). `name` is the file name diagnostics show
    (default: the path, or `<string>` / `<dict>`).
    """
    if isinstance(source, Mapping):
        raw = json.dumps(source, ensure_ascii=False, indent=2).encode("utf-8")
        return load_bytes(raw, name or "<dict>", Path(media_folder or "."), max_media_bytes)
    if isinstance(source, bytes) or isinstance(source, str) and source.lstrip().startswith("{"):
        raw = source if isinstance(source, bytes) else source.encode("utf-8")
        return load_bytes(raw, name or "<string>", Path(media_folder or "."), max_media_bytes)
    if isinstance(source, (str, os.PathLike)):
        return load_quiz(Path(source), max_media_bytes)
    raise TypeError(f"a quiz source is a path, JSON text or a dict, not {type(source).__name__}")


def validate(source: Source, *, formats: tuple[str, ...] | list[str] = (), strict: bool = False, nearest_grade: bool = False,
             media_base_url: str | None = None, **load_options: Any) -> list[Diagnostic]:
    """Every problem of a quiz, sorted by place; with `formats`, also what those formats' checks
    refuse or lose (the checks `build` runs). The quiz is valid when no diagnostic `is_error`."""
    for name in formats:
        _known(name)
    result = load(source, **load_options)
    options = ExportOptions(strict, nearest_grade, media_base_url)
    return list(process_quiz(result.path, tuple(formats), options, render=False, loaded=result).diagnostics)


def export(quiz: Quiz | Source, format: str, *, strict: bool = False, nearest_grade: bool = False,
           media_base_url: str | None = None) -> Export:
    """One format's file for a quiz (a loaded `Quiz`, or anything `load` takes): `.filename`,
    `.data` (the bytes, or None when the quiz has errors) and `.diagnostics`.
    `format` is a name of FORMATS (the registry in `lmsexport.formats`)."""
    _known(format)
    options = ExportOptions(strict, nearest_grade, media_base_url)
    if isinstance(quiz, Quiz):
        return export_quiz(quiz, format, options)
    result = load(quiz)
    if not result.ok or result.quiz is None:
        return Export("", None, result.diagnostics)
    # As on the command line: no bytes for a quiz with errors, so no half-right file is used.
    done = export_quiz(result.quiz, format, options, result.source)
    return Export(done.filename, done.data, result.diagnostics + done.diagnostics)


def _known(format: str) -> None:
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose from {', '.join(FORMATS)}")

"""Importing quiz banks from platforms into canonical content: one module per input format
(`moodle`, `gift`, `qti`, `canvas`, registered in `lmsexport.readers`) reads a file into banks of model questions (`result`),
`finish` turns them into content quizzes (HTML to Markdown, ids, drafts, warnings) and
`canonical_json` writes those as content files. Nothing here touches the file system; the
command (`commands/import_`) does."""

from __future__ import annotations

from ..diagnostics import Diagnostic, error
from ..readers import READERS
from . import detect as detection
from .finish import ImportedQuiz, finish
from .result import SourceFile
from .safety import InputError


def read_source(data: bytes, file: str, format: str = "auto") -> SourceFile:
    """The banks of one input file; InputError when it cannot be read at all."""
    kind = detection.detect(data, file) if format == "auto" else format
    return READERS[kind].read(data, file)


def import_data(data: bytes, file: str, format: str = "auto", strict: bool = False, quiz_id: str | None = None,
                taken: set[str] | None = None, language: str | None = None) -> tuple[list[ImportedQuiz], list[Diagnostic]]:
    """Content quizzes from the bytes of one file, and what went wrong on the way; `language`:
    the language of the quizzes whose file states none."""
    try:
        source = read_source(data, file, format)
    except InputError as problem:
        where = f"{problem.member}: " if problem.member else ""
        return [], [error(where + str(problem), file, code="import", line=problem.line)]
    quizzes = finish(source, file, taken if taken is not None else set(), strict, quiz_id, language)
    return quizzes, list(source.diagnostics)


__all__ = ["ImportedQuiz", "InputError", "import_data", "read_source"]

"""Loading: find quiz files, parse JSON, validate with the schema and the semantic rules, build the model.

Everything a user can get wrong comes back as a Diagnostic with a place, never as an exception.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from . import checks, jsonsource
from .checks.ids import unique_ids_of_list
from .diagnostics import Diagnostic, error, pointer_join, warning
from .media import DEFAULT_MAX_MEDIA_BYTES, MediaProblem, load_media, name_key
from .model import MediaFile, Quiz
from .canonical import build_quiz
from .schema import schema_errors
from .text import media_references

# One quiz is a few hundred kilobytes even with a thousand questions; a file far larger than
# this limit is almost certainly not a quiz, and reading it would stall CI.
MAX_FILE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class LoadResult:
    """A quiz file loaded: its model (None when it cannot be built), its diagnostics, its source."""

    path: Path
    quiz: Quiz | None
    diagnostics: tuple[Diagnostic, ...]
    # The parsed file, for placing diagnostics found later (by the format checks) and for
    # telling a value the author wrote from a default.
    source: jsonsource.ParsedJson | None = None
    # The SHA-256 of the file's bytes as read, when asked for (`load_quiz`): what a build's cache
    # entry is keyed on, so that it describes the bytes the exports were made of.
    digest: str | None = None

    @property
    def questions(self) -> int:
        """How many questions the file holds, even when it has errors and no model."""
        if self.quiz is not None:
            return len(self.quiz.questions)
        data = self.source.data if self.source is not None else None
        questions = data.get("questions") if isinstance(data, dict) else None
        return len(questions) if isinstance(questions, list) else 0

    @property
    def ok(self) -> bool:
        return self.quiz is not None and not any(d.is_error for d in self.diagnostics)


def _located(diagnostics: Iterable[Diagnostic], parsed: jsonsource.ParsedJson) -> tuple[Diagnostic, ...]:
    """Fill in line and column from each diagnostic's JSON pointer."""
    result = []
    for diagnostic in diagnostics:
        if diagnostic.line is None:
            position = parsed.position(diagnostic.pointer)
            if position:
                diagnostic = replace(diagnostic, line=position[0], column=position[1])
        result.append(diagnostic)
    return tuple(result)


def _media(quiz: Quiz, folder: Path, max_bytes: int) -> tuple[tuple[MediaFile, ...], list[Diagnostic]]:
    """Load every file the quiz's texts show; each problem is reported where the file is first used."""
    file = quiz.location.file
    texts = [("", ("description",), quiz.description)]
    texts += [(q.location.pointer, parts, text) for q in quiz.questions for parts, text in checks.rich_texts(q)]
    loaded: dict[str, MediaFile | None] = {}
    by_key: dict[str, str] = {}
    problems: list[Diagnostic] = []
    for base, parts, text in texts:
        for address in media_references(text):
            if address in loaded:
                continue
            pointer = pointer_join(base, *parts)
            first = by_key.setdefault(name_key(address), address)
            if first != address:
                loaded[address] = None
                problems.append(error(f"the media paths '{first}' and '{address}' differ only by case: on Windows and macOS "
                                      "they name one file, so one would overwrite the other; use one spelling", file, pointer, code="media"))
                continue
            result, removed = load_media(folder, address, max_bytes)
            if isinstance(result, MediaProblem):
                loaded[address] = None
                problems.append(error(result.message, file, pointer, code="media"))
                continue
            loaded[address] = result
            if removed:
                problems.append(warning(f"the SVG '{address}' is sanitised for export: removed {', '.join(removed)}", file, pointer, code="svg"))
    return tuple(m for m in loaded.values() if m is not None), problems


_QUESTION_POINTER = re.compile(r"^/questions/(\d+)(?:/|$)")
_QUESTION_ID = re.compile(r"^/questions/\d+/id$")


def _checks_of_the_rest(data: object, problems: list[Diagnostic], file: str) -> list[Diagnostic]:
    """When only some questions break the schema, the semantic rules still check all the others,
    so that one run reports every problem, not the first kind of problem."""
    broken: set[int] = set()
    for problem in problems:
        if problem.code != "schema":  # a character XML cannot carry still builds a model
            continue
        match = _QUESTION_POINTER.match(problem.pointer)
        if match is None:
            return []  # the quiz itself is broken: there is no model to check
        broken.add(int(match.group(1)))
    quiz = build_quiz(data, file, frozenset(broken))
    found = [d for d in checks.quiz_diagnostics(quiz) if d.code != "all-drafts" and not _QUESTION_ID.match(d.pointer)]
    # Question ids are compared across all questions, broken ones too.
    ids = [q["id"] if isinstance(q, dict) and isinstance(q.get("id"), str) else None for q in data["questions"]]
    return found + list(unique_ids_of_list(ids, "/questions", "question", file))


def read_limited(path: Path, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a regular file, so an oversized file is known without
    trusting the size it reports (a link to /dev/zero reports 0 bytes and never ends). Anything
    but a regular file (a FIFO, a device) raises OSError before it is opened for reading, since
    opening a FIFO blocks until a writer comes."""
    if not stat.S_ISREG(path.stat().st_mode):
        raise IsADirectoryError(0, "not a regular file (a FIFO, device or socket cannot be a quiz)")
    # O_NONBLOCK: should the file be swapped for a FIFO after the test, opening does not wait.
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise IsADirectoryError(0, "not a regular file (a FIFO, device or socket cannot be a quiz)")
        return stream.read(limit + 1)


def load_quiz(path: Path, max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES, placed: bool = True, digest: bool = False) -> LoadResult:
    """The quiz in the file at `path` (see `load_bytes`); with `digest`, with its bytes' SHA-256."""
    file = str(path)
    try:
        raw = read_limited(path, MAX_FILE_BYTES)
    except OSError as problem:
        return LoadResult(path, None, (error(f"cannot read the file: {problem.strerror or problem}", file, line=1, column=1, code="io"),))
    result = load_bytes(raw, file, path.parent, max_media_bytes, path, placed)
    return replace(result, digest=hashlib.sha256(raw).hexdigest()) if digest else result


def load_bytes(raw: bytes, file: str, folder: Path, max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES,
               path: Path | None = None, placed: bool = True) -> LoadResult:
    """A quiz from its bytes (a file's, standard input's, a caller's; read at most the limit plus
    one byte), named `file` in diagnostics; its media files are looked up in `folder`. With
    `placed` False the diagnostics of a quiz that loads are left without line and column, for
    the pipeline to place with the formats' (`pipeline.settle`), only those it prints."""
    path = path if path is not None else Path(file)
    if len(raw) > MAX_FILE_BYTES:
        too_big = f"the file is over the {MAX_FILE_BYTES // 1048576} MB limit for one quiz: split it into several quizzes"
        return LoadResult(path, None, (error(too_big, file, line=1, column=1, code="size"),))
    parsed = jsonsource.parse(raw, file)
    if not parsed.ok:
        return LoadResult(path, None, tuple(parsed.diagnostics), parsed)
    problems = list(schema_errors(parsed.data, file))
    problems += checks.xml_character_errors(parsed.data, parsed.text, file)
    if any(d.is_error for d in problems):
        problems += _checks_of_the_rest(parsed.data, problems, file)
        return LoadResult(path, None, _located(problems, parsed), parsed)
    quiz = build_quiz(parsed.data, file)
    problems += checks.quiz_diagnostics(quiz)
    if "![" in parsed.text:  # only Markdown images refer to media files
        media, media_problems = _media(quiz, folder, max_media_bytes)
        problems += media_problems
        quiz = replace(quiz, media=media)
    return LoadResult(path, quiz, _located(problems, parsed) if placed else tuple(problems), parsed)


def _is_quiz_file(name: str) -> bool:
    return name.endswith(".json") and not name.startswith(".")


def find_quiz_files(paths: Iterable[Path]) -> Iterator[Path | Diagnostic]:
    """Quiz files under the given files and folders, sorted; problems with the paths as diagnostics."""
    for path in paths:
        if not path.exists():
            yield error("no such file or folder", str(path), code="path")
            continue
        if not path.is_dir():
            yield path  # a file, or something that is not one: loading says which
            continue
        found = False
        visited: set[str] = set()
        for folder, subfolders, files in os.walk(path, followlinks=True):
            real = os.path.realpath(folder)
            if real in visited:
                yield error("a symbolic link here loops back to a folder already read; it is skipped", folder, code="path")
                subfolders[:] = []
                continue
            visited.add(real)
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for name in sorted(files):
                if _is_quiz_file(name):
                    found = True
                    yield Path(folder) / name
        if not found:
            yield error("this folder holds no quiz files (*.json)", str(path), code="path")

"""From content files to export bytes: load and render each quiz, optionally in several processes.

Workers only compute; the parent process checks quiz ids across the set and does all writing,
so two quizzes claiming one id can never overwrite each other's files.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import signal
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic, error
from .formats import FORMATS
from .loader import load_quiz
from .media import DEFAULT_MAX_MEDIA_BYTES
from .text import forget_renderings
from .writers.shared import Export, ExportOptions


@dataclass(frozen=True, slots=True)
class QuizOutcome:
    path: Path
    quiz_id: str | None
    questions: int = 0
    drafts: int = 0
    diagnostics: tuple[Diagnostic, ...] = ()
    exports: tuple[tuple[str, Export], ...] = field(default=())  # (format name, export)
    # (address, SHA-256 of the bytes) of each media file as loaded: what the build cache keys on
    media: tuple[tuple[str, str], ...] = field(default=())

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def process_quiz(path: Path, formats: tuple[str, ...], options: ExportOptions, max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES) -> QuizOutcome:
    # The model and the writers' output are trees without reference cycles, freed by reference
    # counting; while one quiz is processed the cycle collector would only walk the growing quiz
    # again and again (a third of the loading time of a 20,000-question quiz, measured), so it
    # is off until the quiz is done. Peak memory is unchanged.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _process_quiz(path, formats, options, max_media_bytes)
    finally:
        forget_renderings()  # the writers share renderings within a quiz only
        if collecting:
            gc.enable()


def _process_quiz(path: Path, formats: tuple[str, ...], options: ExportOptions, max_media_bytes: int) -> QuizOutcome:
    result = load_quiz(path, max_media_bytes)
    quiz = result.quiz
    if quiz is None:
        return QuizOutcome(path, None, diagnostics=result.diagnostics)
    drafts = len(quiz.questions) - len(quiz.exported_questions)
    if not result.ok:
        return QuizOutcome(path, quiz.id, len(quiz.questions), drafts, result.diagnostics)
    diagnostics = list(result.diagnostics)
    exports = []
    for name in formats:
        try:
            export = FORMATS[name].render(quiz, options)
        except Exception as problem:  # a defect of ours: this quiz fails, the others go on
            message = f"internal error while writing {name} ({type(problem).__name__}: {problem}); please report it with this quiz"
            diagnostics.append(error(message, str(path), code="internal"))
            continue
        diagnostics.extend(export.diagnostics)
        exports.append((name, export))
    if any(d.is_error for d in diagnostics):
        exports = []  # nothing is written for a quiz with errors, in any format
    media = tuple((m.path, hashlib.sha256(m.data).hexdigest()) for m in quiz.media)
    return QuizOutcome(path, quiz.id, len(quiz.questions), drafts, tuple(diagnostics), tuple(exports), media)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool; workers that also
    # raised would print their own tracebacks and could leave the pool waiting on them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _process_job(job: tuple[Path, tuple[str, ...], ExportOptions, int]) -> QuizOutcome:
    return process_quiz(*job)


def process_files(files: list[Path], formats: tuple[str, ...], options: ExportOptions, jobs: int = 1,
                  max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES, reused: dict[Path, QuizOutcome] | None = None) -> Iterator[QuizOutcome]:
    """Outcomes in file order. With jobs > 1 quizzes are spread over processes; results stream
    back one at a time, so memory stays bounded by the largest quiz, not the bank. `reused`:
    outcomes already known (from the build cache), which still take part in the id checks."""
    outcomes: Iterable[QuizOutcome]
    reused = reused or {}
    every_file, files = files, [f for f in files if f not in reused]
    if jobs > 1 and len(files) > 1:
        context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
        pool = context.Pool(min(jobs, len(files)), initializer=_ignore_interrupts)
        outcomes = pool.imap(_process_job, ((f, formats, options, max_media_bytes) for f in files), chunksize=1)
    else:
        pool = None
        outcomes = (process_quiz(f, formats, options, max_media_bytes) for f in files)
    seen_ids: dict[str, Path] = {}
    fresh = iter(outcomes)
    try:
        for outcome in (reused[f] if f in reused else next(fresh) for f in every_file):
            if outcome.quiz_id is not None:
                first = seen_ids.setdefault(outcome.quiz_id, outcome.path)
                if first != outcome.path:
                    duplicate = error(f"the quiz id '{outcome.quiz_id}' is already used by {first}: quiz ids must be unique", str(outcome.path), "/id", code="duplicate-id")
                    outcome = QuizOutcome(outcome.path, outcome.quiz_id, outcome.questions, outcome.drafts, outcome.diagnostics + (duplicate,))
            yield outcome
    finally:
        if pool is not None:
            pool.terminate()

"""From content files to export bytes: load, check and render each quiz, optionally in several
processes.

Each format's check (the writer's rules, without rendering) is what `validate` runs; `build`
takes the diagnostics of the writer itself, which says all its check says (the tests prove both
give the same diagnostics), and runs the check only for a format whose writer refused the quiz,
since a writer stops at the first part it cannot write. So `validate` finds every problem
`build` would, and `build` does each format's work once. The diagnostics of a quiz are settled
once, here (`settle`): placed in the file, losses of defaults dropped, a loss shared by several
formats said once, severity decided (`--strict`), sorted by place.

Workers only compute; the parent process checks quiz ids across the set and does all writing,
so two quizzes claiming one id can never overwrite each other's files.
"""

from __future__ import annotations

import gc
import hashlib
import re
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .diagnostics import Diagnostic, RecordedDiagnostics, Severity, error
from .formats import FORMATS, families
from .jsonsource import ParsedJson
from .loader import LoadResult, load_quiz
from .media import DEFAULT_MAX_MEDIA_BYTES
from .text import forget_renderings
from .writers.shared import Export, ExportOptions

STRICT_SUFFIX = " (an error under --strict)"


@dataclass(frozen=True, slots=True)
class QuizOutcome:
    """What one quiz came to: its id, counts, settled diagnostics and, when built, its exports."""

    path: Path
    quiz_id: str | None
    questions: int = 0
    drafts: int = 0
    diagnostics: Sequence[Diagnostic] = ()  # a tuple; rows read back from the build cache; or (validate) placed when read
    exports: tuple[tuple[str, Export], ...] = field(default=())  # (format name, export)
    # (address, SHA-256 of the bytes) of each media file as loaded: what the build cache keys on
    media: tuple[tuple[str, str], ...] = field(default=())
    # The SHA-256 of the quiz file's bytes that were loaded (when rendering): what its exports
    # were made of, and so what the build cache entry is keyed on.
    source: str | None = None
    # The SHA-256 of each export's bytes, in the order of `exports` (None for nothing to export),
    # when `source` is known: taken where the bytes were made, in the worker with --jobs.
    digests: tuple[str | None, ...] = ()

    @property
    def failed(self) -> bool:
        if isinstance(self.diagnostics, RecordedDiagnostics):
            return self.diagnostics.counts["errors"] > 0
        return any(d.is_error for d in self.diagnostics)


def settle(diagnostics: Iterable[Diagnostic], strict: bool, source: ParsedJson | None,
           lazily: bool = False) -> Sequence[Diagnostic]:
    """The diagnostics of one quiz as they are reported: a tuple, or with `lazily` a sequence
    that finds each one's line and column only when it is asked for (a report at the default
    level prints a few of a bank's thousands of warnings; its counts need no place)."""
    merged: dict[tuple, Diagnostic] = {}
    # pointer -> (whether the author wrote it, its document order), asked once for each pointer
    facts: dict[str, tuple[bool, tuple[int, ...]]] = {}
    for d in diagnostics:
        if d.loss and source is not None:
            known = facts.get(d.pointer)
            if known is None:
                known = facts[d.pointer] = source.written_and_order(d.pointer)
            if not known[0]:
                continue  # a default the author never wrote: nothing of theirs is lost
        key = (d.severity, d.code, d.file, d.pointer, d.message, d.loss)
        found = merged.get(key)
        if found is None:
            merged[key] = d
        elif d.formats:
            formats = set(found.formats) | set(d.formats)
            merged[key] = Diagnostic(found.severity, found.message, found.file, found.pointer, found.line, found.column, found.code,
                                     tuple(n for n in FORMATS if n in formats), found.loss)
    settled = []
    for d in merged.values():
        if strict and d.loss:
            d = Diagnostic(Severity.ERROR, d.message + STRICT_SUFFIX, d.file, d.pointer, d.line, d.column, d.code, d.formats, d.loss)
        settled.append(d)
    if source is None or not source.text or not source.ok or any(d.line is not None for d in settled):
        return _placed_by_line(settled, source)  # some are placed already: sorted with them by line and column
    # Sorted by where their values stand in the file, which is the order of their lines and
    # columns, found from the parsed data; then placed, all at once or as each is asked for.
    order = source.document_order

    def where(d: Diagnostic) -> tuple:
        known = facts.get(d.pointer)
        return d.file, (known[1] if known is not None else order(d.pointer))

    settled.sort(key=where)
    place = _placing(source)
    if not lazily:
        return tuple(map(place, settled))
    kinds: dict[tuple, str] = {}  # a bank's thousands of warnings are of a few dozen kinds
    warning = Severity.WARNING
    return RecordedDiagnostics(settled, place, [d.severity for d in settled],
                               [(kinds.get((d.formats, d.code)) or kinds.setdefault((d.formats, d.code), d.kind))
                                if d.severity is warning else None for d in settled])


def _placing(source: ParsedJson) -> Callable[[Diagnostic], Diagnostic]:
    def place(d: Diagnostic) -> Diagnostic:
        position = source.position(d.pointer)
        if position is None:
            return d
        return Diagnostic(d.severity, d.message, d.file, d.pointer, position[0], position[1], d.code, d.formats, d.loss)

    return place


def _placed_by_line(diagnostics: list[Diagnostic], source: ParsedJson | None) -> tuple[Diagnostic, ...]:
    result = []
    for d in diagnostics:
        if d.line is None and source is not None and source.text:
            position = source.position(d.pointer)
            if position:
                d = replace(d, line=position[0], column=position[1])
        result.append(d)
    result.sort(key=lambda d: (d.file, d.line or 0, d.column or 0))
    return tuple(result)


_QUESTION = re.compile(r"^/questions/\d+")


def _question_of(pointer: str) -> str:
    match = _QUESTION.match(pointer)
    return match.group() if match else ""


def unchecked(checked: Iterable[Diagnostic], rendered: Iterable[Diagnostic]) -> list[Diagnostic]:
    """What a writer reported that its check did not (same severity and code, same question).
    Never anything but the note of a quiz with nothing to export, as the tests prove; should a
    writer and its check drift apart, the writer's word is still reported rather than lost."""
    known = {(d.severity, d.code, _question_of(d.pointer)) for d in checked}
    return [d for d in rendered if (d.severity, d.code, _question_of(d.pointer)) not in known]


def steps(formats: tuple[str, ...]) -> int:
    """How many times `process_quiz` reports progress for one quiz: loading, then each format's
    check or, when rendering, each format's writing."""
    return 1 + len(formats)


def process_quiz(path: Path, formats: tuple[str, ...], options: ExportOptions, max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES,
                 render: bool = True, on_step: Callable[[str], None] | None = None, loaded: LoadResult | None = None) -> QuizOutcome:
    """One quiz through loading, each format's check and (with `render`) writing; `loaded` is a
    quiz already loaded from elsewhere (standard input, the API) instead of the file at `path`."""
    # The model and the writers' output are trees without reference cycles, freed by reference
    # counting; while one quiz is processed the cycle collector would only walk the growing quiz
    # again and again (a third of the loading time of a 20,000-question quiz, measured), so it
    # is off until the quiz is done. Peak memory is unchanged.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _process_quiz(path, formats, options, max_media_bytes, render, on_step or _no_progress, loaded)
    finally:
        forget_renderings()  # the writers share renderings within a quiz only
        if collecting:
            gc.enable()


def _internal(name: str, step: str, problem: Exception, path: Path) -> Diagnostic:
    message = f"internal error while {step} {name} ({type(problem).__name__}: {problem}); please report it with this quiz"
    return error(message, str(path), code="internal", line=1, column=1)


def _no_progress(step: str) -> None:
    pass


def _process_quiz(path: Path, formats: tuple[str, ...], options: ExportOptions, max_media_bytes: int, render: bool,
                  on_step: Callable[[str], None], loaded: LoadResult | None = None) -> QuizOutcome:
    result = loaded if loaded is not None else load_quiz(path, max_media_bytes, placed=False, digest=render)
    on_step(f"{path.name}: loaded")
    quiz = result.quiz
    source = result.source
    if quiz is None:
        return QuizOutcome(path, None, result.questions, diagnostics=settle(result.diagnostics, options.strict, source))
    drafts = len(quiz.questions) - len(quiz.exported_questions)
    if not result.ok:
        return QuizOutcome(path, quiz.id, len(quiz.questions), drafts, settle(result.diagnostics, options.strict, source))
    found = list(result.diagnostics)
    family = families(formats)  # the rules Moodle XML and GIFT share, said once for both
    if not render:
        for name in formats:
            found += _checked(name, quiz, options, path, family.get(name))
            on_step(f"{path.name}: checked {name}")
        return QuizOutcome(path, quiz.id, len(quiz.questions), drafts, settle(found, options.strict, source, lazily=True))
    exports = []
    for name in formats:  # a defect of ours fails this quiz only; the others go on
        try:
            said_for = family.get(name)
            export = FORMATS[name].render(quiz, options) if said_for is None else FORMATS[name].render(quiz, options, said_for)
        except Exception as problem:
            checked = _checked(name, quiz, options, path, family.get(name))
            # Content the check refuses may be what the writer could not cope with: that is the report.
            found += checked if any(d.is_error for d in checked) else [*checked, _internal(name, "writing", problem, path)]
            on_step(f"{path.name}: rendered {name}")
            continue
        said = list(export.diagnostics)  # each names its format already (writers/reporter.py)
        if export.failed:  # the writer stopped at the first part it could not write; its check finds them all
            checked = _checked(name, quiz, options, path, family.get(name))
            said = [*checked, *unchecked(checked, said)]
        else:
            # Its diagnostics are the quiz's (found, settled below): the bytes alone are kept,
            # which is all a worker of --jobs sends back with them.
            exports.append((name, Export(export.filename, export.data)))
        found += said
        on_step(f"{path.name}: rendered {name}")
    diagnostics = settle(found, options.strict, source)
    if any(d.is_error for d in diagnostics):
        return QuizOutcome(path, quiz.id, len(quiz.questions), drafts, diagnostics)  # nothing is written, in any format
    media = tuple((m.path, hashlib.sha256(m.data).hexdigest()) for m in quiz.media)
    digests = tuple(None if e.data is None else hashlib.sha256(e.data).hexdigest() for _, e in exports) if result.digest else ()
    return QuizOutcome(path, quiz.id, len(quiz.questions), drafts, diagnostics, tuple(exports), media, result.digest, digests)


def _checked(name: str, quiz, options: ExportOptions, path: Path, family: tuple[str, ...] | None = None) -> list[Diagnostic]:
    """One format's check of a loaded quiz (each diagnostic names the format; those of its
    family's shared rules name `family`, see formats.families)."""
    try:
        check = FORMATS[name].check
        return list(check(quiz, options) if family is None else check(quiz, options, family))
    except Exception as problem:
        return [_internal(name, "checking", problem, path)]


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool; workers that also
    # raised would print their own tracebacks and could leave the pool waiting on them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _prepare_for_workers() -> None:
    """Made once before the workers are forked, which inherit them, instead of once in each: the
    schema's validator, which every quiz needs, and the Markdown parser with its modules (about
    50 ms of CPU a process), which a bank with lists, tables or fenced code needs."""
    from .schema import fast_validator
    from .text import markdown

    fast_validator()
    markdown.prepare()


def _process_job(job: tuple[Path, tuple[str, ...], ExportOptions, int, bool]) -> QuizOutcome:
    return process_quiz(*job)


def process_files(files: list[Path], formats: tuple[str, ...], options: ExportOptions, jobs: int = 1,
                  max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES, render: bool = True,
                  on_step: Callable[[str], None] | None = None,
                  reused: dict[Path, QuizOutcome] | None = None) -> Iterator[QuizOutcome]:
    """Outcomes in file order. With jobs > 1 quizzes are spread over processes; results stream
    back one at a time, so memory stays bounded by the largest quiz, not the bank.
    With render False the formats are only checked (`validate`). `on_step` hears of each step
    of each quiz (see `steps`) when quizzes are processed here, not in other processes.
    `reused`: outcomes already known (from the build cache), which still take part in the id checks."""
    outcomes: Iterable[QuizOutcome]
    reused = reused or {}
    every_file, files = files, [f for f in files if f not in reused]
    if jobs > 1 and len(files) > 1:
        import multiprocessing  # only here: most runs are one process, and the import is not free

        start = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        if start == "fork":
            _prepare_for_workers()
        pool = multiprocessing.get_context(start).Pool(min(jobs, len(files)), initializer=_ignore_interrupts)
        outcomes = pool.imap(_process_job, ((f, formats, options, max_media_bytes, render) for f in files), chunksize=1)
    else:
        pool = None
        outcomes = (process_quiz(f, formats, options, max_media_bytes, render, on_step) for f in files)
    seen_ids: dict[str, Path] = {}
    fresh = iter(outcomes)
    try:
        for outcome in (reused[f] if f in reused else next(fresh) for f in every_file):
            if outcome.quiz_id is not None:
                first = seen_ids.setdefault(outcome.quiz_id, outcome.path)
                if first != outcome.path:
                    duplicate = error(f"the quiz id '{outcome.quiz_id}' is already used by {first}: quiz ids must be unique", str(outcome.path), "/id", code="duplicate-id")
                    outcome = QuizOutcome(outcome.path, outcome.quiz_id, outcome.questions, outcome.drafts,
                                          _with_located(outcome.diagnostics, duplicate, outcome.path))
            yield outcome
    finally:
        if pool is not None:
            pool.terminate()


def _with_located(diagnostics: tuple[Diagnostic, ...], duplicate: Diagnostic, path: Path) -> tuple[Diagnostic, ...]:
    """The duplicate-id error placed at the id, among the quiz's other diagnostics."""
    from . import jsonsource
    from .loader import MAX_FILE_BYTES, read_limited

    try:
        parsed = jsonsource.parse(read_limited(path, MAX_FILE_BYTES), str(path))
        position = parsed.position("/id") if parsed.ok else None
    except OSError:
        position = None
    if position:
        duplicate = replace(duplicate, line=position[0], column=position[1])
    return tuple(sorted((*diagnostics, duplicate), key=lambda d: (d.file, d.line or 0, d.column or 0)))


def export_quiz(quiz, name: str, options: ExportOptions, source: ParsedJson | None = None) -> Export:
    """One format of one loaded quiz as `build` makes it: the writer's diagnostics (its check's,
    when it refused the quiz) settled, `--strict` applied, and bytes only when nothing is an error."""
    export = FORMATS[name].render(quiz, options)
    said = list(export.diagnostics)
    if export.failed:
        checked = list(FORMATS[name].check(quiz, options))
        said = [*checked, *unchecked(checked, said)]
    diagnostics = settle(said, options.strict, source)
    failed = any(d.is_error for d in diagnostics)
    return Export(export.filename, None if failed else export.data, diagnostics)

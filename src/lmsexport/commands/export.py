"""`lmsexport build` and the single-format commands: validate, render, then write or check.

Nothing is written for a quiz with errors; errors in one quiz do not stop the others.
With --check nothing is written at all: the exports on disk are compared with what would be.
A quiz whose build cache entry still matches its inputs and its files on disk is not built
again (see cache.py); its diagnostics are replayed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Severity, error
from ..formats import FORMATS
from ..cache import FOLDER as CACHE_FOLDER
from ..cache import Cache, Entry, Stamps, file_digest, inputs_key, media_digest
from ..output import OutputError, check_output_folder, read_if_exists, remove_stale_temporaries, same_export, write_atomic
from ..pipeline import QuizOutcome, process_files, steps
from ..report import Reporter, counts, plural, print_diagnostics
from ..startup import release_collector
from ..writers.shared import ExportOptions
from .common import LARGE_QUIZ_BYTES, PROGRESS_THRESHOLD, progress as _progress, quiz_files  # noqa: F401 (the thresholds: for tests)


# The names each format gives its files: the only files --prune may delete, and only in that
# format's own folder.
OWN_SUFFIX = {name: f.extension for name, f in FORMATS.items()}


@dataclass
class Summary:
    rows: list[tuple[str, dict[str, str], int]] = field(default_factory=list)  # quiz, status per format, warnings
    expected: dict[str, set[str]] = field(default_factory=dict)  # format -> file names produced
    differences: list[str] = field(default_factory=list)
    # Counts, not the diagnostics themselves: they are printed as they come, and a bank of
    # 100,000 questions must not hold all of its warnings in memory.
    totals: dict[str, int] = field(default_factory=lambda: {"errors": 0, "warnings": 0, "notes": 0})

    def add(self, diagnostics: Iterable[Diagnostic]) -> None:
        for key, value in counts(diagnostics).items():
            self.totals[key] += value


def _handle_outcome(outcome: QuizOutcome, targets: dict[str, Path], check: bool, summary: Summary,
                    verbose: bool) -> dict[str, tuple[str, str] | None] | None:
    """Write (or, with --check, compare) the quiz's exports; what is now on disk for each
    format as (file name, digest), or None when any format did not end up current."""
    name = outcome.quiz_id or str(outcome.path)
    warnings = sum(1 for d in outcome.diagnostics if d.severity is Severity.WARNING)
    if outcome.failed:
        summary.rows.append((name, {f: "errors" for f in targets}, warnings))
        return None
    statuses: dict[str, str] = {}
    on_disk: dict[str, tuple[str, str] | None] | None = {}
    for index, (format_name, export) in enumerate(outcome.exports):
        if export.data is None:
            statuses[format_name] = "nothing to export"
            on_disk[format_name] = None
            continue
        path = targets[format_name] / export.filename
        summary.expected[format_name].add(export.filename)
        try:
            current = read_if_exists(path)
        except OSError as problem:  # a folder or an unreadable file where the export goes
            failure = error(f"cannot use {path}: {problem.strerror or problem}", str(outcome.path), code="io")
            print_diagnostics([failure], "text", sys.stderr)
            summary.add([failure])
            statuses[format_name] = "failed"
            on_disk = None
            continue
        if same_export(current, export.data):
            statuses[format_name] = "up to date"
            if on_disk is not None:
                on_disk[format_name] = (export.filename, file_digest(current))
        elif check:
            statuses[format_name] = "missing" if current is None else "stale"
            summary.differences.append(f"{statuses[format_name]}: {path}" + _line_ending_hint(current, export.data))
            on_disk = None
        else:
            try:
                write_atomic(path, export.data)
            except OSError as problem:
                failure = error(f"cannot write {path}: {problem.strerror or problem}; the previous file is untouched", str(outcome.path), code="io")
                print_diagnostics([failure], "text", sys.stderr)
                summary.add([failure])
                statuses[format_name] = "write failed"
                on_disk = None
                continue
            statuses[format_name] = "written"
            if on_disk is not None:
                on_disk[format_name] = (export.filename, outcome.digests[index] if outcome.digests else file_digest(export.data))
            if verbose:
                sys.stderr.write(f"wrote {path}\n")
    summary.rows.append((name, statuses, warnings))
    return on_disk


def _line_ending_hint(current: bytes | None, wanted: bytes) -> str:
    # git with core.autocrlf=true (Windows) rewrites the LF of text exports as CRLF on checkout.
    if current is not None and b"\r\n" in current and current.replace(b"\r\n", b"\n") == wanted:
        return " (only its line endings differ: git converted them; add 'exports/** -text' to .gitattributes)"
    return ""


def _reuse(entry: Entry, path: Path, source: str, targets: dict[str, Path], settings: tuple, max_media_bytes: int,
           stamps: Stamps) -> bool:
    """Whether a cache entry still describes this quiz: same inputs, and every export it lists
    on disk with the recorded digest."""
    media = []
    for address in entry.media:
        digest = media_digest(path.parent, address, max_media_bytes)
        if digest is None:
            return False
        media.append((address, digest[0]))
    if entry.key != inputs_key(path, source, media, settings) or set(entry.files) != set(targets):
        return False
    for format_name, recorded in entry.files.items():
        if recorded is None:
            continue
        if recorded[0] != entry.quiz_id + OWN_SUFFIX[format_name]:
            return False
        try:
            current = stamps.digest(targets[format_name] / recorded[0])
        except OSError:
            return False
        if current != recorded[1]:
            return False
    return True


def _reused_outcome(entry: Entry, path: Path, summary: Summary) -> QuizOutcome:
    for format_name, recorded in entry.files.items():
        if recorded is not None:
            summary.expected[format_name].add(recorded[0])
    return QuizOutcome(path, entry.quiz_id, entry.questions, entry.drafts, entry.diagnostics)


def _new_entry(outcome: QuizOutcome, store: Cache, on_disk: dict, settings: tuple, max_media_bytes: int) -> Entry | None:
    """The entry for a quiz just built, keyed on the bytes it was built from, or None when its
    files are not those bytes any more (then the next build does it again)."""
    source = outcome.source
    try:
        if source is None or file_digest(outcome.path.read_bytes()) != source:
            return None
    except OSError:
        return None
    media = []
    for address, data in outcome.media:
        digest = media_digest(outcome.path.parent, address, max_media_bytes)
        if digest is None or digest[1] != data:
            return None
        media.append((address, digest[0]))
    return Entry(store.relative(outcome.path), inputs_key(outcome.path, source, media, settings), outcome.quiz_id,
                 outcome.questions, outcome.drafts, tuple(a for a, _ in outcome.media), outcome.diagnostics, on_disk)


def _extra_files(targets: dict[str, Path], summary: Summary, root: Path | None, written: dict[str, set[str]]) -> tuple[list[Path], list[Path]]:
    """Files in the format folders that no quiz produces: (those this tool wrote, as far as it
    can prove it: named as the format names its files and, for a single-format command whose
    folder may be any folder, listed in the cache as written by an earlier run; everything
    else, left alone). Nothing outside the format folders is ever the tool's."""
    own, foreign = [], []
    for format_name, folder in targets.items():
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.name.startswith(".") or path.name in summary.expected[format_name]:
                continue
            provable = path.name.endswith(OWN_SUFFIX[format_name]) and (root is not None or path.name in written.get(format_name, ()))
            (own if provable and path.is_file() and not path.is_symlink() else foreign).append(path)
    return own, foreign


def _print_table(summary: Summary, formats: list[str]) -> None:
    header = ["quiz", *formats, "warnings"]
    rows = [[name, *(statuses.get(f, "-") for f in formats), str(warnings)] for name, statuses, warnings in summary.rows]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, [("-" * w) for w in widths], *rows]:
        sys.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() + "\n")


def _cached_quizzes(files: list[Path], store: Cache, targets: dict[str, Path], settings: tuple,
                    max_media_bytes: int, stamps: Stamps) -> dict[Path, Entry]:
    """The cache entries that still describe their quiz (only a quiz with an entry is read here)."""
    reused: dict[Path, Entry] = {}
    for path in files:
        entry = store.lookup(path)
        if entry is None:
            continue
        try:
            source = file_digest(path.read_bytes())
        except OSError:
            continue  # the loader reports it
        if _reuse(entry, path, source, targets, settings, max_media_bytes, stamps):
            reused[path] = entry
    return reused


def _judge_extra_files(targets: dict[str, Path], summary: Summary, root: Path | None, store: Cache,
                       check: bool, prune: bool, verbose: bool) -> None:
    own, foreign = _extra_files(targets, summary, root, store.written)
    for path in own:
        if check:
            summary.differences.append(f"extra: {path} (no quiz produces it; remove it or run with --prune)")
        elif prune:
            path.unlink()
            if verbose:
                sys.stderr.write(f"removed {path}\n")
        else:
            sys.stderr.write(f"warning: {path} is produced by no quiz (run with --prune to remove it)\n")
    if verbose:
        for path in foreign:
            sys.stderr.write(f"note: {path} was not written by lmsexport; it is left alone\n")


def run_export(sources: list[Path], targets: dict[str, Path], *, strict: bool, nearest_grade: bool, check: bool,
               jobs: int, quiet: bool, verbose: bool, prune: bool, max_media_bytes: int,
               media_base_url: str | None = None, root: Path | None = None, use_cache: bool = True) -> int:
    release_collector(*(FORMATS[name].module for name in targets))  # see startup.py
    try:
        for folder in targets.values():
            check_output_folder(folder, sources)
    except OutputError as problem:
        sys.stderr.write(f"error: {problem}\n")
        return 2
    if not check:
        for folder in targets.values():
            remove_stale_temporaries(folder)
    files, path_problems = quiz_files(sources)
    summary = Summary(expected={f: set() for f in targets})
    summary.add(path_problems)
    print_diagnostics(path_problems, "text", sys.stderr)
    options = ExportOptions(strict=strict, nearest_grade=nearest_grade, media_base_url=media_base_url)
    settings = (list(targets), strict, nearest_grade, media_base_url, max_media_bytes)
    store = Cache((root if root is not None else next(iter(targets.values()))) / CACHE_FOLDER, enabled=use_cache)
    if not check:
        remove_stale_temporaries(store.folder)
    stamps = Stamps(store.folder, enabled=use_cache)
    reused_entries = _cached_quizzes(files, store, targets, settings, max_media_bytes, stamps)
    reused = {path: _reused_outcome(entry, path, summary) for path, entry in reused_entries.items()}
    kept_entries: set[str] = set()
    reporter = Reporter("stderr", "text", "quiet" if quiet else "verbose" if verbose else "default")
    per_quiz = steps(tuple(targets))
    with _progress(files, quiet) as progress:
        task = progress.add_task("exporting", total=len(files) * per_quiz) if progress else None
        # Each step of a quiz moves the bar (loading, checking, writing each format), so one large quiz shows progress too.
        on_step = (lambda step: progress.update(task, advance=1, description=f"exporting {step}")) if progress else None
        done = 0
        for outcome in process_files(files, tuple(targets), options, jobs, max_media_bytes, on_step=on_step, reused=reused):
            if not (check and quiet):  # a quiet check gives one verdict; `validate` lists the problems
                reporter.report(outcome.diagnostics)
            summary.add(outcome.diagnostics)
            if outcome.path in reused and not outcome.failed:
                entry = reused_entries[outcome.path]
                summary.rows.append((entry.quiz_id, {f: ("up to date" if recorded else "nothing to export") for f, recorded in entry.files.items()},
                                     counts(outcome.diagnostics)["warnings"]))
                kept_entries.add(store.entry_name(outcome.path))
            else:
                on_disk = _handle_outcome(outcome, targets, check, summary, verbose)
                if on_disk is None:
                    # A quiz that failed keeps its old entry: its exports are still the ones it lists.
                    kept_entries.add(store.entry_name(outcome.path))
                elif not check:
                    entry = _new_entry(outcome, store, on_disk, settings, max_media_bytes)
                    if entry is not None:
                        try:
                            store.store(entry)
                            kept_entries.add(f"{entry.quiz_id}.json")
                        except OSError as problem:  # the exports are right; only the next build is slower
                            sys.stderr.write(f"warning: cannot write the build cache {store.folder}: {problem.strerror or problem}\n")
            done += 1
            if progress:
                progress.update(task, completed=done * per_quiz)
    failed = summary.totals["errors"] > 0
    # Extra files are judged only for whole folders of content that loaded cleanly: a run on one
    # file, or one that failed, cannot tell which exports are orphans.
    whole_bank = all(p.is_dir() for p in sources)
    if whole_bank and not failed:
        _judge_extra_files(targets, summary, root, store, check, prune, verbose)
    if whole_bank and not check:
        # The entry of a quiz that is gone stays while a file it lists is still there: it is the
        # proof that a later --prune may delete that file.
        kept_entries |= {name for name, listed in store.listed.items()
                         if any((targets[f] / n).exists() for f, n in listed.items() if f in targets)}
        store.remove_except(kept_entries)  # entries of quizzes that are gone, or that were unsound
    if not check:
        stamps.save()
    if not quiet and summary.rows:
        _print_table(summary, list(targets))
    for line in summary.differences:
        sys.stdout.write(line + "\n")
    kinds = reporter.kinds_line()
    if kinds:
        sys.stderr.write(kinds + "\n")
    total = summary.totals
    if not quiet or failed or summary.differences:
        verdict = "exports are out of date" if summary.differences else ("exports are up to date" if check else "done")
        with_errors = sum(1 for _, statuses, _ in summary.rows if "errors" in statuses.values())
        if check and with_errors:  # never "up to date" while failing: those exports were not compared
            verdict = (f"{plural(with_errors, 'quiz', 'quizzes')} with errors cannot be checked"
                       + (" (lmsexport validate lists the errors)" if quiet else "")
                       + ("; the other exports are out of date" if summary.differences else ""))
        sys.stdout.write(f"{plural(len(summary.rows), 'quiz', 'quizzes')}: {plural(total['errors'], 'error')}, "
                         f"{plural(total['warnings'], 'warning')}; {verdict}\n")
    return 1 if failed or summary.differences else 0

"""`lmsexport build` and the single-format commands: validate, render, then write or check.

Nothing is written for a quiz with errors; errors in one quiz do not stop the others.
With --check nothing is written at all: the exports on disk are compared with what would be.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Severity, error
from ..formats import FORMATS
from ..output import OutputError, check_output_folder, read_if_exists, remove_stale_temporaries, write_atomic
from ..pipeline import QuizOutcome, process_files, steps
from ..report import Reporter, counts, plural, print_diagnostics
from ..writers.shared import ExportOptions
from .common import LARGE_QUIZ_BYTES, PROGRESS_THRESHOLD, progress as _progress, quiz_files  # noqa: F401 (the thresholds: for tests)

# Folders below the output root that other commands write (`lmsexport preview`): not exports,
# so neither extra files for --check nor files for --prune to delete.
OTHER_OUTPUTS = ("preview",)


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


def _handle_outcome(outcome: QuizOutcome, targets: dict[str, Path], check: bool, summary: Summary, verbose: bool) -> None:
    name = outcome.quiz_id or str(outcome.path)
    warnings = sum(1 for d in outcome.diagnostics if d.severity is Severity.WARNING)
    if outcome.failed:
        summary.rows.append((name, {f: "errors" for f in targets}, warnings))
        return
    statuses: dict[str, str] = {}
    for format_name, export in outcome.exports:
        if export.data is None:
            statuses[format_name] = "nothing to export"
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
            continue
        if current == export.data:
            statuses[format_name] = "up to date"
        elif check:
            statuses[format_name] = "missing" if current is None else "stale"
            summary.differences.append(f"{statuses[format_name]}: {path}")
        else:
            try:
                write_atomic(path, export.data)
            except OSError as problem:
                failure = error(f"cannot write {path}: {problem.strerror or problem}; the previous file is untouched", str(outcome.path), code="io")
                print_diagnostics([failure], "text", sys.stderr)
                summary.add([failure])
                statuses[format_name] = "write failed"
                continue
            statuses[format_name] = "written"
            if verbose:
                sys.stderr.write(f"wrote {path}\n")
    summary.rows.append((name, statuses, warnings))


def _extra_files(targets: dict[str, Path], summary: Summary, root: Path | None) -> list[Path]:
    """Files no quiz produces: in the format folders written, and, for `build`, anywhere else
    below the output root but the folders of formats not asked for this time."""
    extra = []
    for format_name, folder in targets.items():
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.is_file() and not path.name.startswith(".") and path.name not in summary.expected[format_name]:
                    extra.append(path)
    if root is not None and root.is_dir():
        format_folders = {root / f.folder for f in FORMATS.values()} | {root / name for name in OTHER_OUTPUTS}
        for path in sorted(root.rglob("*")):
            relative = path.relative_to(root)
            if (path.is_file() and not any(part.startswith(".") for part in relative.parts)
                    and not any(folder in path.parents for folder in format_folders)):
                extra.append(path)
    return extra


def _print_table(summary: Summary, formats: list[str]) -> None:
    header = ["quiz", *formats, "warnings"]
    rows = [[name, *(statuses.get(f, "-") for f in formats), str(warnings)] for name, statuses, warnings in summary.rows]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, [("-" * w) for w in widths], *rows]:
        sys.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() + "\n")


def run_export(sources: list[Path], targets: dict[str, Path], *, strict: bool, nearest_grade: bool, check: bool,
               jobs: int, quiet: bool, verbose: bool, prune: bool, max_media_bytes: int,
               media_base_url: str | None = None, root: Path | None = None) -> int:
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
    reporter = Reporter("stderr", "text", "quiet" if quiet else "verbose" if verbose else "default")
    per_quiz = steps(tuple(targets))
    with _progress(files, quiet) as progress:
        task = progress.add_task("exporting", total=len(files) * per_quiz) if progress else None
        # Each step of a quiz moves the bar (loading, checking, writing each format), so one large quiz shows progress too.
        on_step = (lambda step: progress.update(task, advance=1, description=f"exporting {step}")) if progress else None
        done = 0
        for outcome in process_files(files, tuple(targets), options, jobs, max_media_bytes, on_step=on_step):
            reporter.report(outcome.diagnostics)
            summary.add(outcome.diagnostics)
            _handle_outcome(outcome, targets, check, summary, verbose)
            done += 1
            if progress:
                progress.update(task, completed=done * per_quiz)
    failed = summary.totals["errors"] > 0
    # Extra files are judged only for whole folders of content that loaded cleanly: a run on one
    # file, or one that failed, cannot tell which exports are orphans.
    whole_bank = all(p.is_dir() for p in sources)
    if whole_bank and not failed:
        for path in _extra_files(targets, summary, root):
            if check:
                summary.differences.append(f"extra: {path} (no quiz produces it; remove it or run with --prune)")
            elif prune:
                path.unlink()
                if verbose:
                    sys.stderr.write(f"removed {path}\n")
            else:
                sys.stderr.write(f"warning: {path} is produced by no quiz (run with --prune to remove it)\n")
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
        sys.stdout.write(f"{plural(len(summary.rows), 'quiz', 'quizzes')}: {plural(total['errors'], 'error')}, "
                         f"{plural(total['warnings'], 'warning')}; {verdict}\n")
    return 1 if failed or summary.differences else 0

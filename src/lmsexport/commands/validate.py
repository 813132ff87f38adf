"""`lmsexport validate`: every problem in every quiz, for every format it is built in, then a
one-line summary. The formats' checks are those `build` runs, so what passes here builds."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from ..formats import FORMATS
from ..loader import MAX_FILE_BYTES, load_bytes
from ..pipeline import QuizOutcome, process_files, process_quiz, steps
from ..report import REPORT_VERSION, Reporter, as_dict, counts, dump_json, plural
from ..startup import release_collector
from ..writers.shared import ExportOptions
from .common import progress, quiz_files

STDIN = "-"


def _from_stdin(formats: tuple[str, ...], options: ExportOptions, max_media_bytes: int) -> QuizOutcome:
    """The quiz on standard input, named <stdin>, through the same checks as a file; its media
    files are looked up in the current folder."""
    raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)  # one byte more than the limit tells it was passed
    loaded = load_bytes(raw, "<stdin>", Path.cwd(), max_media_bytes, placed=False)
    return process_quiz(Path("<stdin>"), formats, options, max_media_bytes, render=False, loaded=loaded)


def run_validate(paths: list[Path], style: str, max_media_bytes: int, formats: tuple[str, ...] = (),
                 options: ExportOptions = ExportOptions(), level: str = "default", jobs: int = 1) -> int:
    release_collector(*(FORMATS[name].module + ".check" for name in formats))  # see startup.py
    read_stdin = any(str(p) == STDIN for p in paths)
    paths = [p for p in paths if str(p) != STDIN]
    files, path_problems = quiz_files(paths) if paths else ([], [])
    reporter = Reporter("stdout", style, level)
    collected = list(path_problems)
    if style != "json":  # text and annotations stream; JSON is one document at the end
        reporter.report(path_problems)
    quizzes = questions = drafts = 0
    errors, warnings = sum(1 for d in path_problems if d.is_error), 0
    per_quiz = steps(formats)
    with progress(files, level == "quiet") as bar:
        task = bar.add_task("validating", total=len(files) * per_quiz) if bar else None
        on_step = (lambda step: bar.update(task, advance=1, description=f"validating {step}")) if bar else None
        def outcomes() -> Iterator[QuizOutcome]:
            if read_stdin:
                yield _from_stdin(formats, options, max_media_bytes)
            yield from process_files(files, formats, options, jobs, max_media_bytes=max_media_bytes, render=False, on_step=on_step)

        for outcome in outcomes():
            quizzes += 1
            if bar:
                bar.update(task, completed=quizzes * per_quiz)
            questions += outcome.questions
            drafts += outcome.drafts
            found = counts(outcome.diagnostics)  # without placing diagnostics that are not printed
            errors += found["errors"]
            warnings += found["warnings"]
            if style == "json":
                collected.extend(outcome.diagnostics)
            else:
                reporter.report(outcome.diagnostics)
    summary = {"quizzes": quizzes, "questions": questions, "drafts": drafts, "errors": errors, "warnings": warnings,
               "formats": list(formats)}
    if style == "json":
        collected.sort(key=lambda d: (d.file, d.line or 0, d.column or 0))  # by file, then line
        dump_json({"report_version": REPORT_VERSION, "summary": summary, "diagnostics": [as_dict(d) for d in collected]})
        return 1 if errors else 0
    if style == "text":
        kinds = reporter.kinds_line()
        if kinds:
            sys.stdout.write(kinds + "\n")
    line = (f"{plural(quizzes, 'quiz', 'quizzes')}, {plural(questions, 'question')} ({plural(drafts, 'draft')}): "
            f"{plural(errors, 'error')}, {plural(warnings, 'warning')}")
    if style == "github":
        line = ("::error title=lmsexport::" if errors else "::notice title=lmsexport::") + line
    sys.stdout.write(line + "\n")
    return 1 if errors else 0

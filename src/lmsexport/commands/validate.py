"""`lmsexport validate`: every problem in every quiz, then a one-line summary."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from ..loader import MAX_FILE_BYTES, load_bytes
from ..pipeline import QuizOutcome, process_files
from ..report import REPORT_VERSION, as_dict, counts, dump_json, plural, print_diagnostics
from ..writers.shared import ExportOptions
from .common import quiz_files

STDIN = "-"


def _from_stdin(max_media_bytes: int) -> QuizOutcome:
    """The quiz on standard input, named <stdin>; its media files are looked up in the current folder."""
    raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)  # one byte more than the limit tells it was passed
    result = load_bytes(raw, "<stdin>", Path.cwd(), max_media_bytes)
    quiz = result.quiz
    if quiz is None:
        return QuizOutcome(Path("<stdin>"), None, diagnostics=result.diagnostics)
    return QuizOutcome(Path("<stdin>"), quiz.id, len(quiz.questions), len(quiz.questions) - len(quiz.exported_questions), result.diagnostics)


def run_validate(paths: list[Path], style: str, max_media_bytes: int) -> int:
    read_stdin = any(str(p) == STDIN for p in paths)
    paths = [p for p in paths if str(p) != STDIN]
    files, diagnostics = quiz_files(paths) if paths else ([], [])
    total = counts(diagnostics)
    if style != "json":  # text and annotations stream; JSON is one document at the end
        print_diagnostics(diagnostics, style)
        diagnostics = []

    def outcomes() -> Iterator[QuizOutcome]:
        if read_stdin:
            yield _from_stdin(max_media_bytes)
        yield from process_files(files, (), ExportOptions(), max_media_bytes=max_media_bytes)

    quizzes = questions = drafts = 0
    for outcome in outcomes():
        quizzes += 1
        questions += outcome.questions
        drafts += outcome.drafts
        for key, value in counts(outcome.diagnostics).items():
            total[key] += value
        if style == "json":
            diagnostics.extend(outcome.diagnostics)
        else:
            print_diagnostics(outcome.diagnostics, style)
    summary = {"quizzes": quizzes, "questions": questions, "drafts": drafts, "errors": total["errors"], "warnings": total["warnings"]}
    if style == "json":
        dump_json({"report_version": REPORT_VERSION, "summary": summary, "diagnostics": [as_dict(d) for d in diagnostics]})
    else:
        line = (f"{plural(quizzes, 'quiz', 'quizzes')}, {plural(questions, 'question')} ({plural(drafts, 'draft')}): "
                f"{plural(total['errors'], 'error')}, {plural(total['warnings'], 'warning')}")
        if style == "github":
            line = ("::error title=lmsexport::" if total["errors"] else "::notice title=lmsexport::") + line
        sys.stdout.write(line + "\n")
    return 1 if total["errors"] else 0

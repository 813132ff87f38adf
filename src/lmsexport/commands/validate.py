"""`lmsexport validate`: every problem in every quiz, then a one-line summary."""

from __future__ import annotations

import sys
from pathlib import Path

from ..pipeline import process_files
from ..report import as_dict, counts, dump_json, plural, print_diagnostics
from ..writers.shared import ExportOptions
from .common import quiz_files


def run_validate(paths: list[Path], style: str, max_media_bytes: int) -> int:
    files, diagnostics = quiz_files(paths)
    total = counts(diagnostics)
    if style != "json":  # text and annotations stream; JSON is one document at the end
        print_diagnostics(diagnostics, style)
        diagnostics = []
    quizzes = questions = drafts = 0
    for outcome in process_files(files, (), ExportOptions(), max_media_bytes=max_media_bytes):
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
        dump_json({"summary": summary, "diagnostics": [as_dict(d) for d in diagnostics]})
    else:
        line = (f"{plural(quizzes, 'quiz', 'quizzes')}, {plural(questions, 'question')} ({plural(drafts, 'draft')}): "
                f"{plural(total['errors'], 'error')}, {plural(total['warnings'], 'warning')}")
        if style == "github":
            line = ("::error title=lmsexport::" if total["errors"] else "::notice title=lmsexport::") + line
        sys.stdout.write(line + "\n")
    return 1 if total["errors"] else 0

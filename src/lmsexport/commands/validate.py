"""`lmsexport validate`: every problem in every quiz, then a one-line summary."""

from __future__ import annotations

import sys
from pathlib import Path

from ..pipeline import process_files
from ..report import as_dict, counts, dump_json, print_diagnostics
from ..writers.shared import ExportOptions
from .common import quiz_files


def run_validate(paths: list[Path], style: str, max_media_bytes: int) -> int:
    files, diagnostics = quiz_files(paths)
    if style != "json":
        print_diagnostics(diagnostics, style)
    quizzes = questions = drafts = 0
    for outcome in process_files(files, (), ExportOptions(), max_media_bytes=max_media_bytes):
        quizzes += 1
        questions += outcome.questions
        drafts += outcome.drafts
        if style == "json":
            diagnostics.extend(outcome.diagnostics)
        else:
            print_diagnostics(outcome.diagnostics, style)
            diagnostics.extend(d for d in outcome.diagnostics if d.severity.value != "note")
    total = counts(diagnostics)
    summary = {"quizzes": quizzes, "questions": questions, "drafts": drafts, "errors": total["errors"], "warnings": total["warnings"]}
    if style == "json":
        dump_json({"summary": summary, "diagnostics": [as_dict(d) for d in diagnostics]})
    else:
        line = (f"{quizzes} quiz{'zes' if quizzes != 1 else ''}, {questions} question{'s' if questions != 1 else ''} "
                f"({drafts} draft{'s' if drafts != 1 else ''}): {total['errors']} error{'s' if total['errors'] != 1 else ''}, "
                f"{total['warnings']} warning{'s' if total['warnings'] != 1 else ''}")
        if style == "github":
            line = ("::error title=lmsexport::" if total["errors"] else "::notice title=lmsexport::") + line
        sys.stdout.write(line + "\n")
    return 1 if total["errors"] else 0

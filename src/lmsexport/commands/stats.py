"""`lmsexport stats`: what each quiz holds."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from ..loader import load_quiz
from ..model import QUESTION_TYPES
from ..report import dump_json, print_diagnostics
from ..startup import release_collector
from .common import quiz_files


def quiz_stats(quiz) -> dict:
    types = Counter(q.type for q in quiz.questions)
    languages = sorted({quiz.language_of(q) for q in quiz.questions} | {c.language for q in quiz.questions for c in getattr(q, "choices", ()) if c.language} | {quiz.language})
    return {
        "quiz": quiz.id,
        "questions": len(quiz.questions),
        "by_type": {t: types[t] for t in QUESTION_TYPES if types[t]},
        "drafts": sum(1 for q in quiz.questions if q.draft),
        "languages": languages,
        "points": round(sum(q.points for q in quiz.exported_questions), 6),
    }


def run_stats(paths: list[Path], style: str) -> int:
    release_collector()  # see startup.py
    files, problems = quiz_files(paths)
    rows = []
    for path in files:
        result = load_quiz(path)
        if result.quiz is None:
            problems.extend(result.diagnostics)
            continue
        rows.append(quiz_stats(result.quiz))
    print_diagnostics(problems, "text", sys.stderr, show_notes=False)
    if style == "json":
        dump_json({"quizzes": rows})
    else:
        header = ["quiz", "questions", "drafts", "points", "languages", "types"]
        table = [[r["quiz"], str(r["questions"]), str(r["drafts"]), f"{r['points']:g}", ",".join(r["languages"]),
                  ", ".join(f"{t} {n}" for t, n in r["by_type"].items())] for r in rows]
        widths = [max(len(row[i]) for row in [header, *table]) for i in range(len(header))]
        for row in [header, *table]:
            sys.stdout.write("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() + "\n")
    return 1 if any(d.is_error for d in problems) else 0

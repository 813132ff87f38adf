"""Loading: read a file, parse JSON, validate with the schema and the semantic rules, build the model."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic
from .model import Quiz
from .readers.canonical import build_quiz
from .schema import schema_errors


@dataclass(frozen=True, slots=True)
class LoadResult:
    path: Path
    quiz: Quiz | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.quiz is not None and not any(d.is_error for d in self.diagnostics)


def load_quiz(path: Path) -> LoadResult:
    file = str(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = list(schema_errors(data, file))
    if any(d.is_error for d in problems):
        return LoadResult(path, None, tuple(problems))
    return LoadResult(path, build_quiz(data, file), tuple(problems))

"""Pieces the commands share: finding quiz files and printing path problems."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostic
from ..loader import find_quiz_files


def quiz_files(paths: list[Path]) -> tuple[list[Path], list[Diagnostic]]:
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for item in find_quiz_files(paths):
        (problems if isinstance(item, Diagnostic) else files).append(item)
    return files, problems

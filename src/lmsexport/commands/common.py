"""Pieces the commands share: finding quiz files, and the progress display."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path

from ..diagnostics import Diagnostic
from ..loader import find_quiz_files


def quiz_files(paths: list[Path]) -> tuple[list[Path], list[Diagnostic]]:
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for item in find_quiz_files(paths):
        (problems if isinstance(item, Diagnostic) else files).append(item)
    return files, problems


# Below this many quiz files a progress bar would only flicker, unless one quiz is large enough
# to take seconds on its own (about 2,000 questions).
PROGRESS_THRESHOLD = 20
LARGE_QUIZ_BYTES = 1024 * 1024


def _large(files: list[Path]) -> bool:
    for path in files:
        try:
            if path.stat().st_size >= LARGE_QUIZ_BYTES:
                return True
        except OSError:
            pass
    return False


def progress(files: list[Path], quiet: bool):
    """A transient progress bar on standard error, when it is a terminal and the work is long."""
    if quiet or not sys.stderr.isatty() or (len(files) < PROGRESS_THRESHOLD and not _large(files)):
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import Progress

    return Progress(transient=True, console=Console(stderr=True))

"""Quizzes for the tests, built one way: loaded from a test file that must load cleanly, or built
from question objects as the loader builds them (without the file and its checks)."""

from __future__ import annotations

from pathlib import Path

from lmsexport.canonical import build_quiz
from lmsexport.loader import load_quiz
from lmsexport.model import Quiz


def loaded(path: Path) -> Quiz:
    """The model of a test quiz that must load without errors."""
    result = load_quiz(path)
    assert result.ok, [d.message for d in result.diagnostics if d.is_error]
    return result.quiz


def quiz_of(*questions: dict, **fields) -> Quiz:
    """A quiz of these questions (their JSON objects), with the quiz's own fields as given."""
    document = {"id": "q", "title": "T", "language": "en", **fields, "questions": list(questions)}
    return build_quiz(document, f"{document['id']}.json")

"""`lmsexport new`: a quiz file that validates, with one example question per requested type."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from ..output import write_atomic
from ..checks.languages import language_is_valid
from ..schema import quiz_schema

EXAMPLES: dict[str, dict] = {
    "single_choice": {"stem": "Which option is correct?", "options": [
        {"id": "a", "text": "The right answer", "correct": True, "feedback": "Yes."},
        {"id": "b", "text": "A wrong answer", "feedback": "No."}], "explanation": "Why the right answer is right."},
    "multiple_response": {"stem": "Which options are correct?", "options": [
        {"id": "a", "text": "Right", "correct": True}, {"id": "b", "text": "Also right", "correct": True},
        {"id": "c", "text": "Wrong"}]},
    "true_false": {"stem": "This statement is true.", "answer": True},
    "short_answer": {"stem": "Type the answer.", "answers": [{"text": "answer"}], "case_sensitive": False},
    "numerical": {"stem": "How much is 6 times 7?", "answers": [{"value": 42, "tolerance": 0}]},
    "matching": {"stem": "Match each item with its partner.", "pairs": [
        {"id": "one", "prompt": "One", "answer": "1"}, {"id": "two", "prompt": "Two", "answer": "2"}],
        "distractors": [{"id": "three", "text": "3"}]},
    "essay": {"stem": "Explain your reasoning.", "grader_info": "What a good answer contains."},
    "description": {"stem": "Text shown before the next questions."},
}


def _schema_reference(out: Path) -> str:
    """The repository's schema relative to the new file where there is one (editors read it
    from disk), else the schema's $id."""
    for folder in out.resolve().parents:
        candidate = folder / "schema" / "quiz.schema.json"
        if candidate.is_file():
            return os.path.relpath(candidate, out.resolve().parent).replace(os.sep, "/")
    return quiz_schema()["$id"]


def scaffold(quiz_id: str, types: list[str], title: str | None, language: str, schema: str) -> dict:
    questions = [{"id": f"q{i}", "type": kind, **EXAMPLES[kind]} for i, kind in enumerate(types, 1)]
    return {"$schema": schema, "id": quiz_id,
            "title": title or quiz_id.replace("-", " ").capitalize(), "language": language,
            "text_format": "plain", "questions": questions}


GITATTRIBUTES = """\
# `lmsexport build --check` compares exports byte for byte: git must never change their line
# endings (core.autocrlf on Windows would turn the LF of Moodle XML and GIFT into CRLF).
exports/** -text
"""


def offer_gitattributes(folder: Path) -> None:
    """Keep a content repository's exports byte-exact in every clone: write a .gitattributes
    where there is none, and say what to add to one that lacks the rule."""
    path = folder / ".gitattributes"
    if not path.exists():
        write_atomic(path, GITATTRIBUTES.encode("utf-8"))
        sys.stdout.write(f"created {path} (exports keep their line endings in every clone, so build --check holds on Windows)\n")
    elif path.is_file() and "exports/" not in path.read_text(encoding="utf-8", errors="replace"):
        sys.stderr.write(f"note: add 'exports/** -text' to {path}, or a clone with core.autocrlf=true sees every export as stale\n")


def run_new(quiz_id: str, types: list[str], title: str | None, language: str, out: Path) -> int:
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", quiz_id):
        sys.stderr.write(f"error: {quiz_id!r} is not a valid quiz id: use lower-case letters, digits and single '-'\n")
        return 2
    unknown = [t for t in types if t not in EXAMPLES]
    if unknown:
        sys.stderr.write(f"error: unknown question type {', '.join(unknown)}; choose from {', '.join(EXAMPLES)}\n")
        return 2
    if not language_is_valid(language):
        sys.stderr.write(f"error: {language!r} is not a registered language tag (BCP 47, such as 'en', 'wo' or 'pt-BR')\n")
        return 2
    if out.exists():
        sys.stderr.write(f"error: {out} already exists; not overwritten\n")
        return 2
    data = scaffold(quiz_id, types, title, language, _schema_reference(out))
    write_atomic(out, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    sys.stdout.write(f"created {out}\n")
    offer_gitattributes(Path.cwd())
    return 0

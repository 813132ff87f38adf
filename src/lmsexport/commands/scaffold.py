"""`lmsexport new`: a quiz file that validates and builds in every format without a warning, with
one example question per requested type, and the schema beside the content so editors complete
it out of the box. (Complete examples of every field are in examples/ of the repository.)"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from ..model import NOT_XML
from ..output import write_atomic
from ..checks.languages import language_is_valid, not_registered
from ..schema import schema_path
from ..startup import release_collector

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
    "ordering": {"stem": "Put these steps in order.", "items": [
        {"id": "first", "text": "First"}, {"id": "second", "text": "Second"}, {"id": "third", "text": "Third"}]},
    "fill_in_blanks": {"stem": "Six times seven is [[product]].", "blanks": [
        {"id": "product", "type": "short_answer", "answers": [{"text": "42"}]}]},
    # No grader notes: Canvas and GIFT have no place for them, and a new quiz builds without a warning.
    "essay": {"stem": "Explain your reasoning."},
    "description": {"stem": "Text shown before the next questions."},
}


SCHEMA_FILE = Path("schema") / "quiz.schema.json"


def _project_root(out: Path) -> Path:
    """Where the content repository starts: the folder of its project file, else the current
    folder when the quiz goes below it, else the quiz's own folder."""
    folder = out.resolve().parent
    for candidate in (folder, *folder.parents):
        if (candidate / "lmsexport.toml").is_file() or (candidate / "pyproject.toml").is_file() or (candidate / SCHEMA_FILE).is_file():
            return candidate
    here = Path.cwd().resolve()
    return here if here in folder.parents or here == folder else folder


def place_schema(out: Path) -> tuple[str, Path | None]:
    """The `$schema` for a quiz written at `out`: the repository's schema file, written there
    from the packaged one when it is missing (returned as the second value), relative to the
    quiz so that editors read it from disk."""
    target = _project_root(out) / SCHEMA_FILE
    written = None
    if not target.is_file():
        write_atomic(target, schema_path().read_bytes())
        written = target
    return os.path.relpath(target, out.resolve().parent).replace(os.sep, "/"), written


def title_problem(title: str) -> str | None:
    """Why a title cannot make a quiz that validates and builds without a warning, or None."""
    if not title.strip():
        return "the title cannot be only white space"
    bad = sorted(set(NOT_XML.findall(title)))
    if bad:
        return f"the title holds characters XML cannot carry ({', '.join(f'U+{ord(c):04X}' for c in bad)}), which no export can carry"
    if "\n" in title or "\r" in title:
        return "the title is one line: it names the quiz's Moodle category, and Moodle strips line breaks from category names"
    return None


def portable_types() -> list[str]:
    """The types every default format carries whole (a quiz of them builds without an error or
    a warning), found by running the formats' checks on each example, so no list can go stale."""
    from .. import jsonsource
    from ..formats import DEFAULT_FORMATS, FORMATS
    from ..pipeline import settle
    from ..canonical import build_quiz
    from ..writers.shared import ExportOptions

    portable = []
    for kind in EXAMPLES:
        data = scaffold("portable", [kind], None, "en", "")
        quiz = build_quiz(data, "")
        found = [d for name in DEFAULT_FORMATS for d in FORMATS[name].check(quiz, ExportOptions())]
        reported = settle(found, False, jsonsource.parse(json.dumps(data).encode(), ""))  # as build reports them
        if not any(d.severity.value in ("error", "warning") for d in reported):
            portable.append(kind)
    return portable


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
    try:
        if not path.exists():
            write_atomic(path, GITATTRIBUTES.encode("utf-8"))
            sys.stdout.write(f"created {path} (exports keep their line endings in every clone, so build --check holds on Windows)\n")
            return
        if not path.is_file() or "exports/" in path.read_text(encoding="utf-8", errors="replace"):
            return
    except OSError:
        pass  # the quiz is written; only the advice remains
    sys.stderr.write(f"note: add 'exports/** -text' to {path}, or a clone with core.autocrlf=true sees every export as stale\n")


def run_new(quiz_id: str, types: list[str] | None, title: str | None, language: str, out: Path) -> int:
    """`types` None: every type the default formats carry whole."""
    release_collector()  # see startup.py
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", quiz_id):
        sys.stderr.write(f"error: {quiz_id!r} is not a valid quiz id: use lower-case letters, digits and single '-'\n")
        return 2
    if types is None:
        types = portable_types()
    unknown = [t for t in types if t not in EXAMPLES]
    if unknown:
        sys.stderr.write(f"error: unknown question type {', '.join(unknown)}; choose from {', '.join(EXAMPLES)}\n")
        return 2
    if not language_is_valid(language):
        sys.stderr.write(f"error: {not_registered(language)}\n")
        return 2
    problem = title_problem(title) if title is not None else None
    if problem:
        sys.stderr.write(f"error: {problem}\n")
        return 2
    if out.exists():
        sys.stderr.write(f"error: {out} already exists; not overwritten\n")
        return 2
    try:
        reference, schema_written = place_schema(out)
        data = scaffold(quiz_id, types, title, language, reference)
        write_atomic(out, (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    except OSError as problem:
        sys.stderr.write(f"error: cannot write {problem.filename or out}: {problem.strerror or problem}\n")
        return 2
    if schema_written is not None:
        sys.stdout.write(f"created {os.path.relpath(schema_written)} (the schema editors complete quizzes from)\n")
    sys.stdout.write(f"created {out}\n")
    offer_gitattributes(Path.cwd())
    portable = portable_types()
    others = [t for t in types if t not in portable]
    if others:
        sys.stdout.write(f"note: some default format cannot carry {', '.join(others)} whole: validate shows what, and --format leaves a format out\n")
    return 0

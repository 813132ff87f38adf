"""`lmsexport import`: banks from Moodle XML, GIFT, QTI 2.1 and Canvas into content files.

Each quiz is written to a staging folder inside the output folder first and validated there by
the same loader `validate` uses; only a quiz that validates is moved into place (each file by an
atomic rename), so a failed import leaves the output folder as it was. A question that makes the
quiz invalid is kept as a draft, with a warning, instead of sinking the whole quiz.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import sys
import tempfile
from pathlib import Path

from ..checks.languages import language_is_valid, not_registered
from ..diagnostics import Diagnostic, Severity, error
from ..importers import ImportedQuiz, import_data
from ..importers.canonical_json import quiz_to_json
from ..loader import load_quiz
from ..model import Description, Text, TextFormat
from ..output import OutputError, check_output_folder, read_if_exists, write_atomic
from ..report import counts, plural, print_diagnostics
from ..startup import release_collector

MAX_INPUT_BYTES = 50 * 1024 * 1024
_QUESTION = re.compile(r"^/questions/(\d+)(?:/|$)")


def _stage(quiz: ImportedQuiz, folder: Path) -> Path:
    path = folder / f"{quiz.quiz.id}.json"
    for relative, data in quiz.media.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    path.write_bytes(quiz_to_json(quiz.quiz))
    return path


def _as_draft(question, message: str, rounds: int):
    if rounds == 0:
        return dataclasses.replace(question, draft=True)
    return Description(id=question.id, title=question.title, stem=question.stem if question.stem.source.strip() else Text("(no text)", TextFormat.PLAIN),
                       draft=True, points=0.0, language=question.language, tags=question.tags)


def _validated(imported: ImportedQuiz, staging: Path, file: str, final: Path) -> tuple[ImportedQuiz, bytes | None, list[Diagnostic]]:
    """The quiz once it validates (questions that do not made drafts), its JSON, and what was said."""
    said: list[Diagnostic] = []
    for rounds in range(3):
        folder = Path(tempfile.mkdtemp(dir=staging))
        path = _stage(imported, folder)
        result = load_quiz(path)
        errors = [d for d in result.diagnostics if d.is_error]
        if not errors:
            return imported, path.read_bytes(), said
        broken: dict[int, str] = {}
        for problem in errors:
            found = _QUESTION.match(problem.pointer)
            if found is None:
                said.extend(dataclasses.replace(d, file=str(final)) for d in errors)
                return imported, None, said
            broken.setdefault(int(found.group(1)), problem.message)
        questions = list(imported.quiz.questions)
        for index, message in sorted(broken.items()):
            question = questions[index]
            questions[index] = _as_draft(question, message, rounds)
            said.append(Diagnostic(Severity.WARNING, f"question {question.title or question.id!r}: {message}; kept as a draft",
                                   file, "", imported.lines.get(index), None, "import-draft"))
        imported = dataclasses.replace(imported, quiz=dataclasses.replace(imported.quiz, questions=tuple(questions)))
    said.append(error(f"the quiz {imported.quiz.id!r} does not validate even with its broken questions as drafts: nothing written for it", file, code="import"))
    return imported, None, said


def run_import(files: list[Path], out: Path, quiz_id: str | None, format: str, force: bool, strict: bool,
               quiet: bool = False, verbose: bool = False, language: str | None = None) -> int:
    release_collector()  # see startup.py
    diagnostics: list[Diagnostic] = []
    try:
        check_output_folder(out, [])
    except OutputError as problem:
        sys.stderr.write(f"error: {problem}\n")
        return 2
    if quiz_id is not None and not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", quiz_id):
        sys.stderr.write(f"error: --id {quiz_id!r} is not a quiz id (lower case letters, digits and '-')\n")
        return 2
    if language is not None and not language_is_valid(language):
        sys.stderr.write(f"error: --language {not_registered(language)}\n")
        return 2
    taken: set[str] = set()
    written = questions = 0
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".import-", dir=out))
    try:
        for file in files:
            name = str(file)
            try:
                if file.stat().st_size > MAX_INPUT_BYTES:
                    diagnostics.append(error(f"the file is over the {MAX_INPUT_BYTES // 1048576} MB import limit", name, code="import"))
                    continue
                data = file.read_bytes()
            except OSError as problem:
                diagnostics.append(error(f"cannot read the file: {problem.strerror or problem}", name, code="io"))
                continue
            imported, problems = import_data(data, name, format, strict, quiz_id if len(files) == 1 else None, taken, language)
            diagnostics.extend(problems)
            for quiz in imported:
                target = out / f"{quiz.quiz.id}.json"
                diagnostics.extend(quiz.diagnostics)
                if any(d.is_error for d in quiz.diagnostics):
                    continue
                if target.exists() and not force:
                    diagnostics.append(error(f"{target} exists: nothing written for this quiz (use --force to replace it)", name, code="import-exists"))
                    continue
                quiz, content, said = _validated(quiz, staging, name, target)
                diagnostics.extend(said)
                if content is None:
                    continue
                clash = [p for p, d in quiz.media.items() if read_if_exists(out / p) not in (None, d)]
                if clash and not force:
                    diagnostics.append(error(f"media file(s) {', '.join(clash)} exist in {out} with other content: nothing written for this quiz (use --force)", name, code="import-exists"))
                    continue
                for relative, media in quiz.media.items():
                    if read_if_exists(out / relative) != media:
                        write_atomic(out / relative, media)
                write_atomic(target, content)
                written += 1
                questions += len(quiz.quiz.questions)
                if verbose:
                    sys.stdout.write(f"wrote {target}\n")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    shown = [d for d in diagnostics if verbose or d.severity is not Severity.NOTE]
    print_diagnostics(shown, "text", sys.stdout, show_notes=verbose)
    tally = counts(diagnostics)
    if not quiet:
        sys.stdout.write(f"imported {plural(written, 'quiz', 'quizzes')} ({plural(questions, 'question')}) into {out}; "
                         f"{plural(tally['errors'], 'error')}, {plural(tally['warnings'], 'warning')}\n")
    return 1 if tally["errors"] else 0

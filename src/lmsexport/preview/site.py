"""The whole preview site as file names and bytes: pages, media beside them, an index.

Pure like a writer: the command decides where the files go. A page is named after its quiz
file, whether the quiz loads or not, so that a page of errors takes the place of the quiz
(and the quiz its place again once they are fixed); its media files keep their paths inside
a folder of the same name.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Severity, error
from ..formats import FORMATS
from ..loader import LoadResult
from ..model import QUESTION_TYPES, Quiz
from ..writers.shared import ExportOptions
from .index import IndexEntry, QuizFacts, error_page, index_page
from .page import quiz_page
from .platforms import platform_notes, question_index

INDEX = "index.html"


@dataclass
class Site:
    files: dict[str, bytes] = field(default_factory=dict)
    # What stops an export, to be reported like every other command does: load errors, and
    # the writers' errors (their warnings are shown on the pages).
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


def quiz_facts(quiz: Quiz) -> QuizFacts:
    types = Counter(q.type for q in quiz.questions)
    languages = {quiz.language} | {quiz.language_of(q) for q in quiz.questions}
    languages |= {c.language for q in quiz.questions for c in getattr(q, "choices", ()) if c.language}
    return QuizFacts(questions=len(quiz.questions), drafts=sum(q.draft for q in quiz.questions),
                     by_type={t: types[t] for t in [*QUESTION_TYPES, *sorted(set(types) - set(QUESTION_TYPES))] if types[t]},
                     languages=sorted(languages), points=round(_points(quiz), 6))


def _points(quiz: Quiz) -> float:
    """What a student can score: a section that draws `pick` questions counts only as many
    (they are worth the same: validation sees to it)."""
    exported = {q.id: q for q in quiz.exported_questions}
    total, counted = 0.0, set()
    for section in quiz.sections:
        members = [exported[qid] for qid in section.question_ids if qid in exported]
        counted.update(q.id for q in members)
        drawn = members[:section.pick] if section.pick is not None else members
        total += sum(q.points for q in drawn)
    return total + sum(q.points for qid, q in exported.items() if qid not in counted)


def _by_question(diagnostics) -> dict[int, list[Diagnostic]]:
    found: dict[int, list[Diagnostic]] = {}
    for d in diagnostics:
        index = question_index(d.pointer)
        if index is not None and d.severity is Severity.WARNING:
            found.setdefault(index, []).append(d)
    return found


def _page_names(results: list[LoadResult]) -> list[str]:
    """One name per quiz file, from the file's name: "Ring_Attention.json" -> "ring-attention";
    files of the same name in different folders get "-2", "-3"... in the order given."""
    names: list[str] = []
    for result in results:
        base = re.sub(r"[^a-z0-9]+", "-", result.path.stem.lower()).strip("-") or "quiz"
        name, n = base, 1
        while name in names or name == "index":
            n += 1
            name = f"{base}-{n}"
        names.append(name)
    return names


def build_site(results: list[LoadResult], options: ExportOptions = ExportOptions(), formats: tuple[str, ...] = tuple(FORMATS)) -> Site:
    """The site of these quizzes, with the notes of the platforms of `formats`."""
    site = Site()
    entries: list[IndexEntry] = []
    owners: dict[str, str] = {}
    for result, name in zip(results, _page_names(results)):
        page = f"{name}.html"
        file = str(result.path)
        problems = list(result.diagnostics)
        quiz = result.quiz
        if quiz is not None and quiz.id in owners:
            problems.append(error(f"the quiz id '{quiz.id}' is already used by {owners[quiz.id]}: quiz ids must be unique", file, "/id", code="duplicate-id"))
        if quiz is None or any(d.is_error for d in problems):
            errors = [d for d in problems if d.is_error]
            site.diagnostics.extend(problems)
            site.files[page] = error_page(file, problems).encode("utf-8")
            entries.append(IndexEntry(page, result.path.name, errors=len(errors)))
            continue
        owners[quiz.id] = file
        site.diagnostics.extend(problems)
        notes = platform_notes(quiz, options, formats, result.source)
        by_format = notes.by_format()
        site.diagnostics.extend(d for found in by_format.values() for d in found if d.is_error)
        facts = quiz_facts(quiz)
        site.files[page] = quiz_page(quiz, name, facts, notes, _by_question(problems)).encode("utf-8")
        for media in quiz.media:
            site.files[f"{name}/{media.path}"] = media.data
        entries.append(IndexEntry(page, quiz.title, quiz.language, quiz.level, facts, by_format, notes.formats))
    site.files[INDEX] = index_page(entries).encode("utf-8")
    return site

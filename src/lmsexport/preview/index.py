"""The index of the quizzes and the page of a quiz that cannot be loaded."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic, Severity
from ..report import as_text
from .document import FOOTER, document, header
from .markup import attr, lang_attrs, number, plain
from .notes import badges
from .student import type_name


@dataclass(frozen=True, slots=True)
class QuizFacts:
    """What the index shows of a quiz (see `lmsexport stats`)."""

    questions: int
    drafts: int
    by_type: dict[str, int]
    languages: list[str]
    points: float


@dataclass(frozen=True, slots=True)
class IndexEntry:
    page: str  # file name of the quiz's page
    title: str
    language: str | None = None
    level: str | None = None
    facts: QuizFacts | None = None
    notes: dict[str, list[Diagnostic]] | None = None  # every writer diagnostic of the quiz, by format
    formats: tuple[str, ...] = ()
    errors: int = 0  # of loading, for a quiz that cannot be shown


def _count(n: int, one: str) -> str:
    return f"{n} {one}{'' if n == 1 else 's'}"


def index_page(entries: list[IndexEntry]) -> str:
    rows = []
    for entry in entries:
        link = f'<a href="{attr(entry.page)}"{lang_attrs(entry.language)}>{plain(entry.title)}</a>'
        if entry.facts is None:
            rows.append(f'<tr class="failed"><th scope="row">{link}</th><td colspan="5">'
                        f'<span class="badge error">{_count(entry.errors, "error")}</span> this quiz cannot be loaded: see its page</td></tr>')
            continue
        facts = entry.facts
        types = "".join(f"<li>{type_name(t)} <b>{n}</b></li>" for t, n in facts.by_type.items())
        count = _count(facts.questions - facts.drafts, "question") + (f" <span class=\"note\">+ {_count(facts.drafts, 'draft')}</span>" if facts.drafts else "")
        rows.append(f'<tr><th scope="row">{link}</th><td{lang_attrs(entry.language)}>{plain(entry.level or "—")}</td>'
                    f'<td>{plain(", ".join(facts.languages))}</td><td>{count}<ul class="types">{types}</ul></td>'
                    f'<td class="num">{number(facts.points)}</td><td><div class="badges">{badges(entry.notes or {}, entry.formats)}</div></td></tr>')
    table = ('<div class="table-scroll"><table class="index"><thead><tr><th scope="col">Quiz</th><th scope="col">Level</th><th scope="col">Languages</th>'
             '<th scope="col">Questions</th><th scope="col">Points</th><th scope="col">Notes per platform</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table></div>') if rows else '<p class="note">No quiz found.</p>'
    body = (header(False) + '<main id="main" class="wide"><header class="quiz-head"><h1>Quizzes</h1>'
            f'<p class="facts">{_count(len(entries), "quiz").replace("quizs", "quizzes")}</p></header>{table}</main>{FOOTER}')
    return document("Quizzes — preview", body)


def error_page(file: str, diagnostics: list[Diagnostic]) -> str:
    lines = "".join(f'<li class="sev-{d.severity.value}"><code>{plain(as_text(d))}</code></li>' for d in diagnostics if d.severity is not Severity.NOTE)
    body = (header(False) + f'<main id="main"><header class="quiz-head"><h1>{plain(file)}</h1>'
            '<p class="facts">This quiz cannot be shown until these problems are fixed.</p></header>'
            f'<ul class="problems">{lines}</ul></main>{FOOTER}')
    return document(f"{file} — errors", body)

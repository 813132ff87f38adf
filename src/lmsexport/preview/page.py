"""The pages of the preview: one per quiz, the index of quizzes, and the page of a quiz that
cannot be loaded. Every page carries its style and script inline, so it works alone, offline."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..diagnostics import Diagnostic, Severity
from ..model import Description, FillInBlanks, Matching, MultipleResponse, Question, Quiz, Section, SingleChoice
from ..report import as_text
from ..text import RenderStyle
from .key import answer_key, key_script
from .markup import attr, block, lang_attrs, number, page_style, plain
from .platforms import PlatformNotes, platform_name, without_question_prefix
from .student import controls, outcome_feedback, type_name


@lru_cache(maxsize=None)
def asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii") + "'"


def _document(title: str, body: str, with_script: bool) -> str:
    style, script = asset("preview.css"), asset("preview.js")
    # Only this page's own style and script may run: anything else, had it slipped into the
    # content, is refused by the browser. No request may leave the machine.
    scripts = _hash(script) if with_script else "'none'"
    policy = (f"default-src 'none'; style-src {_hash(style)}; script-src {scripts}; "
              "img-src 'self' file: data:; media-src 'self' file:; form-action 'none'; base-uri 'none'")
    tail = f"<script>{script}</script>" if with_script else ""
    return ("<!DOCTYPE html>\n"
            '<html lang="en" dir="ltr"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
            '<meta name="generator" content="lmsexport preview">'
            f"<title>{plain(title)}</title><style>{style}</style></head>"
            f'<body><a class="skip" href="#main">Skip to the content</a>{body}{tail}</body></html>\n')


def _header(with_modes: bool) -> str:
    modes = ('<div class="modes js-only" role="group" aria-label="View">'
             '<button type="button" data-mode="selftest" aria-pressed="true">Self-test</button>'
             '<button type="button" data-mode="student" aria-pressed="false">Student view</button></div>') if with_modes else ""
    return f'<header class="bar"><a class="home" href="index.html">lmsexport preview</a>{modes}</header>'


_FOOTER = '<footer class="foot"><p>Written by lmsexport. Nothing on this page comes from the network.</p></footer>'


def _points(value: float) -> str:
    return f"{number(value)} point" + ("" if value == 1 else "s")


@dataclass(frozen=True, slots=True)
class QuizFacts:
    """What the index shows of a quiz (see `lmsexport stats`)."""

    questions: int
    drafts: int
    by_type: dict[str, int]
    languages: list[str]
    points: float


def _verdict(found: list[Diagnostic]) -> str:
    if any(d.severity is Severity.ERROR for d in found):
        return "cannot be exported"
    if any(d.severity is Severity.WARNING for d in found):
        return "changes or drops something"
    return "notes"


def _platform_list(notes: dict[str, list[Diagnostic]], formats: tuple[str, ...], question_id: str | None) -> str:
    items = []
    for name in formats:
        found = notes.get(name, [])
        if not found:
            items.append(f'<li class="platform kept"><span class="platform-name">{plain(platform_name(name))}</span> '
                         '<span class="verdict">keeps it as written</span></li>')
            continue
        worst = "error" if any(d.severity is Severity.ERROR for d in found) else ("warning" if any(d.severity is Severity.WARNING for d in found) else "note")
        lines = "".join(f'<li class="{d.severity.value}"><span class="severity">{d.severity.value}</span> '
                        f'{plain(without_question_prefix(d.message, question_id) if question_id else d.message)}</li>' for d in found)
        items.append(f'<li class="platform {worst}"><span class="platform-name">{plain(platform_name(name))}</span> '
                     f'<span class="verdict">{_verdict(found)}</span><ul>{lines}</ul></li>')
    return f'<ul class="platform-list" lang="en" dir="ltr">{"".join(items)}</ul>'


def _badges(notes: dict[str, list[Diagnostic]], formats: tuple[str, ...]) -> str:
    badges = []
    for name in formats:
        count = len(notes.get(name, []))
        state = "kept" if not count else ("error" if any(d.is_error for d in notes[name]) else "changed")
        label = "✓" if not count else f"· {count}"
        badges.append(f'<span class="badge {state}" title="{attr(platform_name(name))}: {"as written" if not count else f"{count} note(s)"}">'
                      f'{plain(platform_name(name))} {label}</span>')
    return "".join(badges)


def _platforms(question: Question, index: int, notes: PlatformNotes) -> str:
    if question.draft:
        body = '<p class="note" lang="en" dir="ltr">A draft stays in the bank: no platform receives it.</p>'
        badges = '<span class="badge draft">not exported</span>'
    else:
        found = notes.of(index)
        body = _platform_list(found, notes.formats, question.id)
        badges = _badges(found, notes.formats)
    return (f'<details class="platforms"><summary lang="en" dir="ltr"><span class="summary-label">On each platform</span> {badges}</summary>'
            f'{body}</details>')


def _question(quiz: Quiz, style: RenderStyle, question: Question, index: int, number_shown: int | None, notes: PlatformNotes,
              content_notes: list[Diagnostic], level: int) -> str:
    language = quiz.language_of(question)
    name = f"q{index}"
    anchor = f"q-{question.id}"
    label = f"Question {number_shown}" if number_shown is not None else "Text"
    title = f' <span class="q-title"{lang_attrs(language)}>{plain(question.title)}</span>' if question.title else ""
    meta = [f'<span class="type">{type_name(question.type)}</span>']
    if not isinstance(question, Description):
        meta.append(f"<span>{_points(question.points)}</span>")
    if getattr(question, "shuffle", False) and isinstance(question, (SingleChoice, MultipleResponse, Matching)):
        meta.append("<span>shuffled for each student</span>")
    if question.penalty:
        meta.append(f"<span>{number(question.penalty * 100)}% off per new try</span>")
    if question.draft:
        meta.append('<span class="tag draft">draft</span>')
    answering = controls(quiz, question, style, name)
    form = ""
    if answering:
        form = (f'<form class="answer" data-question="{attr(question.id)}" autocomplete="off">{answering}'
                '<div class="actions js-only" lang="en" dir="ltr"><button type="submit" class="check">Check</button>'
                '<button type="reset" class="again">Start again</button></div>'
                '<p class="result" role="status" lang="en" dir="ltr"></p>'
                f"{outcome_feedback(question, style)}</form>")
    checks = ""
    if content_notes:
        lines = "".join(f'<li class="{d.severity.value}">{plain(d.message)}</li>' for d in content_notes)
        checks = f'<ul class="content-notes" lang="en" dir="ltr">{lines}</ul>'
    # A fill-in-the-blanks stem is the answering part itself: it stands inside the form.
    stem = "" if isinstance(question, FillInBlanks) else block(question.stem, style, "stem")
    item = "in-section" if level == 3 else "question-item"
    return (f'<li class="{item}"><article class="question type-{question.type}" id="{anchor}" aria-labelledby="{anchor}-h"{lang_attrs(language)}>'
            f'<header class="q-head" lang="en" dir="ltr"><h{level} id="{anchor}-h"><a class="q-number" href="#{anchor}">{label}</a>{title}</h{level}>'
            f'<p class="q-meta">{"".join(meta)}</p></header>'
            f'{checks}{stem}{form}'
            f'<div class="teacher">{answer_key(quiz, question, style)}{_platforms(question, index, notes)}</div>'
            f"{key_script(question)}</article></li>")


def _in_order(quiz: Quiz):
    """The questions as the quiz shows them: a section stands where its first question stands,
    with its questions in the section's order; yields sections and (index, question, heading level)."""
    index_of = {q.id: i for i, q in enumerate(quiz.questions)}
    section_of = {qid: s for s in quiz.sections for qid in s.question_ids}
    done: set[str] = set()
    for index, question in enumerate(quiz.questions):
        section = section_of.get(question.id)
        if section is None:
            yield index, question, 2
        elif section.id not in done:
            done.add(section.id)
            yield section
            for qid in section.question_ids:
                if qid in index_of:
                    yield index_of[qid], quiz.questions[index_of[qid]], 3


def _section(quiz: Quiz, section: Section, style: RenderStyle) -> str:
    drafts = {q.id for q in quiz.questions if q.draft}
    count = sum(1 for qid in section.question_ids if qid not in drafts)
    how = []
    if section.pick is not None:
        how.append(f"each student gets {section.pick} of these {count} question{'s' if count != 1 else ''}, drawn at random")
    if section.shuffle:
        how.append("in a random order")
    facts = f'<p class="facts" lang="en" dir="ltr">{plain(", ".join(how).capitalize())}.</p>' if how else ""
    anchor = f"s-{section.id}"
    return (f'<li class="section-head"><section id="{anchor}" aria-labelledby="{anchor}-h"><h2 id="{anchor}-h"{lang_attrs(quiz.language)}>{plain(section.title)}</h2>'
            f'{block(section.instructions, style, "instructions")}{facts}</section></li>')


def quiz_page(quiz: Quiz, name: str, facts: QuizFacts, notes: PlatformNotes, content_notes: dict[int, list[Diagnostic]]) -> str:
    """The page `name`.html; the quiz's media files are in the folder `name`."""
    style = page_style(name)
    questions, shown = [], 0
    for entry in _in_order(quiz):
        if isinstance(entry, Section):
            questions.append(_section(quiz, entry, style))
            continue
        index, question, level = entry
        number_shown = None
        if not isinstance(question, Description):
            shown += 1
            number_shown = shown
        questions.append(_question(quiz, style, question, index, number_shown, notes, content_notes.get(index, []), level))
    whole = notes.of(None)
    quiz_notes = ""
    if whole:
        quiz_notes = ('<section class="quiz-platforms" aria-labelledby="quiz-platforms-h" lang="en" dir="ltr">'
                      '<h2 id="quiz-platforms-h">The quiz on each platform</h2>'
                      f"{_platform_list(whole, notes.formats, None)}</section>")
    facts_line = " · ".join(x for x in (
        plain(quiz.level) if quiz.level else "",
        f"{facts.questions - facts.drafts} question{'s' if facts.questions - facts.drafts != 1 else ''}"
        + (f" and {facts.drafts} draft{'s' if facts.drafts != 1 else ''}" if facts.drafts else ""),
        _points(facts.points), "languages: " + ", ".join(plain(x) for x in facts.languages)) if x)
    body = (_header(True) + f'<main id="main">'
            f'<header class="quiz-head"><h1{lang_attrs(quiz.language)}>{plain(quiz.title)}</h1>'
            f'{block(quiz.description, style, "description", quiz.language)}<p class="facts">{facts_line}</p>'
            '<p class="how js-only">Answer a question and press <b>Check</b> to see your score and the feedback a student would get. '
            '<b>Student view</b> hides answers and platform notes.</p></header>'
            f'{quiz_notes}<ol class="questions"{lang_attrs(quiz.language)}>{"".join(questions)}</ol></main>{_FOOTER}')
    return _document(f"{quiz.title} — preview", body, with_script=True)


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
                    f'<td class="num">{number(facts.points)}</td><td><div class="badges">{_badges(entry.notes or {}, entry.formats)}</div></td></tr>')
    table = ('<table class="index"><thead><tr><th scope="col">Quiz</th><th scope="col">Level</th><th scope="col">Languages</th>'
             '<th scope="col">Questions</th><th scope="col">Points</th><th scope="col">Notes per platform</th></tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table>') if rows else '<p class="note">No quiz found.</p>'
    body = (_header(False) + '<main id="main" class="wide"><header class="quiz-head"><h1>Quizzes</h1>'
            f'<p class="facts">{_count(len(entries), "quiz").replace("quizs", "quizzes")}</p></header>{table}</main>{_FOOTER}')
    return _document("Quizzes — preview", body, with_script=False)


def error_page(file: str, diagnostics: list[Diagnostic]) -> str:
    lines = "".join(f'<li class="{d.severity.value}"><code>{plain(as_text(d))}</code></li>' for d in diagnostics if d.severity is not Severity.NOTE)
    body = (_header(False) + f'<main id="main"><header class="quiz-head"><h1>{plain(file)}</h1>'
            '<p class="facts">This quiz cannot be shown until these problems are fixed.</p></header>'
            f'<ul class="problems">{lines}</ul></main>{_FOOTER}')
    return _document(f"{file} — errors", body, with_script=False)

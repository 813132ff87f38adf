"""The page of one quiz: its head, its sections, and each question as a student sees it with
the answer key and the platform notes below it."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..model import Description, FillInBlanks, Matching, MultipleResponse, Question, Quiz, Section, SingleChoice
from ..text import RenderStyle
from .document import FOOTER, document, header, points
from .index import QuizFacts
from .key import answer_key, key_script
from .markup import attr, block, lang_attrs, number, page_style, plain
from .notes import platform_list, question_platforms, section_platforms
from .platforms import PlatformNotes
from .student import controls, outcome_feedback, type_name


def _question(quiz: Quiz, style: RenderStyle, question: Question, index: int, number_shown: int | None, notes: PlatformNotes,
              content_notes: list[Diagnostic], level: int) -> str:
    language = quiz.language_of(question)
    name = f"q{index}"
    anchor = f"q-{question.id}"
    label = f"Question {number_shown}" if number_shown is not None else "Text"
    title = f' <span class="q-title"{lang_attrs(language)}>{plain(question.title)}</span>' if question.title else ""
    meta = [f'<span class="type">{type_name(question.type)}</span>']
    if not isinstance(question, Description):
        meta.append(f"<span>{points(question.points)}</span>")
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
        lines = "".join(f'<li class="sev-{d.severity.value}">{plain(d.message)}</li>' for d in content_notes)
        checks = f'<ul class="content-notes" lang="en" dir="ltr">{lines}</ul>'
    # A fill-in-the-blanks stem is the answering part itself: it stands inside the form.
    stem = "" if isinstance(question, FillInBlanks) else block(question.stem, style, "stem")
    item = "in-section" if level == 3 else "question-item"
    return (f'<li class="{item}"><article class="question type-{question.type}" id="{anchor}" aria-labelledby="{anchor}-h"{lang_attrs(language)}>'
            f'<header class="q-head" lang="en" dir="ltr"><h{level} id="{anchor}-h"><a class="q-number" href="#{anchor}">{label}</a>{title}</h{level}>'
            f'<p class="q-meta">{"".join(meta)}</p></header>'
            f'{checks}{stem}{form}'
            f'<div class="teacher">{answer_key(quiz, question, style)}{question_platforms(question, index, notes)}</div>'
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


def _section(quiz: Quiz, section: Section, style: RenderStyle, notes: PlatformNotes) -> str:
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
            f'{block(section.instructions, style, "instructions")}{facts}'
            f'<div class="teacher">{section_platforms(section.id, notes.of_section(quiz.sections.index(section)), notes.formats)}</div>'
            '</section></li>')


def quiz_page(quiz: Quiz, name: str, facts: QuizFacts, notes: PlatformNotes, content_notes: dict[int, list[Diagnostic]]) -> str:
    """The page `name`.html; the quiz's media files are in the folder `name`."""
    style = page_style(name)
    questions, shown = [], 0
    for entry in _in_order(quiz):
        if isinstance(entry, Section):
            questions.append(_section(quiz, entry, style, notes))
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
                      f"{platform_list(whole, notes.formats, None)}</section>")
    facts_line = " · ".join(x for x in (
        plain(quiz.level) if quiz.level else "",
        f"{facts.questions - facts.drafts} question{'s' if facts.questions - facts.drafts != 1 else ''}"
        + (f" and {facts.drafts} draft{'s' if facts.drafts != 1 else ''}" if facts.drafts else ""),
        points(facts.points), "languages: " + ", ".join(plain(x) for x in facts.languages)) if x)
    body = (header(True) + f'<main id="main">'
            f'<header class="quiz-head"><h1{lang_attrs(quiz.language)}>{plain(quiz.title)}</h1>'
            f'{block(quiz.description, style, "description", quiz.language)}<p class="facts">{facts_line}</p>'
            '<p class="how js-only">Answer a question and press <b>Check</b> to see your score and the feedback a student would get. '
            '<b>Student view</b> hides answers and platform notes.</p></header>'
            f'{quiz_notes}<ol class="questions"{lang_attrs(quiz.language)}>{"".join(questions)}</ol></main>{FOOTER}')
    return document(f"{quiz.title} — preview", body)



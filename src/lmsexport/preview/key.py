"""The answer key of a question, twice: as data the self-test script scores with (the content's
credits, nothing else), and as HTML that reveals answers and feedback without any script."""

from __future__ import annotations

import json
from collections.abc import Callable

from ..model import (
    Blank,
    Description,
    DropdownBlank,
    Essay,
    FillInBlanks,
    Matching,
    MultipleResponse,
    Numerical,
    NumericalBlank,
    Ordering,
    Question,
    Quiz,
    ShortAnswer,
    ShortAnswerBlank,
    SingleChoice,
    Text,
    TrueFalse,
)
from ..text import RenderStyle
from .markup import block, inline, lang_attrs, number, percent, plain


def key_data(question: Question) -> dict | None:
    """What the script needs to score an answer; None for questions that are not scored."""
    build = KEY_DATA.get(type(question))
    return None if build is None else {"type": question.type, "points": question.points, **build(question)}


def _choice_key(question: SingleChoice | MultipleResponse) -> dict:
    return {"credits": {c.id: c.credit for c in question.choices}, "correct": [c.id for c in question.choices if c.correct]}


def _true_false_key(question: TrueFalse) -> dict:
    return {"credits": {"true": float(question.answer), "false": float(not question.answer)}, "correct": ["true" if question.answer else "false"]}


def _short_answer_key(question: ShortAnswer) -> dict:
    return {"case_sensitive": question.case_sensitive, "answers": [{"text": a.text, "credit": a.credit} for a in question.answers]}


# What the script scores each question type by, keyed by the model's class (tests/test_type_coverage.py
# fails for a type left out); None: not scored.
KEY_DATA: dict[type[Question], Callable[[Question], dict] | None] = {
    SingleChoice: _choice_key,
    MultipleResponse: _choice_key,
    TrueFalse: _true_false_key,
    ShortAnswer: _short_answer_key,
    Numerical: lambda question: {"answers": [_numeric(a) for a in question.answers]},
    Matching: lambda question: {"pairs": {p.id: p.answer for p in question.pairs}},
    Ordering: lambda question: {"grading": question.grading.value, "items": [i.id for i in question.items]},
    FillInBlanks: lambda question: {"blanks": [_blank(b, worth) for b, worth in zip(question.blanks, question.blank_points)]},
    Essay: lambda question: {},
    Description: None,
}


def _blank(blank: Blank, worth: float) -> dict:
    return {"id": blank.id, "kind": blank.kind, "points": worth, **BLANK_KEYS[type(blank)](blank)}


# What the script scores each blank kind by, beyond its id, kind and worth; keyed by the model's
# class (tests/test_type_coverage.py fails for a kind left out).
BLANK_KEYS: dict[type[Blank], Callable[[Blank], dict]] = {
    ShortAnswerBlank: lambda blank: {"case_sensitive": blank.case_sensitive, "answers": [{"text": a.text, "credit": a.credit} for a in blank.answers]},
    NumericalBlank: lambda blank: {"answers": [_numeric(a) for a in blank.answers]},
    DropdownBlank: lambda blank: {"options": [{"id": o.id, "credit": o.credit} for o in blank.options]},
}


def _numeric(answer) -> dict:
    # Value and tolerance as given: value ± tolerance could round (or overflow) past a bound.
    if answer.is_range:
        return {"min": answer.minimum, "max": answer.maximum, "credit": answer.credit}
    return {"value": answer.value, "tolerance": answer.tolerance, "credit": answer.credit}


def key_script(question: Question) -> str:
    """The key as a JSON data block (never run). '<', '>' and '&' are escaped so that no text
    inside can close the element."""
    data = key_data(question)
    if data is None:
        return ""
    payload = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" class="key-data">{payload}</script>'


def _feedback_cell(text: Text | None, style: RenderStyle) -> str:
    return block(text, style, "text") if text is not None else '<span class="none" lang="en" dir="ltr">no feedback</span>'


def _worth(credit: float) -> str:
    return f'<span class="credit" dir="ltr">{percent(credit)}</span>'


def _rows(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    head = "".join(f'<th scope="col" lang="en" dir="ltr">{h}</th>' for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="key-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _numbers(answers, style: RenderStyle) -> str:
    rows = []
    for a in answers:
        accepted = (f"from {number(a.minimum)} to {number(a.maximum)}" if a.is_range
                    else f"{number(a.value)}" + (f" ± {number(a.tolerance)}" if a.tolerance else ""))
        rows.append((accepted, _worth(a.credit), _feedback_cell(a.feedback, style)))
    return _rows(("Accepted number", "Credit", "Feedback"), rows)


def _answers(quiz: Quiz, question: Question, style: RenderStyle) -> str:
    write = ANSWERS.get(type(question))
    return "" if write is None else write(quiz, question, style)


def _choice_answers(quiz: Quiz, question: SingleChoice | MultipleResponse, style: RenderStyle) -> str:
    rows = []
    for choice in question.choices:
        language = choice.language if choice.language and choice.language != quiz.language_of(question) else None
        mark = "✓ " if choice.correct else ""
        rows.append((f"<span{lang_attrs(language)}>{mark}{inline(choice.text, style)}</span>", _worth(choice.credit),
                     _feedback_cell(choice.feedback, style)))
    return _rows(("Option", "Credit", "Feedback when chosen"), rows)


def _true_false_answers(quiz: Quiz, question: TrueFalse, style: RenderStyle) -> str:
    rows = [("✓ True" if question.answer else "True", _worth(float(question.answer)), _feedback_cell(question.true_feedback, style)),
            ("False" if question.answer else "✓ False", _worth(float(not question.answer)), _feedback_cell(question.false_feedback, style))]
    return _rows(("Answer", "Credit", "Feedback when chosen"), rows)


def _short_answer_answers(quiz: Quiz, question: ShortAnswer, style: RenderStyle) -> str:
    rows = [(f"<code>{plain(a.text)}</code>", _worth(a.credit), _feedback_cell(a.feedback, style)) for a in question.answers]
    case = "Case matters." if question.case_sensitive else "Case does not matter."
    return _rows(("Accepted answer", "Credit", "Feedback"), rows) + f'<p class="note" lang="en" dir="ltr">{case} The first answer that matches counts.</p>'


def _numerical_answers(quiz: Quiz, question: Numerical, style: RenderStyle) -> str:
    return _numbers(question.answers, style) + '<p class="note" lang="en" dir="ltr">The best answer that accepts the number counts.</p>'


def _matching_answers(quiz: Quiz, question: Matching, style: RenderStyle) -> str:
    share = 1 / len(question.pairs) if question.pairs else 0
    rows = [(inline(p.prompt, style), plain(p.answer), _worth(share)) for p in question.pairs]
    table = _rows(("Item", "Answer", "Credit"), rows)
    if question.distractors:
        language = lang_attrs(quiz.language_of(question))
        listed = ", ".join(f"<q{language}>{plain(d.text)}</q>" for d in question.distractors)
        table += f'<p class="note" lang="en" dir="ltr">Wrong answers offered too: {listed}.</p>'
    return table


def _ordering_answers(quiz: Quiz, question: Ordering, style: RenderStyle) -> str:
    items = "".join(f"<li>{inline(item.text, style)}</li>" for item in question.items)
    grading = question.grading.value.replace("_", " ")
    return f'<ol class="right-order">{items}</ol><p class="note" lang="en" dir="ltr">Graded as Moodle grades “{grading}”.</p>'


def _blanks_answers(quiz: Quiz, question: FillInBlanks, style: RenderStyle) -> str:
    parts = []
    for index, (blank, worth) in enumerate(zip(question.blanks, question.blank_points)):
        parts.append(f'<h4 lang="en" dir="ltr">Blank {index + 1} <code>[[{plain(blank.id)}]]</code>, {number(worth)} point{"" if worth == 1 else "s"}</h4>')
        parts.append(BLANK_ANSWERS[type(blank)](blank, style))
    return "".join(parts) + '<p class="note" lang="en" dir="ltr">In each blank the best answer that matches counts.</p>'


def _short_answer_blank_answers(blank: ShortAnswerBlank, style: RenderStyle) -> str:
    rows = [(f"<code>{plain(a.text)}</code>", _worth(a.credit), _feedback_cell(a.feedback, style)) for a in blank.answers]
    case = "Case matters." if blank.case_sensitive else "Case does not matter."
    return _rows(("Accepted answer", "Credit", "Feedback"), rows) + f'<p class="note" lang="en" dir="ltr">{case}</p>'


def _dropdown_answers(blank: DropdownBlank, style: RenderStyle) -> str:
    rows = [(("✓ " if o.correct else "") + plain(o.text), _worth(o.credit), _feedback_cell(o.feedback, style)) for o in blank.options]
    return _rows(("Option", "Credit", "Feedback when chosen"), rows)


# The answers the key reveals for each blank kind, keyed by the model's class
# (tests/test_type_coverage.py fails for a kind left out).
BLANK_ANSWERS: dict[type[Blank], Callable[[Blank, RenderStyle], str]] = {
    ShortAnswerBlank: _short_answer_blank_answers,
    NumericalBlank: lambda blank, style: _numbers(blank.answers, style),
    DropdownBlank: _dropdown_answers,
}


def _essay_answers(quiz: Quiz, question: Essay, style: RenderStyle) -> str:
    parts = ['<p class="note" lang="en" dir="ltr">No automatic score: a teacher grades the answer.</p>']
    if question.grader_info is not None:
        parts.append('<h4 lang="en" dir="ltr">For the grader</h4>' + block(question.grader_info, style, "text"))
    return "".join(parts)


# The answers the key reveals for each question type, keyed by the model's class
# (tests/test_type_coverage.py fails for a type left out); None: nothing to answer.
ANSWERS: dict[type[Question], Callable[[Quiz, Question, RenderStyle], str] | None] = {
    SingleChoice: _choice_answers,
    MultipleResponse: _choice_answers,
    TrueFalse: _true_false_answers,
    ShortAnswer: _short_answer_answers,
    Numerical: _numerical_answers,
    Matching: _matching_answers,
    Ordering: _ordering_answers,
    FillInBlanks: _blanks_answers,
    Essay: _essay_answers,
    Description: None,
}


def answer_key(quiz: Quiz, question: Question, style: RenderStyle) -> str:
    """The <details> that reveals the answers and every feedback, open or closed by the reader."""
    if isinstance(question, Description):
        if question.feedback.general is None:
            return ""
        sections = []
    else:
        sections = [_answers(quiz, question, style)]
    given = question.feedback
    outcomes = [("Correct", given.correct), ("Partially correct", given.partially_correct), ("Incorrect", given.incorrect)]
    listed = "".join(f'<dt lang="en" dir="ltr">{label}</dt><dd>{block(text, style, "text")}</dd>' for label, text in outcomes if text is not None)
    if listed:
        sections.append(f'<h4 lang="en" dir="ltr">Feedback by outcome</h4><dl class="outcomes">{listed}</dl>')
    if given.general is not None:
        sections.append('<h4 lang="en" dir="ltr">General feedback</h4>' + block(given.general, style, "text"))
    return ('<details class="key"><summary lang="en" dir="ltr">Answer and feedback</summary>'
            f'<div class="key-body">{"".join(sections)}</div></details>')

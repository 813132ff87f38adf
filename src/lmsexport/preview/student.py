"""One question as a student sees it: its stem and the controls to answer it.

Feedback that the self-test shows after "check" sits beside what it is about (an option's
feedback under the option, the outcome's under the answer), hidden until the script reveals
it; without the script the answer key (see `key`) shows it all. Options keep the content's
order; matching answers are listed in sorted order, so that the list gives nothing away.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import NamedTuple

from .. import text as rich
from ..text.blanks import fill
from ..model import (
    Blank,
    Choice,
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
    TrueFalse,
)
from ..text import RenderStyle
from .markup import attr, block, inline, lang_attrs, plain

TYPE_NAMES = {
    "single_choice": "Single choice",
    "multiple_response": "Multiple response",
    "true_false": "True or false",
    "short_answer": "Short answer",
    "numerical": "Numerical",
    "matching": "Matching",
    "ordering": "Ordering",
    "fill_in_blanks": "Fill in the blanks",
    "essay": "Essay",
    "description": "Description",
}

def type_name(kind: str) -> str:
    """What a type is called on the page; a type this preview does not know yet by its name."""
    return TYPE_NAMES.get(kind) or kind.replace("_", " ").capitalize()


def hidden_feedback(html: str, kind: str, **data: str) -> str:
    """Feedback the self-test reveals; `kind` says which (option, answer, outcome, general)."""
    if not html:
        return ""
    extra = "".join(f' data-{k}="{attr(v)}"' for k, v in data.items())
    return f'<div class="feedback feedback-{kind}"{extra} hidden>{html}</div>'


def _choice(quiz: Quiz, question: Question, choice: Choice, index: int, kind: str, style: RenderStyle, name: str) -> str:
    control = f"{name}-o{index}"
    language = choice.language if choice.language and choice.language != quiz.language_of(question) else None
    feedback = hidden_feedback(block(choice.feedback, style, "text"), "option", option=choice.id)
    pinned = ' <span class="tag" lang="en" dir="ltr">stays in place</span>' if choice.pinned and getattr(question, "shuffle", False) else ""
    return (f'<li class="option" data-option="{attr(choice.id)}"><input type="{kind}" id="{control}" name="{name}" value="{attr(choice.id)}">'
            f'<label for="{control}"{lang_attrs(language)}>{inline(choice.text, style)}</label>{pinned}{feedback}</li>')


def _choices(quiz: Quiz, question: Question, choices: tuple[Choice, ...], multiple: bool, style: RenderStyle, name: str) -> str:
    kind = "checkbox" if multiple else "radio"
    items = "".join(_choice(quiz, question, c, i, kind, style, name) for i, c in enumerate(choices))
    return f'<ul class="options" role="presentation">{items}</ul>'


def _true_false(question: TrueFalse, style: RenderStyle, name: str) -> str:
    items = []
    # The labels are the interface's: "True" and "False" are in the page's language (English).
    for index, (value, label, feedback) in enumerate((("true", "True", question.true_feedback), ("false", "False", question.false_feedback))):
        control = f"{name}-o{index}"
        shown = hidden_feedback(block(feedback, style, "text"), "option", option=value)
        items.append(f'<li class="option" data-option="{value}"><input type="radio" id="{control}" name="{name}" value="{value}">'
                     f'<label for="{control}" lang="en" dir="ltr">{label}</label>{shown}</li>')
    return f'<ul class="options" role="presentation">{"".join(items)}</ul>'


def _answer_feedback(answers, style: RenderStyle) -> str:
    return "".join(hidden_feedback(block(a.feedback, style, "text"), "answer", answer=str(i)) for i, a in enumerate(answers))


def _text_entry(question: ShortAnswer | Numerical, field: str, style: RenderStyle, name: str) -> str:
    return (f'<p class="entry"><label for="{name}-input" lang="en" dir="ltr">Answer</label> {field}</p>'
            + _answer_feedback(question.answers, style))


def _short_answer(question: ShortAnswer, style: RenderStyle, name: str) -> str:
    longest = max((len(a.text) for a in question.answers), default=10)
    field = f'<input type="text" id="{name}-input" name="{name}" size="{min(max(longest + 4, 16), 60)}" autocomplete="off" spellcheck="false">'
    return _text_entry(question, field, style, name)


def _numerical(question: Numerical, style: RenderStyle, name: str) -> str:
    field = f'<input type="text" inputmode="decimal" id="{name}-input" name="{name}" size="12" autocomplete="off" spellcheck="false">'
    return _text_entry(question, field, style, name)


def matching_answers(question: Matching) -> list[str]:
    """The texts the drop-downs offer: each answer once (prompts may share one), distractors too."""
    seen = dict.fromkeys([p.answer for p in question.pairs] + [d.text for d in question.distractors])
    return sorted(seen, key=lambda text: (text.casefold(), text))


def _matching(question: Matching, style: RenderStyle, name: str) -> str:
    answers = matching_answers(question)
    options = '<option value="" lang="en">Choose…</option>' + "".join(f'<option value="{attr(a)}">{plain(a)}</option>' for a in answers)
    rows = []
    for index, pair in enumerate(question.pairs):
        control = f"{name}-p{index}"
        rows.append(f'<tr data-pair="{attr(pair.id)}"><th scope="row"><label for="{control}">{inline(pair.prompt, style)}</label></th>'
                    f'<td><select id="{control}" name="{control}">{options}</select><span class="mark" aria-hidden="true"></span></td></tr>')
    return f'<table class="matching"><tbody>{"".join(rows)}</tbody></table>'


def shown_order(question: Ordering) -> list[int]:
    """Indexes of the items in the order a student first sees them: scrambled the same way on
    every build (by a hash of the ids), and never already in the right order."""
    order = sorted(range(len(question.items)), key=lambda i: hashlib.sha256(f"{question.id}/{question.items[i].id}".encode()).digest())
    if order == sorted(order) and len(order) > 1:
        order = order[1:] + order[:1]
    return order


def _ordering(question: Ordering, style: RenderStyle, name: str) -> str:
    items = []
    back, forth = (("←", "Move left"), ("→", "Move right")) if question.horizontal else (("↑", "Move up"), ("↓", "Move down"))
    for index in shown_order(question):
        item = question.items[index]
        label = f"{name}-i{index}"
        items.append(f'<li class="order-item" data-item="{attr(item.id)}"><span class="order-text" id="{label}">{inline(item.text, style)}</span>'
                     '<span class="order-moves js-only" lang="en" dir="ltr">'
                     f'<button type="button" class="up" aria-describedby="{label}" aria-label="{back[1]}">{back[0]}</button>'
                     f'<button type="button" class="down" aria-describedby="{label}" aria-label="{forth[1]}">{forth[0]}</button></span></li>')
    layout = "horizontal" if question.horizontal else "vertical"
    return f'<ol class="ordering {layout}">{"".join(items)}</ol>'


def _blank(question: FillInBlanks, blank_id: str, name: str) -> str:
    index = next(i for i, b in enumerate(question.blanks) if b.id == blank_id)
    blank = question.blanks[index]
    control = f"{name}-b{index}"
    label = f'aria-label="Blank {index + 1} of {len(question.blanks)}"'
    return BLANK_CONTROLS[type(blank)].field(blank, control, label) + '<span class="mark" aria-hidden="true"></span>'


def _typed_blank(blank: ShortAnswerBlank | NumericalBlank, control: str, label: str, longest: int, mode: str = "") -> str:
    return (f'<input type="text" class="blank" id="{control}" data-blank="{attr(blank.id)}" {label} size="{min(max(longest, 6), 40)}"'
            f'{mode} autocomplete="off" spellcheck="false">')


def _dropdown_blank(blank: DropdownBlank, control: str, label: str) -> str:
    options = '<option value="" lang="en">Choose…</option>' + "".join(f'<option value="{attr(o.id)}">{plain(o.text)}</option>' for o in blank.options)
    return f'<select class="blank" id="{control}" data-blank="{attr(blank.id)}" {label}>{options}</select>'


class _BlankControl(NamedTuple):
    field: Callable[[Blank, str, str], str]  # the control, from the blank, its element id and its aria-label
    answers: Callable[[Blank], tuple]  # what the student may give, each with its own feedback


# The control of each blank kind, keyed by the model's class (tests/test_type_coverage.py fails
# for a kind left out).
BLANK_CONTROLS: dict[type[Blank], _BlankControl] = {
    ShortAnswerBlank: _BlankControl(
        lambda blank, control, label: _typed_blank(blank, control, label, max((len(a.text) for a in blank.answers), default=8) + 2),
        lambda blank: blank.answers),
    NumericalBlank: _BlankControl(lambda blank, control, label: _typed_blank(blank, control, label, 8, ' inputmode="decimal"'),
                                  lambda blank: blank.answers),
    DropdownBlank: _BlankControl(_dropdown_blank, lambda blank: blank.options),
}


def blanks_stem(question: FillInBlanks, style: RenderStyle, name: str) -> str:
    """The stem with a text field or a drop-down where each [[name]] stands, then the feedback
    each answer of each blank would show."""
    html = fill(rich.to_html(question.stem, style), lambda blank_id: _blank(question, blank_id, name))
    feedback = []
    for blank in question.blanks:
        answers = BLANK_CONTROLS[type(blank)].answers(blank)
        feedback += [hidden_feedback(block(a.feedback, style, "text"), "answer", blank=blank.id, answer=str(j)) for j, a in enumerate(answers)]
    return f'<div class="stem">{html}</div>{"".join(feedback)}'


def _essay(question: Essay, name: str) -> str:
    template = plain(question.response_template) if question.response_template else ""
    return (f'<p class="entry essay"><label for="{name}-input" lang="en" dir="ltr">Your answer</label>'
            f'<textarea id="{name}-input" name="{name}" rows="{question.lines}" cols="60">{template}</textarea></p>')


def controls(quiz: Quiz, question: Question, style: RenderStyle, name: str) -> str:
    """The answering part of a question (empty for a description)."""
    found = CONTROLS.get(type(question))
    if found is None:
        return ""  # a description, or a type this preview does not know yet: its stem only
    legend, build = found
    return f'<fieldset><legend lang="en" dir="ltr">{legend}</legend>{build(quiz, question, style, name)}</fieldset>'



# What a student is asked and the controls to answer with, for each question type, keyed by the
# model's class (tests/test_type_coverage.py fails for a type left out); None: nothing to answer.
CONTROLS: dict[type[Question], tuple[str, Callable[[Quiz, Question, RenderStyle, str], str]] | None] = {
    SingleChoice: ("Choose one answer.", lambda quiz, q, style, name: _choices(quiz, q, q.choices, False, style, name)),
    MultipleResponse: ("Choose all answers that apply.", lambda quiz, q, style, name: _choices(quiz, q, q.choices, True, style, name)),
    TrueFalse: ("Choose true or false.", lambda quiz, q, style, name: _true_false(q, style, name)),
    ShortAnswer: ("Type your answer.", lambda quiz, q, style, name: _short_answer(q, style, name)),
    Numerical: ("Type a number.", lambda quiz, q, style, name: _numerical(q, style, name)),
    Matching: ("Match each item with an answer.", lambda quiz, q, style, name: _matching(q, style, name)),
    Ordering: ("Put the items in order.", lambda quiz, q, style, name: _ordering(q, style, name)),
    FillInBlanks: ("Fill in the blanks.", lambda quiz, q, style, name: blanks_stem(q, style, name)),
    Essay: ("Write your answer.", lambda quiz, q, style, name: _essay(q, name)),
    Description: None,
}

def outcome_feedback(question: Question, style: RenderStyle) -> str:
    """Feedback by outcome and the general feedback, revealed after "check"."""
    given = question.feedback
    parts = [hidden_feedback(block(text, style, "text"), "outcome", outcome=key)
             for key, text in (("correct", given.correct), ("partially_correct", given.partially_correct), ("incorrect", given.incorrect))
             if not isinstance(question, (Essay, Description))]
    parts.append(hidden_feedback(block(given.general, style, "text"), "general"))
    return "".join(parts)

"""Feedback as modalFeedback driven by the FEEDBACK outcome.

Canvas finds feedback by the modalFeedback identifier alone (qti_exporter's get_feedback):
names with `wrong`/`incorrect`/`_IC` are incorrect feedback, `correct`/`_C` correct,
`general_`/`_all` neutral. Per-answer feedback must avoid all of those.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .context import ItemContext
from .expressions import add_feedback, base, condition, make, variable
from .names import FEEDBACK, SCORE
from .parts import Parts

CORRECT = "correct_feedback"
PARTIAL = "partial_feedback"
INCORRECT = "incorrect_feedback"
GENERAL = "general_feedback"

_CANVAS_KINDS = re.compile(r"general_|_all|wrong|incorrect|correct|solution|_ic$|_c$", re.IGNORECASE)


@lru_cache(maxsize=4096)  # options are named alike from question to question
def option_feedback_id(choice_id: str, index: int) -> str:
    candidate = f"option_{choice_id}_feedback"
    return f"option_{index + 1}_feedback" if _CANVAS_KINDS.search(candidate) else candidate


def answer_feedback_id(index: int) -> str:
    return f"answer_{index + 1}_feedback"


_ABOVE_ZERO = make("gt", variable(SCORE), base("float", "0"))


@lru_cache(maxsize=4096)  # an option's condition and feedback identifier repeat from item to item
def _shown_when(when: str, feedback_id: str) -> str:
    return condition((when, [add_feedback(feedback_id)]))


@lru_cache(maxsize=4096)  # items share a few: what is right, and which outcomes have a text
def _outcome_rule(correct: str, written: tuple[bool, bool, bool]) -> str:
    """The rule that shows the correct, partially correct or incorrect feedback (those `written`)."""
    branches = [(correct, CORRECT, written[0]), (_ABOVE_ZERO, PARTIAL, written[1]), (None, INCORRECT, written[2])]
    while not branches[-1][2]:  # branches after the last one with a text change nothing
        branches.pop()
    return condition(*((when, [add_feedback(name)] if text else []) for when, name, text in branches))


def feedback(ctx: ItemContext, parts: Parts) -> tuple[list[str], list[str]]:
    """The response rules that set FEEDBACK, and the modalFeedback elements they show: each
    option's or answer's first, then the outcome's (correct, partially correct, incorrect), then
    the general feedback."""
    question = ctx.question
    rules: list[str] = []
    modals: list[str] = []

    answers = parts.answer_feedback
    if answers:
        if parts.first_match_only:
            rules.append(condition(*((a.when, [add_feedback(a.identifier)] if a.text else []) for a in answers)))
        else:
            for a in answers:  # loops here and below: quicker than a generator, once an option
                if a.text:
                    rules.append(_shown_when(a.when, a.identifier))
        per_answer = {a.identifier for a in answers}
    else:
        per_answer = _NONE

    given = question.feedback
    correct, partially, incorrect = given.correct, given.partially_correct, given.incorrect
    if correct is not None or partially is not None or incorrect is not None:
        outcome = ((CORRECT, correct, "correct"), (PARTIAL, partially, "partially_correct"), (INCORRECT, incorrect, "incorrect"))
        if parts.correct is None:
            for _, text, key in outcome:
                if text is not None:
                    ctx.report.loss(question, f"this question has no right answer, so its {key} feedback is never shown; it is left out", "feedback", key, code="qti-loss")
        else:
            rules.append(_outcome_rule(parts.correct, (correct is not None, partially is not None, incorrect is not None)))
    # Rendered after the losses above are said, in the order they are shown.
    for a in answers:
        if a.text:
            modals.append(_modal(a.identifier, _answer_content(ctx.inner_block(a.text, *a.where))))
    if parts.correct is not None and (correct is not None or partially is not None or incorrect is not None):
        for name, text, key in outcome:
            if text is not None:
                modals.append(_shown(ctx, name, text, per_answer, "feedback", key))

    if given.general is not None:
        rules.append(_ADD_GENERAL)
        modals.append(_shown(ctx, GENERAL, given.general, per_answer, "explanation"))
    return rules, modals


_NONE: frozenset[str] = frozenset()
_ADD_GENERAL = add_feedback(GENERAL)
_MODAL = f'<modalFeedback outcomeIdentifier="{FEEDBACK}" identifier="'


def _modal(name: str, content: str) -> str:
    return _MODAL + name + '" showHide="show">' + content + "</modalFeedback>"


def _shown(ctx: ItemContext, name: str, text, per_answer, *where: str) -> str:
    html = ctx.inner_block(text, *where)
    return _modal(name, _answer_content(html) if name in per_answer else _content(html))


# Canvas's detect_html (html_helper.rb) unwraps attribute-less <p>, <div> and <span> around a
# feedback and, when only text is left, stores that text still HTML-escaped: students would read
# "&amp;". A wrapper that carries an attribute stops the unwrapping and keeps the feedback as
# HTML. `class` is the one attribute QTI allows that Canvas's sanitiser keeps (it drops xml:lang).
_WRAPPER = '<div class="feedback">'


def _content(html: str) -> str:
    """Outcome and general feedback: Canvas reads the modalFeedback element itself."""
    return _WRAPPER + html + "</div>"


_PARAGRAPH = re.compile(r"<(/?)p(?=[\s>])")
_PARAGRAPH_WITH_ATTRIBUTES = re.compile(r"</?p\s")


def _answer_content(html: str) -> str:
    """Per-answer feedback: Canvas reads only the first <p> of the modalFeedback, or else its first
    <div> (choice_interaction's attach_feedback_values). So paragraphs become divs (a div holds
    all a paragraph holds), and the first div holds the attributed wrapper alone."""
    # The renderings' bare <p> and </p>: replacing them is many times quicker than the substitution.
    divs = html.replace("<p>", "<div>").replace("</p>", "</div>")
    # A paragraph with attributes is left as "<p" or "</p" by the replacing (the replacements hold
    # no "p"); so is a <pre>, which the search then tells apart without a match on most feedback.
    if ("<p" in divs or "</p" in divs) and _PARAGRAPH_WITH_ATTRIBUTES.search(html):
        divs = _PARAGRAPH.sub(r"<\1div", html)
    return "<div>" + _WRAPPER + divs + "</div></div>"

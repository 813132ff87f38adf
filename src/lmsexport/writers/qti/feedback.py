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
    """The response rules that set FEEDBACK, and the modalFeedback elements they show."""
    question = ctx.question
    rules: list[str] = []
    shown: list[tuple[str, object, tuple]] = []

    answers = parts.answer_feedback
    if answers and parts.first_match_only:
        rules.append(condition(*((a.when, [add_feedback(a.identifier)] if a.text else []) for a in answers)))
    else:
        rules.extend(_shown_when(a.when, a.identifier) for a in answers if a.text)
    shown.extend((a.identifier, a.text, a.where) for a in answers if a.text)

    given = question.feedback
    outcome = [(CORRECT, given.correct, "correct"), (PARTIAL, given.partially_correct, "partially_correct"), (INCORRECT, given.incorrect, "incorrect")]
    if parts.correct is None:
        for _, text, key in outcome:
            if text is not None:
                ctx.report.loss(question, f"this question has no right answer, so its {key} feedback is never shown; it is left out", "feedback", key, code="qti-loss")
    elif any(text is not None for _, text, _ in outcome):
        written = (given.correct is not None, given.partially_correct is not None, given.incorrect is not None)
        rules.append(_outcome_rule(parts.correct, written))
        shown.extend((name, text, ("feedback", key)) for name, text, key in outcome if text is not None and parts.correct is not None)

    if question.feedback.general is not None:
        rules.append(add_feedback(GENERAL))
        shown.append((GENERAL, question.feedback.general, ("explanation",)))

    per_answer = {a.identifier for a in answers}
    modals = [
        f'<modalFeedback outcomeIdentifier="{FEEDBACK}" identifier="{name}" showHide="show">'
        + (_answer_content(ctx.inner_block(text, *where)) if name in per_answer else _content(ctx.inner_block(text, *where)))
        + "</modalFeedback>"
        for name, text, where in shown
    ]
    return rules, modals


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
    if _PARAGRAPH_WITH_ATTRIBUTES.search(html):
        divs = _PARAGRAPH.sub(r"<\1div", html)
    else:  # the renderings' bare <p> and </p>: replacing them is many times quicker than the substitution
        divs = html.replace("<p>", "<div>").replace("</p>", "</div>")
    return "<div>" + _WRAPPER + divs + "</div></div>"

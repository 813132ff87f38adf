"""Multiple choice, true/false and multiple answers: one response_lid, answers by numeric id."""

from __future__ import annotations

from functools import lru_cache

from ...model import Choice, MultipleResponse, SingleChoice, Text, TrueFalse
from ...text import to_inline_html
from .item import ItemParts
from .media import STYLE
from .qti12 import html_text, end_condition, end_conditionvar, feedback_condition, respcondition, set_score, show_feedback, varequal
from ..shared import in_language
from .xml import INDENT, Lines

RESPONSE = "response1"


def _choice_html(parts: ItemParts, choice: Choice) -> str:
    html = to_inline_html(choice.text, STYLE)
    if choice.language and choice.language != parts.language:
        return in_language(html, choice.language, inline=True)  # <div> around blocks, else <span>
    return html


@lru_cache(maxsize=None)
def _choices_frame(depth: int, cardinality: str) -> tuple[str, str]:
    """The lines around the response labels, opening and closing, built once."""
    lines = Lines(depth)
    lines.open("response_lid", f' ident="{RESPONSE}" rcardinality="{cardinality}"')
    lines.open("render_choice")
    opening = "".join(lines.parts)
    lines.parts = []
    lines.close("render_choice")
    lines.close("response_lid")
    return opening, "".join(lines.parts)


def _answer_feedback(parts: ItemParts, ident: str, feedback: Text | None) -> None:
    # Before the scoring condition, as Canvas writes it: the importer takes an answer's first
    # feedback reference as its own and resets its weight on every condition naming it.
    if feedback is not None:
        feedback_condition(parts.resprocessing, RESPONSE, ident, f"{ident}_fb")
        parts.answer_feedback.append((ident, feedback))


def _choices(parts: ItemParts, cardinality: str) -> list[str]:
    """Each option as a response label, and the condition showing its feedback; their ids."""
    lines, number = parts.presentation, parts.number
    d = lines.depth
    opening, closing = _choices_frame(d, cardinality)
    labels = [opening]
    ids = []
    for choice in parts.question.choices:
        ident = number(f"option:{choice.id}")
        ids.append(ident)
        # One string per option: this runs for most of a bank's texts.
        labels.append(
            f'{INDENT[d + 2]}<response_label ident="{ident}">\n{INDENT[d + 3]}<material>\n'
            f'{INDENT[d + 4]}<mattext texttype="text/html">{html_text(_choice_html(parts, choice))}</mattext>\n'
            f"{INDENT[d + 3]}</material>\n{INDENT[d + 2]}</response_label>\n"
        )
        _answer_feedback(parts, ident, choice.feedback)
    labels.append(closing)
    lines.parts += labels
    parts.answer_ids += ids
    return ids


def _score(parts: ItemParts) -> None:
    """Closes the scoring condition's conditionvar: full marks, and the correct feedback."""
    lines = parts.resprocessing
    end_conditionvar(lines)
    set_score(lines, "100")
    if parts.correct_feedback:
        show_feedback(lines, parts.correct_feedback)
    end_condition(lines)


def _score_single(parts: ItemParts, correct_ident: str) -> None:
    """Full marks (and the correct feedback) for the right answer: the lines `respcondition`,
    `varequal` and `_score` write, as one string, since most items of a bank have this condition.
    The ident is a number the writer made: nothing to escape."""
    lines = parts.resprocessing
    d = lines.depth
    shown = f'{INDENT[d + 1]}<displayfeedback feedbacktype="Response" linkrefid="{parts.correct_feedback}"/>\n' if parts.correct_feedback else ""
    lines.parts.append(
        f'{INDENT[d]}<respcondition continue="No">\n{INDENT[d + 1]}<conditionvar>\n'
        f'{INDENT[d + 2]}<varequal respident="{RESPONSE}">{correct_ident}</varequal>\n{INDENT[d + 1]}</conditionvar>\n'
        f'{INDENT[d + 1]}<setvar action="Set" varname="SCORE">100</setvar>\n{shown}{INDENT[d]}</respcondition>\n'
    )


def single_choice(parts: ItemParts) -> None:
    question: SingleChoice = parts.question
    ids = _choices(parts, "Single")
    _score_single(parts, next(i for i, c in zip(ids, question.choices) if c.correct))


def true_false(parts: ItemParts) -> None:
    question: TrueFalse = parts.question
    true_id, false_id = parts.number("true"), parts.number("false")
    parts.answer_ids += (true_id, false_id)
    lines = parts.presentation
    d = lines.depth
    opening, closing = _choices_frame(d, "Single")
    lines.parts.append(opening)
    # The importer keeps the type only when the two answers read "True" and "False".
    for ident, label in ((true_id, "True"), (false_id, "False")):
        lines.parts.append(
            f'{INDENT[d + 2]}<response_label ident="{ident}">\n{INDENT[d + 3]}<material>\n'
            f'{INDENT[d + 4]}<mattext texttype="text/plain">{label}</mattext>\n'
            f"{INDENT[d + 3]}</material>\n{INDENT[d + 2]}</response_label>\n"
        )
    lines.parts.append(closing)
    _answer_feedback(parts, true_id, question.true_feedback)
    _answer_feedback(parts, false_id, question.false_feedback)
    _score_single(parts, true_id if question.answer else false_id)


def multiple_response(parts: ItemParts) -> None:
    question: MultipleResponse = parts.question
    ids = _choices(parts, "Multiple")
    lines = parts.resprocessing
    respcondition(lines, "No")
    lines.open("and")
    for ident, choice in zip(ids, question.choices):
        if choice.correct:
            varequal(lines, RESPONSE, ident)
        else:
            lines.open("not")
            varequal(lines, RESPONSE, ident)
            lines.close("not")
    lines.close("and")
    _score(parts)

"""Multiple choice, true/false and multiple answers: one response_lid, answers by numeric id."""

from __future__ import annotations


from ...model import Choice, MultipleResponse, SingleChoice, TrueFalse
from ...text import to_inline_html
from .item import ItemParts
from .media import STYLE
from .qti12 import html_text, end_condition, end_conditionvar, feedback_condition, respcondition, set_score, show_feedback, varequal
from ..shared import in_language
from ..xml import text
from .xml import INDENT

RESPONSE = "response1"


def _choice_html(parts: ItemParts, choice: Choice) -> str:
    html = to_inline_html(choice.text, STYLE)
    if choice.language and choice.language != parts.quiz.language_of(parts.question):
        return in_language(html, choice.language, inline=True)  # <div> around blocks, else <span>
    return html


def _open_choices(parts: ItemParts, cardinality: str) -> None:
    parts.presentation.open("response_lid", f' ident="{RESPONSE}" rcardinality="{cardinality}"')
    parts.presentation.open("render_choice")


def _close_choices(parts: ItemParts) -> None:
    parts.presentation.close("render_choice")
    parts.presentation.close("response_lid")


def _choices(parts: ItemParts, labels: list[tuple[str, str]], cardinality: str) -> None:
    lines = parts.presentation
    _open_choices(parts, cardinality)
    d = lines.depth
    # One string per option: this runs for most of a bank's texts.
    lines.parts += [
        f'{INDENT[d]}<response_label ident="{ident}">\n{INDENT[d + 1]}<material>\n'
        f'{INDENT[d + 2]}<mattext texttype="text/html">{html_text(html)}</mattext>\n'
        f"{INDENT[d + 1]}</material>\n{INDENT[d]}</response_label>\n"
        for ident, html in labels
    ]
    _close_choices(parts)


def _answer_feedback(parts: ItemParts, answers: list[tuple[str, object]]) -> None:
    # Before the scoring condition, as Canvas writes it: the importer takes an answer's first
    # feedback reference as its own and resets its weight on every condition naming it.
    for ident, feedback in answers:
        if feedback is not None:
            feedback_condition(parts.resprocessing, RESPONSE, ident, f"{ident}_fb")
            parts.answer_feedback.append((ident, feedback))


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
    `varequal` and `_score` write, as one string, since most items of a bank have this condition."""
    lines = parts.resprocessing
    d = lines.depth
    shown = f'{INDENT[d + 1]}<displayfeedback feedbacktype="Response" linkrefid="{parts.correct_feedback}"/>\n' if parts.correct_feedback else ""
    lines.parts.append(
        f'{INDENT[d]}<respcondition continue="No">\n{INDENT[d + 1]}<conditionvar>\n'
        f'{INDENT[d + 2]}<varequal respident="{RESPONSE}">{text(correct_ident)}</varequal>\n{INDENT[d + 1]}</conditionvar>\n'
        f'{INDENT[d + 1]}<setvar action="Set" varname="SCORE">100</setvar>\n{shown}{INDENT[d]}</respcondition>\n'
    )


def single_choice(parts: ItemParts) -> None:
    question: SingleChoice = parts.question
    ids = [parts.number(f"option:{c.id}") for c in question.choices]
    parts.answer_ids.extend(ids)
    _choices(parts, [(i, _choice_html(parts, c)) for i, c in zip(ids, question.choices)], "Single")
    _answer_feedback(parts, [(i, c.feedback) for i, c in zip(ids, question.choices)])
    correct = next(i for i, c in zip(ids, question.choices) if c.correct)
    _score_single(parts, correct)


def true_false(parts: ItemParts) -> None:
    question: TrueFalse = parts.question
    true_id, false_id = parts.number("true"), parts.number("false")
    parts.answer_ids.extend((true_id, false_id))
    lines = parts.presentation
    _open_choices(parts, "Single")
    # The importer keeps the type only when the two answers read "True" and "False".
    for ident, label in ((true_id, "True"), (false_id, "False")):
        lines.open("response_label", f' ident="{ident}"')
        lines.open("material")
        lines.leaf("mattext", ' texttype="text/plain"', label)
        lines.close("material")
        lines.close("response_label")
    _close_choices(parts)
    _answer_feedback(parts, [(true_id, question.true_feedback), (false_id, question.false_feedback)])
    _score_single(parts, true_id if question.answer else false_id)


def multiple_response(parts: ItemParts) -> None:
    question: MultipleResponse = parts.question
    ids = [parts.number(f"option:{c.id}") for c in question.choices]
    parts.answer_ids.extend(ids)
    _choices(parts, [(i, _choice_html(parts, c)) for i, c in zip(ids, question.choices)], "Multiple")
    _answer_feedback(parts, [(i, c.feedback) for i, c in zip(ids, question.choices)])
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

"""Multiple choice, true/false and multiple answers: one response_lid, answers by numeric id."""

from __future__ import annotations

from functools import lru_cache

from ...model import Choice, MultipleResponse, SingleChoice, TrueFalse
from ...text import to_inline_html
from .item import ItemParts
from .media import STYLE
from .qti12 import SLOT, end_condition, end_conditionvar, feedback_condition_frame, frame, html_text, respcondition, set_score, show_feedback, varequal
from ..shared import in_language
from .xml import INDENT, Lines

RESPONSE = "response1"


def _choice_html(choice: Choice, language: str) -> str:
    """An option's inline HTML; in its own language when not the question's (`language`)."""
    html = to_inline_html(choice.text, STYLE)
    if choice.language and choice.language != language:
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


@lru_cache(maxsize=None)
def _label_frame(depth: int, texttype: str) -> tuple[str, str, str]:
    """A response label at `depth` (inside render_choice), cut around its ident and its text:
    `before + ident + between + text + after`, the text already escaped."""
    def build(lines: Lines) -> None:
        lines.open("response_label", f' ident="{SLOT}"')
        lines.open("material")
        lines.leaf("mattext", f' texttype="{texttype}"', SLOT)
        lines.close("material")
        lines.close("response_label")

    before, between, after = frame(build, depth)
    return before, between, after


def _choices(parts: ItemParts, cardinality: str) -> list[str]:
    """Each option as a response label, and the condition showing its feedback; their ids."""
    lines, number, language = parts.presentation, parts.number, parts.language
    d = lines.depth
    opening, closing = _choices_frame(d, cardinality)
    before_ident, before_text, after_text = _label_frame(d + 2, "text/html")
    # The feedback conditions go into the scoring, before the scoring condition, as Canvas writes
    # them: the importer takes an answer's first feedback reference as its own and resets its
    # weight on every condition naming it.
    scoring = parts.resprocessing
    before_value, before_feedback, after_feedback = feedback_condition_frame(scoring.depth, RESPONSE)
    labels = [opening]
    ids = []
    for choice in parts.question.choices:
        ident = number(f"option:{choice.id}")
        ids.append(ident)
        labels.append(f"{before_ident}{ident}{before_text}{html_text(_choice_html(choice, language))}{after_text}")
        if choice.feedback is not None:
            scoring.parts.append(f"{before_value}{ident}{before_feedback}{ident}{after_feedback}")
            parts.answer_feedback.append((ident, choice.feedback))
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
    before_ident, before_text, after_text = _label_frame(d + 2, "text/plain")
    # The importer keeps the type only when the two answers read "True" and "False".
    lines.parts += (
        opening,
        f"{before_ident}{true_id}{before_text}True{after_text}",
        f"{before_ident}{false_id}{before_text}False{after_text}",
        closing,
    )
    scoring = parts.resprocessing
    before_value, before_feedback, after_feedback = feedback_condition_frame(scoring.depth, RESPONSE)
    for ident, feedback in ((true_id, question.true_feedback), (false_id, question.false_feedback)):
        if feedback is not None:  # before the scoring condition: see _choices
            scoring.parts.append(f"{before_value}{ident}{before_feedback}{ident}{after_feedback}")
            parts.answer_feedback.append((ident, feedback))
    _score_single(parts, true_id if question.answer else false_id)


@lru_cache(maxsize=None)
def _all_right_frame(depth: int) -> tuple[str, str, str, str, str, str]:
    """The scoring condition of multiple answers at `depth` up to its conditionvar's end, cut
    around each option's ident: opening, then `right + ident + end_right` for an option to
    choose, `wrong + ident + end_wrong` for one not to, then closing (the conditionvar still
    open, for `_score`)."""
    def build(lines: Lines) -> None:
        respcondition(lines, "No")
        lines.open("and")
        lines.parts.append(SLOT)
        varequal(lines, RESPONSE, SLOT)
        lines.parts.append(SLOT)
        lines.open("not")
        varequal(lines, RESPONSE, SLOT)
        lines.close("not")
        lines.parts.append(SLOT)
        lines.close("and")

    opening, right, end_right, wrong, end_wrong, closing = frame(build, depth)
    return opening, right, end_right, wrong, end_wrong, closing


def multiple_response(parts: ItemParts) -> None:
    question: MultipleResponse = parts.question
    ids = _choices(parts, "Multiple")
    lines = parts.resprocessing
    opening, right, end_right, wrong, end_wrong, closing = _all_right_frame(lines.depth)
    condition = [opening]
    for ident, choice in zip(ids, question.choices):
        condition.append(f"{right}{ident}{end_right}" if choice.correct else f"{wrong}{ident}{end_wrong}")
    condition.append(closing)
    lines.parts += condition
    lines.depth += 2  # inside respcondition and conditionvar, as `respcondition` leaves them
    _score(parts)

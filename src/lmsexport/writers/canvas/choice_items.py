"""Multiple choice, true/false and multiple answers: one response_lid, answers by numeric id."""

from __future__ import annotations

from html import escape

from ...model import Choice, MultipleResponse, SingleChoice, TrueFalse
from ...text import to_inline_html
from .item import ItemParts
from .qti import html_material, respcondition, set_score, show_feedback, sub, varequal

RESPONSE = "response1"


def _choice_html(parts: ItemParts, choice: Choice) -> str:
    html = to_inline_html(choice.text)
    if choice.language and choice.language != parts.quiz.language_of(parts.question):
        return f'<span lang="{escape(choice.language)}">{html}</span>'
    return html


def _choices(parts: ItemParts, labels: list[tuple[str, str]], cardinality: str) -> None:
    lid = sub(parts.presentation, "response_lid", {"ident": RESPONSE, "rcardinality": cardinality})
    render = sub(lid, "render_choice")
    for ident, html in labels:
        html_material(sub(render, "response_label", {"ident": ident}), html)


def _answer_feedback(parts: ItemParts, answers: list[tuple[str, object]]) -> None:
    # Before the scoring condition, as Canvas writes it: the importer takes an answer's first
    # feedback reference as its own and resets its weight on every condition naming it.
    for ident, text in answers:
        if text is not None:
            condition, conditionvar = respcondition(parts.resprocessing, "Yes")
            varequal(conditionvar, RESPONSE, ident)
            show_feedback(condition, f"{ident}_fb")
            parts.answer_feedback.append((ident, text))


def _score_single(parts: ItemParts, correct_ident: str) -> None:
    condition, conditionvar = respcondition(parts.resprocessing, "No")
    varequal(conditionvar, RESPONSE, correct_ident)
    set_score(condition, "100")
    if parts.correct_feedback:
        show_feedback(condition, parts.correct_feedback)


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
    lid = sub(parts.presentation, "response_lid", {"ident": RESPONSE, "rcardinality": "Single"})
    render = sub(lid, "render_choice")
    # The importer keeps the type only when the two answers read "True" and "False".
    for ident, label in ((true_id, "True"), (false_id, "False")):
        material = sub(sub(render, "response_label", {"ident": ident}), "material")
        sub(material, "mattext", {"texttype": "text/plain"}, label)
    _answer_feedback(parts, [(true_id, question.true_feedback), (false_id, question.false_feedback)])
    _score_single(parts, true_id if question.answer else false_id)


def multiple_response(parts: ItemParts) -> None:
    question: MultipleResponse = parts.question
    ids = [parts.number(f"option:{c.id}") for c in question.choices]
    parts.answer_ids.extend(ids)
    _choices(parts, [(i, _choice_html(parts, c)) for i, c in zip(ids, question.choices)], "Multiple")
    _answer_feedback(parts, [(i, c.feedback) for i, c in zip(ids, question.choices)])
    condition, conditionvar = respcondition(parts.resprocessing, "No")
    both = sub(conditionvar, "and")
    for ident, choice in zip(ids, question.choices):
        varequal(both if choice.correct else sub(both, "not"), RESPONSE, ident)
    set_score(condition, "100")
    if parts.correct_feedback:
        show_feedback(condition, parts.correct_feedback)

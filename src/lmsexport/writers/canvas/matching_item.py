"""Matching: one response_lid per prompt, every answer and distractor offered to each."""

from __future__ import annotations

from ...model import Matching
from ...text import to_inline_html
from .item import ItemParts
from ..shared import in_language
from .media import STYLE
from .qti import end_condition, end_conditionvar, html_material, plain_material, respcondition, set_score, varequal


def matching(parts: ItemParts) -> None:
    question: Matching = parts.question
    # One label per distinct right-hand text: prompts that share an answer share its label.
    labels: dict[str, str] = {}
    for pair in question.pairs:
        if pair.answer not in labels:
            labels[pair.answer] = parts.number(f"match:{pair.id}")
    for distractor in question.distractors:
        if distractor.text not in labels:
            labels[distractor.text] = parts.number(f"distractor:{distractor.id}")

    answer_ids = [parts.number(f"pair:{pair.id}") for pair in question.pairs]
    parts.answer_ids.extend(answer_ids)
    lines = parts.presentation
    language = parts.quiz.language_of(question)
    for answer_id, pair in zip(answer_ids, question.pairs):
        lines.open("response_lid", f' ident="response_{answer_id}"')
        # A bare text would be kept HTML-escaped by the importer (see item.feedback_html).
        html_material(lines, in_language(to_inline_html(pair.prompt, STYLE), language, inline=True))
        lines.open("render_choice")
        for text, match_id in labels.items():
            lines.open("response_label", f' ident="{match_id}"')
            plain_material(lines, text)
            lines.close("response_label")
        lines.close("render_choice")
        lines.close("response_lid")

    # The importer only needs an added SCORE to find each right match; the value is Canvas's own.
    share = "%.2f" % (100.0 / len(question.pairs)) if question.pairs else "0"
    scoring = parts.resprocessing
    for answer_id, pair in zip(answer_ids, question.pairs):
        respcondition(scoring, None)
        varequal(scoring, f"response_{answer_id}", labels[pair.answer])
        end_conditionvar(scoring)
        set_score(scoring, share, "Add")
        end_condition(scoring)

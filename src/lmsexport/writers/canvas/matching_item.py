"""Matching: one response_lid per prompt, every answer and distractor offered to each."""

from __future__ import annotations

from ...model import Matching
from ...text import to_inline_html
from .item import ItemParts
from .qti import html_material, plain_material, respcondition, set_score, sub, varequal


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
    for answer_id, pair in zip(answer_ids, question.pairs):
        lid = sub(parts.presentation, "response_lid", {"ident": f"response_{answer_id}"})
        html_material(lid, to_inline_html(pair.prompt))
        render = sub(lid, "render_choice")
        for text, match_id in labels.items():
            plain_material(sub(render, "response_label", {"ident": match_id}), text)

    # The importer only needs an added SCORE to find each right match; the value is Canvas's own.
    share = "%.2f" % (100.0 / len(question.pairs)) if question.pairs else "0"
    for answer_id, pair in zip(answer_ids, question.pairs):
        condition, conditionvar = respcondition(parts.resprocessing, None)
        varequal(conditionvar, f"response_{answer_id}", labels[pair.answer])
        set_score(condition, share, "Add")

"""Matching: one response_lid per prompt, every answer and distractor offered to each.

Ordering is written the same way: Canvas's classic quizzes have no ordering question, and a
matching question of each item to its place (1 to N) is scored by Canvas as Moodle's absolute
position grading scores the order.
"""

from __future__ import annotations

from hashlib import sha256

from ...model import Matching, Ordering, Text
from ...text import to_inline_html
from .item import ItemParts
from ..shared import in_language
from .media import STYLE
from .xml import Lines
from .qti12 import end_condition, end_conditionvar, html_material, plain_material, respcondition, set_score, varequal


def matching(parts: ItemParts) -> None:
    question: Matching = parts.question
    pairs = [(pair.id, pair.prompt, pair.answer) for pair in question.pairs]
    places = [str(place) for place in range(1, len(pairs) + 1)]
    # A matching of prompts to the places 1..N (an ordering as this writer writes it, read back)
    # lists the places in order, as the ordering does.
    in_order = not question.distractors and sorted(answer for _, _, answer in pairs) == sorted(places)
    _match(parts, pairs, [(d.id, d.text) for d in question.distractors], places=places if in_order else None)


def ordering(parts: ItemParts) -> None:
    question: Ordering = parts.question
    pairs = [(item.id, item.text, str(place)) for place, item in enumerate(question.items, start=1)]
    # Canvas shows the prompts in the order written, which here would give the answer away.
    shown = sorted(pairs, key=lambda pair: sha256(f"{parts.quiz.id}\x1f{question.id}\x1f{pair[0]}".encode()).digest())
    if shown == pairs:
        shown = shown[1:] + shown[:1]
    _match(parts, shown, [], places=[answer for _, _, answer in pairs])


def _match(parts: ItemParts, pairs: list[tuple[str, Text, str]], distractors: list[tuple[str, str]],
           places: list[str] | None = None) -> None:
    """pairs: (id, prompt, answer); distractors: (id, text); places: the answers in the order
    the drop-downs list them, when not the order of the pairs."""
    # One label per distinct right-hand text: prompts that share an answer share its label.
    labels: dict[str, str] = {}
    by_answer = {answer: pair_id for pair_id, _, answer in pairs}
    for answer in places or ():
        labels[answer] = parts.number(f"match:{by_answer[answer]}")
    for pair_id, _, answer in pairs:
        if answer not in labels:
            labels[answer] = parts.number(f"match:{pair_id}")
    for distractor_id, text in distractors:
        if text not in labels:
            labels[text] = parts.number(f"distractor:{distractor_id}")

    answer_ids = [parts.number(f"pair:{pair_id}") for pair_id, _, _ in pairs]
    parts.answer_ids.extend(answer_ids)
    lines = parts.presentation
    language = parts.language
    # Every prompt offers the same labels: their lines are written once and repeated.
    offered = Lines(lines.depth + 1)
    offered.open("render_choice")
    for text, match_id in labels.items():
        offered.open("response_label", f' ident="{match_id}"')
        plain_material(offered, text)
        offered.close("response_label")
    offered.close("render_choice")
    for answer_id, (_, prompt, _) in zip(answer_ids, pairs):
        lines.open("response_lid", f' ident="response_{answer_id}"')
        # A bare text would be kept HTML-escaped by the importer (see item.feedback_text).
        html_material(lines, in_language(to_inline_html(prompt, STYLE), language, inline=True))
        lines.parts += offered.parts
        lines.close("response_lid")

    # The importer only needs an added SCORE to find each right match; the value is Canvas's own.
    share = "%.2f" % (100.0 / len(pairs)) if pairs else "0"
    scoring = parts.resprocessing
    for answer_id, (_, _, answer) in zip(answer_ids, pairs):
        respcondition(scoring, None)
        varequal(scoring, f"response_{answer_id}", labels[answer])
        end_conditionvar(scoring)
        set_score(scoring, share, "Add")
        end_condition(scoring)

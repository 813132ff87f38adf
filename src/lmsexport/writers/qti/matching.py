"""Matching: a matchInteraction of directed pairs, prompts to answers; distractors match nothing."""

from __future__ import annotations

import re

from ...model import Matching
from .context import ItemContext
from .expressions import make, value, variable
from .markup import with_text
from .names import MAP_RESPONSE, RESPONSE, choice_identifier, identifier
from .parts import Parts
from .scoring import map_response_rules, mapping

_MATCHED = make("match", variable(RESPONSE), f'<correct identifier="{RESPONSE}"/>')


_BLOCK = re.compile(r"<(?:p|div|ul|ol|pre|table|blockquote|h[1-6]|hr)[\s>/]")


def _wrapped(html: str) -> str:
    """A span around an inline prompt, a div around one with blocks (a span cannot hold them)."""
    tag = "div" if _BLOCK.search(html) else "span"
    return f'<{tag} class="prompt">{html}</{tag}>'


def identifiers(ctx: ItemContext, question: Matching) -> tuple[list[str], dict[str, str]]:
    """The prompts' identifiers, and each answer text's target identifier; two that meet are an
    error (the writer and the QTI check both call this)."""
    sources = [choice_identifier(p.id) for p in question.pairs]
    # Prompts that share an answer text share one target, as a student sees one such answer.
    # Content ids hold no '.', so ".answer" and ".distractor" can never meet another id.
    targets: dict[str, str] = {}
    for pair in question.pairs:
        targets.setdefault(pair.answer, identifier(pair.id) + ".answer")
    for distractor in question.distractors:
        targets.setdefault(distractor.text, identifier(distractor.id) + ".distractor")
    every_id = sources + list(targets.values())
    if len(set(every_id)) != len(every_id):
        ctx.report.error(question, "two prompts or answers have the same identifier", "pairs", code="qti")
    return sources, targets


def matching(ctx: ItemContext, question: Matching) -> Parts:
    parts = Parts()
    sources, targets = identifiers(ctx, question)

    pairs = [f"{source} {targets[pair.answer]}" for pair, source in zip(question.pairs, sources)]
    share = question.points / len(pairs) if pairs else 0.0
    correct = make("correctResponse", *(value(p) for p in pairs))
    scores = mapping([(p, share) for p in pairs], question.points)
    parts.responses.append(make("responseDeclaration", correct, scores, identifier=RESPONSE, cardinality="multiple", baseType="directedPair"))
    parts.scoring = map_response_rules()
    parts.template = MAP_RESPONSE
    parts.correct = _MATCHED

    prompts = []
    for index, (pair, source) in enumerate(zip(question.pairs, sources)):
        # Canvas reads a prompt with detect_html (html_helper.rb): bare text would be kept
        # HTML-escaped ("-&gt;"); a wrapper with an attribute keeps it as HTML.
        content = _wrapped(ctx.inline(pair.prompt, "pairs", index, "prompt"))
        prompts.append(f'<simpleAssociableChoice identifier="{source}" matchMax="1">{content}</simpleAssociableChoice>')
    answers = []
    for text, target in targets.items():
        # Any prompt may be matched to any answer, wrong ones included.
        answers.append(with_text("simpleAssociableChoice", text, identifier=target, matchMax=str(len(pairs))))
    shuffled = "true" if question.shuffle else "false"
    parts.body.append(
        f'<matchInteraction responseIdentifier="{RESPONSE}" shuffle="{shuffled}" maxAssociations="{len(pairs)}">'
        f'<simpleMatchSet>{"".join(prompts)}</simpleMatchSet><simpleMatchSet>{"".join(answers)}</simpleMatchSet></matchInteraction>'
    )
    return parts

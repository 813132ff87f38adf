"""Matching: a matchInteraction of directed pairs, prompts to answers; distractors match nothing."""

from __future__ import annotations

from ...model import Matching
from .context import ItemContext
from .expressions import make, value
from .names import MAP_RESPONSE, RESPONSE, identifier
from .parts import Parts
from .scoring import map_response_rules, mapping


def matching(ctx: ItemContext, question: Matching) -> Parts:
    parts = Parts()
    sources = [identifier(p.id) for p in question.pairs]
    # Prompts that share an answer text share one target, as a student sees one such answer.
    targets: dict[str, str] = {}
    for pair, source in zip(question.pairs, sources):
        targets.setdefault(pair.answer, source + "_answer")
    for distractor in question.distractors:
        targets.setdefault(distractor.text, identifier(distractor.id) + "_distractor")
    every_id = sources + list(targets.values())
    if len(set(every_id)) != len(every_id):
        ctx.problems.error(question, "two prompts or answers have the same identifier", "pairs")

    pairs = [f"{source} {targets[pair.answer]}" for pair, source in zip(question.pairs, sources)]
    share = question.points / len(pairs) if pairs else 0.0
    declaration = make("responseDeclaration", identifier=RESPONSE, cardinality="multiple", baseType="directedPair")
    declaration.append(make("correctResponse", *(value(p) for p in pairs)))
    declaration.append(mapping([(p, share) for p in pairs], question.points))
    parts.responses.append(declaration)
    parts.scoring = map_response_rules()
    parts.template = MAP_RESPONSE
    parts.correct = make("match", make("variable", identifier=RESPONSE), make("correct", identifier=RESPONSE))

    interaction = make(
        "matchInteraction", responseIdentifier=RESPONSE, shuffle="true" if question.shuffle else "false", maxAssociations=str(len(pairs))
    )
    prompts = make("simpleMatchSet")
    for index, (pair, source) in enumerate(zip(question.pairs, sources)):
        choice = make("simpleAssociableChoice", identifier=source, matchMax="1")
        ctx.flow_into(pair.prompt, choice, "pairs", index, "prompt")
        prompts.append(choice)
    answers = make("simpleMatchSet")
    where = {pair.answer: ("pairs", i, "answer") for i, pair in reversed(list(enumerate(question.pairs)))}
    where.update({d.text: ("distractors", i, "text") for i, d in enumerate(question.distractors) if d.text not in where})
    for text, target in targets.items():
        # Any prompt may be matched to any answer, wrong ones included.
        choice = make("simpleAssociableChoice", identifier=target, matchMax=str(len(pairs)))
        choice.text = ctx.plain(text, *where[text])
        answers.append(choice)
    interaction.extend([prompts, answers])
    parts.body.append(interaction)
    return parts

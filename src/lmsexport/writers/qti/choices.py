"""Single choice, true/false and multiple response: choiceInteraction."""

from __future__ import annotations

from ...model import Choice, MultipleResponse, SingleChoice, Text, TrueFalse
from .context import ItemContext
from .expressions import base, condition, make, set_outcome, value, variable
from .feedback import option_feedback_id
from .names import MAP_RESPONSE, MATCH_CORRECT, MAXSCORE, RESPONSE, SCORE, XML_LANG, identifier
from .parts import AnswerFeedback, Parts
from .scoring import map_response_rules, mapping

_TRUE_FALSE = (("true", "True"), ("false", "False"))


def single_choice(ctx: ItemContext, question: SingleChoice) -> Parts:
    return _choices(ctx, question, question.choices, question.shuffle, multiple=False)


def multiple_response(ctx: ItemContext, question: MultipleResponse) -> Parts:
    return _choices(ctx, question, question.choices, question.shuffle, multiple=True)


def true_false(ctx: ItemContext, question: TrueFalse) -> Parts:
    choices = tuple(
        Choice(
            id=key,
            text=Text(label),
            correct=(key == "true") == question.answer,
            credit=1.0 if (key == "true") == question.answer else 0.0,
            feedback=question.true_feedback if key == "true" else question.false_feedback,
            language="en",
        )
        for key, label in _TRUE_FALSE
    )
    where = {"true": ("true_feedback",), "false": ("false_feedback",)}
    return _choices(ctx, question, choices, shuffle=False, multiple=False, feedback_where=where)


def _choices(ctx, question, choices, shuffle, multiple, feedback_where=None) -> Parts:
    parts = Parts()
    points = question.points
    ids = [identifier(c.id) for c in choices]
    if len(set(ids)) != len(ids):
        ctx.problems.error(question, "two options have the same identifier", "options")
    cardinality = "multiple" if multiple else "single"
    declaration = make("responseDeclaration", identifier=RESPONSE, cardinality=cardinality, baseType="identifier")
    correct = make("correctResponse", *(value(i) for i, c in zip(ids, choices) if c.correct))
    declaration.append(correct)
    partial = multiple or any(c.credit != 0 and not c.correct for c in choices)
    if partial:
        entries = [(i, c.credit * points) for i, c in zip(ids, choices) if c.credit != 0]
        declaration.append(mapping(entries, points))
        parts.scoring = map_response_rules()
        parts.template = MAP_RESPONSE
    else:
        parts.scoring = [
            condition(
                (make("match", variable(RESPONSE), make("correct", identifier=RESPONSE)), [set_outcome(SCORE, variable(MAXSCORE))]),
                (None, [set_outcome(SCORE, base("float", "0"))]),
            )
        ]
        # The template scores 1 for a right answer: it only fits a question worth 1 point.
        parts.template = MATCH_CORRECT if points == 1 else None
    parts.responses.append(declaration)
    parts.correct = make("match", variable(RESPONSE), make("correct", identifier=RESPONSE))

    interaction = make(
        "choiceInteraction", responseIdentifier=RESPONSE, shuffle="true" if shuffle else "false", maxChoices="0" if multiple else "1"
    )
    for index, (choice_id, choice) in enumerate(zip(ids, choices)):
        element = make("simpleChoice", identifier=choice_id)
        if choice.pinned:
            element.set("fixed", "true")
        if choice.language and choice.language != ctx.language:
            element.set(XML_LANG, choice.language)
        ctx.flow_into(choice.text, element, "options", index, "text")
        interaction.append(element)
        if choice.feedback is not None:
            chosen = (
                make("member", base("identifier", choice_id), variable(RESPONSE))
                if multiple
                else make("match", variable(RESPONSE), base("identifier", choice_id))
            )
            where = feedback_where[choice.id] if feedback_where else ("options", index, "feedback")
            parts.answer_feedback.append(AnswerFeedback(option_feedback_id(choice_id, index), choice.feedback, where, chosen))
    parts.body.append(interaction)
    return parts

"""Single choice, true/false and multiple response: choiceInteraction."""

from __future__ import annotations

from functools import lru_cache

from ...model import Choice, MultipleResponse, SingleChoice, Text, TrueFalse
from .context import ItemContext
from .expressions import base, condition, make, set_outcome, value, variable
from .feedback import option_feedback_id
from ..xml import attribute
from .names import MAP_RESPONSE, MATCH_CORRECT, MAXSCORE, RESPONSE, SCORE, choice_identifier
from .parts import AnswerFeedback, Parts
from .scoring import map_response_rules, mapping, worth

_TRUE_FALSE = (("true", "True"), ("false", "False"))
# Canvas (choice_interaction.rb) makes a true_false_question only of a response whose identifier
# starts with TF, and reads every condition on it as `match` against an explicit baseValue: a
# `<correct/>` there makes the whole item an "Error".
TRUE_FALSE_RESPONSE = "TF_RESPONSE"
_MATCHED = make("match", variable(RESPONSE), f'<correct identifier="{RESPONSE}"/>')


def _match_scoring(matched: str) -> str:
    return condition(
        (matched, [set_outcome(SCORE, variable(MAXSCORE))]),
        (None, [set_outcome(SCORE, base("float", "0"))]),
    )


_MATCH_SCORING = _match_scoring(_MATCHED)


# Questions of a bank name their options alike (a, b, c...): the pieces made of an option's
# identifier alone are made once.
@lru_cache(maxsize=4096)
def _chosen(response: str, choice_id: str, multiple: bool) -> str:
    """The condition that the option is chosen."""
    if multiple:
        return make("member", base("identifier", choice_id), variable(response))
    return make("match", variable(response), base("identifier", choice_id))


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
    return _choices(ctx, question, choices, shuffle=False, multiple=False, feedback_where=where, response=TRUE_FALSE_RESPONSE)


# Options are named alike from question to question: an identifier and its <value> are made once.
option_identifier = lru_cache(maxsize=4096)(choice_identifier)
_value = lru_cache(maxsize=4096)(value)


# The parts of a declaration and an interaction that depend only on the response and the kind of
# question: made once, not once an item.
@lru_cache(maxsize=64)
def _declaration_open(response: str, multiple: bool) -> str:
    cardinality = "multiple" if multiple else "single"
    return f'<responseDeclaration identifier="{response}" cardinality="{cardinality}" baseType="identifier"><correctResponse>'


@lru_cache(maxsize=64)
def _interaction_open(response: str, shuffle: bool, multiple: bool) -> str:
    shuffled = "true" if shuffle else "false"
    return f'<choiceInteraction responseIdentifier="{response}" shuffle="{shuffled}" maxChoices="{"0" if multiple else "1"}">'


def _choices(ctx, question, choices, shuffle, multiple, feedback_where=None, response=RESPONSE) -> Parts:
    parts = Parts()
    points = question.points
    # One pass over the options: their identifiers, the right ones' <value>, and whether a wrong
    # one earns something (then the item maps each option's credit; multiple response always does).
    ids = []
    right_values = []
    partial = multiple
    for c in choices:
        choice_id = option_identifier(c.id)
        ids.append(choice_id)
        if c.correct:
            right_values.append(_value(choice_id))
        elif c.credit != 0:
            partial = True
    if len(set(ids)) != len(ids):
        ctx.report.error(question, "two options have the same identifier", "options", code="qti")
    declaration = _declaration_open(response, multiple) + "".join(right_values) + "</correctResponse>"
    if partial:
        entries = [(i, c.credit * worth(points)) for i, c in zip(ids, choices) if c.credit != 0]
        declaration += mapping(entries, points)
        parts.scoring = map_response_rules()
        parts.template = MAP_RESPONSE
    elif response == TRUE_FALSE_RESPONSE:  # the right choice by name, never <correct/>
        right = next(i for i, c in zip(ids, choices) if c.correct)
        parts.correct = make("match", variable(response), base("identifier", right))
        parts.scoring = [_match_scoring(parts.correct)]
    else:
        parts.scoring = [_MATCH_SCORING]
        # The template scores 1 for a right answer: it only fits a question worth 1 point.
        parts.template = MATCH_CORRECT if points == 1 else None
    parts.responses.append(declaration + "</responseDeclaration>")
    if parts.correct is None:
        parts.correct = _MATCHED

    options = []
    language = ctx.language
    inline = ctx.inline
    answer_feedback = parts.answer_feedback
    for index, choice in enumerate(choices):
        choice_id = ids[index]
        extra = ' fixed="true"' if choice.pinned else ""
        if choice.language and choice.language != language:
            extra += f' xml:lang="{attribute(choice.language)}"'
        options.append(f'<simpleChoice identifier="{choice_id}"{extra}>{inline(choice.text, "options", index, "text")}</simpleChoice>')
        if choice.feedback is not None:
            where = feedback_where[choice.id] if feedback_where else ("options", index, "feedback")
            answer_feedback.append(AnswerFeedback(option_feedback_id(choice_id, index), choice.feedback, where,
                                                  _chosen(response, choice_id, multiple)))
    parts.body.append(_interaction_open(response, shuffle, multiple) + "".join(options) + "</choiceInteraction>")
    return parts

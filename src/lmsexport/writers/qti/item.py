"""One assessmentItem per question, written as a string.

Only the item's top two levels are laid out on lines of their own: readers never see the
difference, and the files stay small and quick to write and compress.
"""

from __future__ import annotations

from functools import lru_cache

from ...model import (
    Essay,
    FillInBlanks,
    Matching,
    MultipleResponse,
    Numerical,
    Ordering,
    Question,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
)
from ...text.blanks import fill
from .blanks import fill_in_blanks
from .choices import multiple_response, single_choice, true_false
from .context import ItemContext
from .feedback import feedback
from ..reporter import PENALTY
from ..xml import DECLARATION, attribute, number
from .matching import matching
from .ordering import ordering
from .names import FEEDBACK, MAXSCORE, QTI, QTI_XSD, RESPONSE, SCORE, XSI
from .parts import Parts
from .text_entry import numerical, short_answer

_BUILDERS = {
    SingleChoice: single_choice,
    MultipleResponse: multiple_response,
    TrueFalse: true_false,
    ShortAnswer: short_answer,
    Numerical: numerical,
    Matching: matching,
    Ordering: ordering,
    FillInBlanks: fill_in_blanks,
}
_OPEN = f'<assessmentItem xmlns="{QTI}" xmlns:xsi="{XSI}" xsi:schemaLocation="{QTI} {QTI_XSD}"'
_SCORE = (
    f'<outcomeDeclaration identifier="{SCORE}" cardinality="single" baseType="float">'
    "<defaultValue><value>0</value></defaultValue></outcomeDeclaration>"
)
_FEEDBACK = f'<outcomeDeclaration identifier="{FEEDBACK}" cardinality="multiple" baseType="identifier"/>'
_LINE = "\n  "
_BODY_LINE = "\n    "


def assessment_item(ctx: ItemContext, item_id: str) -> bytes:
    question = ctx.question
    builder = _BUILDERS.get(type(question))
    parts = builder(ctx, question) if builder else _unscored(ctx, question)
    feedback_rules, modals = feedback(ctx, parts)

    title = question.title if question.title is not None else question.id
    head = f'{_HEAD} identifier="{item_id}" title="{attribute(title)}"{_head_end(ctx.language)}'
    # Encoded part by part and joined as bytes: joined as a string first, one emoji anywhere
    # makes the whole item four bytes a character, copied again at each concatenation. The
    # constant parts were encoded once.
    encoded = [head.encode()]
    for response in parts.responses:
        encoded.append(response.encode())
    encoded.append(_SCORE_BYTES)
    encoded.append(_max_score(question.points))
    for outcome in parts.outcomes:
        encoded.append(outcome.encode())
    if modals:
        encoded.append(_FEEDBACK_BYTES)

    # The whole stem in one top-level div: Canvas reads the question text from itemBody > div/p.
    stem = ctx.block(question.stem, "stem")
    if parts.blanks:
        stem = fill(stem, parts.blanks.__getitem__)
    body = [stem, *parts.body]
    if isinstance(question, Essay) and question.grader_info is not None:
        body.append(f'<rubricBlock view="scorer">{ctx.block(question.grader_info, "grader_info")}</rubricBlock>')
    encoded.append((_BODY_OPEN + _BODY_LINE.join(body) + _BODY_CLOSE).encode())

    if parts.scoring or feedback_rules:
        if feedback_rules or parts.template is None:
            encoded.append(("<responseProcessing>" + "".join(parts.scoring) + "".join(feedback_rules) + "</responseProcessing>").encode())
        else:
            encoded.append(f'<responseProcessing template="{parts.template}"/>'.encode())
    for modal in modals:
        encoded.append(modal.encode())
    if question.penalty:
        ctx.report.lost(question, PENALTY, "penalty")
    return _LINE_BYTES.join(encoded) + _CLOSE


_HEAD = DECLARATION + _OPEN
_BODY_OPEN = "<itemBody>" + _BODY_LINE
_BODY_CLOSE = _LINE + "</itemBody>"
_LINE_BYTES = _LINE.encode()
_CLOSE = b"\n</assessmentItem>\n"
_SCORE_BYTES = _SCORE.encode()
_FEEDBACK_BYTES = _FEEDBACK.encode()


@lru_cache(maxsize=256)  # a bank has a few languages
def _head_end(language: str) -> str:
    return f' adaptive="false" timeDependent="false" xml:lang="{attribute(language)}">'


@lru_cache(maxsize=256)  # and a few point values
def _max_score(points: float) -> bytes:
    return (
        f'<outcomeDeclaration identifier="{MAXSCORE}" cardinality="single" baseType="float">'
        f"<defaultValue><value>{number(points)}</value></defaultValue></outcomeDeclaration>"
    ).encode()


def _unscored(ctx: ItemContext, question: Question) -> Parts:
    """Essay (scored by hand) and description (no interaction)."""
    parts = Parts()
    if isinstance(question, Essay):
        parts.responses.append(f'<responseDeclaration identifier="{RESPONSE}" cardinality="single" baseType="string"/>')
        placeholder = ""
        if question.response_template:
            placeholder = f' placeholderText="{attribute(question.response_template)}"'
        lines = max(question.lines, 1)
        parts.body.append(f'<extendedTextInteraction responseIdentifier="{RESPONSE}" expectedLines="{lines}"{placeholder}/>')
    return parts

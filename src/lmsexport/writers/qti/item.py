"""One assessmentItem per question."""

from __future__ import annotations

from lxml import etree

from ...model import Essay, Matching, MultipleResponse, Numerical, Question, ShortAnswer, SingleChoice, TrueFalse
from .choices import multiple_response, single_choice, true_false
from .context import ItemContext
from .expressions import make, value
from .feedback import feedback
from .matching import matching
from .names import FEEDBACK, MAXSCORE, QTI, QTI_XSD, RESPONSE, SCORE, XML_LANG, XSI, number
from .parts import Parts
from .text_entry import numerical, short_answer

_NSMAP = {None: QTI, "xsi": XSI}
_BUILDERS = {
    SingleChoice: single_choice,
    MultipleResponse: multiple_response,
    TrueFalse: true_false,
    ShortAnswer: short_answer,
    Numerical: numerical,
    Matching: matching,
}


def assessment_item(ctx: ItemContext, item_id: str) -> etree._Element:
    question = ctx.question
    builder = _BUILDERS.get(type(question))
    parts = builder(ctx, question) if builder else _unscored(ctx, question)
    feedback_rules, modals = feedback(ctx, parts)

    title = question.title if question.title is not None else question.id
    root = etree.Element(
        "{%s}assessmentItem" % QTI,
        nsmap=_NSMAP,
        attrib={
            "{%s}schemaLocation" % XSI: f"{QTI} {QTI_XSD}",
            "identifier": item_id,
            "title": ctx.plain(title, "title"),
            "adaptive": "false",
            "timeDependent": "false",
            XML_LANG: ctx.language,
        },
    )
    root.extend(parts.responses)
    root.append(_outcome(SCORE, "0"))
    root.append(_outcome(MAXSCORE, number(question.points)))
    if modals:
        root.append(make("outcomeDeclaration", identifier=FEEDBACK, cardinality="multiple", baseType="identifier"))

    body = make("itemBody")
    # The whole stem in one top-level div: Canvas reads the question text from itemBody > div/p.
    body.append(ctx.block(question.stem, "stem"))
    body.extend(parts.body)
    if isinstance(question, Essay) and question.grader_info is not None:
        rubric = make("rubricBlock", view="scorer")
        rubric.append(ctx.block(question.grader_info, "grader_info"))
        body.append(rubric)
    root.append(body)

    if parts.scoring or feedback_rules:
        processing = make("responseProcessing")
        if feedback_rules or parts.template is None:
            processing.extend(parts.scoring)
            processing.extend(feedback_rules)
        else:
            processing.set("template", parts.template)
        root.append(processing)
    root.extend(modals)
    if question.penalty:
        ctx.problems.loss(question, "QTI 2.1 has no penalty for another try; the penalty is left out", "penalty")
    return root


def _outcome(name: str, default: str) -> etree._Element:
    return make("outcomeDeclaration", make("defaultValue", value(default)), identifier=name, cardinality="single", baseType="float")


def _unscored(ctx: ItemContext, question: Question) -> Parts:
    """Essay (scored by hand) and description (no interaction)."""
    parts = Parts()
    if isinstance(question, Essay):
        parts.responses.append(make("responseDeclaration", identifier=RESPONSE, cardinality="single", baseType="string"))
        interaction = make("extendedTextInteraction", responseIdentifier=RESPONSE, expectedLines=str(max(question.lines, 1)))
        if question.response_template:
            interaction.set("placeholderText", ctx.plain(question.response_template, "response_template"))
        parts.body.append(interaction)
    return parts

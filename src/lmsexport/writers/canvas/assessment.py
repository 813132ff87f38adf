"""The assessment file: questestinterop > assessment > section root_section > item..."""

from __future__ import annotations

from lxml import etree

from ...model import Description, Essay, Matching, MultipleResponse, Numerical, Question, Quiz, ShortAnswer, SingleChoice, TrueFalse
from . import identifiers
from .choice_items import multiple_response, single_choice, true_false
from .item import build_item
from .matching_item import matching
from .open_items import essay, numerical, short_answer
from .qti import NS, SCHEMA_LOCATION, XSI, sub, tag

_FILL = {
    SingleChoice: single_choice,
    TrueFalse: true_false,
    MultipleResponse: multiple_response,
    ShortAnswer: short_answer,
    Numerical: numerical,
    Matching: matching,
    Essay: essay,
    Description: lambda parts: None,
}


def new_assessment(quiz: Quiz) -> tuple[etree._Element, etree._Element]:
    """The document root and the section the items go into."""
    root = etree.Element(tag("questestinterop"), nsmap={None: NS, "xsi": XSI})
    root.set(f"{{{XSI}}}schemaLocation", SCHEMA_LOCATION)
    assessment = sub(root, "assessment", {"ident": identifiers.assessment_ident(quiz), "title": quiz.title})
    return root, sub(assessment, "section", {"ident": "root_section"})


def add_question(section: etree._Element, quiz: Quiz, question: Question) -> None:
    build_item(section, quiz, question, _FILL[type(question)])


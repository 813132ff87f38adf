"""The assessment file: questestinterop > assessment > section root_section > item..."""

from __future__ import annotations

from ...model import Description, Essay, Matching, MultipleResponse, Numerical, Question, Quiz, ShortAnswer, SingleChoice, TrueFalse
from . import identifiers
from .choice_items import multiple_response, single_choice, true_false
from .item import build_item
from .matching_item import matching
from .open_items import essay, numerical, short_answer
from .qti import NS, SCHEMA_LOCATION, XSI
from .xml import DECLARATION, attribute, encode

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


def item_xml(quiz: Quiz, question: Question) -> str:
    return build_item(quiz, question, _FILL[type(question)])


def assessment_xml(quiz: Quiz, items: list[str]) -> bytes | None:
    """The whole document around the items, as UTF-8; None if a character cannot be written."""
    head = (
        f'{DECLARATION}<questestinterop xmlns="{NS}" xmlns:xsi="{XSI}" xsi:schemaLocation="{SCHEMA_LOCATION}">\n'
        f'  <assessment ident="{identifiers.assessment_ident(quiz)}" title="{attribute(quiz.title)}">\n'
        '    <section ident="root_section">\n'
    )
    tail = "    </section>\n  </assessment>\n</questestinterop>\n"
    return encode(head + "".join(items) + tail)

"""The assessment file: questestinterop > assessment > section root_section > item..."""

from __future__ import annotations

import io

from ...model import Description, Essay, FillInBlanks, Matching, MultipleResponse, Numerical, Ordering, Question, Quiz, ShortAnswer, SingleChoice, TrueFalse
from . import identifiers
from .blanks_item import fill_in_blanks
from .choice_items import multiple_response, single_choice, true_false
from .item import build_item, decimal_text
from .matching_item import matching, ordering
from .open_items import essay, numerical, short_answer
from .qti12 import NS, SCHEMA_LOCATION, XSI
from ..xml import DECLARATION, attribute

_FILL = {
    SingleChoice: single_choice,
    TrueFalse: true_false,
    MultipleResponse: multiple_response,
    ShortAnswer: short_answer,
    Numerical: numerical,
    Matching: matching,
    Ordering: ordering,
    FillInBlanks: fill_in_blanks,
    Essay: essay,
    Description: lambda parts: None,
}

_TAIL = b"    </section>\n  </assessment>\n</questestinterop>\n"


def item_xml(quiz: Quiz, question: Question) -> list[str]:
    """The item element, as the strings that make it up in order."""
    return build_item(quiz, question, _FILL[type(question)])


class AssessmentDocument:
    """The document as UTF-8, written item by item.

    A quiz of 20,000 questions is a document of some 75 MB: joined as one string it would be
    copied at four bytes a character as soon as one emoji appears, then encoded again. Each
    string of an item is encoded alone into a single buffer instead: an item joined first would
    be four bytes a character for one emoji of one option, every ASCII line of its frame too, and
    encoding such a string costs several times as much a character as copying ASCII."""

    def __init__(self, quiz: Quiz):
        head = (
            f'{DECLARATION}<questestinterop xmlns="{NS}" xmlns:xsi="{XSI}" xsi:schemaLocation="{SCHEMA_LOCATION}">\n'
            f'  <assessment ident="{identifiers.assessment_ident(quiz)}" title="{attribute(quiz.title)}">\n'
            '    <section ident="root_section">\n'
        )
        self._buffer = io.BytesIO()
        self._buffer.write(head.encode("utf-8"))

    def add(self, item: list[str]) -> None:
        self._buffer.writelines(map(str.encode, item))  # str.encode writes UTF-8

    def open_group(self, ident: str, title: str, pick: int, points: float) -> None:
        """A question group: Canvas draws `pick` of the items up to close_group, each worth `points`
        (assessment_test_converter.rb process_section reads selection_number and points_per_item)."""
        self.add([
            f'      <section ident="{ident}" title="{attribute(title)}">\n'
            "        <selection_ordering>\n          <selection>\n"
            f"            <selection_number>{pick}</selection_number>\n"
            f"            <selection_extension>\n              <points_per_item>{decimal_text(points)}</points_per_item>\n"
            "            </selection_extension>\n          </selection>\n        </selection_ordering>\n"
        ])

    def close_group(self) -> None:
        self._buffer.write(b"      </section>\n")

    def close(self) -> bytes:
        self._buffer.write(_TAIL)
        # Shares the buffer's bytes rather than copying them.
        return self._buffer.getvalue()

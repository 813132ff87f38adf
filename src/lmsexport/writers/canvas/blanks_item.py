"""Fill in the blanks as Canvas's fill_in_multiple_blanks_question (typed blanks) or
multiple_dropdowns_question (drop-downs only), as Canvas's QTI importer reads them
(lib/qti/fill_in_the_blank.rb process_canvas; probes in importers-new-types.md):
- the text names each blank as [name]; each blank is a response_lid "response_<name>";
- in fill in multiple blanks every response_label is a correct answer, so only the answers
  worth full credit are listed (a drop-down of a mixed question becomes a typed blank that
  accepts its correct option);
- in drop-downs an option is correct when a respcondition adding to SCORE names it;
- answers are plain text; per-answer feedback is dropped by the importer.
"""

from __future__ import annotations

from collections.abc import Callable

from ...model import Blank, DropdownBlank, FillInBlanks, NumericalBlank, NumericAnswer, ShortAnswerBlank
from ...tolerances import is_full_credit
from ..xml import number
from .item import ItemParts
from .qti12 import end_condition, end_conditionvar, plain_material, respcondition, set_score, varequal

FILL_IN_MULTIPLE_BLANKS = "fill_in_multiple_blanks_question"
MULTIPLE_DROPDOWNS = "multiple_dropdowns_question"


def canvas_type(question: FillInBlanks) -> str:
    if all(isinstance(b, DropdownBlank) for b in question.blanks):
        return MULTIPLE_DROPDOWNS
    return FILL_IN_MULTIPLE_BLANKS


def typed_number(answer: NumericAnswer) -> str:
    """What a student must type for a number in Canvas, which compares text: the value, or
    the middle of a range."""
    return number(answer.value if answer.value is not None else answer.minimum / 2 + answer.maximum / 2)


def accepted_texts(blank: Blank) -> list[str]:
    """The texts a typed blank accepts in Canvas: its answers worth full credit."""
    return ACCEPTED_TEXTS[type(blank)](blank)


# What each blank kind accepts when typed (a drop-down in a mixed question: its correct option).
ACCEPTED_TEXTS: dict[type[Blank], Callable[[Blank], list[str]]] = {
    ShortAnswerBlank: lambda blank: [a.text for a in blank.answers if is_full_credit(a.credit)],
    NumericalBlank: lambda blank: list(dict.fromkeys(typed_number(a) for a in blank.answers if is_full_credit(a.credit))),
    DropdownBlank: lambda blank: [o.text for o in blank.options if o.correct],
}


def fill_in_blanks(parts: ItemParts) -> None:
    question: FillInBlanks = parts.question
    dropdowns = canvas_type(question) == MULTIPLE_DROPDOWNS
    share = "%.2f" % (100.0 / len(question.blanks))
    lines, scoring = parts.presentation, parts.resprocessing
    for blank in question.blanks:
        if dropdowns:
            labels = [(parts.number(f"{blank.id}:{o.id}"), o.text, o.correct) for o in blank.options]
        else:
            labels = [(parts.number(f"{blank.id}:{i}"), t, True) for i, t in enumerate(accepted_texts(blank))]
        parts.answer_ids.extend(ident for ident, _, _ in labels)
        response = f"response_{blank.id}"
        lines.open("response_lid", f' ident="{response}"')
        plain_material(lines, blank.id)
        lines.open("render_choice")
        for ident, text, _ in labels:
            lines.open("response_label", f' ident="{ident}"')
            plain_material(lines, text)
            lines.close("response_label")
        lines.close("render_choice")
        lines.close("response_lid")
        for ident, _, correct in labels:
            if correct:
                respcondition(scoring, None)
                varequal(scoring, response, ident)
                end_conditionvar(scoring)
                set_score(scoring, share, "Add")
                end_condition(scoring)

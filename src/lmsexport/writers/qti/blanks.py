"""Fill in the blanks: one inline interaction per blank, where its placeholder stands in the stem.

Short answers and numbers are textEntryInteractions, drop-downs inlineChoiceInteractions, each
with its own response; response processing adds up what each blank earns, as a share of its
points. Answers of one blank are tried in order of credit and only the first that matches counts
(as Moodle does), so per-answer feedback conditions are made exclusive within a blank.
"""

from __future__ import annotations

from collections.abc import Callable

from ...model import Blank, DropdownBlank, FillInBlanks, NumericalBlank, ShortAnswerBlank
from ...tolerances import is_full_credit
from .context import ItemContext
from .expressions import base, condition, make, set_outcome, value, variable
from ..xml import number, text
from .names import SCORE, choice_identifier
from .parts import AnswerFeedback, Parts
from .scoring import mapping
from .text_entry import accepts, any_of, midpoint


def _response(blank_id: str) -> str:
    return "RESPONSE_" + blank_id  # blank ids are identifiers: always an NCName this way


def _first(conditions: list[str]) -> list[str]:
    """Each condition, holding only when no earlier one does."""
    return [c if i == 0 else make("and", c, make("not", any_of(conditions[:i]))) for i, c in enumerate(conditions)]


def _add(amount: float) -> str:
    return set_outcome(SCORE, make("sum", variable(SCORE), base("float", number(amount))))


class _Blanks:
    def __init__(self, ctx: ItemContext, question: FillInBlanks, parts: Parts):
        self.ctx, self.question, self.parts = ctx, question, parts
        self.full: list[str] = []

    def feedback(self, index: int, answers, conditions: list[str], kind: str) -> None:
        for j, (answer, when) in enumerate(zip(answers, _first(conditions))):
            if answer.feedback is not None:
                self.parts.answer_feedback.append(
                    AnswerFeedback(f"blank_{index + 1}_{kind}_{j + 1}_feedback", answer.feedback, ("blanks", index, kind + "s", j, "feedback"), when))

    def short_answer(self, index: int, blank: ShortAnswerBlank, worth: float) -> str:
        response = _response(blank.id)
        texts = [a.text for a in blank.answers]
        best = max(range(len(texts)), key=lambda j: blank.answers[j].credit)
        # Every answer is in the mapping, those worth nothing too, so that the package holds them all.
        entries = [(t, a.credit * worth) for t, a in zip(texts, blank.answers)]
        self.parts.responses.append(make(
            "responseDeclaration", make("correctResponse", value(texts[best])), mapping(entries, worth, case_sensitive=blank.case_sensitive),
            identifier=response, cardinality="single", baseType="string"))
        self.parts.scoring.append(condition((make("not", make("isNull", variable(response))),
                                             [set_outcome(SCORE, make("sum", variable(SCORE), f'<mapResponse identifier="{response}"/>'))])))
        case = "true" if blank.case_sensitive else "false"
        given = [make("stringMatch", variable(response), base("string", t), caseSensitive=case) for t in texts]
        self.full.append(any_of([g for g, a in zip(given, blank.answers) if is_full_credit(a.credit)]))
        self.feedback(index, blank.answers, given, "answer")
        return f'<textEntryInteraction responseIdentifier="{response}" expectedLength="{max(max(map(len, texts)), 1)}"/>'

    def numerical(self, index: int, blank: NumericalBlank, worth: float) -> str:
        response = _response(blank.id)
        ranked = sorted(range(len(blank.answers)), key=lambda j: -blank.answers[j].credit)
        best = blank.answers[ranked[0]]
        self.parts.responses.append(make("responseDeclaration", make("correctResponse", value(number(best.value) if best.value is not None else midpoint(best.minimum, best.maximum))),
                                         identifier=response, cardinality="single", baseType="float"))
        conditions = [accepts(blank.answers[j], response) for j in ranked]
        self.parts.scoring.append(condition(*((c, [_add(max(blank.answers[j].credit, 0) * worth)]) for c, j in zip(conditions, ranked))))
        self.full.append(any_of([accepts(a, response) for a in blank.answers if is_full_credit(a.credit)]))
        by_place = {j: c for j, c in zip(ranked, _first(conditions))}
        for j, answer in enumerate(blank.answers):
            if answer.feedback is not None:
                self.parts.answer_feedback.append(
                    AnswerFeedback(f"blank_{index + 1}_answer_{j + 1}_feedback", answer.feedback, ("blanks", index, "answers", j, "feedback"), by_place[j]))
        return f'<textEntryInteraction responseIdentifier="{response}" expectedLength="8"/>'

    def dropdown(self, index: int, blank: DropdownBlank, worth: float) -> str:
        response = _response(blank.id)
        ids = [choice_identifier(o.id) for o in blank.options]
        right = next(i for i, o in zip(ids, blank.options) if o.correct)
        entries = [(i, o.credit * worth) for i, o in zip(ids, blank.options) if o.credit != 0]
        self.parts.responses.append(make("responseDeclaration", make("correctResponse", value(right)), mapping(entries, worth),
                                         identifier=response, cardinality="single", baseType="identifier"))
        self.parts.scoring.append(condition((make("not", make("isNull", variable(response))),
                                             [set_outcome(SCORE, make("sum", variable(SCORE), f'<mapResponse identifier="{response}"/>'))])))
        chosen = [make("match", variable(response), base("identifier", i)) for i in ids]
        self.full.append(make("match", variable(response), base("identifier", right)))
        self.feedback(index, blank.options, chosen, "option")
        shuffle = "true" if blank.shuffle else "false"
        choices = "".join(
            f'<inlineChoice identifier="{i}">{text(o.text)}</inlineChoice>' for i, o in zip(ids, blank.options))
        return f'<inlineChoiceInteraction responseIdentifier="{response}" shuffle="{shuffle}">{choices}</inlineChoiceInteraction>'



# The interaction of each blank kind, keyed by the model's class (tests/test_type_coverage.py
# fails for a kind left out).
BLANK_WRITERS: dict[type[Blank], Callable[[_Blanks, int, Blank, float], str]] = {
    ShortAnswerBlank: _Blanks.short_answer,
    NumericalBlank: _Blanks.numerical,
    DropdownBlank: _Blanks.dropdown,
}

def fill_in_blanks(ctx: ItemContext, question: FillInBlanks) -> Parts:
    parts = Parts()
    writer = _Blanks(ctx, question, parts)
    for index, (blank, worth) in enumerate(zip(question.blanks, question.blank_points)):
        parts.blanks[blank.id] = BLANK_WRITERS[type(blank)](writer, index, blank, worth)
    parts.correct = make("and", *writer.full) if len(writer.full) > 1 else writer.full[0]
    return parts




"""Single choice and multiple response: options, the correct ones and their credits."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Choice, MultipleResponse, SingleChoice
from ..tolerances import FULL_CREDIT as EPSILON, reaches_full_credit
from .ids import unique_ids_of_list



def _options_errors(question: SingleChoice | MultipleResponse, file: str,
                    rules: Callable[[tuple[Choice, ...], str, str], Iterator[Diagnostic]]) -> Iterator[Diagnostic]:
    """Unique option ids and at least two options, then the type's own rules on its options."""
    base = question.location.pointer
    options = question.choices
    yield from unique_ids_of_list([c.id for c in options], base, "option", file, ("options",))
    if len(options) < 2:
        yield error(f"a {question.type.replace('_', ' ')} question needs at least two options", file, pointer_join(base, "options"), code="options")
        return
    yield from rules(options, file, base)


def _single_choice_rules(options: tuple[Choice, ...], file: str, base: str) -> Iterator[Diagnostic]:
    correct = [c for c in options if c.correct]
    if len(correct) != 1:
        found = "none is marked correct" if not correct else f"{len(correct)} are marked correct ({', '.join(c.id for c in correct)})"
        yield error(f"a single choice question has exactly one correct option; {found}", file, pointer_join(base, "options"), code="correct-count")
    for i, choice in enumerate(options):
        if choice.correct and abs(choice.credit - 1) > EPSILON:
            yield error("the correct option of a single choice question is worth full credit (1)", file, pointer_join(base, "options", i, "credit"), code="credit")
        if not choice.correct and reaches_full_credit(choice.credit):
            yield error("an option that is not correct cannot be worth full credit", file, pointer_join(base, "options", i, "credit"), code="credit")


def _multiple_response_rules(options: tuple[Choice, ...], file: str, base: str) -> Iterator[Diagnostic]:
    correct = [c for c in options if c.correct]
    if not correct:
        yield error("a multiple response question needs at least one correct option", file, pointer_join(base, "options"), code="correct-count")
        return
    for i, choice in enumerate(options):
        if choice.correct and choice.credit <= 0:
            yield error("a correct option must be worth a positive credit", file, pointer_join(base, "options", i, "credit"), code="credit")
        if not choice.correct and choice.credit > 0:
            yield error("an option that is not correct cannot be worth a positive credit", file, pointer_join(base, "options", i, "credit"), code="credit")
    total = sum(c.credit for c in options if c.correct and c.credit > 0)
    if abs(total - 1) > EPSILON:
        yield error(f"the credits of the correct options add up to {total:g}; they must add up to 1 (full marks)", file, pointer_join(base, "options"), code="credit")


def single_choice_errors(question: SingleChoice, file: str) -> Iterator[Diagnostic]:
    return _options_errors(question, file, _single_choice_rules)


def multiple_response_errors(question: MultipleResponse, file: str) -> Iterator[Diagnostic]:
    return _options_errors(question, file, _multiple_response_rules)

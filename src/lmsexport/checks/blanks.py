"""Fill in the blanks: every blank stands once in the text where a student can fill it, each is
answerable, and the points add up."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Blank, DropdownBlank, FillInBlanks, NumericalBlank, ShortAnswerBlank, TextFormat
from ..text import MathStyle, RenderStyle, to_html
from ..text.blanks import PLACEHOLDER, placeholders
from .answers import accepted_answers_errors, numeric_answers_errors
from .blank import is_blank
from ..tolerances import FULL_CREDIT as EPSILON, reaches_full_credit
from .ids import unique_ids_of_list

# Where rendered HTML can show no form field: inside code, a link or a formula.
_NO_FIELD = re.compile(r"<(code|pre|a|math)\b.*?</\1>", re.DOTALL)
_MATHML = RenderStyle(math=MathStyle.MATHML)


def blanks_errors(question: FillInBlanks, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    stem = pointer_join(base, "stem")
    yield from unique_ids_of_list([b.id for b in question.blanks], base, "blank", file, ("blanks",))
    names = placeholders(question.stem.source)
    known = {b.id for b in question.blanks}
    for name in dict.fromkeys(names):
        if name not in known:
            yield error(f"the text holds [[{name}]] but no blank is named '{name}'", file, stem, code="blanks")
        elif names.count(name) > 1:
            yield error(f"the blank [[{name}]] stands {names.count(name)} times in the text: each blank stands once", file, stem, code="blanks")
    shown = _shown_placeholders(question)
    for i, blank in enumerate(question.blanks):
        where = pointer_join(base, "blanks", i)
        if blank.id not in names:
            yield error(f"the blank '{blank.id}' is not in the text: write [[{blank.id}]] where it stands", file, pointer_join(where, "id"), code="blanks")
        elif names.count(blank.id) == 1 and shown.count(blank.id) != 1:
            yield error(f"the blank [[{blank.id}]] stands inside code, a link or a formula, where no field can be shown", file, stem, code="blanks")
        yield from _blank_errors(blank, file, where)
    given = [b.points is not None for b in question.blanks]
    if any(given) and not all(given):
        first = given.index(False)
        yield error("give points to every blank or to none (then the question's points are shared equally)", file,
                    pointer_join(base, "blanks", first), code="points")
    elif all(given) and abs(sum(b.points for b in question.blanks) - question.points) > EPSILON:
        total = sum(b.points for b in question.blanks)
        yield error(f"the blanks' points add up to {total:g} but the question's points are {question.points:g}: leave the question's points out, or make them agree",
                    file, pointer_join(base, "points"), code="points")


def _shown_placeholders(question: FillInBlanks) -> list[str]:
    """The placeholders left where a form field can stand once the stem is rendered."""
    if question.stem.format is TextFormat.PLAIN:
        return placeholders(question.stem.source)
    html = to_html(question.stem, _MATHML)
    return PLACEHOLDER.findall(_NO_FIELD.sub("", html))


def _blank_errors(blank: Blank, file: str, where: str) -> Iterator[Diagnostic]:
    return BLANK_RULES[type(blank)](blank, file, where)


def _dropdown_errors(blank: DropdownBlank, file: str, where: str) -> Iterator[Diagnostic]:
    options = blank.options
    yield from unique_ids_of_list([o.id for o in options], where, "option", file, ("options",))
    correct = [o for o in options if o.correct]
    if len(correct) != 1:
        found = "none is marked correct" if not correct else f"{len(correct)} are marked correct"
        yield error(f"a drop-down has exactly one correct option; {found}", file, pointer_join(where, "options"), code="correct-count")
    seen: set[str] = set()
    for i, option in enumerate(options):
        at = pointer_join(where, "options", i)
        if option.correct and abs(option.credit - 1) > EPSILON:
            yield error("the correct option of a drop-down is worth full credit (1)", file, pointer_join(at, "credit"), code="credit")
        if not option.correct and reaches_full_credit(option.credit):
            yield error("an option that is not correct cannot be worth full credit", file, pointer_join(at, "credit"), code="credit")
        if option.credit < 0:
            yield error("a drop-down option cannot be worth negative credit", file, pointer_join(at, "credit"), code="credit")
        if is_blank(option.text):
            yield error("an option's text cannot be only white space", file, pointer_join(at, "text"), code="blank")
        elif "\n" in option.text or "\r" in option.text:
            yield error("a drop-down cannot show a line break: write the option on one line", file, pointer_join(at, "text"), code="line-break")
        elif option.text in seen:
            yield error("this option's text is already used by another option of the drop-down", file, pointer_join(at, "text"), code="duplicate")
        seen.add(option.text)


# The rules of each blank kind, keyed by the model's class (tests/test_type_coverage.py fails for a
# kind left out).
BLANK_RULES: dict[type[Blank], Callable[[Any, str, str], Iterator[Diagnostic]]] = {
    ShortAnswerBlank: lambda blank, file, where: accepted_answers_errors(blank.answers, blank.case_sensitive, file, where),
    NumericalBlank: lambda blank, file, where: numeric_answers_errors(blank.answers, file, where),
    DropdownBlank: _dropdown_errors,
}

"""What one question loses in Canvas's classic quizzes, as (code, message) pairs."""

from __future__ import annotations

from collections.abc import Iterator

from ...diagnostics import pointer_join
from ...model import (
    Description,
    DropdownBlank,
    Essay,
    FillInBlanks,
    Matching,
    MultipleResponse,
    Numerical,
    NumericalBlank,
    Ordering,
    OrderingGrading,
    Question,
    ShortAnswer,
    ShortAnswerBlank,
    SingleChoice,
)
from .blanks_item import accepted_texts
from ...tolerances import is_full_credit as is_full
from .rules import off_rule_choices


def _percent(credit: float) -> str:
    return f"{credit * 100:g}%"


def question_losses(question: Question, shuffled: bool) -> Iterator[tuple[str, str]]:
    name = f"question {question.id!r}"
    feedback = question.feedback
    if isinstance(question, Description):
        if any((feedback.general, feedback.correct, feedback.partially_correct, feedback.incorrect)):
            yield "canvas-feedback", f"{name}: Canvas text-only questions show no feedback; it is left out"
        return
    if feedback.partially_correct is not None:
        yield "canvas-feedback", f"{name}: Canvas has no partially-correct feedback; it is left out"

    if isinstance(question, SingleChoice):
        partial = [c for c in question.choices if not c.correct and c.credit != 0]
        if partial:
            listed = ", ".join(f"{c.id!r} ({_percent(c.credit)})" for c in partial)
            yield "canvas-credit", f"{name}: Canvas multiple choice is all or nothing; option(s) {listed} earn 0"
    elif isinstance(question, MultipleResponse):
        off = off_rule_choices(question)
        if off:
            listed = ", ".join(f"{c.id!r} ({_percent(c.credit)})" for c in off)
            yield "canvas-credit", (
                f"{name}: Canvas scores multiple answers by its own rule (each right option earns, each wrong "
                f"one costs, 1/number-of-right-answers, total at least 0); credits {listed} are not kept"
            )
    elif isinstance(question, (ShortAnswer, Numerical)):
        dropped = [a for a in question.answers if not is_full(a.credit)]
        if dropped:
            listed = ", ".join(_answer_name(a) + f" ({_percent(a.credit)})" for a in dropped)
            yield "canvas-credit", (
                f"{name}: every answer Canvas lists is fully right, so answer(s) {listed} are left out "
                "with their feedback"
            )
        if isinstance(question, ShortAnswer) and question.case_sensitive:
            yield "canvas-case", f"{name}: Canvas compares short answers without case; case sensitivity is lost"
    elif isinstance(question, FillInBlanks):
        yield from _blank_losses(question, name)
    elif isinstance(question, Ordering):
        yield "canvas-ordering", (
            f"{name}: Canvas classic quizzes have no ordering question: it becomes a matching question, "
            f"each item matched to its place (1 to {len(question.items)}), the items listed in a scrambled order"
        )
        if question.grading is not OrderingGrading.ABSOLUTE_POSITION:
            yield "canvas-credit", (
                f"{name}: Canvas scores each item matched to its right place (Moodle's absolute position), "
                f"not by the grading '{question.grading.value}'"
            )
    elif isinstance(question, Essay):
        if question.grader_info is not None:
            yield "canvas-essay", f"{name}: Canvas essay questions have no grader information; it is left out"
        if question.response_template is not None:
            yield "canvas-essay", f"{name}: Canvas essay questions have no response template; it is left out"

    if not shuffled and isinstance(question, (SingleChoice, MultipleResponse)) and question.shuffle:
        reason = "a pinned option" if any(c.pinned for c in question.choices) else "another question's fixed order"
        yield "canvas-shuffle", (
            f"{name}: Canvas shuffles per quiz, not per question; its options are not shuffled because of {reason}"
        )


def _blank_losses(question: FillInBlanks, name: str) -> Iterator[tuple[str, str]]:
    kinds = {type(b) for b in question.blanks}
    mixed = DropdownBlank in kinds and len(kinds) > 1
    if mixed:
        dropdowns = ", ".join(repr(b.id) for b in question.blanks if isinstance(b, DropdownBlank))
        yield "canvas-blanks", (
            f"{name}: Canvas cannot mix drop-downs and typed blanks in one question: it becomes fill in multiple "
            f"blanks, and drop-down(s) {dropdowns} typed blanks that accept the correct option's text"
        )
    if len(set(question.blank_points)) > 1:
        yield "canvas-credit", f"{name}: Canvas shares the points equally among the blanks; the blanks' own points are not kept"
    for blank in question.blanks:
        blank_name = f"blank {blank.id!r}"
        if isinstance(blank, ShortAnswerBlank):
            dropped = [a for a in blank.answers if not is_full(a.credit)]
            if dropped:
                yield "canvas-credit", f"{name}: {blank_name}: every answer Canvas lists is fully right, so " + ", ".join(
                    f"{a.text!r} ({_percent(a.credit)})" for a in dropped) + " are left out"
            if blank.case_sensitive:
                yield "canvas-case", f"{name}: {blank_name}: Canvas compares blanks without case; case sensitivity is lost"
        elif isinstance(blank, NumericalBlank):
            yield "canvas-number", (
                f"{name}: {blank_name}: Canvas compares a blank's text, so the number must be typed exactly as "
                + " or ".join(repr(t) for t in accepted_texts(blank)) + " (no tolerance, range or partial credit)"
            )
        elif isinstance(blank, DropdownBlank) and not mixed:
            partial = [o for o in blank.options if not o.correct and o.credit != 0]
            if partial:
                yield "canvas-credit", f"{name}: {blank_name}: a Canvas drop-down is right or wrong; " + ", ".join(
                    f"{o.id!r} ({_percent(o.credit)})" for o in partial) + " earn 0"
        feedback = [f for _, f in blank.own_texts() if f is not None]
        if feedback:
            yield "canvas-feedback", f"{name}: {blank_name}: Canvas's importer drops the feedback of each answer of a blank"


def _answer_name(answer) -> str:
    text = getattr(answer, "text", None)
    if text is not None:
        return repr(text)
    if answer.is_range:
        return f"[{answer.minimum:g}, {answer.maximum:g}]"
    return f"{answer.value:g}±{answer.tolerance:g}"



def question_errors(question: Question) -> Iterator[tuple[str, str]]:
    """What would make Canvas import the question as something else, or fail on it."""
    name = f"question {question.id!r}"
    if isinstance(question, (SingleChoice, MultipleResponse)) and not any(c.correct for c in question.choices):
        yield "canvas-no-answer", f"{name}: no correct option; Canvas cannot tell what is right"
    elif isinstance(question, (ShortAnswer, Numerical)) and not any(is_full(a.credit) for a in question.answers):
        yield "canvas-no-answer", f"{name}: no answer with full credit; Canvas would import an essay question"
    elif isinstance(question, Matching) and not question.pairs:
        yield "canvas-no-answer", f"{name}: a matching question needs at least one pair"


# The value a loss is about, below the question, when the loss names one field: (code, words of
# the message) -> pointer tokens. A loss not listed stays at its question.
_FIELDS = (
    ("canvas-feedback", "partially-correct", ("feedback", "partially_correct")),
    ("canvas-essay", "grader information", ("grader_info",)),
    ("canvas-essay", "response template", ("response_template",)),
    ("canvas-shuffle", "", ("shuffle",)),
    ("canvas-case", "short answers", ("case_sensitive",)),
    ("canvas-credit", "multiple choice", ("options",)),
    ("canvas-credit", "multiple answers", ("options",)),
)


def loss_place(question: Question, code: str, message: str) -> str:
    """Where a loss of `question_losses` is reported: at its field when it names one."""
    for known, words, where in _FIELDS:
        if code == known and words in message:
            return pointer_join(question.location.pointer, *where)
    return question.location.pointer

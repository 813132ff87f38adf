"""What platforms make of our QTI 2.1 packages, as data: one row per question type and feature
that a platform's importer changes or drops, with what it does and where its code decides it.

The QTI writer reports the rows that apply to its questions and sections (`found_in_quiz`,
`found_in_sections`; `found_in` for one question); a fidelity report or a preview can read `LOSSES` directly. Every row is checked against Canvas's own importer
classes in tests/importers/test_canvas.py, so the table cannot drift from what Canvas does.

Canvas facts come from canvas-lms gems/plugins/qti_exporter/lib/qti/*.rb (classic quizzes).
What Canvas keeps as it is (multiple choice, multiple answers, true/false, matching, essay and
text-only types; points through the test's <weight>; general, correct, incorrect and per-option
feedback; media files) has no row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from ...model import (
    Choice,
    DropdownBlank,
    Essay,
    FillInBlanks,
    MultipleResponse,
    Numerical,
    NumericalBlank,
    Question,
    Quiz,
    ShortAnswer,
    ShortAnswerBlank,
    SingleChoice,
)
from ..canvas.rules import off_rule_choices


class Severity(Enum):
    NOTE = "note"  # the platform shows less, or shows it differently
    WARNING = "warning"  # a student's answer may score differently than the content says, or the item breaks


# eq=False: each row is itself, compared and hashed by identity. The writer groups questions by
# row, and a dataclass's own hash (of all six fields, in Python) cost a microsecond a question.
@dataclass(frozen=True, slots=True, eq=False)
class Loss:
    platform: str
    question_type: str | None  # a content question type; None: any type
    feature: str  # the part of the content concerned, a key of FEATURES or SECTION_FEATURES
    effect: str  # what the teacher finds after the import
    source: str  # the importer code that decides it
    severity: Severity = Severity.NOTE


CANVAS = "Canvas"
_ITEM = "assessment_item_converter.rb"
_CHOICE = "choice_interaction.rb"
_BLANKS = "fill_in_the_blank.rb"

LOSSES: tuple[Loss, ...] = (
    Loss(CANVAS, "short_answer", "type",
         "becomes a fill in multiple blanks question with one blank",
         f"question_type_educated_guesser.rb (textEntryInteraction), {_BLANKS}"),
    Loss(CANVAS, "short_answer", "alternatives",
         "only the answer given as correct response is accepted; the other accepted answers are dropped",
         f"{_BLANKS} (reads correctResponse only, not the mapping)", Severity.WARNING),
    Loss(CANVAS, "short_answer", "case_sensitive",
         "answers are compared without case", _BLANKS, Severity.WARNING),
    Loss(CANVAS, "numerical", "type",
         "becomes a fill in multiple blanks question with one blank, compared as text (12.0 is not 12)",
         f"question_type_educated_guesser.rb (textEntryInteraction), {_BLANKS}"),
    Loss(CANVAS, "numerical", "tolerance",
         "only the exact value written as correct response is accepted; the tolerance and the other answers are dropped",
         f"{_BLANKS} (reads correctResponse only)", Severity.WARNING),
    Loss(CANVAS, "numerical", "range",
         "only the range's midpoint, written as correct response, is accepted; the range is dropped",
         f"{_BLANKS} (reads correctResponse only)", Severity.WARNING),
    Loss(CANVAS, None, "answer_feedback",
         "the feedback of accepted answers is dropped (Canvas keeps per-answer feedback of options only)",
         f"{_BLANKS} (no feedback lookup)"),
    Loss(CANVAS, "single_choice", "partial_credit",
         "an option worth part of the points is worth nothing: multiple choice is all or nothing",
         f"{_CHOICE} (get_base_value: a positive score is 100%, else 0)", Severity.WARNING),
    Loss(CANVAS, "multiple_response", "credits",
         "the mapping's weights are ignored: Canvas scores each right option chosen +1/number of right "
         "options and each wrong one -1/number of right options",
         f"{_CHOICE} (weights are 100 or 0); Canvas's multiple answers scoring", Severity.WARNING),
    Loss(CANVAS, None, "partially_correct_feedback",
         "partially-correct feedback is dropped: Canvas has correct, incorrect and neutral feedback only",
         f"{_ITEM} (get_feedback classifies by identifier)"),
    Loss(CANVAS, None, "option_language",
         "the language of options is dropped: the sanitiser removes xml:lang, and QTI has no lang",
         "html_helper.rb (sanitize_html!, Canvas's sanitiser keeps lang only)"),
    Loss(CANVAS, None, "question_language",
         "the question's language is dropped: Canvas reads no xml:lang of an item",
         _ITEM),
    Loss(CANVAS, "essay", "grader_info",
         "the grader information (rubricBlock) is dropped", f"{_ITEM} (rubricBlock is not read)"),
    Loss(CANVAS, "essay", "response_template",
         "the response template (placeholderText) is dropped", "extended_text_interaction.rb"),
    Loss(CANVAS, None, "shuffle",
         "options keep their order: Canvas shuffles per quiz, from the section's ordering only",
         "assessment_test_converter.rb"),
    Loss(CANVAS, "ordering", "type",
         "becomes a matching question of each place (1, 2, ...) to its item, each right place earning its "
         "share, whatever the grading; items lose their formatting, and any text between < and > or like &amp;",
         "order_interaction.rb (typed by the manifest's interactionType)", Severity.WARNING),
    Loss(CANVAS, "fill_in_blanks", "dropdowns_only",
         'a text whose blanks are all drop-downs becomes an "Error" item: Canvas guesses no type for '
         "inlineChoiceInteraction", "question_type_educated_guesser.rb", Severity.WARNING),
    Loss(CANVAS, "fill_in_blanks", "dropdown_among_typed",
         "a drop-down among typed blanks becomes a typed blank that accepts only the identifier of its right "
         "option (the correct response), not its text; its options' texts run together in the question text",
         _BLANKS, Severity.WARNING),
    Loss(CANVAS, "fill_in_blanks", "alternatives",
         "each typed blank accepts only its correct response; other answers, tolerances and ranges are dropped",
         f"{_BLANKS} (reads correctResponse only)", Severity.WARNING),
    Loss(CANVAS, None, "section_title",
         "each section's title becomes a text-only question of its own before the section",
         "assessment_test_converter.rb (a visible section's title)"),
    Loss(CANVAS, None, "section_instructions",
         "section instructions (rubricBlock) are dropped", "assessment_test_converter.rb"),
    Loss(CANVAS, None, "section_shuffle",
         "shuffling a section's questions turns on Canvas's shuffling of every question's options instead, "
         "and the questions keep their order", "assessment_test_converter.rb (ordering shuffle -> shuffle_answers)",
         Severity.WARNING),
)


def _choices(question: Question) -> tuple[Choice, ...]:
    return getattr(question, "choices", ())


def _off_rule(question: Question) -> bool:
    """Credits other than Canvas's multiple answers rule gives (the same rule its QTI 1.2 import applies)."""
    return isinstance(question, MultipleResponse) and bool(off_rule_choices(question))


def _other_language(question: Question, quiz: Quiz) -> bool:
    language = quiz.language_of(question)
    for choice in _choices(question):  # a loop: quicker than any() over a generator, asked of every question
        if choice.language and choice.language != language:
            return True
    return False


def _partial_credit(question: Question, quiz: Quiz) -> bool:
    if not isinstance(question, SingleChoice):
        return False
    for choice in question.choices:
        if not choice.correct and choice.credit != 0:
            return True
    return False


def _shuffles_own_options(question: Question, quiz: Quiz) -> bool:
    return isinstance(question, (SingleChoice, MultipleResponse)) and question.shuffle


def _no_shuffled_section(quiz: Quiz) -> bool:
    # A shuffled section turns Canvas's shuffling of options on (see section_shuffle).
    for section in quiz.sections:
        if section.shuffle:
            return False
    return True


def _always(*_) -> bool:
    return True


def _blanks(question: Question, kind: type) -> list:
    return [b for b in getattr(question, "blanks", ()) if isinstance(b, kind)]


def _typed_alternatives(question: Question) -> bool:
    typed = _blanks(question, (ShortAnswerBlank, NumericalBlank))
    return any(len(b.answers) > 1 or any(getattr(a, "tolerance", 0) or getattr(a, "is_range", False) for a in b.answers) for b in typed)


def _answer_feedback(question: Question, quiz: Quiz) -> bool:
    """Feedback on an accepted answer or a drop-down option; the other types have neither (a row
    of any type is asked of every question)."""
    if isinstance(question, (ShortAnswer, Numerical)):
        answers = question.answers
    elif isinstance(question, FillInBlanks):
        answers = [a for blank in question.blanks for a in getattr(blank, "answers", ()) or getattr(blank, "options", ())]
    else:
        return False
    for answer in answers:  # a loop: quicker than any() over a generator
        if answer.feedback is not None:
            return True
    return False


# What makes a row apply to a question: (question, its quiz) -> bool.
FEATURES: dict[str, Callable[[Question, str], bool]] = {
    "type": _always,
    "alternatives": lambda q, _: (isinstance(q, ShortAnswer) and len(q.answers) > 1) or _typed_alternatives(q),
    "case_sensitive": lambda q, _: isinstance(q, ShortAnswer) and q.case_sensitive,
    "tolerance": lambda q, _: isinstance(q, Numerical) and (len(q.answers) > 1 or any(not a.is_range and a.tolerance for a in q.answers)),
    "range": lambda q, _: isinstance(q, Numerical) and any(a.is_range and a.minimum != a.maximum for a in q.answers),
    "answer_feedback": _answer_feedback,
    "partial_credit": _partial_credit,
    "credits": lambda q, _: _off_rule(q),
    "partially_correct_feedback": lambda q, _: q.feedback.partially_correct is not None,
    "option_language": _other_language,
    "question_language": _always,
    "grader_info": lambda q, _: isinstance(q, Essay) and q.grader_info is not None,
    "response_template": lambda q, _: isinstance(q, Essay) and bool(q.response_template),
    "shuffle": lambda q, quiz: _shuffles_own_options(q, quiz) and _no_shuffled_section(quiz),
    "dropdowns_only": lambda q, _: isinstance(q, FillInBlanks) and len(_blanks(q, DropdownBlank)) == len(q.blanks),
    "dropdown_among_typed": lambda q, _: isinstance(q, FillInBlanks) and 0 < len(_blanks(q, DropdownBlank)) < len(q.blanks),
}
# The rows whose test asks something of the quiz alone: (what it asks of the quiz, what is left
# to ask of each question, or None when nothing is), so that `found_in_quiz` asks the quiz once.
# Each pair says what the row's FEATURES test says (tests/test_qti_fast_paths.py).
QUIZ_PARTS: dict[str, tuple[Callable[[Quiz], bool], Callable[[Question, Quiz], bool] | None]] = {
    "type": (_always, None),
    "question_language": (_always, None),
    "shuffle": (_no_shuffled_section, _shuffles_own_options),
}
# Rows about the quiz's sections: (quiz, section) -> bool. They are reported at the section.
SECTION_FEATURES: dict[str, Callable] = {
    "section_title": lambda quiz, section: True,
    "section_instructions": lambda quiz, section: section.instructions is not None,
    "section_shuffle": lambda quiz, section: section.shuffle,
}


def found_in(question: Question, quiz: Quiz, platform: str = CANVAS) -> list[Loss]:
    """The rows of `platform` that apply to this question, in table order."""
    return [loss for loss, applies in _rows(platform, question.type) if applies(question, quiz)]


def found_in_quiz(quiz: Quiz, platform: str = CANVAS) -> dict[Loss, list[Question]]:
    """The exported questions each row of `platform` applies to, as `found_in` finds them
    question by question: the rows in the order they are first found, each question once."""
    found: dict[Loss, list[Question]] = {}
    per_type: dict[str, list[tuple[Loss, Callable | None]]] = {}
    for question in quiz.exported_questions:
        rows = per_type.get(question.type)
        if rows is None:
            rows = per_type[question.type] = _rows_of_quiz(quiz, platform, question.type)
        for loss, applies in rows:
            if applies is None or applies(question, quiz):
                questions = found.get(loss)
                if questions is None:
                    found[loss] = [question]
                else:
                    questions.append(question)
    return found


def _rows_of_quiz(quiz: Quiz, platform: str, question_type: str) -> list[tuple[Loss, Callable | None]]:
    """The rows that can apply to a type in this quiz, each with what is left to ask of a question
    (None: nothing, it applies to every question of the type)."""
    rows = []
    for loss, applies in _rows(platform, question_type):
        parts = QUIZ_PARTS.get(loss.feature)
        if parts is None:
            rows.append((loss, applies))
        elif parts[0](quiz):
            rows.append((loss, parts[1]))
    return rows


@lru_cache(maxsize=None)
def _rows(platform: str, question_type: str) -> tuple[tuple[Loss, Callable], ...]:
    """The question rows that can apply to a type: the table is read once per type, not per question."""
    return tuple(
        (loss, FEATURES[loss.feature])
        for loss in LOSSES
        if loss.platform == platform and loss.feature in FEATURES and loss.question_type in (None, question_type)
    )


def found_in_sections(quiz: Quiz, platform: str = CANVAS) -> list[tuple[int, Loss]]:
    """(section index, row) for each row of `platform` that applies to a section of the quiz."""
    return [
        (index, loss)
        for index, section in enumerate(quiz.sections)
        if section not in quiz.sections_of_drafts  # left out of the package
        for loss in LOSSES
        if loss.platform == platform and loss.feature in SECTION_FEATURES and SECTION_FEATURES[loss.feature](quiz, section)
    ]

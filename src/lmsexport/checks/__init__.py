"""Semantic rules that the schema cannot express, checked on the model of one quiz.

One module per concern, as markdown-it keeps one rule a file; this module runs them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..diagnostics import Diagnostic, error, note, pointer_join, warning
from ..model import (
    Description, Essay, FillInBlanks, Matching, MultipleResponse, Numerical, Ordering, Question, Quiz, ShortAnswer, SingleChoice,
    TrueFalse,
)
from .answers import numerical_errors, short_answer_errors
from .blank import blank_text_errors, is_blank
from .blanks import blanks_errors
from .choices import multiple_response_errors, single_choice_errors
from .ids import unique_ids_of_list
from .languages import language_errors, language_is_valid, not_registered
from .markdown import markdown_errors, rich_texts
from .matching import matching_errors
from .ordering import ordering_errors
from .sections import section_errors
from .xml_characters import xml_character_errors

__all__ = ["question_diagnostics", "quiz_diagnostics", "rich_texts", "xml_character_errors"]


def _no_rules(question: Question, file: str) -> Iterator[Diagnostic]:
    return iter(())


# The rules of each question type beyond those of every question, keyed by the model's class
# (tests/test_type_coverage.py fails for a type left out).
TYPE_RULES: dict[type[Question], Callable[..., Iterator[Diagnostic]]] = {
    SingleChoice: single_choice_errors,
    MultipleResponse: multiple_response_errors,
    TrueFalse: _no_rules,
    ShortAnswer: short_answer_errors,
    Numerical: numerical_errors,
    Matching: matching_errors,
    Ordering: ordering_errors,
    FillInBlanks: blanks_errors,
    Essay: _no_rules,
    Description: _no_rules,
}


def question_diagnostics(question: Question, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    # The question's language tag, then its options' ones, checked here rather than through a
    # generator for each (language_errors): most are unset and a set one is nearly always valid.
    if question.language is not None and not language_is_valid(question.language):
        yield error(not_registered(question.language), file, pointer_join(base, "language"), code="language")
    for i, choice in enumerate(getattr(question, "choices", ())):
        if choice.language is not None and not language_is_valid(choice.language):
            yield error(not_registered(choice.language), file, pointer_join(base, "options", i, "language"), code="language")
    yield from blank_text_errors(question, file)
    yield from markdown_errors(rich_texts(question), base, file)
    if question.draft:
        yield note(f"question '{question.id}' is a draft: it stays in the bank and is not exported", file, base, code="draft")
        return
    yield from TYPE_RULES[type(question)](question, file)


def quiz_diagnostics(quiz: Quiz) -> Iterator[Diagnostic]:
    file = quiz.location.file
    yield from language_errors(quiz.language, file, "/language")
    if is_blank(quiz.title):
        yield error("the title cannot be only white space", file, "/title", code="blank")
    yield from markdown_errors([(("description",), quiz.description)], "", file)
    yield from unique_ids_of_list([q.id for q in quiz.questions], "/questions", "question", file)
    for question in quiz.questions:
        yield from question_diagnostics(question, file)
    yield from section_errors(quiz)
    for section in quiz.sections:
        yield from markdown_errors([(("instructions",), section.instructions)], section.location.pointer, file)
    if quiz.questions and not quiz.exported_questions:
        yield warning("every question is a draft: nothing will be exported", file, "/questions", code="all-drafts")

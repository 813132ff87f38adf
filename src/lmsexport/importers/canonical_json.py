"""The model back to canonical JSON, as a person would write it: `$schema` first, keys in the
schema's order, two-space indentation, and no property that only repeats its default (points 1,
shuffle on, credits that follow the default rule...), so an imported bank reads like hand-written
content and diffs cleanly."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..tolerances import ROUNDED_SHARE, ROUNDING
from ..model import (
    Blank,
    Choice,
    Description,
    DropdownBlank,
    FillInBlanks,
    NumericalBlank,
    Ordering,
    OrderingGrading,
    ShortAnswerBlank,
    Essay,
    Matching,
    MultipleResponse,
    Numerical,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Text,
    TextFormat,
    TrueFalse,
)

SCHEMA_REFERENCE = "../schema/quiz.schema.json"


def _number(value: float) -> int | float:
    if value == 0 and math.copysign(1.0, value) < 0:
        return value  # -0.0: a platform may show the sign
    return int(value) if value == int(value) and abs(value) < 1e15 else value


class _Writer:
    def __init__(self, quiz: Quiz):
        self.quiz = quiz
        self.default = _main_format(quiz)

    def text(self, text: Text | None) -> Any:
        if text is None:
            return None
        if text.format is TextFormat.HTML:
            raise ValueError("HTML text must be converted before it is written as content")
        if text.format is self.default:
            return text.source
        return {"text": text.source, "format": text.format.value}

    def language(self, language: str | None, inherited: str | None) -> str | None:
        return None if language in (None, inherited) else language

    def choices(self, question: SingleChoice | MultipleResponse) -> list[dict]:
        multiple = isinstance(question, MultipleResponse)
        n_correct = sum(1 for c in question.choices if c.correct)
        share = 1.0 / n_correct if n_correct else 0.0
        language = self.quiz.language_of(question)
        options = []
        for choice in question.choices:
            default = (share if choice.correct else -share) if multiple else (1.0 if choice.correct else 0.0)
            options.append(_compact({
                "id": choice.id,
                "text": self.text(choice.text),
                "correct": True if choice.correct else None,
                "credit": None if abs(choice.credit - default) < _credit_slack(default) else _number(choice.credit),
                "feedback": self.text(choice.feedback),
                "pinned": True if choice.pinned else None,
                "language": self.language(choice.language, language),
            }))
        return options

    def accepted(self, answers) -> list[dict]:
        return [_compact({"text": a.text, "credit": None if a.credit == 1 else _number(a.credit), "feedback": self.text(a.feedback)})
                for a in answers]

    def numeric(self, answers) -> list[dict]:
        result = []
        for a in answers:
            bounds = ({"min": _number(a.minimum), "max": _number(a.maximum)} if a.is_range
                      else {"value": _number(a.value), "tolerance": _number(a.tolerance) if a.tolerance else None})
            result.append(_compact({**bounds, "credit": None if a.credit == 1 else _number(a.credit), "feedback": self.text(a.feedback)}))
        return result

    def blank(self, blank: Blank) -> dict:
        common = {"id": blank.id, "type": blank.kind, "points": None if blank.points is None else _number(blank.points)}
        return _compact({**common, **BLANK_FIELDS[type(blank)](self, blank)})

    def question(self, question: Question) -> dict:
        written = QUESTION_FIELDS[type(question)]
        feedback = question.feedback
        data: dict[str, Any] = {
            "id": question.id,
            "type": question.type,
            "title": question.title,
            "stem": self.text(question.stem),
            "points": None if question.points == written.default_points(question) else _number(question.points),
            "penalty": None if question.penalty is None else _number(question.penalty),
            "language": self.language(question.language, self.quiz.language),
            "explanation": self.text(feedback.general),
        }
        if written.outcome_feedback:
            data["feedback"] = _compact({
                "correct": self.text(feedback.correct),
                "partially_correct": self.text(feedback.partially_correct),
                "incorrect": self.text(feedback.incorrect),
            }) or None
        data["tags"] = list(question.tags) or None
        data["draft"] = True if question.draft else None
        data.update(written.fields(self, question))
        return _compact(data)

    def quiz_data(self) -> dict:
        quiz = self.quiz
        source = None
        if quiz.source is not None:
            source = _compact({"name": quiz.source.name, "url": quiz.source.url, "license": quiz.source.license}) or None
        return _compact({
            "$schema": SCHEMA_REFERENCE,
            "id": quiz.id,
            "title": quiz.title,
            "description": self.text(quiz.description),
            "language": quiz.language,
            "level": quiz.level,
            "difficulty": quiz.difficulty,
            "learning_path": quiz.learning_path,
            "category": list(quiz.category) or None,
            "tags": list(quiz.tags) or None,
            "source": source,
            "text_format": self.default.value,
            "questions": [self.question(q) for q in quiz.questions],
            "sections": [_compact({"id": s.id, "title": s.title, "instructions": self.text(s.instructions), "questions": list(s.question_ids),
                                   "pick": s.pick, "shuffle": True if s.shuffle else None}) for s in quiz.sections] or None,
        })


def _choice_fields(writer: _Writer, question: SingleChoice | MultipleResponse) -> dict:
    return {"options": writer.choices(question), "shuffle": None if question.shuffle else False}


def _true_false_fields(writer: _Writer, question: TrueFalse) -> dict:
    return {"answer": question.answer, "true_feedback": writer.text(question.true_feedback),
            "false_feedback": writer.text(question.false_feedback)}


def _short_answer_fields(writer: _Writer, question: ShortAnswer) -> dict:
    return {"answers": writer.accepted(question.answers), "case_sensitive": True if question.case_sensitive else None}


def _ordering_fields(writer: _Writer, question: Ordering) -> dict:
    return {"items": [{"id": i.id, "text": writer.text(i.text)} for i in question.items],
            "grading": None if question.grading is OrderingGrading.ALL_OR_NOTHING else question.grading.value,
            "layout": "horizontal" if question.horizontal else None}


def _matching_fields(writer: _Writer, question: Matching) -> dict:
    return {"pairs": [{"id": p.id, "prompt": writer.text(p.prompt), "answer": p.answer} for p in question.pairs],
            "distractors": [{"id": d.id, "text": d.text} for d in question.distractors] or None,
            "shuffle": None if question.shuffle else False}


def _essay_fields(writer: _Writer, question: Essay) -> dict:
    return {"grader_info": writer.text(question.grader_info), "response_template": question.response_template,
            "lines": None if question.lines == 10 else question.lines}


def _blanks_points(question: FillInBlanks) -> float:
    # Worth its blanks unless it says otherwise.
    return sum(b.points for b in question.blanks) if all(b.points is not None for b in question.blanks) else 1.0


@dataclass(frozen=True, slots=True)
class _Written:
    """How a question type is written beyond the fields every question has."""

    fields: Callable[[_Writer, Any], dict]  # its own properties, in the schema's order
    outcome_feedback: bool = True  # whether it has correct / partially correct / incorrect feedback
    default_points: Callable[[Any], float] = lambda question: 1.0


# Keyed by the model's class (tests/test_type_coverage.py fails for a type left out).
QUESTION_FIELDS: dict[type[Question], _Written] = {
    SingleChoice: _Written(_choice_fields),
    MultipleResponse: _Written(_choice_fields),
    TrueFalse: _Written(_true_false_fields, outcome_feedback=False),
    ShortAnswer: _Written(_short_answer_fields),
    Numerical: _Written(lambda writer, question: {"answers": writer.numeric(question.answers)}),
    FillInBlanks: _Written(lambda writer, question: {"blanks": [writer.blank(b) for b in question.blanks]}, default_points=_blanks_points),
    Ordering: _Written(_ordering_fields),
    Matching: _Written(_matching_fields),
    Essay: _Written(_essay_fields, outcome_feedback=False),
    Description: _Written(lambda writer, question: {}, outcome_feedback=False, default_points=lambda question: 0.0),
}


def _dropdown_fields(writer: _Writer, blank: DropdownBlank) -> dict:
    options = [_compact({"id": o.id, "text": o.text, "correct": True if o.correct else None,
                         "credit": None if o.credit == (1.0 if o.correct else 0.0) else _number(o.credit),
                         "feedback": writer.text(o.feedback)}) for o in blank.options]
    return {"options": options, "shuffle": None if blank.shuffle else False}


# A blank's own properties after its id, kind and points, keyed by the model's class.
BLANK_FIELDS: dict[type[Blank], Callable[[_Writer, Any], dict]] = {
    ShortAnswerBlank: lambda writer, blank: {"answers": writer.accepted(blank.answers), "case_sensitive": True if blank.case_sensitive else None},
    NumericalBlank: lambda writer, blank: {"answers": writer.numeric(blank.answers)},
    DropdownBlank: _dropdown_fields,
}


def _credit_slack(default: float) -> float:
    # Moodle stores 1/3 as 0.3333333: a credit that only rounds the default is the default.
    return ROUNDED_SHARE if default not in (0.0, 1.0) else ROUNDING


def _compact(data: dict) -> dict:
    return {key: value for key, value in data.items() if value is not None}


def _texts(quiz: Quiz):
    yield quiz.description
    for question in quiz.questions:
        yield from (text for _, text in question.texts())


def _main_format(quiz: Quiz) -> TextFormat:
    """The format most texts use, so that most need no {"text", "format"} object."""
    counts = Counter(t.format for t in _texts(quiz) if t is not None)
    if counts[TextFormat.MARKDOWN] > counts[TextFormat.PLAIN]:
        return TextFormat.MARKDOWN
    return TextFormat.PLAIN


def quiz_to_data(quiz: Quiz) -> dict:
    return _Writer(quiz).quiz_data()


def quiz_to_json(quiz: Quiz) -> bytes:
    """The quiz as the bytes of a content file."""
    return (json.dumps(quiz_to_data(quiz), ensure_ascii=False, indent=2) + "\n").encode("utf-8")

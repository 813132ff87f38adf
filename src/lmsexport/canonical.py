"""The canonical JSON content to the model, once the schema has accepted the data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .model import (
    Blank,
    DropdownBlank,
    DropdownOption,
    FillInBlanks,
    NumericalBlank,
    ShortAnswerBlank,
    Section,
    AcceptedAnswer,
    Choice,
    Description,
    Distractor,
    Essay,
    Feedback,
    Location,
    Matching,
    MatchPair,
    MultipleResponse,
    Numerical,
    NumericAnswer,
    OrderingGrading,
    Ordering,
    OrderItem,
    QUESTION_TYPES,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Source,
    Text,
    TextFormat,
    TrueFalse,
    constructor,
)


# White space around a plain text is not content: HTML collapses it and Moodle trims it, so a
# text keeps it in no export. It is removed here, once, so every writer sees the same text.
# Only ASCII white space: a no-break space is the author's choice.
_AROUND = " \t\n\r\x0b\x0c"


def _plain(value: str | None) -> str | None:
    return None if value is None else value.strip(_AROUND)


def _tags(values) -> tuple[str, ...]:
    """Tags trimmed; two that differ only by white space at their ends are one tag (the schema
    refuses a list holding one twice exactly, and every platform trims them)."""
    if not values:
        return ()
    return tuple(dict.fromkeys([t.strip(_AROUND) for t in values]))  # the schema makes each a string


_NO_FEEDBACK = Feedback()
# Read once: an Enum member read off its class, or made by calling it, is slow on Python 3.11.
_PLAIN = TextFormat.PLAIN
_TEXT_FORMATS = {member.value: member for member in TextFormat}

# Each model object is made by its class's constructor without the frozen dataclass's per-field
# __setattr__ (model.constructor): the same objects, for a third of the cost of the fields a
# bank has by the hundred thousand (a Text, of two fields, in half the time: 0.73 against 1.63 µs).
_new: dict[type, Callable[..., Any]] = {cls: constructor(cls) for cls in (
    Text, Location, Feedback, Choice, AcceptedAnswer, NumericAnswer, DropdownOption, ShortAnswerBlank, NumericalBlank,
    DropdownBlank, SingleChoice, MultipleResponse, TrueFalse, ShortAnswer, Numerical, FillInBlanks, Matching, MatchPair,
    Distractor, Ordering, OrderItem, Essay, Description, Section, Quiz)}


class _Reader:
    def __init__(self, default_format: TextFormat, file: str):
        self.default_format = default_format
        self.file = file
        self.plain_default = default_format is _PLAIN

    def text(self, value: Any) -> Text | None:
        if value is None:
            return None
        # Markdown keeps leading spaces (four make a code block) and renders the rest away.
        if isinstance(value, str):  # the common case, kept short
            return _new[Text](value.strip(_AROUND) if self.plain_default else value, self.default_format)
        source = value["text"]
        text_format = _TEXT_FORMATS[value["format"]] if "format" in value else self.default_format  # the schema knows the names
        return _new[Text](_plain(source) if text_format is _PLAIN else source, text_format)

    def feedback(self, data: dict) -> Feedback:
        feedback = data.get("feedback")
        explanation = data.get("explanation")
        if feedback is None and explanation is None:
            return _NO_FEEDBACK  # immutable, so every question without feedback shares one
        feedback = feedback or {}
        return _new[Feedback](
            general=self.text(explanation),
            correct=self.text(feedback.get("correct")),
            partially_correct=self.text(feedback.get("partially_correct")),
            incorrect=self.text(feedback.get("incorrect")),
        )

    def common(self, data: dict, index: int) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "id": data["id"],
            "stem": self.text(data["stem"]),
            "title": _plain(data.get("title")),
            "language": data.get("language"),
            "feedback": self.feedback(data),
            "tags": _tags(data.get("tags", ())),
            "draft": data.get("draft", False),
            "penalty": data.get("penalty"),
            "location": _new[Location](self.file, f"/questions/{index}"),
        }
        if "points" in data:
            fields["points"] = float(data["points"])
        return fields

    def choices(self, options: list[dict], multiple: bool) -> tuple[Choice, ...]:
        corrects = [option.get("correct", False) for option in options]
        # The credit of an option that states none: in multiple response an equal share of the
        # points for each correct option and as much off for each wrong one; else all or nothing.
        if multiple:
            n_correct = corrects.count(True)  # the schema makes `correct` a boolean
            right = 1.0 / n_correct if n_correct else 0.0
            wrong = -right
        else:
            right, wrong = 1.0, 0.0
        make, text = _new[Choice], self.text  # looked up once for all the options
        return tuple([
            make(
                id=option["id"],
                text=text(option["text"]),
                correct=correct,
                credit=float(option["credit"]) if "credit" in option else right if correct else wrong,
                # Most options have no feedback: None is not passed through `text`.
                feedback=None if (feedback := option.get("feedback")) is None else text(feedback),
                pinned=option.get("pinned", False),
                language=option.get("language"),
            )
            for option, correct in zip(options, corrects)
        ])

    def accepted(self, answers: list[dict]) -> tuple[AcceptedAnswer, ...]:
        return tuple(
            _new[AcceptedAnswer](text=_plain(a["text"]), credit=float(a.get("credit", 1)), feedback=self.text(a.get("feedback")))
            for a in answers
        )

    def numeric(self, answers: list[dict]) -> tuple[NumericAnswer, ...]:
        return tuple(
            _new[NumericAnswer](
                value=float(a["value"]) if "value" in a else None,
                tolerance=float(a.get("tolerance", 0)),
                minimum=float(a["min"]) if "min" in a else None,
                maximum=float(a["max"]) if "max" in a else None,
                credit=float(a.get("credit", 1)),
                feedback=self.text(a.get("feedback")),
            )
            for a in answers
        )

    def blank(self, data: dict) -> Blank:
        common = {"id": data["id"], "points": float(data["points"]) if "points" in data else None}
        kind = data["type"]
        if kind == "short_answer":
            return _new[ShortAnswerBlank](**common, answers=self.accepted(data["answers"]), case_sensitive=data.get("case_sensitive", False))
        if kind == "numerical":
            return _new[NumericalBlank](**common, answers=self.numeric(data["answers"]))
        options = tuple(
            _new[DropdownOption](
                id=o["id"],
                text=_plain(o["text"]),
                correct=o.get("correct", False),
                credit=float(o["credit"]) if "credit" in o else (1.0 if o.get("correct", False) else 0.0),
                feedback=self.text(o.get("feedback")),
            )
            for o in data["options"]
        )
        return _new[DropdownBlank](**common, options=options, shuffle=data.get("shuffle", True))

    def question(self, data: dict, index: int) -> Question:
        fields = self.common(data, index)
        kind = QUESTION_TYPES.get(data["type"])
        if kind is None:
            raise ValueError(f"unknown question type {data['type']!r}")  # the schema rules this out
        question = _QUESTIONS[kind](self, data, fields)
        question.keep_texts()  # every check and writer walks them: made here once, at no miss
        return question

    def _single_choice(self, data: dict, fields: dict) -> Question:
        return _new[SingleChoice](**fields, choices=self.choices(data["options"], False), shuffle=data.get("shuffle", True))

    def _multiple_response(self, data: dict, fields: dict) -> Question:
        return _new[MultipleResponse](**fields, choices=self.choices(data["options"], True), shuffle=data.get("shuffle", True))

    def _true_false(self, data: dict, fields: dict) -> Question:
        return _new[TrueFalse](
            **fields,
            answer=data["answer"],
            true_feedback=self.text(data.get("true_feedback")),
            false_feedback=self.text(data.get("false_feedback")),
        )

    def _short_answer(self, data: dict, fields: dict) -> Question:
        return _new[ShortAnswer](**fields, answers=self.accepted(data["answers"]), case_sensitive=data.get("case_sensitive", False))

    def _numerical(self, data: dict, fields: dict) -> Question:
        return _new[Numerical](**fields, answers=self.numeric(data["answers"]))

    def _fill_in_blanks(self, data: dict, fields: dict) -> Question:
        blanks = data["blanks"]
        if "points" not in data and all("points" in b for b in blanks):
            fields["points"] = float(sum(b["points"] for b in blanks))  # the question is worth its blanks
        return _new[FillInBlanks](**fields, blanks=tuple(self.blank(b) for b in blanks))

    def _matching(self, data: dict, fields: dict) -> Question:
        pairs = tuple(_new[MatchPair](id=p["id"], prompt=self.text(p["prompt"]), answer=_plain(p["answer"])) for p in data["pairs"])
        distractors = tuple(_new[Distractor](id=d["id"], text=_plain(d["text"])) for d in data.get("distractors", ()))
        return _new[Matching](**fields, pairs=pairs, distractors=distractors, shuffle=data.get("shuffle", True))

    def _ordering(self, data: dict, fields: dict) -> Question:
        return _new[Ordering](
            **fields,
            items=tuple(_new[OrderItem](id=item["id"], text=self.text(item["text"])) for item in data["items"]),
            grading=OrderingGrading(data.get("grading", "all_or_nothing")),
            horizontal=data.get("layout", "vertical") == "horizontal",
        )

    def _essay(self, data: dict, fields: dict) -> Question:
        return _new[Essay](
            **fields,
            grader_info=self.text(data.get("grader_info")),
            response_template=data.get("response_template"),
            lines=data.get("lines", 10),
        )

    def _description(self, data: dict, fields: dict) -> Question:
        return _new[Description](**fields)



# The builder of each question type, keyed by the model's class (tests/test_type_coverage.py fails
# for a type left out).
_QUESTIONS: dict[type[Question], Callable[[_Reader, dict, dict], Question]] = {
    SingleChoice: _Reader._single_choice,
    MultipleResponse: _Reader._multiple_response,
    TrueFalse: _Reader._true_false,
    ShortAnswer: _Reader._short_answer,
    Numerical: _Reader._numerical,
    Matching: _Reader._matching,
    Ordering: _Reader._ordering,
    FillInBlanks: _Reader._fill_in_blanks,
    Essay: _Reader._essay,
    Description: _Reader._description,
}

def build_quiz(data: dict, file: str = "", skip: frozenset[int] = frozenset()) -> Quiz:
    """The model of a quiz whose data the schema has accepted; the questions at the `skip`
    indexes are left out (their places stay in every other question's location)."""
    default_format = TextFormat(data.get("text_format", "plain"))
    reader = _Reader(default_format, file)
    source = data.get("source")
    return _new[Quiz](
        id=data["id"],
        title=_plain(data["title"]),
        language=data["language"],
        questions=tuple(reader.question(q, i) for i, q in enumerate(data["questions"]) if i not in skip),
        description=reader.text(data.get("description")),
        level=data.get("level"),
        difficulty=data.get("difficulty"),
        learning_path=data.get("learning_path"),
        category=tuple(data.get("category", ())),
        tags=_tags(data.get("tags", ())),
        source=Source(source.get("name"), source.get("url"), source.get("license")) if source else None,
        text_format=default_format,
        sections=tuple(
            _new[Section](
                id=s["id"],
                title=_plain(s["title"]),
                question_ids=tuple(s["questions"]),
                instructions=reader.text(s.get("instructions")),
                pick=s.get("pick"),
                shuffle=s.get("shuffle", False),
                location=Location(file, f"/sections/{i}"),
            )
            for i, s in enumerate(data.get("sections", ()))
        ),
        location=Location(file),
    )

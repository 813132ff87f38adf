"""The one document model of a quiz that every reader builds and every writer consumes.

All classes are frozen: a writer can never change what another writer will see.
Credits are fractions of a question's points, from -1 (lose all its points) to 1 (full marks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
import re
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from typing import Any

# (JSON pointer parts below the question, the text there or None): what `Question.texts` yields.
TextPlace = tuple[tuple[str | int, ...], "Text | None"]


class TextFormat(str, Enum):
    PLAIN = "plain"
    MARKDOWN = "markdown"
    HTML = "html"  # only text read back from a platform's format; content is plain or Markdown


@dataclass(frozen=True, slots=True)
class Text:
    """A piece of rich text as the author wrote it; writers render it (see `lmsexport.text`)."""

    source: str
    format: TextFormat = TextFormat.PLAIN


# The characters XML 1.0 cannot carry (outside its Char production), defined once: loading refuses
# them in every string of a quiz, so a model never holds one and writers may rely on that.
NOT_XML_CHARACTERS = "\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff"  # a regex class's body
NOT_XML = re.compile(f"[{NOT_XML_CHARACTERS}]")


@dataclass(frozen=True, slots=True)
class Location:
    """Where something stands in the content: a file and a JSON pointer into it."""

    file: str
    pointer: str = ""


@dataclass(frozen=True, slots=True)
class Source:
    """Where the quiz comes from: a name, an address and a license, each optional."""

    name: str | None = None
    url: str | None = None
    license: str | None = None


@dataclass(frozen=True, slots=True)
class Feedback:
    """Feedback shown after an attempt. `general` is the explanation shown whatever the answer."""

    general: Text | None = None
    correct: Text | None = None
    partially_correct: Text | None = None
    incorrect: Text | None = None


def _keep(made: object, slot: str, value: Any) -> Any:
    """`value` kept in `made`'s slot (one of the slots below, outside the dataclass fields) and
    returned; the frozen class refuses any assignment but `object.__setattr__`."""
    object.__setattr__(made, slot, value)
    return value


class _TextsKept:
    """A slot for a question's list of texts, made at the first call of `Question.texts` and kept:
    the question is immutable, so the list cannot change, and the checks and the four writers
    each walk it (a dozen times a question in a `build`). Not a field: no part of equality, of
    `repr`, of pickling or of `dataclasses.replace`, which makes a new question."""

    __slots__ = ("_texts",)


@dataclass(frozen=True, slots=True, kw_only=True)
class Question(_TextsKept):
    """What every question type has: its id, stem, title, points, language, feedback by outcome,
    tags, draft flag, penalty for another try, and its place in the content."""

    id: str
    stem: Text
    title: str | None = None
    points: float = 1.0
    language: str | None = None
    feedback: Feedback = field(default_factory=Feedback)
    tags: tuple[str, ...] = ()
    draft: bool = False
    penalty: float | None = None
    location: Location = field(default_factory=lambda: Location(""), compare=False)

    type = "abstract"

    def texts(self) -> tuple[TextPlace, ...]:
        """Every rich text of the question, in document order, with its place as JSON pointer
        parts below the question (None where a field is not set). Checks, media packing and the
        writers all walk this one list, so a new field cannot be forgotten by one of them."""
        try:
            return self._texts
        except AttributeError:  # the first call: made once (see _TextsKept)
            return self.keep_texts()

    def keep_texts(self) -> tuple[TextPlace, ...]:
        """`texts()` made now and kept (see _TextsKept). The JSON reader calls it for each
        question it builds, so that the first call of `texts()` finds them and costs no
        AttributeError; a question made otherwise has them made at that first call."""
        feedback = self.feedback
        return _keep(self, "_texts", (
            (("stem",), self.stem),
            (("explanation",), feedback.general),
            (("feedback", "correct"), feedback.correct),
            (("feedback", "partially_correct"), feedback.partially_correct),
            (("feedback", "incorrect"), feedback.incorrect),
            *self.own_texts(),
        ))

    def own_texts(self) -> Iterable[TextPlace]:
        """The texts of this question type beyond the stem and the feedback by outcome."""
        return ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    """An answer option. `credit` is what choosing it is worth: 1 for the answer of a single
    choice question, a share of the points (or a negative penalty) in multiple response."""

    id: str
    text: Text
    correct: bool
    credit: float
    feedback: Text | None = None
    pinned: bool = False
    language: str | None = None


def _choice_texts(choices: tuple[Choice, ...]) -> list[TextPlace]:
    # A list, not a generator: it is read once, into the kept texts, and a generator's resuming
    # for each of a bank's hundred thousand option texts costs more than the list.
    texts: list[TextPlace] = []
    for i, choice in enumerate(choices):
        texts += ((("options", i, "text"), choice.text), (("options", i, "feedback"), choice.feedback))
    return texts


@dataclass(frozen=True, slots=True, kw_only=True)
class SingleChoice(Question):
    """One answer is selected. Exactly one choice has credit 1; others may carry partial credit."""

    choices: tuple[Choice, ...] = ()
    shuffle: bool = True

    type = "single_choice"

    def own_texts(self) -> Iterable[TextPlace]:
        return _choice_texts(self.choices)


@dataclass(frozen=True, slots=True, kw_only=True)
class MultipleResponse(Question):
    """Any number of answers are selected; the score is the sum of their credits, kept in [0, 1]."""

    choices: tuple[Choice, ...] = ()
    shuffle: bool = True

    type = "multiple_response"

    def own_texts(self) -> Iterable[TextPlace]:
        return _choice_texts(self.choices)


@dataclass(frozen=True, slots=True, kw_only=True)
class TrueFalse(Question):
    """A statement the student judges true or false; `answer` is the right judgement."""

    answer: bool
    true_feedback: Text | None = None
    false_feedback: Text | None = None

    type = "true_false"

    def own_texts(self) -> Iterator[TextPlace]:
        yield ("true_feedback",), self.true_feedback
        yield ("false_feedback",), self.false_feedback


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptedAnswer:
    """A typed answer a short-answer question or blank accepts, with its credit and feedback."""

    text: str
    credit: float = 1.0
    feedback: Text | None = None


def _answer_texts(answers: tuple[AcceptedAnswer | NumericAnswer, ...]) -> Iterator[TextPlace]:
    for i, answer in enumerate(answers):
        yield ("answers", i, "feedback"), answer.feedback


@dataclass(frozen=True, slots=True, kw_only=True)
class ShortAnswer(Question):
    """The student types a word or phrase, compared with the accepted answers."""

    answers: tuple[AcceptedAnswer, ...] = ()
    case_sensitive: bool = False

    type = "short_answer"

    def own_texts(self) -> Iterator[TextPlace]:
        return _answer_texts(self.answers)


@dataclass(frozen=True, slots=True, kw_only=True)
class NumericAnswer:
    """Either `value` with an absolute `tolerance`, or the closed range [`minimum`, `maximum`]."""

    value: float | None = None
    tolerance: float = 0.0
    minimum: float | None = None
    maximum: float | None = None
    credit: float = 1.0
    feedback: Text | None = None

    @property
    def is_range(self) -> bool:
        return self.value is None

    @property
    def low(self) -> float:
        return self.minimum if self.value is None else self.value - self.tolerance

    @property
    def high(self) -> float:
        return self.maximum if self.value is None else self.value + self.tolerance


@dataclass(frozen=True, slots=True, kw_only=True)
class Numerical(Question):
    """The student types a number, graded by exact values with a tolerance or by ranges."""

    answers: tuple[NumericAnswer, ...] = ()

    type = "numerical"

    def own_texts(self) -> Iterator[TextPlace]:
        return _answer_texts(self.answers)


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchPair:
    """A prompt and the answer it matches."""

    id: str
    prompt: Text
    answer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Distractor:
    """An answer of a matching question that matches no prompt."""

    id: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Matching(Question):
    """Each prompt is matched to one answer; distractors are answers that match no prompt."""

    pairs: tuple[MatchPair, ...] = ()
    distractors: tuple[Distractor, ...] = ()
    shuffle: bool = True

    type = "matching"

    def own_texts(self) -> Iterator[TextPlace]:
        for i, pair in enumerate(self.pairs):
            yield ("pairs", i, "prompt"), pair.prompt


@dataclass(frozen=True, slots=True, kw_only=True)
class Essay(Question):
    """A free-text answer graded by a person (grader information, a response template, a size)."""

    grader_info: Text | None = None
    response_template: str | None = None
    lines: int = 10

    type = "essay"

    def own_texts(self) -> Iterator[TextPlace]:
        yield ("grader_info",), self.grader_info


@dataclass(frozen=True, slots=True, kw_only=True)
class Description(Question):
    """Text with no answer: an introduction or a case that later questions refer to."""

    points: float = 0.0

    type = "description"


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderItem:
    """One item of an ordering question, in the right order among the others."""

    id: str
    text: Text


class OrderingGrading(str, Enum):
    """How a partly right order is scored: Moodle's grading types (qtype_ordering question.php
    grade_response), each a share of the points."""

    ALL_OR_NOTHING = "all_or_nothing"  # every item in its place, or nothing
    ABSOLUTE_POSITION = "absolute_position"  # items in their right place / items
    RELATIVE_NEXT_EXCLUDE_LAST = "relative_next_exclude_last"  # items followed by their right successor / (items - 1)
    RELATIVE_NEXT_INCLUDE_LAST = "relative_next_include_last"  # the same, the last item counting when it is last
    RELATIVE_ONE_PREVIOUS_AND_NEXT = "relative_one_previous_and_next"  # right neighbours on both sides
    RELATIVE_ALL_PREVIOUS_AND_NEXT = "relative_all_previous_and_next"  # right items before and after each
    LONGEST_ORDERED_SUBSET = "longest_ordered_subset"  # the longest run in order, gaps allowed / items
    LONGEST_CONTIGUOUS_SUBSET = "longest_contiguous_subset"  # the longest run in order without gaps / items


@dataclass(frozen=True, slots=True, kw_only=True)
class Ordering(Question):
    """Items to put in order: `items` are written in the right order, students see them shuffled."""

    items: tuple[OrderItem, ...] = ()
    grading: OrderingGrading = OrderingGrading.ALL_OR_NOTHING
    horizontal: bool = False  # items side by side instead of one under the other

    type = "ordering"

    def own_texts(self) -> Iterator[TextPlace]:
        for i, item in enumerate(self.items):
            yield ("items", i, "text"), item.text


@dataclass(frozen=True, slots=True, kw_only=True)
class Blank:
    """A blank inside the stem, written there as [[id]]. `points` as the author gave it, or None:
    see FillInBlanks.blank_points."""

    id: str
    points: float | None = None

    kind = "abstract"

    def own_texts(self) -> Iterator[tuple[tuple[str | int, ...], Text | None]]:
        return iter(())


@dataclass(frozen=True, slots=True, kw_only=True)
class ShortAnswerBlank(Blank):
    """A blank the student fills in with a typed answer."""

    answers: tuple[AcceptedAnswer, ...] = ()
    case_sensitive: bool = False

    kind = "short_answer"

    def own_texts(self) -> Iterator[tuple[tuple[str | int, ...], Text | None]]:
        return _answer_texts(self.answers)


@dataclass(frozen=True, slots=True, kw_only=True)
class NumericalBlank(Blank):
    """A blank the student fills in with a number."""

    answers: tuple[NumericAnswer, ...] = ()

    kind = "numerical"

    def own_texts(self) -> Iterator[tuple[tuple[str | int, ...], Text | None]]:
        return _answer_texts(self.answers)


@dataclass(frozen=True, slots=True, kw_only=True)
class DropdownOption:
    """An option of a drop-down blank, with its credit and feedback."""

    id: str
    text: str  # plain: a drop-down shows no formatting
    correct: bool
    credit: float
    feedback: Text | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DropdownBlank(Blank):
    """A blank the student fills in by choosing from a drop-down list."""

    options: tuple[DropdownOption, ...] = ()
    shuffle: bool = True

    kind = "dropdown"

    def own_texts(self) -> Iterator[tuple[tuple[str | int, ...], Text | None]]:
        for i, option in enumerate(self.options):
            yield ("options", i, "feedback"), option.feedback


@dataclass(frozen=True, slots=True, kw_only=True)
class FillInBlanks(Question):
    """A text with blanks (typed words, numbers, drop-downs); the score is the sum of the blanks'."""

    blanks: tuple[Blank, ...] = ()

    type = "fill_in_blanks"

    def own_texts(self) -> Iterator[TextPlace]:
        for i, blank in enumerate(self.blanks):
            for place, text in blank.own_texts():
                yield ("blanks", i, *place), text

    @property
    def blank_points(self) -> tuple[float, ...]:
        """What each blank is worth: its own points, or an equal share of the question's."""
        share = self.points / len(self.blanks) if self.blanks else 0.0
        return tuple(share if blank.points is None else blank.points for blank in self.blanks)


QUESTION_TYPES: dict[str, type[Question]] = {
    cls.type: cls
    for cls in (SingleChoice, MultipleResponse, TrueFalse, ShortAnswer, Numerical, Matching, Ordering, FillInBlanks, Essay, Description)
}
BLANK_KINDS: dict[str, type[Blank]] = {cls.kind: cls for cls in (ShortAnswerBlank, NumericalBlank, DropdownBlank)}


@dataclass(frozen=True, slots=True)
class MediaFile:
    """A file that the quiz's texts show, as loaded, checked and (for SVG) sanitised."""

    path: str  # as written in the content, relative to the quiz file: "media/ring.png"
    data: bytes
    mime: str

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """A group of the quiz's questions, shown together; `pick` of them drawn at random for each
    student when set (they are then all worth the same points)."""

    id: str
    title: str
    question_ids: tuple[str, ...]
    instructions: Text | None = None
    pick: int | None = None
    shuffle: bool = False
    location: Location = field(default_factory=lambda: Location(""), compare=False)


class _ExportedKept:
    """A slot for a quiz's exported questions, made at the first use of `Quiz.exported_questions`
    and kept (the quiz is immutable; the checks and writers ask for them some twenty times a
    quiz). Not a field, like `_TextsKept`."""

    __slots__ = ("_exported",)


@dataclass(frozen=True, slots=True, kw_only=True)
class Quiz(_ExportedKept):
    """One quiz file: its metadata, questions, sections and the media files its texts show."""

    id: str
    title: str
    language: str
    questions: tuple[Question, ...]
    description: Text | None = None
    level: str | None = None
    difficulty: str | None = None
    learning_path: str | None = None
    category: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    source: Source | None = None
    text_format: TextFormat = TextFormat.PLAIN
    media: tuple[MediaFile, ...] = ()  # every local file the texts refer to, in order of first use
    sections: tuple[Section, ...] = ()
    location: Location = field(default_factory=lambda: Location(""), compare=False)

    @property
    def exported_questions(self) -> tuple[Question, ...]:
        """The questions a writer puts out: drafts stay in the bank only."""
        try:
            return self._exported
        except AttributeError:  # the first use: made once (see _ExportedKept)
            pass
        return _keep(self, "_exported", tuple(q for q in self.questions if not q.draft))

    @property
    def sections_of_drafts(self) -> tuple[Section, ...]:
        """Sections whose questions are all drafts: left out of every export (layout)."""
        shown = {q.id for q in self.exported_questions}
        return tuple(s for s in self.sections if not shown.intersection(s.question_ids))

    def layout(self) -> list[tuple[Section | None, tuple[Question, ...]]]:
        """The exported questions in the order shown: runs of questions in no section, and each
        section with exported questions (in its own order) where its first exported question
        stands. Drafts take no place: the layout is that of the quiz without them, which is all an
        export holds and so all an import of it can give back."""
        by_id = {q.id: q for q in self.exported_questions}
        section_of = {qid: s for s in self.sections for qid in s.question_ids}
        result: list[tuple[Section | None, tuple[Question, ...]]] = []
        placed: set[str] = set()
        loose: list[Question] = []
        for question in self.exported_questions:  # a section of drafts only shows nothing: no platform gets it
            section = section_of.get(question.id)
            if section is None:
                loose.append(question)
                continue
            if section.id in placed:
                continue
            placed.add(section.id)
            members = tuple(by_id[qid] for qid in section.question_ids if qid in by_id)
            if loose:
                result.append((None, tuple(loose)))
                loose = []
            result.append((section, members))
        if loose:
            result.append((None, tuple(loose)))
        return result

    def language_of(self, question: Question) -> str:
        return question.language or self.language

    def media_file(self, path: str) -> MediaFile:
        for media in self.media:
            if media.path == path:
                return media
        raise KeyError(path)


_FROM_FACTORY = object()  # the default of a parameter whose field has a default_factory


def constructor(cls: type) -> Callable[..., Any]:
    """A function that makes `cls` objects exactly as its dataclass __init__ does (the same
    parameters, defaults and object), storing each field through its slot directly instead of
    through the frozen class's __setattr__, which refuses and so must be bypassed field by field
    (`object.__setattr__`, about 0.15 µs each). For readers building a bank's model: a question
    with its options is a few dozen fields. (tests/test_model_constructors.py holds every
    constructor to its class.)"""
    parameters, body, names = [], [], {"new": object.__new__, "cls": cls, "FROM_FACTORY": _FROM_FACTORY}
    keyword_only = False
    for f in fields(cls):
        if f.kw_only and not keyword_only:
            parameters.append("*")
            keyword_only = True
        if f.default is not MISSING:
            names[f"default_{f.name}"] = f.default
            parameters.append(f"{f.name}=default_{f.name}")
        elif f.default_factory is not MISSING:
            names[f"factory_{f.name}"] = f.default_factory
            parameters.append(f"{f.name}=FROM_FACTORY")
            body.append(f"    if {f.name} is FROM_FACTORY:\n        {f.name} = factory_{f.name}()\n")
        else:
            parameters.append(f.name)
        names[f"set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's own descriptor
        body.append(f"    set_{f.name}(made, {f.name})\n")
    source = f"def make({', '.join(parameters)}):\n    made = new(cls)\n{''.join(body)}    return made\n"
    exec(source, names)  # as dataclasses builds __init__ itself
    return names["make"]

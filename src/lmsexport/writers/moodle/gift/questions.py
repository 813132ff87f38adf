"""One GIFT block per question type; each block is followed by a blank line, because Moodle
splits questions on blank lines only (qformat_default::readquestions)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from urllib.parse import quote

from ....model import (
    Blank,
    Choice,
    Description,
    DropdownBlank,
    Essay,
    FillInBlanks,
    Location,
    Matching,
    MultipleResponse,
    Numerical,
    NumericalBlank,
    Ordering,
    Question,
    ShortAnswer,
    ShortAnswerBlank,
    SingleChoice,
    Text,
    TrueFalse,
)
from ....diagnostics import pointer_join
from ....text import PLAIN, RenderStyle, media_references
from ....text.blanks import fill
from ..common import escape_wildcards, name_place, question_name, question_tags, range_as_value_and_tolerance, tag_place
from ..check import grade_problems
from ..grades import Percentages
from ...reporter import CASE, GRADER_INFO, PENALTY, RESPONSE_TEMPLATE, Reporter, outcome_feedback
from ...xml import number  # XSD's spelling, which GIFT's reader reads back exactly too
from . import escape as esc

# A final backslash would turn the closing ']' into an escaped one and swallow the next tag.
_TAG_SAFE = re.compile(r"^[^\x00-\x1f\x7f<>]+(?<!\\)$")


def media_link(base: str):
    """The address of a media file published under `base`: the base, then the path as written."""
    prefix = base if base.endswith("/") else base + "/"
    return lambda path: prefix + quote(path, safe="/")


def stand_in(question: FillInBlanks) -> Question:
    """The question of one type that the blank of a one-blank question is, for its answer block;
    it stands where the blank stands, so what is said of its answers is said at the blank's."""
    blank = question.blanks[0]
    location = Location(question.location.file, pointer_join(question.location.pointer, "blanks", 0))
    same = {"id": question.id, "stem": question.stem, "feedback": question.feedback, "location": location}
    return AS_QUESTION[type(blank)](blank, same)


def _dropdown_as_choice(blank: DropdownBlank, same: dict) -> Question:
    choices = tuple(Choice(id=o.id, text=Text(o.text), correct=o.correct, credit=o.credit, feedback=o.feedback) for o in blank.options)
    return SingleChoice(**same, choices=choices, shuffle=blank.shuffle)


# The question a lone blank stands in as, by the blank's class.
AS_QUESTION: dict[type[Blank], Callable[[Blank, dict], Question]] = {
    ShortAnswerBlank: lambda blank, same: ShortAnswer(**same, answers=blank.answers, case_sensitive=blank.case_sensitive),
    NumericalBlank: lambda blank, same: Numerical(**same, answers=blank.answers),
    DropdownBlank: _dropdown_as_choice,
}


@lru_cache(maxsize=4096)  # a bank repeats a few combinations of tags over its questions
def comment_tags(tags: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The `[tag:...]` of a question's comment line for these tags, and the tags GIFT cannot carry
    (left out of it)."""
    written = ""
    left_out = []
    for tag in tags:
        if _TAG_SAFE.match(tag):
            written += " [tag:" + tag.replace("]", "\\]") + "]"
        else:
            left_out.append(tag)
    return written, tuple(left_out)


class BlockWriter:
    def __init__(self, report: Reporter):
        self.report = report
        self.quiz = report.quiz
        self.options = options = report.options
        self.lang: str | None = None  # the language of the question being written, when not the quiz's
        # The percentage written for a credit, None when Moodle would refuse it: `render` reports
        # the problem, at the credit, with the check's own `grade_problems`.
        self.percentages = Percentages(options.nearest_grade)
        # GIFT cannot carry files: with a base URL, media are absolute links to where they are published.
        base = options.media_base_url
        self.style = None if base is None else RenderStyle(media_url=media_link(base))

    def rich(self, text: Text, inline: bool) -> str:
        source = text.source
        # The common case, without detours: a plain text with no '->' and no '&&' survives as it
        # is (escape.plain_survives; esc.rich says the rest).
        if self.lang is None and text.format is PLAIN and "->" not in source and "&&" not in source:
            return "[plain]" + esc.escape(source)
        return esc.rich(text, inline, self.lang, self.style)

    def paragraph(self, text: Text) -> str:
        """A text as [html]: its block HTML, so that something follows an answer block at its end."""
        return esc.rich_html(text)

    def plain_answer(self, question: Question, source: str, what: str, *where: str | int) -> str | None:
        if not esc.plain_survives(source):
            self.report.error(question, f"{what} {source!r}: GIFT cannot carry '->' or Moodle's placeholders (&&058; ...) in a plain answer", *where, code="gift-unwritable")
            return None
        return esc.answer(source)

    # -- the block -----------------------------------------------------------------------------
    def block(self, question: Question) -> str | None:
        language = question.language
        self.lang = language if language is not None and language != self.quiz.language else None
        self.common_losses(question)
        body = WRITERS[type(question)](self, question)
        if body is None:
            return None
        stem = self.rich(question.stem, inline=False)
        if isinstance(question, FillInBlanks):  # GIFT's missing word: the answer block stands in the text
            if stem.endswith("]]"):
                # A text ending with its answer block is an ordinary question to Moodle, not a
                # missing word: as a paragraph of HTML the block has text after it and shows the same.
                stem = self.paragraph(question.stem)
            stem, body = fill(stem, lambda name: body), ""
        return self.comment(question) + "\n::" + self.name(question) + "::" + stem + body

    def name(self, question: Question) -> str:
        return esc.name(question_name(question))

    def comment(self, question: Question) -> str:
        # Moodle reads `[id:...]` and `[tag:...]` from the comment lines of a question.
        tags = question_tags(self.quiz, question)
        if not tags:
            return f"// [id:{question.id}]"
        written, left_out = comment_tags(tags)
        for tag in left_out:
            at, parts = tag_place(self.quiz, question, tag)
            self.report.loss(at, f"tag {tag!r}: a GIFT tag cannot hold line breaks, control characters, '<' or '>', nor end with a backslash; it is left out", *parts, code="gift-tag")
        return f"// [id:{question.id}]" + written

    def common_losses(self, question: Question) -> None:
        name = question_name(question)
        if "&&" in name and esc.PLACEHOLDER.search(name):  # every placeholder starts so
            self.report.loss(question, "the question name holds Moodle's GIFT placeholders (&&058; ...), which Moodle turns into characters", name_place(question), code="gift-name")
        default_points = 0.0 if question.type == "description" else 1.0
        if question.points != default_points:
            self.report.loss(question, f"GIFT cannot carry points ({question.points:g}); Moodle gives the question {default_points:g}", "points", code="gift-points")
        if question.penalty is not None:
            self.report.lost(question, PENALTY, "penalty")
        feedback = question.feedback
        combined = () if feedback.correct is None and feedback.partially_correct is None and feedback.incorrect is None else [name for name in ("correct", "partially_correct", "incorrect") if getattr(feedback, name) is not None]
        if combined:
            self.report.lost(question, outcome_feedback(combined), "feedback")
        # quiz.media lists every local file the texts show: without it there is nothing to look for.
        if self.quiz.media and self.style is None:
            for parts, text in question.texts():
                media = media_references(text) if text is not None else ()
                if media:
                    self.report.loss(question, f"GIFT cannot carry media files ({', '.join(dict.fromkeys(media))}): Moodle will show them broken unless they are published and linked with a media base URL", *parts, code="gift-media")
        if getattr(question, "shuffle", True) is False:
            self.report.loss(question, "GIFT cannot turn shuffling off: Moodle's default applies", "shuffle", code="gift-shuffle")

    def general(self, question: Question) -> str:
        general = question.feedback.general
        return "" if general is None else "\t####" + self.rich(general, inline=False) + "\n"

    def feedback(self, text: Text | None) -> str:
        return "" if text is None else "#" + self.rich(text, inline=True)

    # -- the types -----------------------------------------------------------------------------
    def _choices(self, question: SingleChoice | MultipleResponse, single: bool) -> str | None:
        if len(question.choices) < 2:
            self.report.error(question, "Moodle's GIFT import needs at least two options", "options", code="gift-options")
            return None
        percentages = self.percentages
        percents = [percentages[choice.credit] for choice in question.choices]
        if None in percents:
            return None
        return "{\n" + self.choice_lines(question, single, percents) + self.general(question) + "}"

    def choice_lines(self, question: SingleChoice | MultipleResponse, single: bool, percents: list[str]) -> str:
        """The options of a choice block, one a line, each marked with its percentage."""
        lines = []
        for choice, percent in zip(question.choices, percents):
            if single and percent == "100":
                mark = "="  # the one '=' makes Moodle read a single answer question
            elif percent == "0":
                mark = "~"
            else:
                mark = f"~%{percent}%"
            # An option in a language of its own is [html] wrapped in an element stating it, as the
            # question's own language is: Moodle keeps the format of each answer.
            own = choice.language is not None and choice.language != (self.lang or self.quiz.language)
            text = esc.rich(choice.text, True, choice.language, self.style) if own else self.rich(choice.text, inline=True)
            feedback = choice.feedback
            lines.append("\t" + mark + text + ("" if feedback is None else self.feedback(feedback)) + "\n")
        return "".join(lines)

    def _single_choice(self, question: SingleChoice) -> str | None:
        return self._choices(question, single=True)

    def _multiple_response(self, question: MultipleResponse) -> str | None:
        return self._choices(question, single=False)

    def _true_false(self, question: TrueFalse) -> str:
        # Moodle reads {TRUE#wrong#right}: first the feedback for the wrong answer, then the right one.
        right, wrong = (question.true_feedback, question.false_feedback) if question.answer else (question.false_feedback, question.true_feedback)
        parts = ["TRUE" if question.answer else "FALSE"]
        if wrong is not None or right is not None:
            parts.append("" if wrong is None else self.rich(wrong, inline=True))
        if right is not None:
            parts.append(self.rich(right, inline=True))
        general = question.feedback.general
        tail = "" if general is None else "####" + self.rich(general, inline=False)
        return "{" + "#".join(parts) + tail + "}"

    def _short_answer(self, question: ShortAnswer) -> str | None:
        # Moodle refuses a question with no answer at 100%: the model always has one (loading
        # refuses a question without), and its grade is Moodle's 100.
        written = range(len(question.answers))
        if question.case_sensitive:
            self.report.lost(question, CASE, "case_sensitive")
            written = self.case_twins_left_out(question)
        lines = []
        for index in written:
            answer = question.answers[index]
            percent = self.percentages[answer.credit]
            text = self.plain_answer(question, escape_wildcards(answer.text), "answer", "answers", index, "text")
            if percent is None or text is None:
                return None
            # Always '=%n%': an '=' without weight is full credit, and a '~' would make it multiple choice.
            lines.append(f"\t=%{percent}%" + text + self.feedback(answer.feedback) + "\n")
        return "{\n" + "".join(lines) + self.general(question) + "}"

    def case_twins_left_out(self, question: ShortAnswer) -> list[int]:
        """The places of the answers written when case does not count: of answers that differ only
        in case, Moodle's GIFT import stores all but grades a response by the first that matches
        without case, so the others could never be given; the one of best credit (the first of
        equals) is written, and each other is a located loss."""
        best: dict[str, int] = {}
        for index, answer in enumerate(question.answers):
            key = answer.text.casefold()  # as loading tells answers apart without case
            if key not in best or answer.credit > question.answers[best[key]].credit:
                best[key] = index
        kept = sorted(best.values())
        for index, answer in enumerate(question.answers):
            twin = question.answers[best[answer.text.casefold()]]
            if twin is not answer:
                self.report.loss(question, f"answer {answer.text!r} differs from {twin.text!r} only in case, which GIFT cannot tell apart: "
                                           f"it is left out with its feedback, and Moodle gives it the credit of {twin.text!r}",
                                 "answers", index, "text", code=CASE.code)
        return kept

    def _numerical(self, question: Numerical) -> str | None:
        lines = []
        percentages = self.percentages
        for index, answer in enumerate(question.answers):
            percent = percentages[answer.credit]
            if percent is None:
                return None
            if answer.is_range:
                # Moodle reads min..max as the value (min+max)/2 ± max-value computed in doubles, which
                # prints rounding noise (0.20000000000000007) into the question: exact decimals instead.
                centre, tolerance = range_as_value_and_tolerance(answer.minimum, answer.maximum)
                accepted = centre + ":" + tolerance
            else:
                accepted = number(answer.value) + ":" + number(answer.tolerance)
            lines.append(f"\t=%{percent}%" + accepted + self.feedback(answer.feedback) + "\n")
        return "{#\n" + "".join(lines) + self.general(question) + "}"

    def _fill_in_blanks(self, question: FillInBlanks) -> str | None:
        if len(question.blanks) != 1:
            self.report.error(question, f"GIFT holds one answer block per question, so a text with {len(question.blanks)} blanks cannot be written "
                                "(Moodle would keep the first and show the others as text): leave GIFT out with --format", "blanks", code="gift-unwritable")
            return None
        lone = stand_in(question)
        # GIFT's missing word is Moodle's question of that type, so its credits must be on
        # Moodle's grade list too (a cloze question of Moodle XML takes any fraction).
        grade_problems(self.report, lone)
        return STAND_INS[type(question.blanks[0])](self, lone)

    def _ordering(self, question: Question) -> None:
        self.report.error(question, "GIFT has no ordering question (Moodle's GIFT import knows none): leave GIFT out with --format, or write this question for Moodle XML only", code="gift-unwritable")
        return None

    def _matching(self, question: Matching) -> str | None:
        if len(question.pairs) + len(question.distractors) < 2:
            self.report.error(question, "Moodle's GIFT import needs at least two matching lines", "pairs", code="gift-options")
            return None
        lines = []
        for index, pair in enumerate(question.pairs):
            answer = self.plain_answer_match(question, pair.answer, "pairs", index, "answer")
            if answer is None:
                return None
            lines.append("\t=" + self.rich(pair.prompt, inline=True) + " -> " + answer + "\n")
        for index, distractor in enumerate(question.distractors):
            answer = self.plain_answer_match(question, distractor.text, "distractors", index, "text")
            if answer is None:
                return None
            # An empty prompt is how Moodle writes an extra answer.
            lines.append("\t= -> " + answer + "\n")
        return "{\n" + "".join(lines) + self.general(question) + "}"

    def plain_answer_match(self, question: Question, source: str, *where: str | int) -> str | None:
        # Only the first '->' of a line separates prompt and answer, so an answer may hold one.
        if esc.PLACEHOLDER.search(source):
            self.report.error(question, f"answer {source!r}: GIFT cannot carry Moodle's placeholders (&&058; ...)", *where, code="gift-unwritable")
            return None
        return esc.escape(source)

    def _essay(self, question: Essay) -> str:
        if question.grader_info is not None:
            self.report.lost(question, GRADER_INFO, "grader_info")
        if question.response_template is not None:
            self.report.lost(question, RESPONSE_TEMPLATE, "response_template")
        if question.lines != 15:
            self.report.loss(question, f"GIFT cannot carry the response size ({question.lines} lines); Moodle uses 15", "lines", code="gift-essay")
        general = question.feedback.general
        return "{" + ("" if general is None else "####" + self.rich(general, inline=False)) + "}"

    def _description(self, question: Description) -> str:
        if question.feedback.general is not None:
            self.report.loss(question, "GIFT cannot carry general feedback on a description", "explanation", code="gift-feedback")
        return ""


# The block of each question type, keyed by the model's class (tests/test_type_coverage.py fails
# for a type left out).
WRITERS: dict[type[Question], Callable[[BlockWriter, Question], str | None]] = {
    SingleChoice: BlockWriter._single_choice,
    MultipleResponse: BlockWriter._multiple_response,
    TrueFalse: BlockWriter._true_false,
    ShortAnswer: BlockWriter._short_answer,
    Numerical: BlockWriter._numerical,
    Matching: BlockWriter._matching,
    Ordering: BlockWriter._ordering,
    FillInBlanks: BlockWriter._fill_in_blanks,
    Essay: BlockWriter._essay,
    Description: BlockWriter._description,
}

# The answer block a lone blank is written as (GIFT's missing word), by the blank's class.
STAND_INS: dict[type[Blank], Callable[[BlockWriter, Question], str | None]] = {
    ShortAnswerBlank: BlockWriter._short_answer,
    NumericalBlank: BlockWriter._numerical,
    DropdownBlank: BlockWriter._single_choice,
}

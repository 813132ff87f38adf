"""One <question> element per question type, as question/format/xml/format.php imports it."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ....model import (
    Description,
    Essay,
    FillInBlanks,
    Matching,
    MultipleResponse,
    Numerical,
    NumericAnswer,
    Ordering,
    Question,
    ShortAnswer,
    SingleChoice,
    Text,
    TrueFalse,
)
from ....text import MARKDOWN, PLAIN, media_references, plain_to_html
from ....text.blanks import fill
from ..common import escape_wildcards, PLUGINFILE_STYLE, html_of, plain_html, question_name, question_tags, range_as_value_and_tolerance
from ...shared import in_language
from . import cloze
from ..grades import Percentages
from ...reporter import Reporter, outcome_feedback
from .fields import Fields, empty_field
from ...xml import number, text
from ....tolerances import same_but_for_rounding
from .xml import character_data, value

# Moodle's defaults for a new question (question/format.php defaultquestion; truefalse uses 1).
DEFAULT_PENALTY = 0.3333333
DEFAULT_TRUEFALSE_PENALTY = 1.0
# Indents of a question's children and of their children.
IN = "    "
IN2 = "      "
_NO_FEEDBACK = empty_field(IN2, "feedback")
# The feedback by outcome of a question that has none (most questions), by shownumcorrect.
_NO_COMBINED_FEEDBACK = {
    shown: empty_field(IN, "correctfeedback") + empty_field(IN, "partiallycorrectfeedback") + empty_field(IN, "incorrectfeedback")
    + ("    <shownumcorrect/>\n" if shown else "")
    for shown in (False, True)
}


_DECIMALS: dict[float, str] = {}


def _decimal(value_: float) -> str:
    """Moodle stores marks and penalties as NUMBER(12,7)."""
    found = _DECIMALS.get(value_)
    if found is None:
        text = f"{value_:.7f}".rstrip("0").rstrip(".")
        found = _DECIMALS[value_] = text if text not in ("", "-0") else "0"
    return found


_SEVEN_DECIMALS_LOSE: dict[float, bool] = {}


def _seven_decimals_lose(value_: float) -> bool:
    """Whether Moodle's 7 decimals change the value; judged once a value (a bank repeats a few)."""
    found = _SEVEN_DECIMALS_LOSE.get(value_)
    if found is None:
        found = abs(float(_decimal(value_)) - value_) > 1e-12
        if len(_SEVEN_DECIMALS_LOSE) < 4096:  # a bound keeps odd input from growing it
            _SEVEN_DECIMALS_LOSE[value_] = found
    return found


@lru_cache(maxsize=4096)  # a bank repeats a few combinations of tags over its questions
def tags_element(tags: tuple[str, ...]) -> str:
    """The <tags> of a question with these tags (none: nothing)."""
    if not tags:
        return ""
    return "    <tags>\n" + "".join(f"      <tag>\n        <text>{character_data(tag)}</text>\n      </tag>\n" for tag in tags) + "    </tags>\n"


# A multichoice question's settings after its header, by (single, shuffle).
_CHOICE_SETTINGS = {
    (single, shuffle): f"{IN}<single>{'true' if single else 'false'}</single>\n{IN}<shuffleanswers>{'true' if shuffle else 'false'}</shuffleanswers>\n"
    f"{IN}<answernumbering>abc</answernumbering>\n{IN}<showstandardinstruction>0</showstandardinstruction>\n"
    for single in (False, True) for shuffle in (False, True)
}


def _bool(flag: bool) -> str:
    return "true" if flag else "false"


class QuestionWriter:
    def __init__(self, report: Reporter):
        self.report = report
        self.quiz = report.quiz
        self.options = report.options
        self.fields = Fields(self.quiz)
        # The percentage written for a credit, None when Moodle would refuse it: `render` reports
        # the problem, at the credit, with the check's own `grade_problems`.
        self.percentages = Percentages(self.options.nearest_grade)
        self.lang: str | None = None  # the language of the question being written, when not the quiz's

    # -- shared parts --------------------------------------------------------------------------
    def field(self, tag: str, text: Text | None, inline: bool = False) -> str:
        if text is None:
            return empty_field(IN, tag)  # as Fields.field writes it, one call sooner
        return self.fields.field(IN, tag, text, inline, self.lang)

    def feedback(self, text: Text | None) -> str:
        """The <feedback> of an answer."""
        if text is None:
            return _NO_FEEDBACK  # most answers have none
        return self.fields.field(IN2, "feedback", text, True, self.lang)

    def header(self, question: Question, kind: str, default_penalty: float = DEFAULT_PENALTY, questiontext: str | None = None,
               points: float | None = None) -> str:
        """`questiontext`: the field when the writer built it itself; `points`: what Moodle will
        give the question, when not its points (cloze)."""
        points, penalty = self.judged_points(question, default_penalty, points)
        return (
            f'  <question type="{kind}">\n    <name>\n      <text>{character_data(question_name(question))}</text>\n    </name>\n'
            + (self.field("questiontext", question.stem) if questiontext is None else questiontext)
            + self.field("generalfeedback", question.feedback.general)
            + f"    <defaultgrade>{_decimal(points)}</defaultgrade>\n    <penalty>{_decimal(penalty)}</penalty>\n"
            + f"    <hidden>0</hidden>\n    <idnumber>{text(question.id)}</idnumber>\n"
        )

    def judged_points(self, question: Question, default_penalty: float, points: float | None) -> tuple[float, float]:
        """The points and penalty the header writes (see `header`), with what Moodle's 7 decimals
        lose of them said."""
        points = question.points if points is None else points
        if _seven_decimals_lose(points):
            self.report.loss(question, f"points {points!r}: Moodle keeps 7 decimals", "points", code="moodle-points")
        penalty = default_penalty if question.penalty is None else question.penalty
        if question.penalty is not None:
            snapped = abs(penalty - DEFAULT_PENALTY) < 0.005
            if _seven_decimals_lose(penalty) or (snapped and abs(penalty - 1 / 3) > 1e-7):
                self.report.loss(question, f"penalty {penalty!r}: Moodle keeps 7 decimals and reads anything near 1/3 as 0.3333333", "penalty", code="moodle-penalty")
        return points, penalty

    def combined_feedback(self, question: Question, shownumcorrect: bool) -> str:
        feedback = question.feedback
        if feedback.correct is None and feedback.partially_correct is None and feedback.incorrect is None:
            return _NO_COMBINED_FEEDBACK[shownumcorrect]
        return (
            self.field("correctfeedback", feedback.correct)
            + self.field("partiallycorrectfeedback", feedback.partially_correct)
            + self.field("incorrectfeedback", feedback.incorrect)
            + ("    <shownumcorrect/>\n" if shownumcorrect else "")
        )

    def tags(self, question: Question) -> str:
        tags = question_tags(self.quiz, question)
        return tags_element(tags) if tags else ""

    def plain_answer(self, percent: str, content: str, feedback: Text | None, extra: str = "") -> str:
        """An answer Moodle keeps as plain text (short answer, numerical, true/false)."""
        return (
            f'{IN}<answer fraction="{percent}" format="moodle_auto_format">\n{IN2}<text>{character_data(content)}</text>\n'
            + self.feedback(feedback) + extra + f"{IN}</answer>\n"
        )

    def choice_answers(self, question: SingleChoice | MultipleResponse, percents: list[str]) -> str:
        """The multichoice answers: each its own format, its text (in its own language if it has
        one), its feedback."""
        answers = []
        question_lang = self.lang
        for choice, percent in zip(question.choices, percents):
            lang = question_lang
            if choice.language is not None and choice.language != (question_lang or self.quiz.language):
                lang = choice.language
            text = choice.text
            if lang is None and text.format is PLAIN:  # the common case, without detours
                fmt, body = "plain_text", f"{IN2}<text>{character_data(text.source)}</text>\n"
            else:
                fmt, body = self.fields.inner(IN2, text, True, lang)
            feedback = _NO_FEEDBACK if choice.feedback is None else self.feedback(choice.feedback)
            answers.append(f'{IN}<answer fraction="{percent}" format="{fmt}">\n{body}{feedback}{IN}</answer>\n')
        return "".join(answers)

    # -- the types -----------------------------------------------------------------------------
    def write(self, question: Question) -> str | None:
        language = question.language
        self.lang = language if language is not None and language != self.quiz.language else None
        body = WRITERS[type(question)](self, question)
        if body is None:
            return None
        return body + self.tags(question) + "  </question>\n"

    def _choice(self, question: SingleChoice | MultipleResponse, single: bool) -> str | None:
        percentages = self.percentages
        percents = [percentages[c.credit] for c in question.choices]
        if None in percents:
            return None
        return (
            self.header(question, "multichoice")
            + _CHOICE_SETTINGS[single, question.shuffle]
            + self.combined_feedback(question, shownumcorrect=not single)
            + self.choice_answers(question, percents)
        )

    def _single_choice(self, question: SingleChoice) -> str | None:
        return self._choice(question, single=True)

    def _multiple_response(self, question: MultipleResponse) -> str | None:
        return self._choice(question, single=False)

    def _true_false(self, question: TrueFalse) -> str:
        return (
            self.header(question, "truefalse", DEFAULT_TRUEFALSE_PENALTY)
            + self.plain_answer("100" if question.answer else "0", "true", question.true_feedback)
            + self.plain_answer("0" if question.answer else "100", "false", question.false_feedback)
        )

    def lose_outcome_feedback(self, question: ShortAnswer | Numerical | FillInBlanks) -> None:
        """Moodle's short-answer, numerical and cloze questions have feedback by answer only."""
        feedback = question.feedback
        if feedback.correct is None and feedback.partially_correct is None and feedback.incorrect is None:
            return  # most questions have none
        kinds = [k for k in ("correct", "partially_correct", "incorrect") if getattr(feedback, k) is not None]
        if kinds:
            self.report.lost(question, outcome_feedback(kinds), "feedback")

    def _short_answer(self, question: ShortAnswer) -> str | None:
        self.lose_outcome_feedback(question)
        percentages = self.percentages
        percents = [percentages[a.credit] for a in question.answers]
        # qtype_shortanswer and qtype_numerical refuse a question with no answer at 100%: the model
        # always has one (loading refuses a question without), and its grade is Moodle's 100.
        if None in percents:
            return None
        for answer in question.answers:
            if not answer.text.strip():
                self.report.error(question, "Moodle drops an answer that is only spaces", code="moodle-empty-answer")
                return None
        return (
            self.header(question, "shortanswer")
            + value(IN, "usecase", "1" if question.case_sensitive else "0")
            + "".join(self.plain_answer(percent, escape_wildcards(answer.text), answer.feedback)
                      for answer, percent in zip(question.answers, percents))
        )

    def _numerical(self, question: Numerical) -> str | None:
        self.lose_outcome_feedback(question)
        percentages = self.percentages
        percents = [percentages[a.credit] for a in question.answers]
        if None in percents:
            return None
        answers = [self.header(question, "numerical")]
        for answer, percent in zip(question.answers, percents):
            centre, tolerance = self.value_and_tolerance(answer)
            answers.append(self.plain_answer(percent, centre, answer.feedback, value(IN2, "tolerance", tolerance)))
        return (
            "".join(answers)
            + f"{IN}<unitgradingtype>0</unitgradingtype>\n{IN}<unitpenalty>0.1000000</unitpenalty>\n"
            + f"{IN}<showunits>3</showunits>\n{IN}<unitsleft>0</unitsleft>\n"
        )

    def value_and_tolerance(self, answer: NumericAnswer) -> tuple[str, str]:
        if not answer.is_range:
            return number(answer.value), number(answer.tolerance)
        return range_as_value_and_tolerance(answer.minimum, answer.maximum)

    def _matching(self, question: Matching) -> str:
        parts = [self.header(question, "matching"), f"{IN}<shuffleanswers>{_bool(question.shuffle)}</shuffleanswers>\n",
                 self.combined_feedback(question, shownumcorrect=True)]
        for pair in question.pairs:
            fmt, body = self.fields.inner(IN2, pair.prompt, True, self.lang)
            parts.append(f'{IN}<subquestion format="{fmt}">\n{body}{IN2}<answer>\n        <text>{character_data(pair.answer)}</text>\n{IN2}</answer>\n{IN}</subquestion>\n')
        # A distractor is an answer whose subquestion text is empty (qtype_match).
        for distractor in question.distractors:
            parts.append(f'{IN}<subquestion format="html">\n{IN2}<text></text>\n{IN2}<answer>\n        <text>{character_data(distractor.text)}</text>\n{IN2}</answer>\n{IN}</subquestion>\n')
        return "".join(parts)

    def _ordering(self, question: Ordering) -> str:
        # qtype_ordering import_from_xml: without selecttype ALL Moodle shows a random 6 of the
        # items; without a shownumcorrect value the import fails (a null hint format).
        layout = "HORIZONTAL" if question.horizontal else "VERTICAL"
        parts = [
            self.header(question, "ordering"),
            f"{IN}<layouttype>{layout}</layouttype>\n{IN}<selecttype>ALL</selecttype>\n{IN}<selectcount>0</selectcount>\n",
            f"{IN}<gradingtype>{question.grading.value.upper()}</gradingtype>\n",
            f"{IN}<showgrading>SHOW</showgrading>\n{IN}<numberingstyle>none</numberingstyle>\n",
            self.combined_feedback(question, shownumcorrect=False),
            f"{IN}<shownumcorrect>1</shownumcorrect>\n",
        ]
        # The right order is the order of the answers; Moodle stores each one's place as its fraction.
        for place, item in enumerate(question.items, start=1):
            fmt, body = self.fields.inner(IN2, item.text, True, self.lang)
            parts.append(f'{IN}<answer fraction="{place}" format="{fmt}">\n{body}{IN}</answer>\n')
        return "".join(parts)

    def _fill_in_blanks(self, question: FillInBlanks) -> str:
        weights = cloze.weights(question.blank_points)
        if not same_but_for_rounding(sum(weights), question.points):
            self.report.loss(question, f"Moodle gives a cloze question the sum of its blanks' whole-number weights: written with weights "
                                f"{', '.join(map(str, weights))}, it is worth {sum(weights)} in Moodle, not {question.points:g}", code="moodle-cloze-points")
        self.lose_outcome_feedback(question)
        paths: list[str] = []

        def html(text: Text, inline: bool) -> str:
            found = media_references(text) if self.quiz.media and text.format is MARKDOWN else []
            paths.extend(found)
            if text.format is PLAIN:
                return plain_html(text.source, inline)
            return html_of(text, inline, PLUGINFILE_STYLE if found else None)

        stem = cloze.protect_braces(html(question.stem, False))
        by_name = {blank.id: (blank, weight) for blank, weight in zip(question.blanks, weights)}
        stem = fill(stem, lambda name: cloze.sub_question(*by_name[name], lambda feedback: html(feedback, True)))
        if self.lang is not None:
            stem = in_language(stem, self.lang, inline=False)
        field = self.fields.html_field(IN, "questiontext", stem, paths)
        return self.header(question, "cloze", questiontext=field, points=float(sum(weights)))

    def _essay(self, question: Essay) -> str:
        # The response box is Moodle's HTML editor, so the template is the escaped plain text (as
        # it is: the editor's content goes through no filter).
        template = "" if question.response_template is None else plain_to_html(question.response_template)
        return (
            self.header(question, "essay", 0.0)
            + f"{IN}<responseformat>editor</responseformat>\n{IN}<responserequired>1</responserequired>\n"
            + f"{IN}<responsefieldlines>{question.lines}</responsefieldlines>\n"
            + f"{IN}<minwordlimit></minwordlimit>\n{IN}<maxwordlimit></maxwordlimit>\n{IN}<attachments>0</attachments>\n"
            + f"{IN}<attachmentsrequired>0</attachmentsrequired>\n{IN}<maxbytes>0</maxbytes>\n{IN}<filetypeslist></filetypeslist>\n"
            + self.field("graderinfo", question.grader_info)
            + f'{IN}<responsetemplate format="html">\n{IN2}<text>{character_data(template)}</text>\n{IN}</responsetemplate>\n'
        )

    def _description(self, question: Description) -> str:
        return self.header(question, "description", 0.0)


# The question element of each type, keyed by the model's class (tests/test_type_coverage.py
# fails for a type left out).
WRITERS: dict[type[Question], Callable[[QuestionWriter, Question], str | None]] = {
    SingleChoice: QuestionWriter._single_choice,
    MultipleResponse: QuestionWriter._multiple_response,
    TrueFalse: QuestionWriter._true_false,
    ShortAnswer: QuestionWriter._short_answer,
    Numerical: QuestionWriter._numerical,
    Matching: QuestionWriter._matching,
    Ordering: QuestionWriter._ordering,
    FillInBlanks: QuestionWriter._fill_in_blanks,
    Essay: QuestionWriter._essay,
    Description: QuestionWriter._description,
}

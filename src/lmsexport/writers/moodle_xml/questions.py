"""One <question> element per question type, as question/format/xml/format.php imports it."""

from __future__ import annotations

from lxml import etree

from ...diagnostics import Diagnostic, error
from ...model import (
    Description,
    Essay,
    Matching,
    MultipleResponse,
    Numerical,
    NumericAnswer,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    TrueFalse,
)
from ..moodle_common import number, plain_html, question_name, question_tags
from ..moodle_grades import grade_percent
from ..shared import ExportOptions, loss_warning
from .elements import SubElement, plain_answer, rich, rich_answer, text_child, value

# Moodle's defaults for a new question (question/format.php defaultquestion; truefalse uses 1).
DEFAULT_PENALTY = 0.3333333
DEFAULT_TRUEFALSE_PENALTY = 1.0


def escape_wildcards(answer: str) -> str:
    """Short answers treat '*' as a wildcard; '\\*' is a literal star (qtype_shortanswer
    compare_string_with_wildcard), so every star of the content is escaped."""
    return answer.replace("*", "\\*")


def _decimal(value_: float) -> str:
    """Moodle stores marks and penalties as NUMBER(12,7)."""
    text = f"{value_:.7f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


class QuestionWriter:
    def __init__(self, quiz: Quiz, options: ExportOptions):
        self.quiz = quiz
        self.options = options
        self.diagnostics: list[Diagnostic] = []

    # -- shared parts --------------------------------------------------------------------------
    def grade(self, question: Question, credit: float, what: str) -> str | None:
        percent, diagnostic = grade_percent(self.quiz, question, credit, what, self.options)
        if diagnostic is not None:
            self.diagnostics.append(diagnostic)
        return percent

    def fail(self, question: Question, message: str, code: str) -> None:
        self.diagnostics.append(error(message, self.quiz.location.file, question.location.pointer, code=code))

    def lose(self, question: Question, message: str, code: str) -> None:
        self.diagnostics.append(loss_warning(self.quiz, question, message, self.options, code))

    def header(self, question: Question, kind: str, default_penalty: float = DEFAULT_PENALTY) -> etree._Element:
        element = etree.Element("question", type=kind)  # appended to the quiz once complete
        text_child(SubElement(element, "name"), question_name(question))
        rich(element, "questiontext", question.stem, quiz=self.quiz)
        rich(element, "generalfeedback", question.feedback.general, quiz=self.quiz)
        points = question.points
        if abs(float(_decimal(points)) - points) > 1e-12:
            self.lose(question, f"points {points!r}: Moodle keeps 7 decimals", "moodle-points")
        value(element, "defaultgrade", _decimal(points))
        penalty = default_penalty if question.penalty is None else question.penalty
        if question.penalty is not None:
            snapped = abs(penalty - DEFAULT_PENALTY) < 0.005
            if abs(float(_decimal(penalty)) - penalty) > 1e-12 or (snapped and abs(penalty - 1 / 3) > 1e-7):
                self.lose(question, f"penalty {penalty!r}: Moodle keeps 7 decimals and reads anything near 1/3 as 0.3333333", "moodle-penalty")
        value(element, "penalty", _decimal(penalty))
        value(element, "hidden", "0")
        value(element, "idnumber", question.id)
        return element

    def combined_feedback(self, element: etree._Element, question: Question, shownumcorrect: bool) -> None:
        feedback = question.feedback
        rich(element, "correctfeedback", feedback.correct, quiz=self.quiz)
        rich(element, "partiallycorrectfeedback", feedback.partially_correct, quiz=self.quiz)
        rich(element, "incorrectfeedback", feedback.incorrect, quiz=self.quiz)
        if shownumcorrect:
            SubElement(element, "shownumcorrect")

    def tags(self, element: etree._Element, question: Question) -> None:
        tags = question_tags(self.quiz, question)
        if tags:
            holder = SubElement(element, "tags")
            for tag in tags:
                text_child(SubElement(holder, "tag"), tag)

    # -- the types -----------------------------------------------------------------------------
    def write(self, root: etree._Element, question: Question) -> None:
        # Builders return the element they added (or None); lxml counts children by walking them,
        # so len(root) per question would make a large bank quadratic.
        method = getattr(self, "_" + question.type)
        try:
            element = method(root, question)
        except ValueError as problem:  # lxml refuses characters XML 1.0 cannot hold
            self.fail(question, f"text that XML cannot hold: {problem}", "xml-char")
            return
        if element is not None:
            self.tags(element, question)
            root.append(element)

    def _choice(self, root: etree._Element, question: SingleChoice | MultipleResponse, single: bool) -> etree._Element | None:
        percents = [self.grade(question, c.credit, f"option {c.id}") for c in question.choices]
        if any(p is None for p in percents):
            return None
        element = self.header(question, "multichoice")
        value(element, "single", "true" if single else "false")
        value(element, "shuffleanswers", "true" if question.shuffle else "false")
        value(element, "answernumbering", "abc")
        value(element, "showstandardinstruction", "0")
        self.combined_feedback(element, question, shownumcorrect=not single)
        for choice, percent in zip(question.choices, percents):
            rich_answer(element, percent, choice.text, choice.feedback, self.quiz)
        return element

    def _single_choice(self, root: etree._Element, question: SingleChoice) -> etree._Element | None:
        return self._choice(root, question, single=True)

    def _multiple_response(self, root: etree._Element, question: MultipleResponse) -> etree._Element | None:
        return self._choice(root, question, single=False)

    def _true_false(self, root: etree._Element, question: TrueFalse) -> etree._Element | None:
        element = self.header(question, "truefalse", DEFAULT_TRUEFALSE_PENALTY)
        plain_answer(element, "100" if question.answer else "0", "true", question.true_feedback, self.quiz)
        plain_answer(element, "0" if question.answer else "100", "false", question.false_feedback, self.quiz)
        return element

    def _full_marks(self, question: Question, credits: list[float]) -> bool:
        # qtype_shortanswer and qtype_numerical refuse to save a question with no answer at 100%.
        if any(abs(c - 1) < 1e-5 for c in credits):
            return True
        self.fail(question, "Moodle rejects a question where no answer is worth full marks", "moodle-no-full-marks")
        return False

    def _short_answer(self, root: etree._Element, question: ShortAnswer) -> etree._Element | None:
        percents = [self.grade(question, a.credit, f"answer {a.text!r}") for a in question.answers]
        if any(p is None for p in percents) or not self._full_marks(question, [a.credit for a in question.answers]):
            return None
        for answer in question.answers:
            if not answer.text.strip():
                self.fail(question, "Moodle drops an answer that is only spaces", "moodle-empty-answer")
                return None
        element = self.header(question, "shortanswer")
        value(element, "usecase", "1" if question.case_sensitive else "0")
        for answer, percent in zip(question.answers, percents):
            plain_answer(element, percent, escape_wildcards(answer.text), answer.feedback, self.quiz)
        return element

    def _numerical(self, root: etree._Element, question: Numerical) -> etree._Element | None:
        percents = [self.grade(question, a.credit, f"answer {i + 1}") for i, a in enumerate(question.answers)]
        if any(p is None for p in percents) or not self._full_marks(question, [a.credit for a in question.answers]):
            return None
        element = self.header(question, "numerical")
        for answer, percent in zip(question.answers, percents):
            centre, tolerance = self.value_and_tolerance(question, answer)
            node = plain_answer(element, percent, number(centre), answer.feedback, self.quiz)
            value(node, "tolerance", number(tolerance))
        value(element, "unitgradingtype", "0")
        value(element, "unitpenalty", "0.1000000")
        value(element, "showunits", "3")
        value(element, "unitsleft", "0")
        return element

    def value_and_tolerance(self, question: Question, answer: NumericAnswer) -> tuple[float, float]:
        if not answer.is_range:
            return answer.value, answer.tolerance
        # Moodle has value and tolerance only, so the range [min, max] is exactly the value
        # (min+max)/2 with the tolerance (max-min)/2; floating point may move a bound slightly.
        low, high = answer.minimum, answer.maximum
        centre, tolerance = (low + high) / 2, (high - low) / 2
        if centre - tolerance != low or centre + tolerance != high:
            self.lose(question, f"range [{low!r}, {high!r}]: as value {centre!r} ± {tolerance!r} its bounds move by a rounding error", "moodle-range")
        return centre, tolerance

    def _matching(self, root: etree._Element, question: Matching) -> etree._Element | None:
        element = self.header(question, "matching")
        value(element, "shuffleanswers", "true" if question.shuffle else "false")
        self.combined_feedback(element, question, shownumcorrect=True)
        for pair in question.pairs:
            sub = rich(element, "subquestion", pair.prompt, inline=True, quiz=self.quiz)
            text_child(SubElement(sub, "answer"), pair.answer)
        # A distractor is an answer whose subquestion text is empty (qtype_match).
        for distractor in question.distractors:
            sub = rich(element, "subquestion", None, quiz=self.quiz)
            text_child(SubElement(sub, "answer"), distractor.text)
        return element

    def _essay(self, root: etree._Element, question: Essay) -> etree._Element | None:
        element = self.header(question, "essay", 0.0)
        value(element, "responseformat", "editor")
        value(element, "responserequired", "1")
        value(element, "responsefieldlines", str(question.lines))
        value(element, "minwordlimit", "")
        value(element, "maxwordlimit", "")
        value(element, "attachments", "0")
        value(element, "attachmentsrequired", "0")
        value(element, "maxbytes", "0")
        value(element, "filetypeslist", "")
        rich(element, "graderinfo", question.grader_info, quiz=self.quiz)
        template = SubElement(element, "responsetemplate", format="html")
        # The response box is Moodle's HTML editor, so the template is the escaped plain text.
        text_child(template, "" if question.response_template is None else _plain_template(question.response_template))
        return element

    def _description(self, root: etree._Element, question: Description) -> etree._Element | None:
        return self.header(question, "description", 0.0)


def _plain_template(source: str) -> str:
    return plain_html(source, inline=False)

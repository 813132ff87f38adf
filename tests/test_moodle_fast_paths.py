"""The shortcuts of the Moodle XML and GIFT writers and checks, each held to the full path it
stands for: a credit's percentage looked up in `grades.Percentages` against computing it, the
prefilters of `grade_problems` and `question_losses` against walking every credit, tag and
option, and the parts made once (a question's tags, its empty feedback by outcome, the judgement
of its points) against making them each time."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmsexport.model import (
    AcceptedAnswer,
    Choice,
    Essay,
    Feedback,
    Matching,
    MatchPair,
    MultipleResponse,
    NumericAnswer,
    Numerical,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Text,
    TextFormat,
    TrueFalse,
)
from lmsexport.writers.moodle import check, common
from lmsexport.writers.moodle.grades import GRADES, Percentages, exact_grade, nearest_grade
from lmsexport.writers.moodle.moodle_xml import questions as moodle_questions
from lmsexport.writers.moodle.moodle_xml.fields import Fields, empty_field
from lmsexport.writers.moodle.moodle_xml.xml import character_data
from lmsexport.writers.reporter import LITERAL_TEX, Reporter
from lmsexport.writers.shared import ExportOptions

# Credits a bank writes, on Moodle's list and off it, near its grades and between them.
_ON_THE_LIST = sorted(GRADES.values())
_SHARES = [sign / n for n in range(1, 41) for sign in (1, -1)]
_NEAR = [fraction + offset for fraction in _ON_THE_LIST for offset in (-2e-5, -9.9e-6, -1e-7, 1e-7, 9.9e-6, 2e-5)]
_ODD = [0.123, 0.999999, 1.000001, 0.3333, -0.6667, 1.5, -1.5, 2.0, 1e-300, -0.0, float("inf")]
credits = st.one_of(st.sampled_from(_ON_THE_LIST + _SHARES + _NEAR + _ODD),
                    st.floats(min_value=-2, max_value=2, allow_nan=False))


def _direct(credit: float, nearest: bool) -> str | None:
    """The percentage computed for a credit, as the writers did before the table."""
    percent = exact_grade(credit)
    if percent is None and nearest:
        return nearest_grade(credit)
    return percent


@pytest.mark.parametrize("nearest", [False, True])
def test_percentages_give_the_computed_percentage_for_every_grade_on_moodles_list_and_near_it(nearest):
    percentages = Percentages(nearest)
    for credit in _ON_THE_LIST + _SHARES + _NEAR + _ODD:
        assert percentages[credit] == _direct(credit, nearest), credit
        assert percentages[credit] == _direct(credit, nearest), credit  # looked up the second time
    assert percentages[0.25] == "25" and percentages[-1 / 3] == "-33.33333"
    assert percentages[0.123] == ("12.5" if nearest else None)


@settings(max_examples=300, deadline=None)
@given(st.lists(credits, max_size=30), st.booleans())
def test_percentages_give_the_computed_percentage_of_generated_credits(asked, nearest):
    percentages = Percentages(nearest)
    for credit in asked + asked:
        assert percentages[credit] == _direct(credit, nearest)


def test_every_listed_credit_is_one_moodle_stores_as_it_is():
    # grade_problems says nothing of a credit among them: each must be on Moodle's list.
    for credit in check.LISTED_CREDITS:
        assert exact_grade(credit) is not None, credit
    assert {1 / 3, -2 / 3, 1 / 7, 0.05, -1.0, 0.0} <= check.LISTED_CREDITS
    assert exact_grade(1 / 11) is None and 1 / 11 not in check.LISTED_CREDITS


def test_the_default_share_asked_as_a_float_is_the_split_as_a_fraction():
    # grade_problems asks 1.0 / correct of the list before it compares the options with the split.
    for correct in range(1, 200):
        assert 1.0 / correct == float(Fraction(1, correct))


# -- grade_problems against the walk over every credit --------------------------------------------------------


def _every_credit_walked(report: Reporter, question: Question) -> None:
    """grade_problems as it was before its shortcuts: the split asked of every multiple response
    question, then every credit asked of the list."""
    if isinstance(question, MultipleResponse):
        share = check.default_split(question)
        if share is not None and exact_grade(float(share)) is None:
            correct = sum(1 for c in question.choices if c.correct)
            if report.options.nearest_grade:
                message = (f"the default split gives each of the {correct} correct options {float(share):g}, which is not one "
                           f"of Moodle's grade fractions; written as the nearest one, {nearest_grade(float(share))}% (the score changes)")
                report.loss(question, message, "options", code="moodle-grade")
            else:
                message = (f"the default split gives each of the {correct} correct options {float(share):g} "
                           f"({float(share) * 100:g}%), which is not one of Moodle's grade fractions, so Moodle would reject the "
                           f"whole file; write a credit on each option instead, {check.suggested_credits(correct)} (and wrong options "
                           f"at 0 or a negative grade of the list), or export with the nearest-grade option")
                report.error(question, message, "options", code="moodle-grade")
            return
    credited = check.CREDITS[type(question)]
    if credited is None:
        return
    for index, item in enumerate(getattr(question, credited.attribute)):
        credit = item.credit
        if exact_grade(credit) is not None:
            continue
        where, what = (credited.field, index, "credit"), credited.named(index, item)
        nearest = nearest_grade(credit)
        if report.options.nearest_grade:
            message = f"{what}: credit {credit:g} is not one of Moodle's grade fractions; written as the nearest one, {nearest}% (the score changes)"
            report.loss(question, message, *where, code="moodle-grade")
        else:
            message = (f"{what}: credit {credit:g} ({credit * 100:g}%) is not one of Moodle's grade fractions, so Moodle "
                       f"would reject the whole file; use an allowed value such as {nearest}% or export with the nearest-grade option")
            report.error(question, message, *where, code="moodle-grade")


def _quiz(*questions: Question, tags: tuple[str, ...] = ()) -> Quiz:
    return Quiz(id="q", title="Quiz", language="en", questions=questions, tags=tags)


@st.composite
def default_split_question(draw) -> MultipleResponse:
    """A multiple response question with the default split (each correct option 1/n, each wrong one -1/n)."""
    correct = draw(st.lists(st.booleans(), min_size=1, max_size=25))
    count = sum(correct)
    share = 1.0 / count if count else 0.0
    choices = tuple(Choice(id=f"c{i}", text=Text("x"), correct=c, credit=share if c else -share) for i, c in enumerate(correct))
    return MultipleResponse(id="mr", stem=Text("?"), choices=choices)


@st.composite
def credited_question(draw) -> Question:
    kind = draw(st.sampled_from(["single", "multiple", "short", "numerical", "truefalse"]))
    asked = draw(st.lists(credits, min_size=1, max_size=8))
    if kind in ("single", "multiple"):
        choices = tuple(Choice(id=f"c{i}", text=Text("x"), correct=draw(st.booleans()), credit=c) for i, c in enumerate(asked))
        return (SingleChoice if kind == "single" else MultipleResponse)(id="q1", stem=Text("?"), choices=choices)
    if kind == "short":
        return ShortAnswer(id="q1", stem=Text("?"), answers=tuple(AcceptedAnswer(text=f"a{i}", credit=c) for i, c in enumerate(asked)))
    if kind == "numerical":
        return Numerical(id="q1", stem=Text("?"), answers=tuple(NumericAnswer(value=float(i), credit=c) for i, c in enumerate(asked)))
    return TrueFalse(id="q1", stem=Text("?"), answer=True)


@settings(max_examples=400, deadline=None)
@given(st.one_of(credited_question(), default_split_question()), st.booleans())
def test_grade_problems_says_what_walking_every_credit_says(question, nearest):
    options = ExportOptions(nearest_grade=nearest)
    quiz = _quiz(question)
    fast, full = Reporter(quiz, "moodle", options), Reporter(quiz, "moodle", options)
    check.grade_problems(fast, question)
    _every_credit_walked(full, question)
    assert fast.found == full.found


def test_a_default_split_off_the_list_is_still_said():
    question = MultipleResponse(id="mr", stem=Text("?"), choices=tuple(
        Choice(id=f"c{i}", text=Text("x"), correct=True, credit=1 / 11) for i in range(11)))
    report = Reporter(_quiz(question), "moodle", ExportOptions())
    check.grade_problems(report, question)
    assert [d.code for d in report.found] == ["moodle-grade"] and "default split" in report.found[0].message


# -- question_losses against judging every tag and option -----------------------------------------------------

_TAG_STRINGS = st.one_of(st.sampled_from(["a", "b", " a", "b ", "x<y", "a`b", "a  b", "t\x01", "é" * 51, "é" * 50, "c\td"]),
                         st.text(max_size=60))


def _every_tag_and_option_judged(report: Reporter, question: Question) -> None:
    """question_losses as it was before its shortcuts: every tag judged, every option's pin read."""
    name = common.question_name(question)
    if len(name) > common.NAME_MAX or name != name.strip() or ("<" in name and common._TAG_LIKE.search(name)):
        report.loss(question, f"question name {name!r}: Moodle strips HTML tags and outer spaces from names and cuts them at {common.NAME_MAX} characters", common.name_place(question), code="moodle-name")
    for tag in common.question_tags(report.quiz, question):
        if common._TAG_UNSAFE.search(tag) or len(tag) > common.TAG_MAX or tag != tag.strip():
            at, parts = common.tag_place(report.quiz, question, tag)
            report.loss(at, f"tag {tag!r}: Moodle drops '<', '>', '`', control characters and repeated spaces from tags and keeps {common.TAG_MAX} characters", *parts, code="moodle-tag")
    for parts, text in question.texts():
        if text is not None and common.typesets_literal_tex(text):
            report.lost(question, LITERAL_TEX, *parts)
    if getattr(question, "shuffle", False):
        for index, choice in enumerate(getattr(question, "choices", ())):
            if choice.pinned:
                report.loss(question, f"Moodle cannot keep options in place while it shuffles: pinned option {choice.id} will move", "options", index, "pinned", code="moodle-pinned")


# Texts with and without formulas and literal TeX beside them, plain and Markdown.
_TEXTS = st.sampled_from([
    None, Text("?"), Text("plain \\( and $$", TextFormat.PLAIN), Text("no formula", TextFormat.MARKDOWN),
    Text("$x$ and a literal \\\\(y\\\\)", TextFormat.MARKDOWN), Text("`\\(` then $$y$$", TextFormat.MARKDOWN),
    Text("$x$ only", TextFormat.MARKDOWN),
])


@st.composite
def tagged_question(draw) -> tuple[Quiz, Question]:
    tags = tuple(draw(st.lists(_TAG_STRINGS, max_size=5)))
    stem = draw(_TEXTS) or Text("?")
    feedback = Feedback(general=draw(_TEXTS), incorrect=draw(_TEXTS))
    quiz_tags = tuple(dict.fromkeys(draw(st.lists(_TAG_STRINGS, max_size=3))))
    kind = draw(st.sampled_from(["single", "multiple", "matching", "essay"]))
    shuffle = draw(st.booleans())
    if kind in ("single", "multiple"):
        pins = draw(st.lists(st.booleans(), min_size=1, max_size=6))
        choices = tuple(Choice(id=f"c{i}", text=draw(_TEXTS) or Text("x"), feedback=draw(_TEXTS), correct=i == 0, credit=1.0 if i == 0 else 0.0,
                               pinned=p) for i, p in enumerate(pins))
        question: Question = (SingleChoice if kind == "single" else MultipleResponse)(
            id="q1", stem=stem, feedback=feedback, tags=tags, choices=choices, shuffle=shuffle)
    elif kind == "matching":
        question = Matching(id="q1", stem=stem, feedback=feedback, tags=tags, pairs=(MatchPair(id="p", prompt=Text("a"), answer="b"),), shuffle=shuffle)
    else:
        question = Essay(id="q1", stem=stem, feedback=feedback, tags=tags, grader_info=draw(_TEXTS))
    return _quiz(question, tags=quiz_tags), question


@settings(max_examples=400, deadline=None)
@given(tagged_question())
def test_question_losses_says_what_judging_every_tag_and_option_says(case):
    quiz, question = case
    fast, full = Reporter(quiz, "moodle", ExportOptions()), Reporter(quiz, "moodle", ExportOptions())
    common.question_losses(fast, question)
    _every_tag_and_option_judged(full, question)
    assert fast.found == full.found


def test_literal_tex_beside_a_formula_is_still_said():
    question = Essay(id="q1", stem=Text("?"), grader_info=Text("$x$ and a literal \\\\(y\\\\)", TextFormat.MARKDOWN))
    report = Reporter(_quiz(question), "moodle", ExportOptions())
    common.question_losses(report, question)
    assert [d.code for d in report.found] == [LITERAL_TEX.code]


def test_a_pinned_option_and_a_changed_tag_are_still_said():
    choices = (Choice(id="a", text=Text("x"), correct=True, credit=1.0), Choice(id="b", text=Text("y"), correct=False, credit=0.0, pinned=True))
    question = SingleChoice(id="q1", stem=Text("?"), tags=("ok", "bad<tag"), choices=choices)
    report = Reporter(_quiz(question), "moodle", ExportOptions())
    common.question_losses(report, question)
    assert [d.code for d in report.found] == ["moodle-tag", "moodle-pinned"]


# -- parts of a Moodle XML question made once -----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(_TAG_STRINGS, max_size=5))
def test_the_tags_element_is_each_tag_written_out(tags):
    expected = "" if not tags else (
        "    <tags>\n" + "".join(f"      <tag>\n        <text>{character_data(t)}</text>\n      </tag>\n" for t in tags) + "    </tags>\n")
    assert moodle_questions.tags_element(tuple(tags)) == expected
    assert moodle_questions.tags_element(tuple(tags)) == expected  # from the cache


@pytest.mark.parametrize("shownumcorrect", [False, True])
def test_the_feedback_by_outcome_of_a_question_without_any_is_the_three_empty_fields(shownumcorrect):
    question = SingleChoice(id="q1", stem=Text("?"), feedback=Feedback(general=Text("g")),
                            choices=(Choice(id="a", text=Text("x"), correct=True, credit=1.0),))
    writer = moodle_questions.QuestionWriter(Reporter(_quiz(question), "moodle", ExportOptions()))
    expected = ("".join(empty_field("    ", tag) for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"))
                + ("    <shownumcorrect/>\n" if shownumcorrect else ""))
    assert writer.combined_feedback(question, shownumcorrect) == expected
    assert Fields(writer.quiz).field("    ", "incorrectfeedback", None, False, None) == empty_field("    ", "incorrectfeedback")
    with_one = SingleChoice(id="q2", stem=Text("?"), feedback=Feedback(incorrect=Text("no")), choices=question.choices)
    assert "<text>no</text>" in writer.combined_feedback(with_one, shownumcorrect)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.sampled_from([1.0, 0.0, -0.0, 0.3333333, 1 / 3, 0.12345678, 2.5, 1e-8, float("nan"), float("inf")]),
                 st.floats(min_value=-1e6, max_value=1e6)))
def test_whether_seven_decimals_lose_a_value_is_judged_as_the_header_judged_it(value):
    expected = abs(float(moodle_questions._decimal(value)) - value) > 1e-12
    assert moodle_questions._seven_decimals_lose(value) is expected
    assert moodle_questions._seven_decimals_lose(value) is expected  # from the table


# -- parts of a GIFT block made once --------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_TAG_STRINGS, st.sampled_from(["a]b", "end\\", "x\ny", "ok"])), max_size=5))
def test_a_comment_lines_tags_are_each_tag_judged_and_written(tags):
    from lmsexport.writers.moodle.gift import questions as gift_questions

    written, left_out = "", []
    for tag in tags:
        if gift_questions._TAG_SAFE.match(tag):
            written += " [tag:" + tag.replace("]", "\\]") + "]"
        else:
            left_out.append(tag)
    assert gift_questions.comment_tags(tuple(tags)) == (written, tuple(left_out))
    assert gift_questions.comment_tags(tuple(tags)) == (written, tuple(left_out))  # from the cache

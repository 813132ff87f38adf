"""Comparing a quiz read back from Moodle XML or GIFT with the content it was written from,
and building hostile variants of a quiz (a hostile string in every field)."""

from __future__ import annotations

import dataclasses

from shown_text import expected_shown, loose_around_tabs, plain_shown, shown

from lmsexport.model import Question, Quiz, Text, TextFormat
from lmsexport.writers.moodle.grades import GRADES, exact_grade

# Every GIFT special, an escaped-looking sequence, CDATA's end, markup, quotes, emoji,
# right-to-left text, a combining accent, a blank line (GIFT's question separator), format
# markers, weights, comments and the category keyword.
HOSTILE = (
    "[html]<b>x</b> ~tilde =equals #hash {brace} :colon \\backslash \\n \\: ]]> <script>alert(1)</script> & &amp; "
    "\"quoted\" 'single' 🚀👩🏽‍💻 שלום مرحبا e\u0301 //not a comment $CATEGORY: ####general %50% *star*\n"
    "\n"
    "0\n"
    "second -> paragraph &&058; &&092;"
)
# A plain answer (short answer, matching answer) cannot hold '->' or Moodle's placeholders in GIFT.
HOSTILE_ANSWER = "[markdown]%-50%~a =b #c {d} :e \\f \\* star* ]]> <i>&</i> 🚀 שלום e\u0301 T"
# Moodle strips HTML tags from names (both formats warn), so a name is hostile without markup.
HOSTILE_NAME = "[html] ::double:: ~tilde =equals #hash {brace} :colon \\backslash \\n ]]> & \"q\" 'q' 🚀 שלום e\u0301 %50% // x"
HOSTILE_TAG = "tag ~=#{}: ]] & 🚀 שלום e\u0301 \\]"


def hostile_quiz(quiz: Quiz, text: str = HOSTILE, answer: str = HOSTILE_ANSWER) -> Quiz:
    """The quiz with `text` in every rich text field and `answer` in every plain answer."""

    def walk(value):
        if isinstance(value, Text):
            return Text(text, value.format)
        if isinstance(value, tuple):
            return tuple(walk(v) for v in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {}
            for field in dataclasses.fields(value):
                current = getattr(value, field.name)
                if field.name in ("answer", "text", "response_template", "title") and isinstance(current, str):
                    changes[field.name] = {"answer": answer, "text": answer, "title": HOSTILE_NAME}.get(field.name, text)
                elif field.name == "tags":
                    changes[field.name] = (HOSTILE_TAG,)
                elif isinstance(current, (Text, tuple)) or (dataclasses.is_dataclass(current) and field.name != "location"):
                    changes[field.name] = walk(current)
            return dataclasses.replace(value, **changes)
        return value

    # The title names a category: Moodle cleans category names (see the writers' warnings), so it only
    # gains a '/', which the category path must escape.
    return dataclasses.replace(walk(quiz), title=quiz.title + " / a/b/", tags=())


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def assert_same_text(read: Text | None, original: Text | None, where: str, inline: bool = False) -> None:
    """A text read back holds the original exactly (plain read as plain) or shows what it shows.
    `inline` fields lose their paragraph, which changes nothing a reader sees."""
    if original is None:
        assert read is None, f"{where}: {read!r} where the content has nothing"
        return
    assert read is not None, f"{where}: lost"
    if read.format is TextFormat.PLAIN and original.format is TextFormat.PLAIN:
        # Every kind of line break is one line break (GIFT and XML parsers make them all "\n").
        assert _lines(read.source) == _lines(original.source), f"{where}: {read.source!r} != {original.source!r}"
        return
    if read.format is TextFormat.PLAIN:
        # Markdown that renders to no markup reads back like plain text: it must show the same.
        got = plain_shown(read.source)
    else:
        assert read.format == "html" or getattr(read.format, "value", None) == "html", f"{where}: format {read.format!r}"
        got = shown(read.source)
    want = expected_shown(original)
    assert loose_around_tabs(got, original.source) == loose_around_tabs(want, original.source), \
        f"{where}: {read.source!r} shows {got!r}, the content {want!r}"


def assert_same_credit(read: float, original: float, where: str) -> None:
    assert exact_grade(original) is not None, f"{where}: test content uses a credit Moodle refuses"
    assert abs(read - GRADES[exact_grade(original)]) < 1e-12, f"{where}: credit {read} != {original}"
    assert abs(read - original) < 1e-5, where


def best_of_case_twins(answers: tuple) -> list:
    """The answers a grader comparing without case tells apart: of those differing only in case,
    the first of the best credit, in the order given."""
    def best(answer) -> bool:
        twins = [a for a in answers if a.text.casefold() == answer.text.casefold()]
        return answer is max(twins, key=lambda a: a.credit)  # max keeps the first of equals
    return [a for a in answers if best(a)]


def assert_same_question(read: Question, original: Question, tags: tuple[str, ...], full: bool) -> None:
    """`full`: the format carries points, penalty, combined feedback, shuffle and essay details."""
    where = original.id
    assert type(read) is type(original), f"{where}: {type(read).__name__} != {type(original).__name__}"
    assert read.id == original.id
    assert (read.title or read.id) == (original.title or original.id), where
    assert_same_text(read.stem, original.stem, f"{where} stem")
    assert_same_text(read.feedback.general, original.feedback.general, f"{where} explanation")
    assert read.tags == tags, f"{where} tags {read.tags!r}"
    if full:
        assert read.points == original.points, where
        if original.penalty is not None:
            assert read.penalty == original.penalty, where
        if original.type not in ("short_answer", "numerical"):  # Moodle has feedback by answer only there (a warning)
            for kind in ("correct", "partially_correct", "incorrect"):
                assert_same_text(getattr(read.feedback, kind), getattr(original.feedback, kind), f"{where} {kind} feedback")
    kind = original.type
    if kind in ("single_choice", "multiple_response"):
        assert len(read.choices) == len(original.choices), where
        for got, want in zip(read.choices, original.choices):
            assert_same_text(got.text, want.text, f"{where} option {want.id}", inline=True)
            assert_same_text(got.feedback, want.feedback, f"{where} option {want.id} feedback", inline=True)
            assert_same_credit(got.credit, want.credit, f"{where} option {want.id}")
            assert got.correct == want.correct, f"{where} option {want.id} correct"
        if full:
            assert read.shuffle == original.shuffle, where
    elif kind == "true_false":
        assert read.answer == original.answer, where
        assert_same_text(read.true_feedback, original.true_feedback, f"{where} true feedback", inline=True)
        assert_same_text(read.false_feedback, original.false_feedback, f"{where} false feedback", inline=True)
    elif kind == "short_answer":
        # Without case sensitivity (GIFT) answers differing only in case are one: the best is written.
        wanted = original.answers if full or not original.case_sensitive else best_of_case_twins(original.answers)
        assert [a.text for a in read.answers] == [a.text for a in wanted], where
        for got, want in zip(read.answers, wanted):
            assert_same_credit(got.credit, want.credit, f"{where} answer {want.text!r}")
            assert_same_text(got.feedback, want.feedback, f"{where} answer feedback", inline=True)
        if full:
            assert read.case_sensitive == original.case_sensitive, where
    elif kind == "numerical":
        assert len(read.answers) == len(original.answers), where
        for got, want in zip(read.answers, original.answers):
            # Moodle keeps a range as its midpoint ± half its width: the bounds come back to within
            # the rounding of that arithmetic (a few ulps of the larger bound), not bit for bit.
            scale = max(abs(want.low), abs(want.high)) * 1e-12
            assert abs(got.low - want.low) <= scale and abs(got.high - want.high) <= scale, \
                f"{where}: [{got.low}, {got.high}] != [{want.low}, {want.high}]"
            assert_same_credit(got.credit, want.credit, f"{where} numerical answer")
            assert_same_text(got.feedback, want.feedback, f"{where} numerical feedback", inline=True)
    elif kind == "matching":
        assert [p.answer for p in read.pairs] == [p.answer for p in original.pairs], where
        for got, want in zip(read.pairs, original.pairs):
            assert_same_text(got.prompt, want.prompt, f"{where} prompt {want.id}", inline=True)
        assert [d.text for d in read.distractors] == [d.text for d in original.distractors], where
        if full:
            assert read.shuffle == original.shuffle, where
    elif kind == "essay" and full:
        assert_same_text(read.grader_info, original.grader_info, f"{where} grader info")
        if original.response_template is None:
            assert read.response_template is None, where
        else:
            got = shown(read.response_template)
            want = plain_shown(original.response_template)
            assert loose_around_tabs(got, original.response_template) == loose_around_tabs(want, original.response_template), where
        assert read.lines == original.lines, where


def assert_same_quiz(read: Quiz, original: Quiz, full: bool) -> None:
    from lmsexport.writers.moodle.common import question_tags

    assert read.title == original.title
    assert read.category == original.category
    exported = original.exported_questions
    assert [q.id for q in read.questions] == [q.id for q in exported]
    for got, want in zip(read.questions, exported):
        assert_same_question(got, want, question_tags(original, want), full)


def assert_same_languages(read: Quiz, original: Quiz, options: bool) -> None:
    """Every question states its language (read back with the quiz's language as the default);
    with `options`, every option too."""
    for got, want in zip(read.questions, original.exported_questions):
        language = original.language_of(want)
        assert (got.language or read.language) == language, f"{want.id}: language {got.language!r}"
        if options:
            for got_choice, want_choice in zip(getattr(got, "choices", ()), getattr(want, "choices", ())):
                assert (got_choice.language or got.language or read.language) == (want_choice.language or language), \
                    f"{want.id} option {want_choice.id}: language {got_choice.language!r}"


# Metadata with what could end a comment, a paragraph or an XML text, and every kind of line break.
HOSTILE_LEVEL = "Dëgër Niveau <b>2</b> & ]]> 'q' \"q\" // $CATEGORY: {x} ~=#: \\n\nline two\r\nline three\rend  "
HOSTILE_DESCRIPTION = "First </p> line <script>x</script> &amp;\n\n// not a comment\n$CATEGORY: nope\n  indented  \r\nשלום 🚀 e\u0301"

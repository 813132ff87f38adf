"""The QTI writer's and check's shortcuts, each held to the full path it stands for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import quiz as quizzes
from test_properties import load

from lmsexport.writers.qti import platform_losses
from lmsexport.writers.qti.check import TROUBLE, may_trouble_qti

# -- the check's test for Markdown that could trouble QTI ---------------------------------------

# Every character and sequence the pattern looks for, the ones around them that it must not take
# for them (a backslash before another character, an & that starts no entity, a number without
# its marker or not at a line's start), and line breaks of every kind Python's str knows.
_TRIGGERS = ["<", "|", "[", "!", "$", "\\(", "\\[", "\\", "(", "]", ")", "&", "&#", "&a;", "&A1;", "&1;", "&a", ";", "#",
             "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\u2028", "\u0085", " ", "\t", ">", "*", "+", "-", "1", "23", "٣",
             "²", ".", ")", "1.", "2)", " 3.", "> 4)", "- 5.", "word", "é", "R&D", "a.b", "(1)"]


@settings(max_examples=2000, deadline=None)
@given(source=st.one_of(
    st.lists(st.sampled_from(_TRIGGERS), max_size=12).map("".join),
    st.text(alphabet=st.sampled_from("<|[!$\\(&#;aZ09.) \t>*+-\n\r"), max_size=20),
    st.text(max_size=30),
))
def test_the_substring_test_for_markdown_that_could_trouble_qti_says_what_the_pattern_says(source):
    assert may_trouble_qti(source) == (TROUBLE.search(source) is not None), repr(source)


def test_the_substring_test_finds_each_kind_of_trouble_and_leaves_plain_text():
    for source in ["a < b", "a | b", "[a]", "!x", "$x$", "\\(x\\)", "\\[x\\]", "&#10;", "&nbsp;", "1. first",
                   "text\n  2) second", "> 3. quoted", "-  4. listed", "٣. Arabic digit"]:
        assert may_trouble_qti(source), source
    for source in ["", "plain words.", "R&D and &x", "a\\b", "in 1999. Then", "x\n1 item", "². superscript", "(1) x"]:
        assert not may_trouble_qti(source), source


# -- the platform-loss rows, judged once a quiz ---------------------------------------------------

def _question_by_question(quiz) -> dict:
    found: dict = {}
    for question in quiz.exported_questions:
        for loss in platform_losses.found_in(question, quiz):
            found.setdefault(loss, []).append(question)
    return found


@settings(max_examples=60, deadline=None)
@given(data=quizzes(max_questions=8))
def test_the_rows_judged_once_a_quiz_are_the_rows_found_question_by_question(data):
    quiz = load(data)
    once = platform_losses.found_in_quiz(quiz)
    each = _question_by_question(quiz)
    assert list(once) == list(each)  # the same rows in the same order
    for loss in each:
        assert [q.id for q in once[loss]] == [q.id for q in each[loss]], loss.feature
    for question in quiz.exported_questions:
        for feature, (of_quiz, of_question) in platform_losses.QUIZ_PARTS.items():
            split = of_quiz(quiz) and (of_question is None or of_question(question, quiz))
            assert split == platform_losses.FEATURES[feature](question, quiz), feature


def test_a_shuffled_section_turns_the_options_shuffle_row_off_for_the_whole_quiz():
    """The quiz part of a row is not idle: the same question has the row or not by its quiz alone."""
    question = {"id": "q", "type": "single_choice", "stem": "Pick", "shuffle": True,
                "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]}
    base = {"id": "z", "title": "Z", "language": "en", "questions": [question]}
    alone = load(base)
    in_shuffled = load({**base, "sections": [{"id": "s", "title": "S", "shuffle": True, "questions": ["q"]}]})
    assert "shuffle" in [loss.feature for loss in platform_losses.found_in_quiz(alone)]
    assert "shuffle" not in [loss.feature for loss in platform_losses.found_in_quiz(in_shuffled)]
    assert "shuffle" not in [loss.feature for loss in platform_losses.found_in(in_shuffled.exported_questions[0], in_shuffled)]


# -- the writer's test for markup known valid -----------------------------------------------------

_MARKUP_PIECES = ["<p>", "</p>", "\n", "<strong>", "</strong>", "<em>", "</em>", "<code>", "</code>", '<a href="x">', "</a>", "<br />",
                  "<", ">", "&", "&amp;", "&lt;", "&x;", "p>", "</p", "<p", "word", "é", "📚", " ", '"']


@settings(max_examples=2000, deadline=None)
@given(html=st.lists(st.sampled_from(_MARKUP_PIECES), max_size=16).map("".join))
def test_the_scans_of_is_flat_say_what_its_patterns_say(html):
    """Text alone or one paragraph of it is taken without the match: the match would take it too."""
    from lmsexport.writers.qti.xhtml import _FLAT_INLINE, _FLAT_PARAGRAPHS, is_flat

    pattern = _FLAT_PARAGRAPHS if html.startswith("<p>") else _FLAT_INLINE
    assert is_flat(html) == (pattern.fullmatch(html) is not None), repr(html)

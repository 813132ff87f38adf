"""The Canvas writer writes the lines repeated for each option (response labels, feedback
conditions, the multiple answers condition) by filling frames made once; held here to the same
lines written element by element with the `Lines` builders."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lmsexport.writers.canvas.choice_items import RESPONSE, _all_right_frame, _label_frame
from lmsexport.writers.canvas.qti12 import end_condition, end_conditionvar, feedback_condition_frame, respcondition, show_feedback, varequal
from lmsexport.writers.canvas.xml import Lines
from lmsexport.writers.xml import text as escaped

_IDENTS = st.integers(10_000, 99_999).map(str)
_DEPTHS = st.integers(0, 12)


@given(depth=_DEPTHS, ident=_IDENTS, text=st.text(), texttype=st.sampled_from(["text/html", "text/plain"]))
def test_a_filled_label_frame_is_the_label_written_element_by_element(depth, ident, text, texttype):
    lines = Lines(depth)
    lines.open("response_label", f' ident="{ident}"')
    lines.open("material")
    lines.leaf("mattext", f' texttype="{texttype}"', text)
    lines.close("material")
    lines.close("response_label")

    before_ident, before_text, after_text = _label_frame(depth, texttype)
    assert before_ident + ident + before_text + escaped(text) + after_text == "".join(lines.parts)


@given(depth=_DEPTHS, ident=_IDENTS)
def test_a_filled_feedback_condition_is_the_condition_written_element_by_element(depth, ident):
    lines = Lines(depth)
    respcondition(lines, "Yes")
    varequal(lines, RESPONSE, ident)
    end_conditionvar(lines)
    show_feedback(lines, f"{ident}_fb")
    end_condition(lines)
    before_value, before_feedback, after_feedback = feedback_condition_frame(depth, RESPONSE)
    assert before_value + ident + before_feedback + ident + after_feedback == "".join(lines.parts)


@given(depth=_DEPTHS, options=st.lists(st.tuples(_IDENTS, st.booleans()), max_size=8))
def test_a_filled_multiple_answers_condition_is_the_condition_written_element_by_element(depth, options):
    lines = Lines(depth)
    respcondition(lines, "No")
    lines.open("and")
    for ident, correct in options:
        if correct:
            varequal(lines, RESPONSE, ident)
        else:
            lines.open("not")
            varequal(lines, RESPONSE, ident)
            lines.close("not")
    lines.close("and")
    opening, right, end_right, wrong, end_wrong, closing = _all_right_frame(depth)
    filled = opening + "".join(f"{right}{i}{end_right}" if correct else f"{wrong}{i}{end_wrong}" for i, correct in options) + closing
    assert filled == "".join(lines.parts)

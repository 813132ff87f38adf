"""The Canvas writer's escape of HTML into a mattext's character data (`qti12.html_text`) held to
the way it was first written: named references rewritten as numeric ones, then the whole escaped
by writers/xml.py's `text`, one replace after another."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from lmsexport.writers.canvas.qti12 import html_text
from lmsexport.writers.xml import text

_NAMED_TO_NUMERIC = {"&amp;": "&#38;", "&lt;": "&#60;", "&gt;": "&#62;", "&quot;": "&#34;"}


def rewrite_then_escape(html: str) -> str:
    """The reference: each named reference rewritten, then `text`'s escape."""
    for named, numeric in _NAMED_TO_NUMERIC.items():
        html = html.replace(named, numeric)
    return text(html)


# Hostile pieces: references whole, cut, nested in one another, doubled; the characters escaped;
# characters outside Latin-1 (a string of wider characters is stored another way).
_PIECES = st.sampled_from([
    "&", "&amp;", "&lt;", "&gt;", "&quot;", "&#38;", "&apos;", "&amp;amp;", "&amp;lt;", "&&lt;;", "&l", "t;", "amp;", "lt;", "quot;",
    "&;", ";", "<", ">", "\r", "\n", "\r\n", "<p>", "</p>", '<a href="x&amp;y">', "]]>", "#38;", "é", "😀", " ", "a",
])
_HOSTILE = st.lists(_PIECES | st.text(alphabet="&amp;ltgquo#;<>\r", max_size=6), max_size=30).map("".join)


@settings(max_examples=500)
@given(st.one_of(_HOSTILE, st.text()))
@example("a &amp; b <p>&lt;x&gt;</p>\r")
@example("&amp;lt;")
@example("&&amp;;")
@example("")
def test_html_text_is_the_rewrite_then_the_escape(html):
    assert html_text(html) == rewrite_then_escape(html)


def test_the_reference_is_what_canvas_reads():
    """The reference itself, on a known case, so that both cannot drift together."""
    assert rewrite_then_escape('a &amp; b <i>"&quot;"</i>\r') == 'a &amp;#38; b &lt;i&gt;"&amp;#34;"&lt;/i&gt;&#13;'

"""`checks.blank.is_blank`, held to the plain way of saying it (the former code, below) over
generated texts: markup, entities, link destinations, letters and digits of every script, the
underscore; and the regex for "a letter or digit" to `str.isalnum`, character by character."""

from __future__ import annotations

import re
import sys
from html import unescape

from hypothesis import given, settings
from hypothesis import strategies as st

from lmsexport.checks import blank
from lmsexport.model import Text, TextFormat
from lmsexport.text import to_html


def _plain_is_blank(text) -> bool:
    value = text.source if isinstance(text, Text) else text
    if value is None:
        return False
    if not value.strip():
        return True
    if isinstance(text, Text) and text.format is TextFormat.MARKDOWN and (
        blank._ENTITY.search(value) or not any(c.isalnum() for c in re.sub(r"\]\([^)]*\)", "", value))
    ):
        html = to_html(text)
        return not re.search(r"<(img|hr|audio|video|math)\b", html) and not unescape(re.sub(r"<[^>]+>", "", html)).strip()
    return False


pieces = st.sampled_from(["#", "- ", "```", "_", "__", "*", "&#10;", "&nbsp;", "&amp;", "&", ";", "[](https://x.org)",
                          "[a](b)", "](", ")", "![](i.png)", "![x](i.png)", " ", "\n", "\t", "a", "Z", "7", "é", "٣", "Ⅻ",
                          "²", "中", "\u00a0", "\u2003", "---", "> ", "1. ", "|", "<b>", "`x`"])
texts = st.lists(pieces, max_size=8).map("".join)


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from([TextFormat.PLAIN, TextFormat.MARKDOWN]))
def test_is_blank_is_the_plain_rule(source, text_format):
    assert blank.is_blank(Text(source, text_format)) == _plain_is_blank(Text(source, text_format))
    assert blank.is_blank(source) == _plain_is_blank(source)


def test_nothing_is_not_blank():
    assert blank.is_blank(None) is False


def test_the_letter_or_digit_class_is_isalnum():
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert bool(blank._LETTER_OR_DIGIT.match(char)) == char.isalnum(), hex(code)

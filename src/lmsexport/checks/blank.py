"""Text that shows a student nothing, where text is required."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Question, Text, TextFormat
from ..text import to_html

_TAGS = re.compile(r"<[^>]+>")
_VISIBLE_ELEMENT = re.compile(r"<(img|hr|audio|video|math)\b")
# What may hide every letter of a Markdown text: an entity, or a link destination (the letters
# of "[](https://x.org)" are all in the address, which is not shown).
_ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_DESTINATION = re.compile(r"\]\([^)]*\)")
# A character str.isalnum() accepts: a word character but the underscore (the regex engine's
# word class is Python's alphanumerics and "_"; tests/test_blank_text.py holds the two together).
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")
_MARKDOWN = TextFormat.MARKDOWN  # read once: an Enum member read off its class is slow on Python 3.11


def is_blank(text: Text | str | None) -> bool:
    """Only white space: nothing for a student to read."""
    if text is None:
        return False
    if not isinstance(text, Text):
        return not text.strip()
    value = text.source
    if not value.strip():
        return True
    if text.format is _MARKDOWN and (
        ("&" in value and _ENTITY.search(value))
        or not _LETTER_OR_DIGIT.search(_DESTINATION.sub("", value) if "](" in value else value)
    ):
        # Markup alone ("#", "- ", "```") or an entity for white space ("&#10;") renders to nothing.
        html = to_html(text)
        return not _VISIBLE_ELEMENT.search(html) and not unescape(_TAGS.sub("", html)).strip()
    return False


def blank_text_errors(question: Question, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    if is_blank(question.stem):
        yield error("the question text cannot be only white space", file, pointer_join(base, "stem"), code="blank")
    if is_blank(question.title):
        yield error("the title cannot be only white space", file, pointer_join(base, "title"), code="blank")
    for i, choice in enumerate(getattr(question, "choices", ())):
        if is_blank(choice.text):
            yield error("an option's text cannot be only white space", file, pointer_join(base, "options", i, "text"), code="blank")

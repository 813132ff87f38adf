"""Writing text so that Moodle's GIFT parser (question/format/gift/format.php) gives it back.

Moodle first turns `\\\\` into a backslash and `\\:` `\\#` `\\=` `\\{` `\\}` `\\~` `\\n` into
placeholders (escapedchar_pre), splits the question, then puts the characters back
(escapedchar_post). So every special character and every line break is escaped. What no escape
can protect:
- the placeholders themselves (`&&058;`, `&&092;`...) written literally would be turned into
  characters;
- `->` inside a choice block makes Moodle read a matching question;
- a leading `[html]`-like word is read as a format marker.
A plain text that meets one of these is written as `[html]` with its escaped HTML, which shows
the same thing; a text that must stay plain (a short answer, a matching answer) is refused.
"""

from __future__ import annotations

import re

from ...model import Text
from ..moodle_common import html_of, is_plain, plain_html

_ESCAPES = str.maketrans({"\\": "\\\\", "~": "\\~", "=": "\\=", "#": "\\#", "{": "\\{", "}": "\\}", ":": "\\:", "\n": "\\n"})
PLACEHOLDER = re.compile(r"&&(058;|035;|061;|123;|125;|126;|010|092;)")


def line_breaks(source: str) -> str:
    # Moodle reads the file line by line and drops carriage returns (repchar does the same).
    return source.replace("\r\n", "\n").replace("\r", "\n")


def escape(source: str) -> str:
    return line_breaks(source).translate(_ESCAPES)


def plain_survives(source: str) -> bool:
    """Whether a plain string comes back unchanged from Moodle's GIFT parser once escaped."""
    return PLACEHOLDER.search(source) is None and "->" not in source


def rich(text: Text, inline: bool) -> str:
    """A text with its explicit format marker: [plain] exactly as written, else [html]."""
    if is_plain(text):
        if plain_survives(text.source):
            return "[plain]" + escape(text.source)
        return "[html]" + escape(plain_html(text.source, inline))
    # Markdown goes out rendered: Moodle's Markdown would let raw HTML through.
    return "[html]" + escape(html_of(text, inline))


def answer(source: str) -> str:
    """A string Moodle keeps as plain text (short answer): a leading '[' would be read as a marker."""
    escaped = escape(source)
    return "[plain]" + escaped if escaped.startswith("[") else escaped

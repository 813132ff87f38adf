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

from ....model import Text
from ....text import RenderStyle
from ....text.gift_escapes import BACKSLASH, PLACEHOLDER, escapes_undone, placeholders_undone
from ..common import html_of, is_plain, plain_html
from ...shared import in_language


def line_breaks(source: str) -> str:
    # Moodle reads the file line by line and drops carriage returns (repchar does the same).
    return source.replace("\r\n", "\n").replace("\r", "\n")


def escape(source: str) -> str:
    # Most texts hold none of GIFT's special characters: nine substring tests find out (a third of
    # the time of one search for a character class, on a bank's texts), where the replaces below
    # would each copy the text.
    if not ("\\" in source or "~" in source or "=" in source or "#" in source or "{" in source or "}" in source
            or ":" in source or "\n" in source or "\r" in source):
        return source
    # Chained replaces: much faster than str.translate with a mapping. The backslash goes first.
    if "\r" in source:
        source = line_breaks(source)
    return (
        source.replace("\\", "\\\\").replace("~", "\\~").replace("=", "\\=").replace("#", "\\#")
        .replace("{", "\\{").replace("}", "\\}").replace(":", "\\:").replace("\n", "\\n")
    )


def name(source: str) -> str:
    """A question name as written: Moodle turns placeholders in a name into their characters,
    which cannot be helped (a loss the writer reports), so the name is written as Moodle will
    read it, and an import of the file gives the same name, which is written the same again."""
    if "&&" in source and PLACEHOLDER.search(source):
        read = placeholders_undone(escapes_undone(escape(source)))
        if not PLACEHOLDER.search(read):
            return escape(read)
    return escape(source)


def category(path: str) -> str:
    """A $CATEGORY line's path. Moodle reads it through escapedchar_pre alone, which takes a
    doubled backslash for one, keeps the other placeholders as they are, and turns `&&092;` into
    a backslash, which cannot be helped (a loss the writer reports): so `&&092;` is written as
    that backslash and each backslash twice, and the path reaches Moodle as it is otherwise. A
    line break would end the line."""
    return line_breaks(path).replace("\n", " ").replace(BACKSLASH[1], "\\").replace("\\", "\\\\")


def plain_survives(source: str) -> bool:
    """Whether a plain string comes back unchanged from Moodle's GIFT parser once escaped."""
    return "->" not in source and ("&&" not in source or PLACEHOLDER.search(source) is None)


def rich(text: Text, inline: bool, lang: str | None = None, style: RenderStyle | None = None) -> str:
    """A text with its explicit format marker: [plain] exactly as written, else [html].
    A text in another language than the quiz's is [html] wrapped in an element stating it."""
    if is_plain(text):
        if lang is None:
            if plain_survives(text.source):
                return "[plain]" + escape(text.source)
            return "[html]" + escape(plain_html(text.source, inline))
        html = plain_html(text.source, inline)
    else:
        # Markdown goes out rendered: Moodle's Markdown would let raw HTML through.
        html = html_of(text, inline, style)
    return "[html]" + escape(html if lang is None else in_language(html, lang, inline))


def rich_html(text: Text) -> str:
    """A text as [html] whatever its format: its block HTML (a plain text escaped in paragraphs).
    Only a text `rich` leaves ending with its answer block comes here, which is a text in the
    quiz's language, plain or HTML read back from a platform: one in another language is wrapped
    in an element stating it, and Markdown is rendered in paragraphs, so neither ends with it (and
    no style applies: plain text and HTML have no formula or media address to render). As every
    HTML field, it is the HTML Moodle gets (`html_of`: TeX delimiters in a text with no formula
    shown as written)."""
    return "[html]" + escape(html_of(text, False))


def answer(source: str) -> str:
    """A string Moodle keeps as plain text (short answer): a leading '[' would be read as a marker."""
    escaped = escape(source)
    return "[plain]" + escaped if escaped.startswith("[") else escaped

"""Markdown whose rendering is known without the parser: one-line paragraphs of plain words,
strong, emphasised or code words and links to web addresses, as CommonMark renders them (the
property tests of tests/test_text.py hold every path to markdown-it-py's output). Most texts of
a bank are such, and skip the parser, which costs tens of microseconds a text."""

from __future__ import annotations

import re

# A one-line text with no character that Markdown gives a meaning to renders as one paragraph of
# itself (most option texts are such).
# Runs are possessive (`*+`) in every pattern here: a shorter run could never be followed by what
# comes next (the end, or a mark the run excludes), so nothing can match that backtracking would
# find, and a text that fails (most texts of a Markdown bank fail one pattern or two) fails in one
# pass instead of one step back for every character.
_SIMPLE_MARKDOWN = re.compile(r"(?![#>+*=\-]|\d+[.)])[^\s\\`*_\[\]!<>&$|~{}:@][^\n\r\\`*_\[\]!<>&$|~]*+(?<!\s)")

# The same, with **strong**, *emphasis* or `code` around words set off by spaces (or the line's
# start and end, or a closing punctuation mark): CommonMark's flanking rules can only pair such
# marks one way, so they too can skip the parser.
_PLAIN_NO_MARK = r"[^*`\n\r\\_\[\]!<>&$|~]"
_WORDS = rf"(?:(?![\s*`]){_PLAIN_NO_MARK}(?:{_PLAIN_NO_MARK}*+(?<!\s))?)"
# Each span starts with its mark, and only then looks back for the space before it: a pattern
# that starts with a mark lets the regular expression engine skip to the next mark, where one that
# starts by looking back tries every character of the text (four times slower on a sentence).
_SPAN = re.compile(rf"(?:\*\*(?<!\S\*\*){_WORDS}\*\*|\*(?<!\S\*){_WORDS}\*|`(?<!\S`){_WORDS}`)(?=[\s.,;:?]|$)")
_SIMPLE_INLINE = re.compile(r"(?![#>+=\-]|\*\s|\d+[.)])[^\s\\_\[\]!<>&$|~{}:@][^\n\r\\_\[\]!<>&$|~]*+(?<!\s)")
_SPAN_TAGS = {"**": "strong", "*": "em", "`": "code"}


def _span(match: re.Match) -> str:
    whole = match.group()
    mark = "**" if whole.startswith("**") else whole[0]
    tag = _SPAN_TAGS[mark]
    return f"<{tag}>{whole[len(mark):-len(mark)]}</{tag}>"


# A link with words for its text and a web address of the characters that normalising leaves as
# they are: CommonMark renders it so wherever it stands in a simple paragraph.
_LINK = re.compile(r"\[(?!\s)([^\n\r\\`*_\[\]!<>&$|~]+)(?<!\s)\]\((https?://[a-z0-9][a-z0-9.-]*(?:[/?#][A-Za-z0-9._~/?#=-]*)?)\)")


def simple_html(source: str) -> str | None:
    """The XHTML of a text the parser need not see, or None. Paragraphs apart (one blank line
    between them, none starting or ending with a space) are rendered each on its own, as the
    parser would; so are lists of such lines and fenced code (see `_simple_blocks`)."""
    html = _simple_paragraph(source) if "\n\n" not in source else _simple_paragraphs(source)  # one paragraph: most texts
    if html is None and ("\n- " in source or "```" in source or source.startswith("- ")):
        return _simple_blocks(source)
    return html


def _simple_paragraphs(source: str) -> str | None:
    paragraphs = [_simple_paragraph(p) for p in source.split("\n\n")]
    if None in paragraphs:
        return None
    return "\n".join(paragraphs)  # type: ignore[arg-type]


def simple_links(source: str) -> list[str] | None:
    """The addresses of the links of a text of paragraphs the parser need not see (which holds
    no image, no formula and no code, where a link is text), in order; None for any other text."""
    html = _simple_paragraph(source) if "\n\n" not in source else _simple_paragraphs(source)
    if html is None:
        return None
    return [address for _words, address in _LINK.findall(source)]


# A fence's info string that CommonMark takes whole as the language's name, with nothing to
# unescape or trim.
_FENCE_INFO = re.compile(r"[A-Za-z0-9_+-]*")


def _simple_blocks(source: str) -> str | None:
    """Blocks apart by one blank line, each a one-line paragraph of `_simple_paragraph`, a tight
    list of such lines each after "- ", or code fenced by three backticks (a quiz about code
    mixes all three): the parser's XHTML, or None when any block is of another kind. Each block
    must end at a blank line, so nothing continues it lazily, and two lists are never apart by
    one (they would make one loose list)."""
    if "\r" in source or "\0" in source:
        return None
    lines = source.split("\n")
    blocks: list[str] = []
    at, after_list = 0, False
    while True:
        line = lines[at]
        if line.startswith("```"):
            info = line[3:]
            if not _FENCE_INFO.fullmatch(info):
                return None
            end = at + 1
            while end < len(lines) and lines[end] != "```":
                if lines[end].lstrip(" ").startswith("```"):  # a longer fence, or one with an info string, or indented
                    return None
                end += 1
            if end == len(lines):
                return None  # unclosed: the code runs to the end of the text
            code = "".join(c + "\n" for c in lines[at + 1:end])
            code = code.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            opening = f'<pre><code class="language-{info}">' if info else "<pre><code>"
            blocks.append(opening + code + "</code></pre>")
            at, after_list = end + 1, False
        elif line.startswith("- "):
            if after_list:
                return None
            items = []
            while at < len(lines) and lines[at].startswith("- "):
                item = _simple_paragraph(lines[at][2:])
                if item is None:
                    return None
                items.append("<li>" + item[3:-4] + "</li>\n")
                at += 1
            blocks.append("<ul>\n" + "".join(items) + "</ul>")
            after_list = True
        else:
            paragraph = _simple_paragraph(line)
            if paragraph is None:
                return None
            blocks.append(paragraph)
            at, after_list = at + 1, False
        if at == len(lines):
            return "\n".join(blocks)
        if lines[at] or at + 1 == len(lines) or not lines[at + 1]:
            return None  # not one blank line before the next block
        at += 1


# "&", ">", "~" and a backslash before a letter or digit (a Windows path) are text to CommonMark
# inside a line (strikethrough is off); they are something else only at a line's start (a block
# quote, a fence), as an entity ("&amp;", "&#38;") or as a backslash before punctuation (an
# escape, a formula's "\\("). "<" is text too, even at a line's start (raw HTML is off, so no
# tag and no HTML block), unless it opens an autolink: an address or e-mail address between "<"
# and the next ">", which holds a ":" or an "@" (`_NOT_TEXT` refuses every such pair, and more).
# "]" is text in a line that holds no "[" (it only ever closes a link's or an image's text).
# In a line without links they stand in for a letter while the patterns read it (a letter and
# those marks are alike to every rule the patterns apply: emphasis is matched only between spaces
# and closing punctuation), and are written after.
_NOT_TEXT = re.compile(r"&(?:#|[A-Za-z][A-Za-z0-9]*;)|\\(?![A-Za-z0-9])|[\ue000-\ue005]|<[^<>:@]*+[:@][^<>]*+>")
_STAND_INS = {"&": "\ue000", ">": "\ue001", "~": "\ue002", "\\": "\ue003", "<": "\ue004", "]": "\ue005"}  # private use characters
_TO_STAND_INS = str.maketrans(_STAND_INS)
# The marks that mean something else at a line's start ("<" and "]" do not; "&" is kept out there
# as before, which costs nothing: no text of a bank starts so).
_NOT_FIRST = ("&", ">", "~", "\\")


def _simple_paragraph(source: str) -> str | None:
    """One line whose rendering is known without the parser: a paragraph of its text, its
    strong, emphasised or code words and its links. None when only the parser can tell."""
    if ("&" not in source and ">" not in source and "~" not in source and "\\" not in source and "<" not in source
            and ("]" not in source or "[" in source)):  # a "]" with a "[" may close a link
        return _simple_line(source)
    # With a "[" left in the line (a "]" becomes a stand-in), no pattern matches: the parser tells.
    if source.startswith(_NOT_FIRST) or "](" in source or _NOT_TEXT.search(source):
        return None
    html = _simple_line(source.translate(_TO_STAND_INS))
    if html is None:
        return None
    return (html.replace("\ue000", "&amp;").replace("\ue001", "&gt;").replace("\ue002", "~").replace("\ue003", "\\")
            .replace("\ue004", "&lt;").replace("\ue005", "]"))


def _simple_line(source: str) -> str | None:
    if _SIMPLE_MARKDOWN.fullmatch(source):
        return "<p>" + _quotes(source) + "</p>"
    if _SIMPLE_INLINE.fullmatch(source):
        html = _SPAN.sub(_span, source)
        if "*" not in html and "`" not in html:  # every mark was a span's (a span's words hold none)
            return "<p>" + _quotes(html) + "</p>"
    if "](" not in source:
        return None
    pieces = _LINK.split(source)  # text, link text, address, text...
    if _SIMPLE_MARKDOWN.fullmatch("x".join(pieces[::3])):  # each link reads as a word
        html = [_quotes(pieces[0])]
        for words, address, after in zip(pieces[1::3], pieces[2::3], pieces[3::3]):
            html.append(f'<a href="{address}">{_quotes(words)}</a>{_quotes(after)}')
        return "<p>" + "".join(html) + "</p>"
    return None


def _quotes(text: str) -> str:
    """Text of a paragraph the parser would leave as it is, but for its quotation marks."""
    return text.replace('"', "&quot;")

"""Rendering of rich text, shared by every writer.

Markdown is CommonMark with tables and math (`$...$`, `$$...$$`, `\\(...\\)`, `\\[...\\]`),
rendered by markdown-it-py. Raw HTML inside Markdown is never passed through: it is shown as
text, so nothing an author pastes can run on a platform. Plain text is escaped exactly and keeps
its line breaks. Writers choose, through a RenderStyle, MathML or TeX for formulas and the
address of media files in their package.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from urllib.parse import unquote

from ..model import Text, TextFormat
from . import markdown
from .simple import _SIMPLE_INLINE, _SIMPLE_MARKDOWN, simple_html  # noqa: F401 (the tests look at the patterns)
from .math import FormulaError, to_mathml
from .style import DEFAULT_STYLE, MathStyle, RenderStyle

__all__ = [
    "DEFAULT_STYLE", "HTML", "MARKDOWN", "PLAIN", "FormulaError", "MathStyle", "RenderStyle", "forget_renderings", "formula_problems",
    "media_references", "plain_to_html", "plain_to_inline_html", "to_html", "to_inline_html",
]

# TextFormat's members, read once. On Python 3.11 reading an Enum member as a class attribute
# takes the slow path of a metaclass with __getattr__ (about 90 ns, ten times a module name),
# and every writer asks every text its format a few times.
PLAIN, MARKDOWN, HTML = TextFormat.PLAIN, TextFormat.MARKDOWN, TextFormat.HTML


# Every writer renders the same texts of a quiz: each rendering is kept until the quiz is done
# (the pipeline then calls forget_renderings, so memory stays bounded by the largest quiz), and
# three writers out of four find it ready. The limit bounds each kind for callers that never
# forget.
#
# Each kind of rendering has a table of its own, keyed by the source alone: a key of one string
# is hashed from the string's cached hash, with no tuple to build. The source is all a rendering
# depends on:
# - plain text (block or inline) takes nothing else;
# - Markdown takes a style, but a style changes only formulas and media (`_markdown_to_html`
#   gives a text with neither the default style), so a text rendered with the default style is
#   keyed by its source; a text whose style matters is kept in `_STYLED_MARKDOWN`, keyed by the
#   source and the style;
# - inline Markdown is the block rendering of the same source and style, less one <p> wrapper.
# A source that is both plain and Markdown text in one quiz renders differently as each, hence a
# table per kind and never one shared.
_PLAIN_BLOCK: dict[str, str] = {}
_PLAIN_INLINE: dict[str, str] = {}
_MARKDOWN_BLOCK: dict[str, str] = {}
_MARKDOWN_INLINE: dict[str, str] = {}
_STYLED_MARKDOWN: dict[tuple[str, RenderStyle], str] = {}
_TABLES = (_PLAIN_BLOCK, _PLAIN_INLINE, _MARKDOWN_BLOCK, _MARKDOWN_INLINE, _STYLED_MARKDOWN)
_RENDERED_LIMIT = 200_000


def _remember(table: dict, key, html: str) -> str:
    if len(table) >= _RENDERED_LIMIT:
        table.clear()
    table[key] = html
    return html


def forget_renderings() -> None:
    for table in _TABLES:
        table.clear()


@lru_cache(maxsize=65536)
def _render_markdown(source: str, style: RenderStyle) -> str:
    return markdown.render(source, style)


def _style_may_matter(source: str) -> bool:
    """Whether a Markdown text can render otherwise in another style: a style only changes
    formulas and media, and every formula needs a "$", "\\(" or "\\[" and every image a "!["
    (a Windows path or an escaped mark is neither)."""
    return "$" in source or "![" in source or "\\(" in source or "\\[" in source


def _markdown_to_html(source: str, style: RenderStyle) -> str:
    # A text whose style cannot matter renders the same for every writer, so it is rendered (and
    # looked up) once per quiz instead of once per writer, keyed by its source alone.
    if style is DEFAULT_STYLE or not _style_may_matter(source):
        html = _MARKDOWN_BLOCK.get(source)
        return html if html is not None else _remember(_MARKDOWN_BLOCK, source, _markdown_uncached(source, DEFAULT_STYLE))
    key = (source, style)
    html = _STYLED_MARKDOWN.get(key)
    return html if html is not None else _remember(_STYLED_MARKDOWN, key, _markdown_uncached(source, style))


def _markdown_uncached(source: str, style: RenderStyle) -> str:
    html = simple_html(source)
    return html if html is not None else _render_markdown(source, style)


def _unwrapped(html: str) -> str:
    """Block XHTML as inline XHTML: a single paragraph loses its <p> wrapper."""
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        return html[3:-4]
    return html


def _escape(text: str) -> str:
    """`html.escape(text, quote=False)`: most texts hold none of the three characters it
    escapes, and are returned at once."""
    if "&" not in text and "<" not in text and ">" not in text:
        return text
    return escape(text, quote=False)


# HTML collapses runs of spaces and drops them at the start of a line; a no-break space for each
# space after the first (and for a line's leading ones) keeps plain text as it was written.
_SPACES = re.compile(r"(?<=\n) +|^ +| {2,}")


def _keep_spaces(text: str) -> str:
    if "  " not in text and "\n " not in text and not text.startswith(" "):
        return text
    return _SPACES.sub(lambda m: ("\u00a0" * len(m.group())) if m.start() == 0 or text[m.start() - 1] == "\n"
                       else " " + "\u00a0" * (len(m.group()) - 1), text)


def plain_to_html(source: str) -> str:
    """Plain text as XHTML paragraphs: a blank line starts a paragraph, a newline is a <br/>."""
    html = _PLAIN_BLOCK.get(source)
    return html if html is not None else _remember(_PLAIN_BLOCK, source, _plain_to_html(source))


def _plain_to_html(source: str) -> str:
    if "\n" not in source and "\r" not in source:  # one paragraph, most texts
        return "<p>" + _keep_spaces(_escape(source)) + "</p>" if source.strip() else ""
    paragraphs = [p for p in source.replace("\r\n", "\n").replace("\r", "\n").split("\n\n") if p.strip()]
    if not paragraphs:
        return ""
    return "".join("<p>" + _keep_spaces(_escape(p.strip("\n"))).replace("\n", "<br/>") + "</p>" for p in paragraphs)


def plain_to_inline_html(source: str) -> str:
    """Plain text as inline XHTML (for option texts and other short fields)."""
    html = _PLAIN_INLINE.get(source)
    return html if html is not None else _remember(_PLAIN_INLINE, source, _plain_to_inline_html(source))


def _plain_to_inline_html(source: str) -> str:
    return _keep_spaces(_escape(source).replace("\r\n", "\n").replace("\r", "\n")).replace("\n", "<br/>")


# Most texts of a bank are plain: to_html and to_inline_html ask for that format first and look
# its rendering up themselves (one call fewer for each text of each writer). TextFormat has
# three members, so a text neither plain nor Markdown is HTML, passed as written.


def to_html(text: Text, style: RenderStyle = DEFAULT_STYLE) -> str:
    """Block-level XHTML: one or more <p>, lists, tables... Well-formed XML."""
    source, text_format = text.source, text.format
    if text_format is PLAIN:
        html = _PLAIN_BLOCK.get(source)
        return html if html is not None else _remember(_PLAIN_BLOCK, source, _plain_to_html(source))
    if text_format is MARKDOWN:
        return _markdown_to_html(source, style)
    return source


def to_inline_html(text: Text, style: RenderStyle = DEFAULT_STYLE) -> str:
    """XHTML for a short field: a single Markdown paragraph loses its <p> wrapper."""
    source, text_format = text.source, text.format
    if text_format is PLAIN:
        html = _PLAIN_INLINE.get(source)
        return html if html is not None else _remember(_PLAIN_INLINE, source, _plain_to_inline_html(source))
    if text_format is MARKDOWN:
        if style is DEFAULT_STYLE or not _style_may_matter(source):
            html = _MARKDOWN_INLINE.get(source)
            return html if html is not None else _remember(_MARKDOWN_INLINE, source, _unwrapped(_markdown_to_html(source, DEFAULT_STYLE)))
        return _unwrapped(_markdown_to_html(source, style))
    return source


def media_references(text: Text | None) -> list[str]:
    """Paths of the local media files a text shows (as files are named, not URL-encoded), in
    order, each once."""
    if text is None or text.format is not MARKDOWN or "![" not in text.source:  # every image starts so
        return []
    seen: dict[str, None] = {}
    for address, _alt in markdown.images(text.source):
        if markdown.is_local(address):
            seen.setdefault(unquote(address), None)
    return list(seen)


def formula_problems(text: Text | None) -> list[str]:
    """Why each formula of a text cannot be converted to MathML (empty when all can)."""
    if text is None or text.format is not MARKDOWN or ("$" not in text.source and "\\" not in text.source):
        return []
    problems = []
    for latex, display in markdown.formulas(text.source):
        try:
            to_mathml(latex, display)
        except FormulaError as problem:
            problems.append(str(problem))
    return problems

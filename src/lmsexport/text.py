"""Rendering of rich text, shared by every writer.

Markdown is rendered with markdown-it-py's CommonMark parser plus tables. Raw HTML inside
Markdown is never passed through: it is shown as text, so nothing an author pastes can run
on a platform. Plain text is escaped exactly and keeps its line breaks.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from markdown_it import MarkdownIt

from .model import Text, TextFormat

_markdown = MarkdownIt("commonmark", {"html": False, "xhtmlOut": True, "breaks": False}).enable("table")


@lru_cache(maxsize=65536)
def _markdown_to_html(source: str) -> str:
    return _markdown.render(source).strip()


def plain_to_html(source: str) -> str:
    """Plain text as XHTML paragraphs: a blank line starts a paragraph, a newline is a <br/>."""
    paragraphs = [p for p in source.replace("\r\n", "\n").replace("\r", "\n").split("\n\n") if p.strip()]
    if not paragraphs:
        return ""
    return "".join("<p>" + escape(p.strip("\n"), quote=False).replace("\n", "<br/>") + "</p>" for p in paragraphs)


def plain_to_inline_html(source: str) -> str:
    """Plain text as inline XHTML (for option texts and other short fields)."""
    return escape(source, quote=False).replace("\r\n", "\n").replace("\n", "<br/>")


def to_html(text: Text) -> str:
    """Block-level XHTML: one or more <p>, lists, tables... Well-formed XML."""
    if text.format is TextFormat.MARKDOWN:
        return _markdown_to_html(text.source)
    return plain_to_html(text.source)


def to_inline_html(text: Text) -> str:
    """XHTML for a short field: a single Markdown paragraph loses its <p> wrapper."""
    if text.format is TextFormat.MARKDOWN:
        html = _markdown_to_html(text.source)
        if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
            return html[3:-4]
        return html
    return plain_to_inline_html(text.source)


def is_markdown(text: Text) -> bool:
    return text.format is TextFormat.MARKDOWN

"""Rendering one question's texts into QTI, reporting problems at their place in the content."""

from __future__ import annotations

from ... import text as rich
from ...model import Question, Text
from ...text import PLAIN, MathStyle, RenderStyle
from .names import media_href
from ..reporter import Reporter
from .xhtml import fragment, is_flat


# QTI 2.1 carries MathML natively, so formulas need no script on the platform. Items lie at the
# package root, so a media file's package path is its address.
ITEM_STYLE = RenderStyle(math=MathStyle.MATHML, media_url=media_href)


class ItemContext:
    __slots__ = ("language", "question", "report")

    def __init__(self, report: Reporter, question: Question | None, language: str):
        self.report = report
        self.question = question
        self.language = language

    def block(self, text: Text, *where: str | int) -> str:
        """Block content in one `div`: the stem, feedback, a rubric."""
        return "<div>" + self._markup(rich.to_html(text, ITEM_STYLE), text, where) + "</div>"

    def inner_block(self, text: Text, *where: str | int) -> str:
        """Block content for a wrapper of the caller's own."""
        return self._markup(rich.to_html(text, ITEM_STYLE), text, where)

    def inline(self, text: Text, *where: str | int) -> str:
        """Short content (an option, a matching prompt) that goes straight into its element."""
        return self._markup(rich.to_inline_html(text, ITEM_STYLE), text, where)

    def _markup(self, html: str, text: Text, where: tuple[str | int, ...]) -> str:
        if text.format is PLAIN or is_flat(html):
            return html  # escaped paragraphs and line breaks, or flat inline markup: always valid QTI
        result = fragment(html)
        for message in result.errors:
            self.report.error(self.question, f"cannot be written as valid QTI: {message}", *where, code="qti")
        for lost in result.lost:
            self.report.loss(self.question, f"QTI has no place for {lost}; it is left out", *where, code="qti-loss")
        return result.markup

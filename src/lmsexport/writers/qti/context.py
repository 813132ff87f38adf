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

    # Each of these asks `is_flat` itself (not `_markup`): most texts are plain or flat, and then
    # the call of `_markup` would be all it does.
    def block(self, text: Text, *where: str | int) -> str:
        """Block content in one `div`: the stem, feedback, a rubric."""
        html = rich.to_html(text, ITEM_STYLE)
        if text.format is PLAIN or is_flat(html):
            return "<div>" + html + "</div>"
        return "<div>" + self._markup(html, where) + "</div>"

    def inner_block(self, text: Text, *where: str | int) -> str:
        """Block content for a wrapper of the caller's own."""
        html = rich.to_html(text, ITEM_STYLE)
        if text.format is PLAIN or is_flat(html):
            return html
        return self._markup(html, where)

    def inline(self, text: Text, *where: str | int) -> str:
        """Short content (an option, a matching prompt) that goes straight into its element."""
        html = rich.to_inline_html(text, ITEM_STYLE)
        if text.format is PLAIN or is_flat(html):
            return html
        return self._markup(html, where)

    def _markup(self, html: str, where: tuple[str | int, ...]) -> str:
        """Markup that is neither plain (escaped paragraphs and line breaks) nor flat (see
        `is_flat`), the two kinds that are always valid QTI as they are."""
        result = fragment(html)
        for message in result.errors:
            self.report.error(self.question, f"cannot be written as valid QTI: {message}", *where, code="qti")
        for lost in result.lost:
            self.report.loss(self.question, f"QTI has no place for {lost}; it is left out", *where, code="qti-loss")
        return result.markup

"""What the writers share: options, the result type, deterministic zips, a text's language.
(What the XML writers share is in xml.py; how they report what they find, reporter.py.)"""

from __future__ import annotations

import re
from html import escape
from dataclasses import dataclass, field
from functools import lru_cache

from ..diagnostics import Diagnostic

# Every zip entry gets this timestamp so that the same content gives the same bytes.
ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class ExportOptions:
    strict: bool = False  # losses (what a format cannot carry) are errors; applied where diagnostics are settled
    # Moodle only accepts fixed grade fractions; by default a credit off that list is an error.
    # With this set it is moved to the nearest allowed fraction, with a warning naming both.
    nearest_grade: bool = False
    # Formats that cannot carry files (GIFT) link media here: URL + the path as written in the content.
    media_base_url: str | None = None


@dataclass(frozen=True, slots=True)
class Export:
    """One export file. `data` is None when nothing may be written (errors, or nothing to export)."""

    filename: str
    data: bytes | None
    diagnostics: tuple[Diagnostic, ...] = field(default=())

    @property
    def failed(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


@lru_cache(maxsize=4096)  # a bank repeats a few combinations of tags in every question
def merged_tags(quiz_tags: tuple[str, ...], question_tags: tuple[str, ...]) -> tuple[str, ...]:
    """A quiz's tags, which apply to each of its questions, then the question's own: each once, in order."""
    return tuple(dict.fromkeys((*quiz_tags, *question_tags)))


def utf8(parts: list[str], separator: bytes = b"") -> bytes:
    """A document made of many strings (`separator` between them), as UTF-8, encoded piece by
    piece. Joined first, one emoji anywhere would make the whole document a string of four bytes
    a character, copied once per concatenation and then encoded: about ten times the cost for a
    quiz of 1,000 questions."""
    return separator.join([part.encode("utf-8") for part in parts])


# Written directly (not through zipfile) with a faster deflate; see zips.py.
from .zips import deterministic_zip  # noqa: E402, F401 (the writers import it from here)


# Elements Moodle's HTML purifier (lib/weblib.php purify_html, HTMLPurifier with the XHTML 1.0
# Transitional doctype) counts as blocks: inside a <span> it would drop them.
_BLOCK = re.compile(r"<(?:p|div|ul|ol|dl|table|pre|blockquote|h[1-6]|hr|audio|video)[\s>/]")


def in_language(html: str, language: str, inline: bool) -> str:
    """HTML stating its language: `<div lang>` around blocks, `<span lang>` around a short text.
    Moodle's purifier keeps `lang` (HTMLPurifier's NonXMLCommonAttributes, part of the XHTML 1.0
    Transitional doctype Moodle uses) and only lower-cases the tag (AttrDef_Lang)."""
    language = escape(language, quote=True)
    if inline and not _BLOCK.search(html):
        return f'<span lang="{language}">{html}</span>'
    return f'<div lang="{language}">{html}</div>'


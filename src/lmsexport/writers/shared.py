"""What the writers share: options, the result type, losses, deterministic zips, a text's
language. (What the XML writers share is in xml.py.)"""

from __future__ import annotations

import re
from html import escape
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, loss, note
from ..model import Question, Quiz

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


def nothing_to_export(quiz: Quiz, filename: str, format_name: str) -> Export:
    """No file at all for a quiz whose questions are all drafts (Moodle even throws on an empty
    quiz); a note says why."""
    message = f"no question to export (all are drafts): no {format_name} file is written"
    return Export(filename, None, (note(message, quiz.location.file, code="nothing-to-export"),))


def loss_warning(quiz: Quiz, question: Question, message: str, options: ExportOptions, code: str, pointer: str | None = None) -> Diagnostic:
    """The format cannot carry something of this question: a loss (a warning; whether it is an
    error under --strict is decided once, where diagnostics are settled). `pointer` names the
    exact value when the question as a whole is too vague a place."""
    return loss(message, quiz.location.file, question.location.pointer if pointer is None else pointer, code=code)


def quiz_loss(quiz: Quiz, message: str, options: ExportOptions, code: str, pointer: str = "") -> Diagnostic:
    """A warning about the quiz as a whole (or a part of it not in a question) that the format
    cannot carry: a loss, like `loss_warning`."""
    return loss(message, quiz.location.file, pointer, code=code)


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


def sections_of_drafts_notes(quiz: Quiz, code: str) -> list[Diagnostic]:
    """A note for each section whose questions are all drafts, which no writer writes: a section
    with nothing in it would reach the platform as an empty category or group."""
    return [note(f"section {section.id!r}: all its questions are drafts, so the section is left out", quiz.location.file,
                 section.location.pointer, code=code) for section in quiz.sections_of_drafts]

"""Moodle's multi-language texts: `<span lang="fr" class="multilang">...</span>` side by side, of
which Moodle's multilang filter shows one (filter/multilang/classes/text_filter.php): the one in
the reader's language, else its parent language's, else the first. The content holds one
language per text, so an import keeps the span in the quiz's language (else the first, as Moodle
falls back to) and says which it left out."""

from __future__ import annotations

import re

from ..checks.languages import language_is_valid

# Moodle's own search: two or more spans in a row, each with a lang and class="multilang" in either order.
_SPAN = r'<span(?:\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>.*?</span>'
_BLOCK = re.compile(rf"({_SPAN})(\s*{_SPAN})+", re.I | re.S)
_PART = re.compile(r'<span[^>]+lang="([a-zA-Z0-9_-]+)"[^>]*>(.*?)</span>', re.I | re.S)


def bcp47(moodle_language: str) -> str:
    """Moodle's language codes ('pt_br', 'en_us', 'de_du') as language tags ('pt-BR', 'en-US', 'de'),
    or the bare language when the rest is no region."""
    parts = re.split(r"[-_]", moodle_language.strip().lower())
    if len(parts) > 1 and len(parts[1]) == 2 and language_is_valid(f"{parts[0]}-{parts[1].upper()}"):
        return f"{parts[0]}-{parts[1].upper()}"
    return parts[0]


def _languages(block: str) -> list[tuple[str, str]]:
    return [(bcp47(language), text) for language, text in _PART.findall(block)]


def first_languages(html: str) -> list[str]:
    """The first language of each multi-language block of a text: what Moodle shows by default."""
    return [_languages(found.group())[0][0] for found in _BLOCK.finditer(html)]


def block_languages(html: str) -> list[list[str]]:
    """The languages of each multi-language block of a text."""
    return [[language for language, _ in _languages(found.group())] for found in _BLOCK.finditer(html)]


def select(html: str, language: str | None) -> tuple[str, list[str]]:
    """The text with each multi-language block replaced by its span in `language` (else one of the
    same base language, else the first), and a description of each choice that left text out."""
    said: list[str] = []

    def choose(found: re.Match) -> str:
        parts = _languages(found.group())
        base = (language or "").split("-")[0]
        kept = next((p for p in parts if p[0] == language), None) or next((p for p in parts if base and p[0].split("-")[0] == base), None) or parts[0]
        others = [p[0] for p in parts if p is not kept]
        versions = "version" if len(others) == 1 else "versions"
        said.append(f"a Moodle multi-language text: its {kept[0]!r} version is kept, its {', '.join(repr(o) for o in others)} {versions} left out")
        return kept[1]

    return _BLOCK.sub(choose, html), said

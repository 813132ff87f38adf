"""HTML building blocks of the preview: escaping, attributes, texts with their language and direction."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from .. import text as rich
from ..model import Text
from ..text import MathStyle, RenderStyle

# Scripts written right to left (ISO 15924), and languages whose usual script is one of them.
_RTL_SCRIPTS = {"adlm", "arab", "hebr", "mand", "mend", "nkoo", "rohg", "samr", "syrc", "thaa", "yezi"}
_RTL_LANGUAGES = {"ar", "arc", "azb", "bal", "bqi", "ckb", "dv", "fa", "glk", "he", "iw", "ks", "lrc", "mzn",
                  "nqo", "pnb", "ps", "sd", "skr", "syr", "ug", "ur", "yi"}


def direction(language: str) -> str:
    """'rtl' or 'ltr' for a BCP 47 tag: a script subtag decides, else the language's usual script."""
    subtags = language.lower().split("-")
    for subtag in subtags[1:]:
        if len(subtag) == 4 and subtag.isalpha():
            return "rtl" if subtag in _RTL_SCRIPTS else "ltr"
    return "rtl" if subtags[0] in _RTL_LANGUAGES else "ltr"


def attr(value: object) -> str:
    return escape(str(value), quote=True)


def lang_attrs(language: str | None) -> str:
    """` lang=".." dir=".."` so that screen readers pick the voice and browsers the direction."""
    if not language:
        return ""
    return f' lang="{attr(language)}" dir="{direction(language)}"'


@dataclass(frozen=True, slots=True)
class MediaAddress:
    """Where a quiz's media files are in the site: in a folder named after the quiz, beside its page.
    A value (not a closure) so that equal quizzes share the text renderer's cache."""

    folder: str

    def __call__(self, path: str) -> str:
        return quote(f"{self.folder}/{path}")


def page_style(media_folder: str) -> RenderStyle:
    # Browsers display MathML natively: formulas need no script and no network.
    return RenderStyle(math=MathStyle.MATHML, media_url=MediaAddress(media_folder))


def block(text: Text | None, style: RenderStyle, cls: str, language: str | None = None) -> str:
    """A text rendered as the exports render it, in a <div> of its own."""
    if text is None:
        return ""
    return f'<div class="{cls}"{lang_attrs(language)}>{rich.to_html(text, style)}</div>'


def inline(text: Text, style: RenderStyle) -> str:
    return rich.to_inline_html(text, style)


def plain(value: str) -> str:
    return escape(value, quote=False)


def number(value: float) -> str:
    """A number as people write it: 2, 0.5, 1.25 (no trailing zeros, no exponent for usual sizes)."""
    return f"{value:.6g}" if abs(value) < 1e15 else f"{value:g}"


def percent(credit: float) -> str:
    return f"{credit * 100:.4g}%"

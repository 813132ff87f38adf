"""What the Moodle readers share: PHP's trim, text formats and the category path."""

from __future__ import annotations

import html
import re

from ...model import Text, TextFormat
from ..html import LITERAL_BACKSLASH

# PHP's trim() removes exactly these characters; Moodle trims every text it imports.
PHP_SPACE = " \t\n\r\0\x0b"


def php_trim(value: str) -> str:
    return value.strip(PHP_SPACE)


def text_of(source: str, fmt: str) -> Text | None:
    """A Moodle text in the model; an empty text is no text."""
    if source == "":
        return None
    if fmt in ("plain", "plain_text"):
        return Text(source, TextFormat.PLAIN)
    if fmt == "markdown":
        return Text(source, TextFormat.MARKDOWN)
    return Text(source, TextFormat.HTML)  # html, moodle_auto_format and anything unknown (Moodle assumes html)


# Moodle's MathJax filter typesets a field only when its HTML as stored holds \\( \\[ or $$ (and
# then every formula MathJax finds in what the field shows); a field holding none shows every
# backslash and dollar as text, those written as character references too, which is how the
# Moodle writers give a literal "\\(" (writers/moodle/common.shown_as_written).
_TYPESET = re.compile(r"\\[(\[]|\$\$")
_BACKSLASH_REFERENCE = re.compile(r"&#(?:0*92|[xX]0*5[cC]);")
_DOLLAR_REFERENCE = re.compile(r"&#(?:0*36|[xX]0*24);")


def as_moodle_typesets(source: str) -> str:
    """An HTML text of Moodle with the backslashes Moodle shows as text marked so (see
    html.LITERAL_BACKSLASH): those written as character references in a field that has nothing
    for the filter to typeset; its dollars then are text too, written as dollars. In a field the
    filter marks, each $$...$$ that MathJax typesets is the display formula \\[...\\] it shows."""
    if _TYPESET.search(source) is not None:
        return _dollar_formulas_bracketed(source) if "$$" in source or "&#" in source else source
    if "&#" not in source:
        return source
    return _DOLLAR_REFERENCE.sub("$", _BACKSLASH_REFERENCE.sub(LITERAL_BACKSLASH, source))


# MathJax's default delimiters (MathJax 2.7 in Moodle 4.5, 3.2 in 5.0, neither configured
# otherwise by the filter): \( \) inline, $$ $$ and \[ \] display; a single $ is text. It
# reads the text the page shows, so a dollar written as a character reference is a dollar too,
# and it looks for delimiters in order, so a $$ inside \( \) or \[ \] belongs to that formula.
_DOLLAR = r"(?:\$|&#0*36;|&#[xX]0*24;)"
_DELIMITED = re.compile(rf"\\\(.*?\\\)|\\\[.*?\\\]|{_DOLLAR}{_DOLLAR}(.+?){_DOLLAR}{_DOLLAR}", re.S)
_TAG = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
# What MathJax leaves alone (its skipTags / skipHtmlTags).
_SKIPPED = re.compile(r"<(/?)(script|noscript|style|textarea|pre|code|annotation|annotation-xml)\b[^>]*?(/?)>", re.I)


def _bracketed(found: re.Match) -> str:
    formula = found.group(1)
    # A formula holding "\]" could not be written between \[ and \]: left as it stands.
    if formula is None or "\\]" in formula or not formula.strip():
        return found.group()
    return "\\[" + formula + "\\]"


def _dollar_formulas_bracketed(source: str) -> str:
    """Each $$...$$ of the text MathJax reads (not in a tag, code, pre...) as \\[...\\]."""
    parts, skipped = [], 0
    for index, part in enumerate(_TAG.split(source)):
        if index % 2:
            tag = _SKIPPED.fullmatch(part)
            if tag is not None and not tag.group(3):
                skipped = max(0, skipped - 1) if tag.group(1) else skipped + 1
            parts.append(part)
        else:
            parts.append(part if skipped else _DELIMITED.sub(_bracketed, part))
    return "".join(parts)


def split_category_path(path: str) -> list[str]:
    """Moodle's split_category_path, without its PARAM_TEXT cleaning."""
    return [php_trim(part.replace("//", "/")) for part in re.split(r"(?<!/)/(?!/)", path)]


_WRAPPER = re.compile(r'<(div|span) lang="([^"<>&]*)">(.*)</\1>', re.S)
# An editor's element around the whole text stating its language among other attributes:
# <p lang="fr">, <div dir="ltr" lang="fr-CA" style="...">.
_AUTHORED = re.compile(r'(\s*<(p|div|span|h[1-6])\b[^<>]*?)\s+lang="([^"<>&]*)"([^<>]*>.*</\2>\s*)', re.S | re.I)
_NESTING = {tag: re.compile(rf"<(/?){tag}[\s>/]", re.I) for tag in ("div", "span", "p", "h1", "h2", "h3", "h4", "h5", "h6")}


def _one_element(tag: str, inner: str) -> bool:
    """Whether `inner`, the content after an opening tag up to the last closing one, closes that element only at its end."""
    depth = 0
    for tag_match in _NESTING[tag.lower()].finditer(inner):
        depth += -1 if tag_match.group(1) else 1
        if depth < 0:  # the first element closes before the end: two elements, not one wrapper
            return False
    return depth == 0


def language_of(source: str) -> tuple[str, str | None]:
    """A text whose whole content sits in one `<div lang>` or `<span lang>` (how the writers state
    a text's language): the content and the language. A text whose whole content sits in one
    element an author gave a `lang` (`<p lang="fr">`): the text without that attribute and the
    language. Any other text as it is, with None."""
    found = _WRAPPER.fullmatch(source)
    if found is not None:
        return (found.group(3), found.group(2)) if _one_element(found.group(1), found.group(3)) else (source, None)
    authored = _AUTHORED.fullmatch(source)
    if authored is None:
        return source, None
    from ..multilang import bcp47
    from ...checks.languages import language_is_valid

    tag, language, rest = authored.group(2), bcp47(authored.group(3)), authored.group(4)
    inner = rest[rest.index(">") + 1: rest.rstrip().rindex("</")]
    if not language_is_valid(language) or not _one_element(tag, inner):
        return source, None
    return authored.group(1) + rest, language


def text_in_language(source: str, fmt: str) -> tuple[Text | None, str | None]:
    """text_of, with the language an HTML text states, if any."""
    if fmt in ("plain", "plain_text", "markdown"):
        return text_of(source, fmt), None
    inner, language = language_of(source)
    return text_of(inner, fmt), language


def _exact_paragraph(css_class: str) -> re.Pattern:
    # What the Moodle XML writer puts in a category's <info>: escaped text, <br/> before each line break.
    return re.compile(rf'(?:^|\n)<p class="{css_class}">([^<]*(?:<br/>\n[^<]*)*)</p>$')


_LEVEL = _exact_paragraph("quiz-level")
_LEARNING_PATH = _exact_paragraph("quiz-learning-path")
# The plain description: a paragraph beside a level or learning path, else a block of its own.
_DESCRIPTION = re.compile(r'<(p|div) class="quiz-description">([^<]*(?:<br/>\n[^<]*)*)</\1>')


def _exact(escaped: str) -> str:
    # '&nbsp;' is the writer's for a space HTML would collapse: its escaping writes no other.
    return html.unescape(escaped.replace("<br/>\n", "\n").replace("&nbsp;", " "))


def quiz_language(source: str, fmt: str) -> tuple[str, str | None]:
    """A category's info without the language it states for the whole quiz: lmsexport writes the
    info as one `<div lang>` (empty for a quiz without a description); an info whose whole
    content sits in one element an editor gave a `lang` states it the same way."""
    if fmt != "html":
        return source, None
    return language_of(source)


def quiz_info(source: str, fmt: str) -> tuple[Text | None, str | None, str | None]:
    """(description, level, learning path) from a category's <info>."""
    if fmt not in ("html", "moodle_auto_format"):
        return text_of(source, fmt), None, None
    values = {}
    for name, pattern in (("learning_path", _LEARNING_PATH), ("level", _LEVEL)):
        found = pattern.search(source)
        if found:
            values[name] = _exact(found.group(1))
            source = source[: found.start()]
    description = _DESCRIPTION.fullmatch(source)
    if description:
        return Text(_exact(description.group(2)), TextFormat.PLAIN), values.get("level"), values.get("learning_path")
    return text_of(source, fmt), values.get("level"), values.get("learning_path")


_INSTRUCTIONS = re.compile(r'<p class="section-instructions">([^<]*(?:<br/>\n[^<]*)*)</p>')
_DRAW = re.compile(r'(?:^|\n)<p class="section-draw">(?:Draw ([0-9]+) of these [0-9]+ questions at random for each student'
                   r'|Add all [0-9]+ of these questions to the quiz together, in (a random|this) order)\.</p>$')


def section_info(source: str, fmt: str) -> tuple[Text | None, int | None, bool] | None:
    """(instructions, pick, shuffle) from the info of a category that lmsexport's writer made for a
    section: the instructions (an exact plain paragraph or HTML), then the paragraph saying how the
    questions go into the quiz, which it always writes. None for any other category."""
    found = _DRAW.search(source) if fmt == "html" else None
    if found is None:
        return None
    rest = source[: found.start()]
    pick = int(found.group(1)) if found.group(1) else None
    shuffle = found.group(2) == "a random"
    if not rest:
        return None, pick, shuffle
    plain = _INSTRUCTIONS.fullmatch(rest)
    return (Text(_exact(plain.group(1)), TextFormat.PLAIN) if plain else Text(rest, TextFormat.HTML)), pick, shuffle

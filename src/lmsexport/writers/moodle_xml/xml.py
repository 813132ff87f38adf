"""XML as strings: escaping, the characters XML 1.0 cannot hold, and the document's frame.

The output is what lxml's pretty printer wrote for the same tree (two-space indents, `&#13;` for
a carriage return), built from small templates: a bank of 100,000 questions needs no tree.
"""

from __future__ import annotations

import re

from ...model import NOT_XML as INVALID, NOT_XML_CHARACTERS

from ..shared import XML_DECLARATION as DECLARATION  # one definition for every XML writer
# What escaping changes, and what XML cannot hold: one search tells whether a string needs work.
_SPECIAL = re.compile(f"[&<>\r{NOT_XML_CHARACTERS}]")


class NotXml(ValueError):
    """A string holds a character XML 1.0 cannot hold."""


def escape(text: str) -> str:
    """Text content: '&', '<' and '>' as entities; a carriage return as a character reference,
    since an XML parser would turn a literal one into a line feed. NotXml for a character no
    XML document may hold."""
    found = _SPECIAL.search(text)
    if found is None:
        return text
    invalid = INVALID.search(text, found.start())
    if invalid is not None:
        raise NotXml(f"U+{ord(invalid.group()):04X} is not allowed in XML 1.0")
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def attribute(text: str) -> str:
    """An attribute value between double quotes; whitespace other than spaces as references,
    since parsers normalise it to spaces."""
    return (escape(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;"))


def value(indent: str, tag: str, content: str) -> str:
    return f"{indent}<{tag}>{escape(content)}</{tag}>\n"

"""XML as strings: escaping, CDATA, the characters XML 1.0 cannot hold, and the document's frame.

Built from small templates (two-space indents): a bank of 100,000 questions needs no tree.

Why `<text>` content is CDATA: Moodle's XML parser (lib/xmlize.php, core_xml_parser::characterdata)
drops every chunk of character data that is only white space, and PHP's parser hands each entity
over as a chunk of its own, so the space in `&lt; &gt;` would be lost. A CDATA section comes as
one chunk. Moodle's own exporter (qformat_xml::xml_escape) makes the same choice: CDATA for any
text with a character XML escapes; a text without one holds no entity and cannot be cut.
"""

from __future__ import annotations

import re

from ....model import NOT_XML as INVALID, NOT_XML_CHARACTERS

from ...shared import XML_DECLARATION as DECLARATION  # one definition for every XML writer
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


_CDATA_NEEDED = re.compile("[&<>\r]")


def character_data(text: str) -> str:
    """The content of a `<text>` element: the text as it is when nothing in it needs escaping, else
    one CDATA section, cut after ']]' wherever the text holds ']]>' (the way Moodle does).

    A carriage return rides inside CDATA as it is: Moodle's parser keeps it there, while a `&#13;`
    reference would be a chunk of white space of its own, which Moodle drops."""
    found = _CDATA_NEEDED.search(text)
    if found is None:
        return escape(text)
    invalid = INVALID.search(text)
    if invalid is not None:
        raise NotXml(f"U+{ord(invalid.group()):04X} is not allowed in XML 1.0")
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def attribute(text: str) -> str:
    """An attribute value between double quotes; whitespace other than spaces as references,
    since parsers normalise it to spaces."""
    return (escape(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;"))


def value(indent: str, tag: str, content: str) -> str:
    return f"{indent}<{tag}>{escape(content)}</{tag}>\n"

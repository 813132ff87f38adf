"""What every XML writer writes the same way, defined once: the declaration, character data,
attribute values and numbers.

Documents are built as strings (many times faster than element trees for banks of 100,000
questions), so every string of the content passes through `text` or `attribute`, and whatever it
holds (`]]>`, `<script>`, `&`, quotes, line breaks) reads back character for character. No
function here looks for characters XML 1.0 cannot hold: loading refuses them in every string of a
quiz (checks/xml_characters.py), so a model never holds one.
"""

from __future__ import annotations

import re

from lxml import etree

# How every XML document opens (as lxml writes the declaration).
DECLARATION = "<?xml version='1.0' encoding='UTF-8'?>\n"

# Most strings need no escaping: one search finds out.
_TEXT_SPECIAL = re.compile("[&<>\r]")
_ATTRIBUTE_SPECIAL = re.compile('[&<>"\n\r\t]')


def text(value: str) -> str:
    """Character data. A carriage return is written as a reference: parsers turn a raw one into a newline."""
    if not _TEXT_SPECIAL.search(value):
        return value
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def attribute(value: str) -> str:
    """An attribute value between double quotes. Newlines and tabs are written as references:
    parsers turn raw ones into spaces."""
    if not _ATTRIBUTE_SPECIAL.search(value):
        return value
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        .replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    )


def number(value: float) -> str:
    """A number as XSD (and Moodle, and GIFT's reader) read it back exactly: integers without
    '.0', others the shortest repr."""
    if abs(value) < 1e15 and value == int(value):
        return str(int(value))
    return repr(value)


def tree_bytes(root: etree._Element) -> bytes:
    """A document built as an lxml tree: UTF-8 with the declaration above, pretty-printed
    (lxml's serialisation is stable for a given tree)."""
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)

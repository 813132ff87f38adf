"""XML written as strings: one escaping rule for text, one for attributes, and indented lines.

The output is byte for byte what lxml's pretty printer writes for the same tree (two spaces
per level, `<a/>` when empty, `<a></a>` for an empty text), at a fraction of the cost of
building element trees for banks of many thousand questions.
"""

from __future__ import annotations

import re

from ...model import NOT_XML as _NOT_XML

from ..shared import XML_DECLARATION as DECLARATION  # one definition for every XML writer
INDENT = tuple("  " * depth for depth in range(40))

# The characters XML 1.0 cannot carry (model.NOT_XML) once encoded: C0 controls but tab, newline and return, and U+FFFE/U+FFFF.
_CONTROL_BYTES = bytes(b for b in range(0x20) if b not in b"\t\n\r")


def first_non_xml(text: str) -> str | None:
    found = _NOT_XML.search(text)
    return found.group() if found else None


def encode(document: str) -> bytes | None:
    """UTF-8 of a document, or None when it holds a character XML 1.0 cannot carry.
    Byte-level scans: far cheaper than a regular expression over every question."""
    try:
        data = document.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return None
    if len(data.translate(None, _CONTROL_BYTES)) != len(data) or b"\xef\xbf\xbe" in data or b"\xef\xbf\xbf" in data:
        return None
    return data


def text(value: str) -> str:
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return value.replace("\r", "&#13;") if "\r" in value else value


def attribute(value: str) -> str:
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    if "\t" in value or "\n" in value or "\r" in value:
        value = value.replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")
    return value


def attrs(**values: str) -> str:
    """` name="value"` for each pair, in the order given."""
    return "".join(f' {name}="{attribute(value)}"' for name, value in values.items())


class Lines:
    """Indented element lines, appended in document order."""

    __slots__ = ("parts", "depth")

    def __init__(self, depth: int, parts: list[str] | None = None):
        self.parts = [] if parts is None else parts
        self.depth = depth

    def open(self, tag: str, attributes: str = "") -> None:
        self.parts.append(f"{INDENT[self.depth]}<{tag}{attributes}>\n")
        self.depth += 1

    def close(self, tag: str) -> None:
        self.depth -= 1
        self.parts.append(f"{INDENT[self.depth]}</{tag}>\n")

    def leaf(self, tag: str, attributes: str = "", content: str | None = None) -> None:
        """An element without children; `content` is its text, escaped here."""
        if content is None:
            self.parts.append(f"{INDENT[self.depth]}<{tag}{attributes}/>\n")
        else:
            self.parts.append(f"{INDENT[self.depth]}<{tag}{attributes}>{text(content)}</{tag}>\n")

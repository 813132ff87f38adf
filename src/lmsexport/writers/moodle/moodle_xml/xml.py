"""Moodle XML's own rule for `<text>` content, over the escaping every XML writer shares
(writers/xml.py).

Built from small templates (two-space indents): a bank of 100,000 questions needs no tree.

Why `<text>` content is CDATA: Moodle's XML parser (lib/xmlize.php, core_xml_parser::characterdata)
drops every chunk of character data that is only white space, and PHP's parser hands each entity
over as a chunk of its own, so the space in `&lt; &gt;` would be lost. A CDATA section comes as
one chunk. Moodle's own exporter (qformat_xml::xml_escape) makes the same choice: CDATA for any
text with a character XML escapes; a text without one holds no entity and cannot be cut.
"""

from __future__ import annotations

from ...xml import text


def character_data(value: str) -> str:
    """The content of a `<text>` element: the text as it is when nothing in it needs escaping, else
    one CDATA section, cut after ']]' wherever the text holds ']]>' (the way Moodle does).

    A carriage return rides inside CDATA as it is: Moodle's parser keeps it there, while a `&#13;`
    reference would be a chunk of white space of its own, which Moodle drops."""
    # Four substring tests: a quarter of the time of one search for a character class, on a bank's texts.
    if not ("&" in value or "<" in value or ">" in value or "\r" in value):
        return value
    return "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def value(indent: str, tag: str, content: str) -> str:
    return f"{indent}<{tag}>{text(content)}</{tag}>\n"

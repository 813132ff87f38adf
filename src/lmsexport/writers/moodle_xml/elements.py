"""Small element builders for Moodle XML.

Moodle's importer (question/format/xml/format.php, import_text_with_files) reads a rich text as
`<field format="..."><text>...</text></field>` and trims it. Plain text goes out as
format="plain_text": Moodle shows it escaped, with its line breaks, and runs no filters on it,
so it is shown exactly as written. Markdown goes out rendered (format="html") because Moodle's
own Markdown would let raw HTML through, which lmsexport shows as text.
lxml escapes every string (entities), so any content, `]]>` included, survives.
"""

from __future__ import annotations

import base64
import posixpath
from urllib.parse import unquote

from lxml import etree

from ...model import Quiz, Text
from ...text import media_references
from ..moodle_common import PLUGINFILE_STYLE, html_of, is_plain

SubElement = etree.SubElement


def value(parent: etree._Element, tag: str, content: str) -> etree._Element:
    element = SubElement(parent, tag)
    element.text = content
    return element


def text_child(parent: etree._Element, content: str) -> etree._Element:
    return value(parent, "text", content)


def rich(parent: etree._Element, tag: str, text: Text | None, inline: bool = False, quiz: Quiz | None = None, **attributes: str) -> etree._Element:
    """A rich text field; an absent text is an empty field, as Moodle writes it.

    The media files a Markdown text shows ride inside its element as base64 <file> children
    (import_files_as_draft), referred to as @@PLUGINFILE@@/path.
    """
    element = SubElement(parent, tag, **attributes)
    if text is None:
        element.set("format", "html")
        text_child(element, "")
    elif is_plain(text):
        element.set("format", "plain_text")
        text_child(element, text.source)
    else:
        element.set("format", "html")
        paths = media_references(text) if quiz is not None and quiz.media else []
        text_child(element, html_of(text, inline, PLUGINFILE_STYLE if paths else None))
        for path in paths:
            media = quiz.media_file(path)
            folder, name = posixpath.split(unquote(path))
            file = SubElement(element, "file", name=name, path="/" + (folder + "/" if folder else ""), encoding="base64")
            file.text = base64.b64encode(media.data).decode("ascii")
    return element


def rich_answer(parent: etree._Element, percent: str, text: Text, feedback: Text | None, quiz: Quiz | None = None) -> etree._Element:
    """A multichoice answer: its own format attribute, its text, its feedback."""
    answer = rich(parent, "answer", text, inline=True, quiz=quiz)
    # Attribute order as Moodle writes it: fraction first.
    fmt = answer.attrib.pop("format")
    answer.set("fraction", percent)
    answer.set("format", fmt)
    rich(answer, "feedback", feedback, inline=True, quiz=quiz)
    return answer


def plain_answer(parent: etree._Element, percent: str, content: str, feedback: Text | None, quiz: Quiz | None = None) -> etree._Element:
    """An answer Moodle keeps as plain text (short answer, numerical, true/false)."""
    answer = SubElement(parent, "answer", fraction=percent, format="moodle_auto_format")
    text_child(answer, content)
    rich(answer, "feedback", feedback, inline=True, quiz=quiz)
    return answer

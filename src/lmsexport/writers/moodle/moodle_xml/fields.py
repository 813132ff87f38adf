"""Rich text fields as question/format/xml/format.php reads them (import_text_with_files):
`<field format="..."><text>...</text><file .../></field>`, trimmed on import.

Plain text goes out as format="plain_text": Moodle shows it escaped, with its line breaks, and
runs no filters on it. Markdown goes out rendered (format="html") because Moodle's own Markdown
would let raw HTML through, which lmsexport shows as text. A text in another language than the
quiz's is HTML wrapped in an element with a `lang` attribute (see writers/moodle/common.in_language).
The media files a Markdown text shows ride inside its element as base64 <file> children
(import_files_as_draft), referred to as @@PLUGINFILE@@/path.
"""

from __future__ import annotations

import base64
import posixpath
from functools import lru_cache
from urllib.parse import unquote

from ....model import Quiz, Text
from ....text import MARKDOWN, PLAIN, media_references
from ..common import PLUGINFILE_STYLE, html_of, plain_html
from ...shared import in_language
from ...xml import attribute
from .xml import character_data

_EMPTY = ("html", "", ())


@lru_cache(maxsize=64)  # a few tags at a few indents, asked several times a question
def empty_field(indent: str, tag: str) -> str:
    """The field of no text."""
    return f'{indent}<{tag} format="html">\n{indent}  <text></text>\n{indent}</{tag}>\n'


class Fields:
    """The rich text fields of one quiz; what a Markdown text renders to is kept, since banks repeat texts."""

    def __init__(self, quiz: Quiz):
        self.quiz = quiz
        self._rendered: dict[tuple, tuple[str, str, tuple]] = {}
        self._files: dict[str, tuple[str, str, str]] = {}

    def content(self, text: Text | None, inline: bool, lang: str | None) -> tuple[str, str, tuple]:
        """(format, escaped text, files) of a text."""
        if text is None:
            return _EMPTY
        if text.format is PLAIN:
            if lang is None:
                return "plain_text", character_data(text.source), ()
            return "html", character_data(in_language(plain_html(text.source, inline), lang, inline)), ()
        key = (text.source, text.format, inline, lang)
        found = self._rendered.get(key)
        if found is None:
            paths = media_references(text) if self.quiz.media and text.format is MARKDOWN else []
            html = html_of(text, inline, PLUGINFILE_STYLE if paths else None)
            if lang is not None:
                html = in_language(html, lang, inline)
            found = self._rendered[key] = ("html", character_data(html), tuple(self.file(path) for path in paths))
        return found

    def file(self, path: str) -> tuple[str, str, str]:
        """(name, folder, base64) of a media file, encoded once however many texts show it."""
        found = self._files.get(path)
        if found is None:
            folder, name = posixpath.split(unquote(path))
            data = base64.b64encode(self.quiz.media_file(path).data).decode("ascii")
            found = self._files[path] = (attribute(name), attribute("/" + (folder + "/" if folder else "")), data)
        return found

    def inner(self, indent: str, text: Text | None, inline: bool, lang: str | None) -> tuple[str, str]:
        """(format, the children of the field element at this indent)."""
        fmt, escaped, files = self.content(text, inline, lang)
        body = f"{indent}<text>{escaped}</text>\n"
        for name, folder, data in files:
            body += f'{indent}<file name="{name}" path="{folder}" encoding="base64">{data}</file>\n'
        return fmt, body

    def html_field(self, indent: str, tag: str, html: str, paths: list[str]) -> str:
        """A field of HTML the writer built itself (a cloze text), with the files it shows."""
        body = f"{indent}  <text>{character_data(html)}</text>\n"
        for name, folder, data in (self.file(path) for path in dict.fromkeys(paths)):
            body += f'{indent}  <file name="{name}" path="{folder}" encoding="base64">{data}</file>\n'
        return f'{indent}<{tag} format="html">\n{body}{indent}</{tag}>\n'

    def field(self, indent: str, tag: str, text: Text | None, inline: bool, lang: str | None) -> str:
        if text is None:
            return empty_field(indent, tag)
        if lang is None and text.format is PLAIN:  # the common case, without detours
            return f'{indent}<{tag} format="plain_text">\n{indent}  <text>{character_data(text.source)}</text>\n{indent}</{tag}>\n'
        fmt, body = self.inner(indent + "  ", text, inline, lang)
        return f'{indent}<{tag} format="{fmt}">\n{body}{indent}</{tag}>\n'

"""Media files in the package: where Canvas's export puts them and how texts refer to them.

Canvas's QTI export (lib/cc/qti/qti_manifest.rb) stores every file a quiz shows under
web_resources/ at its course-files path, lists each as a `webcontent` resource, and its HTML
refers to it as `%24IMS-CC-FILEBASE%24/<path>` (URL-escaped path segments).

On import (gems/plugins/qti_exporter), each manifest <file> becomes a course file keyed by its
full href ("web_resources/media/ring.png"). Qti::HtmlHelper resolves an address by dropping
tokens matching `$[A-Z_]*$` and looking for an href that ends with the rest: that drops
`$IMS_CC_FILEBASE$` but not the hyphenated `$IMS-CC-FILEBASE$`, and the later
Importers::LinkResolver only shortens the reference ("media/ring.png", "ring.png"), never the
keys, so the hyphenated form finds nothing. Both spellings are Canvas reference tokens
(Importers::LinkParser::REFERENCE_KEYWORDS); texts use the one both steps resolve.
"""

from __future__ import annotations

from hashlib import md5
from urllib.parse import quote

from ...model import Description, MediaFile, Question, Quiz
from ...text import RenderStyle, media_references

FOLDER = "web_resources/"
FILE_BASE = "%24IMS_CC_FILEBASE%24/"


def href(path: str) -> str:
    """The file's place in the package, URL-escaped as manifest hrefs and HTML addresses are."""
    return quote(FOLDER + path, safe="/")


def reference(path: str) -> str:
    """How a text refers to a file, relative to the course files (`web_resources/`)."""
    return FILE_BASE + quote(path, safe="/")


# One style for every quiz: the rendered text cache is shared across quizzes.
STYLE = RenderStyle(media_url=reference)


def resource_ident(quiz: Quiz, media: MediaFile) -> str:
    return "g" + md5(f"web_resource\x1f{quiz.id}\x1f{media.path}".encode("utf-8")).hexdigest()


# Texts Canvas has no place for (see losses.py): their files are not packed.
_NOT_CARRIED = {("feedback", "partially_correct"), ("grader_info",)}


def _texts(question: Question):
    if isinstance(question, Description):  # text-only items keep no feedback in Canvas
        yield question.stem
        return
    for place, text in question.texts():
        if place not in _NOT_CARRIED:
            yield text


def used_media(quiz: Quiz, questions: tuple[Question, ...]) -> list[MediaFile]:
    """The quiz's files that the description or an exported question shows, each once, in order."""
    if not quiz.media:
        return []
    used: dict[str, None] = dict.fromkeys(media_references(quiz.description))
    for question in questions:
        for text in _texts(question):
            used.update(dict.fromkeys(media_references(text)))
    known = {media.path: media for media in quiz.media}
    return [known[path] for path in used if path in known]

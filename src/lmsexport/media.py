"""Media files next to a quiz: found, confined to the quiz's folder, typed by content, sanitised.

A file's type is read from its first bytes, not its name: a renamed .exe is not an image.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lxml import etree

from .model import MediaFile

DEFAULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024
ALLOWED = "png, jpg, gif, svg, webp, mp3, mp4, pdf"


def sniff(data: bytes) -> str | None:
    """The MIME type of a file we allow, judged by its content, or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data.startswith(b"%PDF-"):
        return "application/pdf"
    if data.startswith(b"ID3") or (len(data) > 1 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0):
        return "audio/mpeg"
    if data[4:8] == b"ftyp":
        return "video/mp4"
    if _is_svg(data):
        return "image/svg+xml"
    return None


def _is_svg(data: bytes) -> bool:
    head = data[:2048].lstrip()
    if not head.startswith(b"<") or b"<svg" not in head:
        return False
    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    except etree.XMLSyntaxError:
        return False
    return etree.QName(root).localname == "svg"


_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK = "{http://www.w3.org/1999/xlink}href"
# Elements that run code, embed foreign documents or pull in other files.
_SVG_DANGEROUS = {"script", "foreignObject", "iframe", "embed", "object", "handler", "listener"}


def sanitise_svg(data: bytes) -> tuple[bytes, list[str]]:
    """The SVG without scripts, event handlers or references to anything outside the file."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, remove_pis=True)
    root = etree.fromstring(data, parser)
    removed: list[str] = []
    for element in list(root.iter()):
        if not isinstance(element.tag, str):
            continue
        name = etree.QName(element).localname
        if name in _SVG_DANGEROUS:
            removed.append(f"<{name}>")
            element.getparent().remove(element)
            continue
        for attribute in list(element.attrib):
            local = etree.QName(attribute).localname
            value = element.attrib[attribute].strip()
            if local.lower().startswith("on"):
                removed.append(f"{local}=")
                del element.attrib[attribute]
            elif (attribute in (_XLINK, "href") or local == "href") and not value.startswith("#"):
                removed.append(f"{local}={value[:40]!r}")
                del element.attrib[attribute]
            elif "url(" in value and "url(#" not in value.replace(" ", ""):
                removed.append(f"{local}=url(...)")
                del element.attrib[attribute]
        if name == "style" and element.text and ("@import" in element.text or "url(" in element.text):
            removed.append("<style> with external references")
            element.getparent().remove(element)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8"), removed


@dataclass(frozen=True, slots=True)
class MediaProblem:
    message: str


def load_media(quiz_folder: Path, address: str, max_bytes: int) -> tuple[MediaFile | MediaProblem, list[str]]:
    """Load one referenced file, or say why it cannot be used; with what sanitising removed."""
    problem = _problem(quiz_folder, address, max_bytes)
    if problem:
        return MediaProblem(problem), []
    data = (quiz_folder / Path(*PurePosixPath(address).parts)).read_bytes()
    mime = sniff(data)
    if mime is None:
        return MediaProblem(f"the media file '{address}' is not of an allowed type by its content ({ALLOWED})"), []
    removed: list[str] = []
    if mime == "image/svg+xml":
        data, removed = sanitise_svg(data)
    return MediaFile(address, data, mime), removed


def _size(n: int) -> str:
    return f"{n / 1048576:.1f} MB" if n >= 1048576 else f"{n / 1024:.1f} KB"


def _problem(quiz_folder: Path, address: str, max_bytes: int) -> str | None:
    relative = PurePosixPath(address)
    if address.startswith("/") or relative.is_absolute() or "\\" in address:
        return f"the media path '{address}' must be relative to the quiz file"
    if ".." in relative.parts:
        return f"the media path '{address}' leaves the quiz's folder ('..' is not allowed)"
    path = quiz_folder / Path(*relative.parts)
    if not path.is_file():
        return f"the media file '{address}' does not exist (looked for {path})"
    real_folder = os.path.realpath(quiz_folder)
    if os.path.commonpath([real_folder, os.path.realpath(path)]) != real_folder:
        return f"the media file '{address}' is a link to a file outside the quiz's folder"
    size = path.stat().st_size
    if size > max_bytes:
        return f"the media file '{address}' is {_size(size)}, over the limit of {_size(max_bytes)} (raise it with --max-media-size)"
    return None

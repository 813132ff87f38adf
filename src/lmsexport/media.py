"""Media files next to a quiz: found, confined to the quiz's folder, typed by content, sanitised.

A file's type is read from its first bytes, not its name: a renamed .exe is not an image.
"""

from __future__ import annotations

import os
import re
import unicodedata
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
_XLINK_NS = "http://www.w3.org/1999/xlink"
_XML_NS = "http://www.w3.org/XML/1998/namespace"

# An allowlist: an SVG element or attribute reaches a platform only if it is named here. Left out
# on purpose: script, foreignObject, every animation element (animate and set can rewrite an href
# into javascript: after sanitising), iframe/embed/object, handler/listener, cursor, font-face
# sources, and every event attribute.
_ELEMENTS = frozenset("""
    svg g defs symbol use title desc metadata switch a view style
    path rect circle ellipse line polyline polygon
    text tspan textPath tref
    image marker pattern clipPath mask
    linearGradient radialGradient stop
    filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting
    feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR
    feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight
    feSpecularLighting feSpotLight feTile feTurbulence
""".split())
_ATTRIBUTES = frozenset(("""
    id class lang style version baseProfile viewBox preserveAspectRatio transform width height
    x y x1 y1 x2 y2 cx cy r rx ry fx fy fr d points pathLength
    dx dy rotate textLength lengthAdjust startOffset method spacing side
    gradientUnits gradientTransform spreadMethod offset
    patternUnits patternContentUnits patternTransform clipPathUnits maskUnits maskContentUnits
    markerUnits markerWidth markerHeight refX refY orient
    filterUnits primitiveUnits in in2 result stdDeviation mode operator k1 k2 k3 k4 values type
    tableValues slope intercept amplitude exponent baseFrequency numOctaves seed stitchTiles scale
    xChannelSelector yChannelSelector kernelMatrix order divisor bias targetX targetY edgeMode
    kernelUnitLength preserveAlpha surfaceScale diffuseConstant specularConstant specularExponent
    azimuth elevation pointsAtX pointsAtY pointsAtZ limitingConeAngle radius
    fill fill-opacity fill-rule stroke stroke-width stroke-linecap stroke-linejoin stroke-miterlimit
    stroke-dasharray stroke-dashoffset stroke-opacity opacity color display visibility overflow
    font-family font-size font-style font-weight font-variant font-stretch font-size-adjust
    text-anchor dominant-baseline alignment-baseline baseline-shift letter-spacing word-spacing
    text-decoration writing-mode direction unicode-bidi clip-path clip-rule mask filter
    marker-start marker-mid marker-end stop-color stop-opacity flood-color flood-opacity lighting-color
    shape-rendering text-rendering image-rendering color-interpolation color-interpolation-filters
    vector-effect paint-order mix-blend-mode isolation transform-origin enable-background
    requiredFeatures requiredExtensions systemLanguage
    href {%s}href {%s}space {%s}lang
""" % (_XLINK_NS, _XML_NS, _XML_NS)).split())
# Inside an allowed value, these would reach outside the file or run code.
_UNSAFE_VALUE = re.compile(r"url\s*\(\s*['\"]?\s*(?!#)|@import|expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:|<|//",
                           re.IGNORECASE)
_EMBEDDED_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z")


def _safe_href(element_name: str, value: str) -> bool:
    value = value.strip()
    if value.startswith("#"):
        return _UNSAFE_VALUE.search(value) is None
    # A raster picture embedded in the SVG itself (as plotting libraries write them) fetches nothing.
    return element_name in ("image", "feImage") and _EMBEDDED_IMAGE.match(value) is not None


def _allowed(element) -> bool:
    # An SVG without the namespace declaration is still an SVG; the copy gets the namespace.
    return isinstance(element.tag, str) and etree.QName(element).namespace in (None, _SVG_NS) and etree.QName(element).localname in _ELEMENTS


class _Cleaner:
    def __init__(self, entities: dict[str, str]) -> None:
        self.entities = entities  # internal entities by name: their text replaces each reference
        self.removed: list[str] = []

    def note(self, what: str) -> None:
        if what not in self.removed:
            self.removed.append(what)

    def copy(self, source: etree._Element, parent: etree._Element | None) -> etree._Element | None:
        name = etree.QName(source).localname
        target = etree.Element(f"{{{_SVG_NS}}}{name}", nsmap={None: _SVG_NS, "xlink": _XLINK_NS}) if parent is None \
            else etree.SubElement(parent, f"{{{_SVG_NS}}}{name}")
        for attribute, value in source.attrib.items():
            local = etree.QName(attribute).localname
            if attribute not in _ATTRIBUTES:
                self.note(f"{local}=")
            elif not (_safe_href(name, value) if local == "href" else _UNSAFE_VALUE.search(value) is None):
                self.note(f"{local}={value.strip()[:40]!r}")
            else:
                target.set(attribute, value)
        if name == "style" and source.text and _UNSAFE_VALUE.search(source.text):
            self.note("<style> with external references")
            if parent is not None:
                parent.remove(target)
            return None
        self.text_into(target, None, source.text)
        last: etree._Element | None = None
        for child in source:
            if isinstance(child, etree._Entity):
                if child.name in self.entities:
                    self.text_into(target, last, self.entities[child.name])
                else:
                    self.note(f"&{child.name};")
            elif _allowed(child):
                copied = self.copy(child, target)
                last = copied if copied is not None else last
            elif isinstance(child.tag, str):
                self.note(f"<{etree.QName(child).localname}>")
            elif isinstance(child, etree._ProcessingInstruction):
                self.note(f"<?{child.target}?>")
            self.text_into(target, last, child.tail)
        return target

    @staticmethod
    def text_into(parent: etree._Element, last: etree._Element | None, text: str | None) -> None:
        if not text:
            return
        if last is None:
            parent.text = (parent.text or "") + text
        else:
            last.tail = (last.tail or "") + text


def sanitise_svg(data: bytes) -> tuple[bytes, list[str]]:
    """The SVG rebuilt from allowed elements and attributes only, with what was left out.

    Nothing is copied that is not on the allowlist, so an unknown trick is dropped rather than
    passed on. Entity references are replaced by their internal text or removed (the DOCTYPE that
    declared them is not carried over), so the result always parses on its own.
    """
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True)
    root = etree.fromstring(data, parser)
    dtd = root.getroottree().docinfo.internalDTD
    entities = {e.name: e.content for e in dtd.iterentities() if e.system_url is None and e.content is not None} if dtd is not None else {}
    cleaner = _Cleaner(entities)
    if dtd is not None:
        cleaner.note("<!DOCTYPE>")
    for sibling in (*root.itersiblings(preceding=True), *root.itersiblings()):
        if isinstance(sibling, etree._ProcessingInstruction):
            cleaner.note(f"<?{sibling.target}?>")  # an xml-stylesheet can restyle or transform the file
    clean = cleaner.copy(root, None)
    assert clean is not None  # the root is an <svg>, judged by sniff()
    return etree.tostring(clean, xml_declaration=True, encoding="UTF-8"), cleaner.removed


@dataclass(frozen=True, slots=True)
class MediaProblem:
    """Why a media file cannot go with the quiz."""

    message: str


# The names a file of each type may have: a name that says PNG over SVG content would make a
# platform or a browser treat the file as what it is not.
_NAMES = {"image/png": (".png",), "image/jpeg": (".jpg", ".jpeg"), "image/gif": (".gif",), "image/webp": (".webp",),
          "image/svg+xml": (".svg",), "audio/mpeg": (".mp3",), "video/mp4": (".mp4", ".m4v"), "application/pdf": (".pdf",)}
_KIND = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP", "image/svg+xml": "SVG",
         "audio/mpeg": "MP3", "video/mp4": "MP4", "application/pdf": "PDF"}


def name_key(address: str) -> str:
    """What a case-insensitive file system (Windows, macOS) sees of a media path: two paths with
    the same key would be one file there, and overwrite each other when a package is unpacked."""
    return unicodedata.normalize("NFC", address).casefold()


def load_media(quiz_folder: Path, address: str, max_bytes: int) -> tuple[MediaFile | MediaProblem, list[str]]:
    """Load one referenced file, or say why it cannot be used; with what sanitising removed."""
    problem = _problem(quiz_folder, address, max_bytes)
    if problem:
        return MediaProblem(problem), []
    data = (quiz_folder / Path(*PurePosixPath(address).parts)).read_bytes()
    mime = sniff(data)
    if mime is None:
        return MediaProblem(f"the media file '{address}' is not of an allowed type by its content ({ALLOWED})"), []
    suffix = PurePosixPath(address).suffix.lower()
    if suffix not in _NAMES[mime]:
        return MediaProblem(f"the media file '{address}' holds {_KIND[mime]} content, but its name "
                            f"{'ends in ' + repr(suffix) if suffix else 'has no extension'}: rename it to end in {_NAMES[mime][0]}"), []
    removed: list[str] = []
    if mime == "image/svg+xml":
        data, removed = sanitise_svg(data)
    return MediaFile(address, data, mime), removed


def _size(n: int) -> str:
    return f"{n / 1048576:.1f} MB" if n >= 1048576 else f"{n / 1024:.1f} KB"


def _problem(quiz_folder: Path, address: str, max_bytes: int) -> str | None:
    relative = PurePosixPath(address)
    if any(ord(c) < 0x20 or c == "\x7f" for c in address):
        return f"the media path {address!r} holds a control character (a line break or a tab): rename the file"
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

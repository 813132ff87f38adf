"""The XHTML of `lmsexport.text` as QTI content: the same elements in the QTI namespace.

QTI 2.1 takes a subset of XHTML with fewer attributes (no `style`, `title` or `start`) and
stricter nesting. Presentation that QTI cannot hold is dropped with a loss warning; structure
it cannot hold is an error, so that no package is ever invalid.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from lxml import etree

from ...text.markdown import AUDIO, VIDEO
from .names import QTI, q

MATHML = "http://www.w3.org/1998/Math/MathML"

_OPEN = '<div xmlns="' + QTI + '">'
_CLOSE = "</div>"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, remove_pis=True)

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_INLINE = {"em", "strong", "code", "a", "img", "br", "object"}
_BLOCK = {"p", "ul", "ol", "pre", "table", "hr", "blockquote"} | _HEADINGS
# Elements whose content model is inline only, and the only children some containers take.
_INLINE_ONLY = {"p", "em", "strong", "code", "a", "pre"} | _HEADINGS
_ONLY_CHILDREN = {
    "ul": {"li"},
    "ol": {"li"},
    "table": {"thead", "tbody"},
    "thead": {"tr"},
    "tbody": {"tr"},
    "tr": {"th", "td"},
    "blockquote": _BLOCK,
    "br": set(),
    "hr": set(),
    "img": set(),
}
_ATTRIBUTES = {"a": {"href"}, "img": {"src", "alt"}, "code": {"class"}, "object": {"data", "type"}}
# Attributes QTI has no place for, and what dropping them loses.
_LOST = {"style": "table column alignment", "title": "link and image titles", "start": "the first number of a numbered list"}
_TAGS = _INLINE | _BLOCK | {"li", "thead", "tbody", "tr", "th", "td"}
_MEDIA_TYPES = {**AUDIO, **VIDEO}


class Fragment:
    """Rendered text parsed into a QTI `div`, with what could not be carried."""

    __slots__ = ("div", "lost", "errors")

    def __init__(self, div: etree._Element, lost: list[str], errors: list[str]):
        self.div = div
        self.lost = lost
        self.errors = errors


def fragment(html: str) -> Fragment:
    div = etree.fromstring(_OPEN + html + _CLOSE, _PARSER)
    lost: list[str] = []
    errors: list[str] = []
    for element in div.iterdescendants():
        _check(element, lost, errors)
    _freeze(div)
    return Fragment(div, lost, errors)


def _freeze(root: etree._Element) -> None:
    """Give every element with children a text node, even an empty one: the serialiser then
    never indents inside rendered text, so whitespace in <pre> and between inline elements
    stays exactly as rendered."""
    for element in root.iter():
        if element.text is None and len(element):
            element.text = ""


def move_content(source: etree._Element, target: etree._Element) -> None:
    """Put the text and children of `source` at the end of `target` (which is empty)."""
    target.text = source.text or ""
    target.extend(list(source))


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname


def _as_object(element: etree._Element, errors: list[str]) -> str:
    """QTI 2.1 has no <audio> or <video>: media play through <object>, its text the fallback."""
    address = element.get("src", "")
    kind = _MEDIA_TYPES.get(PurePosixPath(address.split("?")[0]).suffix.lower())
    if kind is None:
        errors.append(f"the media type of '{address}' is unknown")
        kind = "application/octet-stream"
    element.attrib.clear()
    element.tag = q("object")
    element.set("data", address)
    element.set("type", kind)
    return "object"


def _check(element: etree._Element, lost: list[str], errors: list[str]) -> None:
    namespace = etree.QName(element).namespace if isinstance(element.tag, str) else None
    if namespace == MATHML:
        return  # QTI 2.1 embeds MathML 2 as it is
    if namespace != QTI:
        errors.append(f"'{element.tag}' has no equivalent in QTI")
        return
    name = _local(element)
    if name in ("audio", "video"):
        name = _as_object(element, errors)
    if name not in _TAGS:
        errors.append(f"<{name}> has no equivalent in QTI")
        return
    allowed = _ATTRIBUTES.get(name, set())
    for attribute in list(element.attrib):
        if attribute in allowed:
            continue
        if attribute in _LOST:
            if _LOST[attribute] not in lost:
                lost.append(_LOST[attribute])
            del element.attrib[attribute]
        else:
            errors.append(f"the attribute '{attribute}' of <{name}> has no equivalent in QTI")
    if name == "img" and "alt" not in element.attrib:
        element.set("alt", "")
    if name == "table" and element.find(q("tbody")) is None:
        # QTI requires a body; a Markdown table without rows has only its header row.
        head = element.find(q("thead"))
        if head is not None:
            head.tag = q("tbody")
    parent = element.getparent()
    parent_name = _local(parent)
    if parent_name in _INLINE_ONLY and name not in _INLINE:
        errors.append(f"<{name}> cannot stand inside <{parent_name}> in QTI")
    elif parent_name in _ONLY_CHILDREN and name not in _ONLY_CHILDREN[parent_name]:
        errors.append(f"<{name}> cannot stand inside <{parent_name}> in QTI")
    elif name == "a" and any(_local(a) == "a" for a in element.iterancestors()):
        errors.append("a link cannot stand inside a link in QTI")
    elif name == "img" and any(_local(a) == "pre" for a in element.iterancestors()):
        errors.append("an image cannot stand inside preformatted text in QTI")
    if name in _ONLY_CHILDREN and ((element.text or "").strip() or any((c.tail or "").strip() for c in element)):
        errors.append(f"<{name}> cannot hold text directly in QTI")

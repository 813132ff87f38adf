"""The XHTML of `lmsexport.text` as QTI content: the same elements, in the item's namespace.

QTI 2.1 takes a subset of XHTML with fewer attributes (no `style`, `title` or `start`) and
stricter nesting. Presentation that QTI cannot hold is dropped with a loss warning; structure
it cannot hold is an error, so that no package is ever invalid.

Rendered text is checked once per distinct string (banks repeat many texts) and kept as a
string: unprefixed elements land in the QTI namespace, which every item declares as default.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePosixPath

from lxml import etree

from ...text.markdown import AUDIO, VIDEO
from ..xml import text as escape_text

MATHML = "http://www.w3.org/1998/Math/MathML"

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
    """Rendered text as QTI content, with what could not be carried."""

    __slots__ = ("errors", "lost", "markup")

    def __init__(self, markup: str, lost: tuple[str, ...], errors: tuple[str, ...]):
        self.markup = markup
        self.lost = lost
        self.errors = errors


# Text with the entities Markdown writes, between the tags it writes for a paragraph, emphasis,
# code, links and line breaks. Markup made only of these (most texts of a bank) is well-formed
# QTI whenever its tags nest (see `_nests`), so it needs no parse.
# Possessive: nothing here can match two ways, so no backtracking is ever needed. (Characters XML
# cannot hold need no exclusion: a model never holds one, see model.NOT_XML.)
_CHARS = r"(?:[^<>&]++|&(?:amp|lt|gt|quot);)*+"
_VALUE = _CHARS.replace("[^", '[^"')
_SIMPLE = re.compile(rf'{_CHARS}(?:<(?:/?(?:p|em|strong|code|a)|a href="{_VALUE}"|br /)>{_CHARS})*+')
_TAG = re.compile(r"<(/?)([a-z]+)")

# Most rendered texts are simpler still: paragraphs (or, inline, no paragraph) of text with words
# in strong, em or code, links and line breaks, none inside another (what the Markdown fast paths
# of lmsexport.text write). The pattern pairs each tag with its end itself, so such markup is
# known to be valid QTI in one match, without `_nests`, a Fragment or a place in the cache.
# (Each tag spelled out: a back-reference inside a possessive repeat trips Python 3.11's re.)
_FLAT_SPAN = rf'(?:<strong>{_CHARS}</strong>|<em>{_CHARS}</em>|<code>{_CHARS}</code>|<a href="{_VALUE}">{_CHARS}</a>|<br />)'
_FLAT_INLINE = re.compile(rf"{_CHARS}(?:{_FLAT_SPAN}{_CHARS})*+")
_FLAT_PARAGRAPHS = re.compile(rf"(?:<p>{_CHARS}(?:{_FLAT_SPAN}{_CHARS})*+</p>\n?)++")


def is_flat(html: str) -> bool:
    """Whether the markup is of the simple kind above, valid QTI as it is."""
    # Text alone, or one paragraph of it (most options and stems): a few scans are quicker than the
    # match. Operators and slices only: a method call costs more than such a scan of a short text.
    if "<" not in html:  # no tag: text alone, taken as it is when it holds no entity either
        if ">" not in html and "&" not in html:
            return True
        return _FLAT_INLINE.fullmatch(html) is not None
    if html[:3] == "<p>":
        if html[-4:] == "</p>":
            inner = html[3:-4]
            if "<" not in inner and ">" not in inner and "&" not in inner:
                return True
        return _FLAT_PARAGRAPHS.fullmatch(html) is not None
    return _FLAT_INLINE.fullmatch(html) is not None


def _nests(html: str) -> bool:
    """Every tag closes in order, no paragraph stands inside another element, no link inside a link."""
    open_tags: list[str] = []
    for closing, name in _TAG.findall(html):
        if closing:
            if not open_tags or open_tags.pop() != name:
                return False
        elif name != "br":
            if (name == "p" and open_tags) or (name == "a" and "a" in open_tags):
                return False
            open_tags.append(name)
    return not open_tags


@lru_cache(maxsize=65536)
def fragment(html: str) -> Fragment:
    if _SIMPLE.fullmatch(html) and ("<" not in html or _nests(html)):
        return Fragment(html, (), ())
    return _parsed(html)


def _parsed(html: str) -> Fragment:
    try:
        div = etree.fromstring("<div>" + html + "</div>", _PARSER)
    except etree.XMLSyntaxError as problem:
        return Fragment("", (), (f"the text is not well-formed XHTML ({problem})",))
    lost: list[str] = []
    errors: list[str] = []
    changed = False
    for element in div.iterdescendants():
        changed |= _check(element, lost, errors)
    if changed:  # rare: only then is the text written anew from the tree
        html = escape_text(div.text or "") + "".join(etree.tostring(child, encoding="unicode") for child in div)
    return Fragment(html, tuple(lost), tuple(errors))


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
    element.tag = "object"
    element.set("data", address)
    element.set("type", kind)
    return "object"


def _check(element: etree._Element, lost: list[str], errors: list[str]) -> bool:
    """Report what QTI cannot hold; True when the element had to be changed."""
    if not isinstance(element.tag, str):
        errors.append(f"'{element.tag}' has no equivalent in QTI")
        return False
    namespace = etree.QName(element).namespace
    if namespace == MATHML:
        return False  # QTI 2.1 embeds MathML 2 as it is
    if namespace is not None:
        errors.append(f"'{element.tag}' has no equivalent in QTI")
        return False
    changed = False
    name = element.tag
    if name in ("audio", "video"):
        name = _as_object(element, errors)
        changed = True
    if name not in _TAGS:
        errors.append(f"<{name}> has no equivalent in QTI")
        return changed
    allowed = _ATTRIBUTES.get(name, set())
    for attribute in list(element.attrib):
        if attribute in allowed:
            continue
        if attribute in _LOST:
            if _LOST[attribute] not in lost:
                lost.append(_LOST[attribute])
            del element.attrib[attribute]
            changed = True
        else:
            errors.append(f"the attribute '{attribute}' of <{name}> has no equivalent in QTI")
    if name == "img" and "alt" not in element.attrib:
        element.set("alt", "")
        changed = True
    if name == "table" and element.find("tbody") is None:
        # QTI requires a body; a Markdown table without rows has only its header row.
        head = element.find("thead")
        if head is not None:
            head.tag = "tbody"
            changed = True
    parent = element.getparent()
    parent_name = _local(parent)
    misplaced = parent_name in _INLINE_ONLY and name not in _INLINE
    if misplaced or (parent_name in _ONLY_CHILDREN and name not in _ONLY_CHILDREN[parent_name]):
        errors.append(f"<{name}> cannot stand inside <{parent_name}> in QTI")
    elif name == "a" and any(_local(a) == "a" for a in element.iterancestors()):
        errors.append("a link cannot stand inside a link in QTI")
    elif name == "img" and any(_local(a) == "pre" for a in element.iterancestors()):
        errors.append("an image cannot stand inside preformatted text in QTI")
    if name in _ONLY_CHILDREN and ((element.text or "").strip() or any((c.tail or "").strip() for c in element)):
        errors.append(f"<{name}> cannot hold text directly in QTI")
    return changed

"""imsmanifest.xml: IMS Content Packaging 1.1 with IMS Metadata 1.2 (LOM)."""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from .names import CP, CP_XSD, MD, MD_XSD, XML_LANG, XSI

_NSMAP = {None: CP, "imsmd": MD, "xsi": XSI}
ITEM_TYPE = "imsqti_item_xmlv2p1"
TEST_TYPE = "imsqti_test_xmlv2p1"
MEDIA_TYPE = "webcontent"


@dataclass(frozen=True, slots=True)
class Resource:
    identifier: str
    kind: str
    href: str
    title: str
    language: str
    keywords: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()


def _cp(tag: str, parent: etree._Element | None = None, **attributes: str) -> etree._Element:
    name = "{" + CP + "}" + tag
    return etree.Element(name, attributes) if parent is None else etree.SubElement(parent, name, attributes)


def _md(tag: str, parent: etree._Element) -> etree._Element:
    return etree.SubElement(parent, "{" + MD + "}" + tag)


def _langstring(parent: etree._Element, tag: str, text: str, language: str) -> None:
    string = _md("langstring", _md(tag, parent))
    string.set(XML_LANG, language)
    string.text = text


def _lom(parent: etree._Element, title: str, language: str, description: str | None, keywords: tuple[str, ...]) -> None:
    general = _md("general", _md("lom", parent))
    _langstring(general, "title", title, language)
    _md("language", general).text = language
    if description is not None:
        _langstring(general, "description", description, language)
    for keyword in keywords:
        _langstring(general, "keyword", keyword, language)


def manifest(
    manifest_id: str, title: str, language: str, description: str | None, keywords: tuple[str, ...], resources: list[Resource]
) -> etree._Element:
    root = etree.Element(
        "{" + CP + "}manifest",
        nsmap=_NSMAP,
        attrib={"identifier": manifest_id, "{" + XSI + "}schemaLocation": f"{CP} {CP_XSD} {MD} {MD_XSD}"},
    )
    metadata = _cp("metadata", root)
    # Canvas reads a package as QTI 2 when this schema names QTIv2.x.
    _cp("schema", metadata).text = "QTIv2.1 Package"
    _cp("schemaversion", metadata).text = "1.0.0"
    _lom(metadata, title, language, description, keywords)
    _cp("organizations", root)
    listed = _cp("resources", root)
    for resource in resources:
        element = _cp("resource", listed, identifier=resource.identifier, type=resource.kind, href=resource.href)
        if resource.kind != MEDIA_TYPE:
            _lom(_cp("metadata", element), resource.title, resource.language, None, resource.keywords)
        _cp("file", element, href=resource.href)
        for dependency in resource.dependencies:
            _cp("dependency", element, identifierref=dependency)
    return root

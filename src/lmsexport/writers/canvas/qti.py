"""Small builders for the QTI 1.2 elements Canvas's exporter writes (lib/cc/qti/qti_items.rb)."""

from __future__ import annotations

from lxml import etree

NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = f"{NS} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"

_tags: dict[str, str] = {}
_SubElement = etree.SubElement


def tag(name: str) -> str:
    found = _tags.get(name)
    if found is None:
        found = _tags[name] = f"{{{NS}}}{name}"
    return found


def sub(parent: etree._Element, name: str, attrib: dict[str, str] | None = None, text: str | None = None) -> etree._Element:
    element = _SubElement(parent, tag(name), attrib) if attrib else _SubElement(parent, tag(name))
    if text is not None:
        element.text = text
    return element


def html_material(parent: etree._Element, html: str) -> etree._Element:
    """Canvas reads HTML as escaped markup inside mattext texttype="text/html"; the serialiser escapes it."""
    material = sub(parent, "material")
    sub(material, "mattext", {"texttype": "text/html"}, html)
    return material


def plain_material(parent: etree._Element, text: str) -> etree._Element:
    """A matching question's right-hand side: Canvas keeps only plain text there."""
    material = sub(parent, "material")
    sub(material, "mattext", None, text)
    return material


def meta_field(qtimetadata: etree._Element, label: str, entry: str) -> None:
    field = sub(qtimetadata, "qtimetadatafield")
    sub(field, "fieldlabel", None, label)
    sub(field, "fieldentry", None, entry)


def respcondition(resprocessing: etree._Element, cont: str | None = "No") -> tuple[etree._Element, etree._Element]:
    condition = sub(resprocessing, "respcondition", {"continue": cont} if cont else None)
    return condition, sub(condition, "conditionvar")


def varequal(parent: etree._Element, respident: str, value: str) -> None:
    sub(parent, "varequal", {"respident": respident}, value)


def other(resprocessing: etree._Element, cont: str, feedback: str | None = None) -> None:
    condition, conditionvar = respcondition(resprocessing, cont)
    sub(conditionvar, "other")
    if feedback:
        show_feedback(condition, feedback)


def set_score(condition: etree._Element, value: str, action: str = "Set") -> None:
    sub(condition, "setvar", {"action": action, "varname": "SCORE"}, value)


def show_feedback(condition: etree._Element, ident: str) -> None:
    sub(condition, "displayfeedback", {"feedbacktype": "Response", "linkrefid": ident})


def itemfeedback(item: etree._Element, ident: str, html: str) -> None:
    feedback = sub(item, "itemfeedback", {"ident": ident})
    html_material(sub(feedback, "flow_mat"), html)

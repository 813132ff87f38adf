"""What the QTI tests share: the namespace and finding items (the schemas are a conftest fixture)."""

from __future__ import annotations

from packages import entries

NS = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


def is_item(name: str) -> bool:
    """Items lie at the package root beside the manifest and the test."""
    return name.endswith(".xml") and "/" not in name and name not in ("imsmanifest.xml", "test.xml")


def assessment_items(data: bytes) -> dict:
    """Every assessmentItem of a package, by identifier, wherever the package puts it."""
    from lxml import etree

    found = {}
    for name, content in entries(data).items():
        if name.endswith(".xml"):
            root = etree.fromstring(content)
            if root.tag == NS + "assessmentItem":
                found[root.get("identifier")] = root
    return found


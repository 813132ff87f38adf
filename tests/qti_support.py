"""What the QTI tests share: the namespace and zip reading (the schemas are a conftest fixture)."""

from __future__ import annotations

import io
import zipfile

NS = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


def files_of(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def is_item(name: str) -> bool:
    """Items lie at the package root beside the manifest and the test."""
    return name.endswith(".xml") and "/" not in name and name not in ("imsmanifest.xml", "test.xml")


def assessment_items(data: bytes) -> dict:
    """Every assessmentItem of a package, by identifier, wherever the package puts it."""
    from lxml import etree

    found = {}
    for name, content in files_of(data).items():
        if name.endswith(".xml"):
            root = etree.fromstring(content)
            if root.tag == NS + "assessmentItem":
                found[root.get("identifier")] = root
    return found


def loaded(path):
    """The model of a test quiz that must load without errors."""
    from lmsexport.loader import load_quiz

    result = load_quiz(path)
    assert result.ok, result.diagnostics
    return result.quiz

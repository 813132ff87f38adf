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

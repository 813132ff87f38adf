"""What the QTI tests share: the official schemas, compiled once per session, and zip reading."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from lxml import etree

NS = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


@pytest.fixture(scope="session")
def schemas(shared_dir: Path) -> dict[str, etree.XMLSchema]:
    parser = etree.XMLParser(no_network=True)
    xsd = shared_dir / "xsd"

    def load(name: str) -> etree.XMLSchema:
        return etree.XMLSchema(etree.parse(str(xsd / name), parser))

    return {
        "qti 2.1": load("qtiv2p1/imsqti_v2p1.xsd"),
        "qti 2.1.2": load("qtiv2p1/imsqti_v2p1p2.xsd"),
        "manifest": load("drivers/qti21-manifest-driver.xsd"),
    }


def files_of(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}

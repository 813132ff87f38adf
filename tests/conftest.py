"""Shared test fixtures: where the project and `../shared` are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
DATA = Path(__file__).resolve().parent / "data"


def _shared_dir() -> Path | None:
    configured = os.environ.get("LMSEXPORT_SHARED")
    candidate = Path(configured) if configured else ROOT.parent / "shared"
    return candidate if candidate.is_dir() else None


SHARED = _shared_dir()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """`../shared` beside the repository, or $LMSEXPORT_SHARED. Tests that need it are skipped,
    with the reason, where it is absent (a clone on its own); CI always has it."""
    if SHARED is None:
        pytest.skip(
            "../shared is missing: put the shared folder beside the repository or set LMSEXPORT_SHARED "
            "to its path (it holds the seeds and the official IMS XSDs these tests check against)."
        )
    return SHARED


@pytest.fixture(scope="session")
def schemas(shared_dir: Path) -> dict[str, etree.XMLSchema]:
    """The official IMS schemas, compiled once per session (compiling takes seconds)."""
    parser = etree.XMLParser(no_network=True)
    xsd = shared_dir / "xsd"

    def load(name: str) -> etree.XMLSchema:
        return etree.XMLSchema(etree.parse(str(xsd / name), parser))

    return {
        "qti 2.1": load("qtiv2p1/imsqti_v2p1.xsd"),
        "qti 2.1.2": load("qtiv2p1/imsqti_v2p1p2.xsd"),
        "manifest": load("drivers/qti21-manifest-driver.xsd"),
    }

"""Reading exported packages back: one zip reader for the tests of every format."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path


def entries(package: bytes | Path) -> dict[str, bytes]:
    """Every entry of a zip package (its bytes, or a path to it), by name, in the package's order."""
    source = package if isinstance(package, Path) else io.BytesIO(package)
    with zipfile.ZipFile(source) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def canvas_assessment(files: dict[str, bytes]) -> str:
    """The name of a Canvas package's assessment file: <ident>/<ident>.xml."""
    return next(n for n in files if n.count("/") == 1 and n.split("/")[0] + ".xml" == n.split("/")[1])

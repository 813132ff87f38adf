"""Writing export files: atomically, and never where they would do harm."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputError(Exception):
    """A problem with the output folder that makes writing impossible or unsafe."""


def check_output_folder(out: Path, sources: list[Path]) -> None:
    """Refuse an output folder that is a file, or that lies inside the content being read."""
    for folder in (out, *out.parents):
        if folder.exists() and not folder.is_dir():
            raise OutputError(f"the output path {folder} is a file, not a folder")
    resolved = out.resolve()
    for source in sources:
        if not source.is_dir():
            continue  # a single quiz file: its folder is not read, so exports may go below it
        folder = source.resolve()
        if resolved == folder or folder in resolved.parents:
            raise OutputError(f"the output folder {out} is inside the content folder {source}: exports would be read as content")


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder and a rename, so a reader (or a crash)
    sees either the old file or the new one, never a partial one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def remove_stale_temporaries(folder: Path) -> None:
    """Temporary files that a killed run left behind (a rename never happened for them)."""
    if folder.is_dir():
        for path in folder.glob(".*.tmp"):
            path.unlink(missing_ok=True)


def read_if_exists(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None

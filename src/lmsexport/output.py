"""Writing export files: atomically, and never where they would do harm."""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
import zlib
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


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Write via a temporary file in the same folder and a rename, so a reader (or a crash)
    sees either the old file or the new one, never a partial one. `durable`: the bytes are
    flushed to the disk before the rename, so that a power cut cannot leave the new name with
    an empty or partial file; without it (for files that prove their own wholeness) the rename
    does not wait for the disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            if durable:
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


# Flag bits that only say how an entry was compressed (deflate's speed setting) or where its
# sizes are stored (a data descriptor): another zlib or level changes them, no reader cares.
_COMPRESSION_FLAGS = 0b1110


def _zip_entries(data: bytes) -> list[tuple] | None:
    """What a platform reads from a zip: each entry's name, order, metadata and uncompressed
    bytes (read through the CRC check), and the archive comment; None when it is no valid zip."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries: list[tuple] = [("comment", archive.comment)]
            for info in archive.infolist():
                entries.append((info.filename, info.date_time, info.external_attr, info.create_system,
                                info.flag_bits & ~_COMPRESSION_FLAGS, info.comment, info.extra,
                                info.file_size, archive.read(info)))
            return entries
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, ValueError, EOFError, OSError, RuntimeError, zlib.error):
        return None


def same_export(current: bytes | None, new: bytes) -> bool:
    """Whether the file on disk holds what the new export holds, as the platform reads it:
    zips by their entries (deflate output differs between zlib builds and levels while the
    content is the same), every other file by its bytes."""
    if current is None:
        return False
    if current == new:
        return True
    if not (new.startswith(b"PK\x03\x04") and current.startswith(b"PK\x03\x04")):
        return False
    theirs = _zip_entries(current)
    return theirs is not None and theirs == _zip_entries(new)

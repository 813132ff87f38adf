"""Media files found in an input: named safely, each distinct file once, beside the quiz."""

from __future__ import annotations

import posixpath
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]")


def _safe_segment(segment: str) -> str:
    segment = _UNSAFE.sub("_", segment).strip(" .")
    return segment or "file"


class MediaStore:
    """Gives every file a local path under `media/` (keeping its folder when it is safe), the same
    path for the same bytes, and a new name when a different file already took the name."""

    def __init__(self, reserved: dict[str, bytes] | None = None) -> None:
        self.files: dict[str, bytes] = dict(reserved or {})

    def add(self, folder: str, name: str, data: bytes) -> str:
        parts = [_safe_segment(p) for p in posixpath.normpath("/" + folder.strip("/")).split("/") if p and p not in (".", "..")]
        if not parts or parts[0] != "media":
            parts = ["media", *parts]
        stem, dot, suffix = _safe_segment(name).rpartition(".")
        if not dot:
            stem, suffix = suffix, ""
        candidate = "/".join([*parts, stem + dot + suffix])
        counter = 2
        while candidate in self.files and self.files[candidate] != data:
            candidate = "/".join([*parts, f"{stem}-{counter}{dot}{suffix}"])
            counter += 1
        self.files[candidate] = data
        return candidate

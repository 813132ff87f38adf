"""Deterministic zip packages, written directly: sorted entries, fixed times and permissions.

The bytes depend only on the entries and the deflate library. `build --check` compares
packages by their entries, so which deflate library (or level) made a committed package does
not matter; what matters is speed: deflate was a sixth of a build's time with zlib at level 6.
ISA-L (the `isal` package) at its level 0 deflates about nine times faster than zlib at level 6
(twice as fast as its own level 2, which packs only a sixth tighter) for packages about a third
larger (figures in the README), far below any platform's upload limit; zlib at level 1 is the
fallback where `isal` cannot be installed.
"""

from __future__ import annotations

import struct
import zlib

try:
    from isal import isal_zlib as _deflate_library

    LEVEL = 0
except ImportError:  # pragma: no cover - isal has wheels for the common platforms
    _deflate_library = zlib  # type: ignore[assignment]
    LEVEL = 1

# 1980-01-01 00:00:00, the earliest date a zip can hold, in MS-DOS form.
DOS_TIME = 0
DOS_DATE = (1980 - 1980) << 9 | 1 << 5 | 1
PERMISSIONS = 0o644 << 16  # a regular file readable by all
MADE_BY = 3 << 8 | 20  # Unix, zip 2.0
NEEDED = 20  # deflate
DEFLATED = 8
UTF8_NAME = 0x800
_LIMIT = 0x7FFFFFFF  # beyond this a zip needs ZIP64 records, which no package here needs


def _deflate(data: bytes) -> bytes:
    # Raw deflate (negative window bits: no zlib header) in one call, quicker than a compressor object.
    return _deflate_library.compress(data, LEVEL, -15)


# The local header and the central directory record of an entry, and the end record.
_LOCAL = struct.Struct("<4s2B4HL2L2H")
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")
_END = struct.Struct("<4s4H2LH")


class Package:
    """A deterministic zip made entry by entry: each entry is deflated as it is added and only
    its deflated bytes are kept, so a package of 20,000 items never holds them all uncompressed
    (68 MB for 20,000 single choice items in QTI: memory the process must first be given, page by
    page, which cost as much system time as a tenth of the writer's own work). Entries are laid
    out sorted by name whatever the order they were added in; adding a name again replaces it."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[str, tuple[bytes, int, int, int, bytes]] = {}

    def __setitem__(self, name: str, data: bytes) -> None:
        try:
            encoded, flags = name.encode("ascii"), 0
        except UnicodeEncodeError:
            encoded, flags = name.encode("utf-8"), UTF8_NAME
        if len(data) > _LIMIT:
            raise ValueError("a package over 2 GB")
        # ISA-L's CRC-32 is an order of magnitude quicker than zlib's
        self._entries[name] = (encoded, flags, _deflate_library.crc32(data), len(data), _deflate(data))

    def zip(self) -> bytes:
        parts: list[bytes] = []
        directory: list[bytes] = []
        offset = 0
        entries = self._entries
        for name in sorted(entries):
            encoded, flags, crc, size, packed = entries[name]
            if offset > _LIMIT:
                raise ValueError("a package over 2 GB")
            header = _LOCAL.pack(b"PK\x03\x04", NEEDED, 0, flags, DEFLATED, DOS_TIME, DOS_DATE,
                                 crc, len(packed), size, len(encoded), 0)
            directory.append(_CENTRAL.pack(b"PK\x01\x02", MADE_BY & 0xFF, MADE_BY >> 8, NEEDED, 0, flags,
                                           DEFLATED, DOS_TIME, DOS_DATE, crc, len(packed), size, len(encoded),
                                           0, 0, 0, 0, PERMISSIONS, offset) + encoded)
            parts += (header, encoded, packed)
            offset += len(header) + len(encoded) + len(packed)
        central = b"".join(directory)
        end = _END.pack(b"PK\x05\x06", 0, 0, len(directory), len(directory), len(central), offset, 0)
        return b"".join([*parts, central, end])  # one copy of a package that may be tens of megabytes


def deterministic_zip(files: dict[str, bytes]) -> bytes:
    """A zip whose bytes depend only on the names and contents: sorted entries, fixed times."""
    package = Package()
    for name, data in files.items():
        package[name] = data
    return package.zip()

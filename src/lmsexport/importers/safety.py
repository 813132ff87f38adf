"""Reading files nobody here wrote without letting them harm the machine.

XML: no entity is expanded (so neither XXE nor "billion laughs" can do anything), no network, no
huge trees. Zips: every member is checked before anything is read (its name may not leave the
package, sizes and compression ratios are bounded), and a truncated or corrupt archive is an error.
Text: UTF-8 only (with or without a byte order mark); anything else is refused with the encoding
it looks like, never guessed silently.
"""

from __future__ import annotations

import io
import posixpath
import zipfile

from lxml import etree

MAX_INPUT_BYTES = 50 * 1024 * 1024
MAX_MEMBER_BYTES = 50 * 1024 * 1024
MAX_TOTAL_BYTES = 200 * 1024 * 1024
MAX_MEMBERS = 20000
MAX_RATIO = 200  # text compresses well, but not a thousand times: that is a bomb


class InputError(ValueError):
    """A file that cannot be imported, with the reason in words a user can act on.
    `line` is set when the problem has a place in the file."""

    def __init__(self, message: str, line: int | None = None, member: str | None = None):
        super().__init__(message)
        self.line = line
        self.member = member


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                           dtd_validation=False, remove_comments=False)


def parse_xml(data: bytes, member: str | None = None) -> etree._Element:
    """The root element of an XML document; entities are never expanded."""
    if b"<!ENTITY" in data[:65536] or b"<!entity" in data[:65536]:
        # Entities can only be read (resolve_entities=False leaves them unexpanded), never used
        # for content: refusing them says so instead of importing text with holes in it.
        raise InputError("the XML declares entities (<!ENTITY>): refused, as they can read local files or expand without end", member=member)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as problem:
        line = problem.position[0] if problem.position else None
        raise InputError(f"not well-formed XML: {problem.msg}", line=line, member=member) from None
    if root is None:
        raise InputError("the file holds no XML element", member=member)
    return root


def decode_text(data: bytes) -> str:
    """UTF-8 text; a byte order mark is dropped. Other encodings are named and refused."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("the file is UTF-16: save it as UTF-8 and import it again")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = data[: problem.start].count(b"\n") + 1
        raise InputError(f"the file is not UTF-8 (byte 0x{data[problem.start]:02x} at line {line}; Windows-1252 or Latin-1 perhaps): "
                         "save it as UTF-8 and import it again", line=line) from None


def is_zip(data: bytes) -> bool:
    return data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06")


def safe_member_name(name: str) -> bool:
    """A member name that stays inside the package: relative, no '..', no drive, no backslash."""
    if not name or name.startswith(("/", "\\")) or "\\" in name or "\x00" in name:
        return False
    if len(name) > 1 and name[1] == ":":
        return False
    normal = posixpath.normpath(name)
    return not (normal == ".." or normal.startswith("../") or "/../" in f"/{name}/")


class Package:
    """A checked zip: every member's name is safe and the sizes are bounded; members are read
    through `read`, which enforces the limits again on the bytes actually produced."""

    def __init__(self, data: bytes):
        if len(data) > MAX_INPUT_BYTES:
            raise InputError(f"the package is {len(data) / 1048576:.0f} MB, over the {MAX_INPUT_BYTES // 1048576} MB import limit")
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, EOFError, OSError, ValueError) as problem:
            raise InputError(f"not a readable zip (truncated or corrupt): {problem}") from None
        if len(infos) > MAX_MEMBERS:
            raise InputError(f"the package holds {len(infos)} files, over the limit of {MAX_MEMBERS}")
        total = 0
        self._infos: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if not safe_member_name(info.filename):
                raise InputError(f"the package holds a file named {info.filename!r}, which points outside the package: refused", member=info.filename)
            if info.flag_bits & 0x1:
                raise InputError("the package is encrypted", member=info.filename)
            if info.file_size > MAX_MEMBER_BYTES:
                raise InputError(f"{info.filename} unpacks to {info.file_size} bytes, over the limit", member=info.filename)
            if info.compress_size and info.file_size / info.compress_size > MAX_RATIO and info.file_size > 1048576:
                raise InputError(f"{info.filename} expands {info.file_size // info.compress_size} times: refused as a zip bomb", member=info.filename)
            total += info.file_size
            if not info.is_dir():
                self._infos[info.filename] = info
        if total > MAX_TOTAL_BYTES:
            raise InputError(f"the package unpacks to {total // 1048576} MB, over the {MAX_TOTAL_BYTES // 1048576} MB limit")

    def names(self) -> list[str]:
        return sorted(self._infos)

    def has(self, name: str) -> bool:
        return name in self._infos

    def read(self, name: str) -> bytes:
        info = self._infos.get(name)
        if info is None:
            raise InputError(f"the package has no file {name}", member=name)
        try:
            with self._zip.open(info) as stream:
                data = stream.read(info.file_size + 1)  # a lying header cannot make it read more
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, NotImplementedError) as problem:
            raise InputError(f"{name} cannot be unpacked (truncated or corrupt): {problem}", member=name) from None
        if len(data) > info.file_size:
            raise InputError(f"{name} unpacks to more than its header says: refused", member=name)
        return data

"""The zip writer: the same format zipfile writes, readable by every reader, deterministic."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
import zlib

import pytest

from lmsexport.writers import zips
from lmsexport.writers.shared import ZIP_TIMESTAMP

FILES = {
    "imsmanifest.xml": b'<?xml version="1.0"?><manifest/>',
    "items/q1.xml": b"<assessmentItem>" + b"<p>text</p>" * 400 + b"</assessmentItem>",
    "media/r\u00e9seau en anneau.png": bytes(range(256)) * 8,
    "empty.txt": b"",
}


def reference(files: dict[str, bytes]) -> bytes:
    """What zipfile writes for the same entries with zlib at level 6."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIMESTAMP)
            info.compress_type, info.external_attr, info.create_system = zipfile.ZIP_DEFLATED, 0o644 << 16, 3
            archive.writestr(info, files[name], compresslevel=6)
    return buffer.getvalue()


def test_with_zlib_at_level_6_the_bytes_are_zipfiles(monkeypatch):
    monkeypatch.setattr(zips, "_deflate_library", zlib)
    monkeypatch.setattr(zips, "LEVEL", 6)
    assert zips.deterministic_zip(FILES) == reference(FILES)


def test_entries_read_back_sorted_with_fixed_metadata():
    data = zips.deterministic_zip(FILES)
    assert data == zips.deterministic_zip(dict(reversed(FILES.items())))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        assert archive.namelist() == sorted(FILES)
        assert {n: archive.read(n) for n in archive.namelist()} == FILES
        for info in archive.infolist():
            assert info.date_time == ZIP_TIMESTAMP and info.external_attr == 0o644 << 16 and info.create_system == 3
            assert bool(info.flag_bits & 0x800) == (not info.filename.isascii())


@pytest.mark.skipif(shutil.which("unzip") is None, reason="unzip (Info-ZIP) is not installed")
def test_info_zip_accepts_the_package(tmp_path):
    package = tmp_path / "p.zip"
    package.write_bytes(zips.deterministic_zip(FILES))
    result = subprocess.run(["unzip", "-t", str(package)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No errors detected" in result.stdout


def test_a_package_made_entry_by_entry_in_any_order_is_the_sorted_zip(monkeypatch):
    monkeypatch.setattr(zips, "_deflate_library", zlib)
    monkeypatch.setattr(zips, "LEVEL", 6)
    package = zips.Package()
    package["items/q1.xml"] = b"an earlier version, replaced below"
    for name in reversed(list(FILES)):
        package[name] = FILES[name]
    assert package.zip() == reference(FILES)

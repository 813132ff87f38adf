"""`build --check` sees every difference that matters: one tampered entry of a package, a change
of metadata alone. Each test changes exactly one thing, so a check that looks at only part of an
export (the first entry, the sizes, the question files) cannot pass them."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import DATA
from packages import canvas_assessment, entries
from lmsexport.cli import app

runner = CliRunner()
QUIZ = "media-and-math"  # every kind of entry a package has: manifest, items, test, media files


@pytest.fixture
def built(tmp_path, monkeypatch):
    shutil.copytree(DATA / "media", tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["build", "--quiet"])
    assert result.exit_code == 0, result.output
    return tmp_path


def check(*extra: str):
    result = runner.invoke(app, ["build", "--check", *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def flip_one_byte(data: bytes) -> bytes:
    """The same length, one byte different: a size comparison cannot see it."""
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1:]


def tamper_entry(package: Path, name: str) -> None:
    """Rewrite the package with one entry changed and every other entry, date and method kept."""
    with zipfile.ZipFile(package) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    assert name in [info.filename for info, _ in entries], f"{name} is not in {package}"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for info, data in entries:
            archive.writestr(info, flip_one_byte(data) if info.filename == name else data)
    package.write_bytes(buffer.getvalue())


@pytest.mark.parametrize("format_name, entry", [
    ("qti", "imsmanifest.xml"),
    ("qti", "ring.xml"),
    ("qti", "test.xml"),
    ("qti", "media/ring.png"),
    ("canvas", "imsmanifest.xml"),
    ("canvas", "assessment"),
    ("canvas", "web_resources/media/clip.mp3"),
])
def test_one_tampered_entry_makes_the_package_stale(built, format_name, entry):
    package = built / "exports" / format_name / f"{QUIZ}.zip"
    name = canvas_assessment(entries(package)) if entry == "assessment" else entry
    before = entries(package)
    tamper_entry(package, name)
    after = entries(package)
    assert [n for n in before if before[n] != after[n]] == [name]  # exactly one entry differs
    result = check()
    assert result.exit_code == 1, result.output
    assert f"stale: {Path('exports', format_name, f'{QUIZ}.zip')}" in result.stdout
    assert [line for line in result.stdout.splitlines() if line.startswith(("stale", "missing", "extra"))] == \
        [f"stale: {Path('exports', format_name, f'{QUIZ}.zip')}"]


@pytest.mark.parametrize("name", [f"moodle/{QUIZ}.xml", f"gift/{QUIZ}.gift.txt"])
def test_one_flipped_byte_makes_a_text_export_stale(built, name):
    path = built / "exports" / name
    path.write_bytes(flip_one_byte(path.read_bytes()))
    result = check()
    assert result.exit_code == 1
    assert f"stale: {Path('exports', name)}" in result.stdout


def test_a_change_of_metadata_alone_is_seen(built):
    """A new level changes the package's manifest (its LOM) and no item: the check must read the
    manifest, not only the questions."""
    old = entries(built / "exports" / "qti" / f"{QUIZ}.zip")
    quiz = built / "content" / "media_and_math.json"
    data = json.loads(quiz.read_text(encoding="utf-8"))
    data["level"] = "Advanced"
    quiz.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = check("--format", "qti")
    assert result.exit_code == 1, result.output
    assert f"stale: {Path('exports/qti', f'{QUIZ}.zip')}" in result.stdout
    # What the check had to find: the manifest is the only entry the change touched.
    assert runner.invoke(app, ["build", "--format", "qti", "--quiet"]).exit_code == 0
    new = entries(built / "exports" / "qti" / f"{QUIZ}.zip")
    assert sorted(new) == sorted(old)
    assert [n for n in sorted(new) if new[n] != old[n]] == ["imsmanifest.xml"]
    assert check("--format", "qti").exit_code == 0


def test_untouched_exports_are_up_to_date(built):
    result = check()
    assert result.exit_code == 0, result.output
    assert "exports are up to date" in result.stdout


def set_flag_bits(package: Path, bits: int) -> None:
    """Set general-purpose flag bits of every entry, in its local header and its central directory
    record, leaving every other byte (the compressed data too) as it is."""
    data = bytearray(package.read_bytes())
    with zipfile.ZipFile(package) as archive:
        infos = archive.infolist()
    for info in infos:
        assert data[info.header_offset:info.header_offset + 4] == b"PK\x03\x04"
        data[info.header_offset + 6] |= bits
    central = data.find(b"PK\x01\x02")
    for _ in infos:
        assert data[central:central + 4] == b"PK\x01\x02"
        data[central + 8] |= bits
        name, extra, comment = (int.from_bytes(data[central + i:central + i + 2], "little") for i in (28, 30, 32))
        central += 46 + name + extra + comment
    package.write_bytes(bytes(data))


def test_a_package_deflated_at_another_level_is_up_to_date(built):
    """Flag bits 1 and 2 only say how hard deflate worked (another zlib or level sets them); no
    reader looks at them, so a package that differs only there holds the same export."""
    package = built / "exports" / "qti" / f"{QUIZ}.zip"
    before = entries(package)
    set_flag_bits(package, 0b0110)
    with zipfile.ZipFile(package) as archive:
        assert {info.flag_bits & 0b0110 for info in archive.infolist()} == {0b0110}
    assert entries(package) == before
    result = check()
    assert result.exit_code == 0, result.output
    assert "exports are up to date" in result.stdout


def test_a_text_export_with_crlf_line_endings_is_stale_and_says_why(built):
    """What git with core.autocrlf=true does to a text export on checkout: the check names it."""
    path = built / "exports" / "moodle" / f"{QUIZ}.xml"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    flipped = built / "exports" / "gift" / f"{QUIZ}.gift.txt"
    flipped.write_bytes(flip_one_byte(flipped.read_bytes()))
    result = check()
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if line.startswith("stale")]
    assert lines == [
        f"stale: {Path('exports', 'moodle', f'{QUIZ}.xml')} (only its line endings differ: git converted them; "
        "add 'exports/** -text' to .gitattributes)",
        f"stale: {Path('exports', 'gift', f'{QUIZ}.gift.txt')}",  # a changed byte is no line ending
    ]

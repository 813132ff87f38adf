"""Incremental builds: the cache in <output>/.lmsexport/ skips unchanged quizzes, and nothing
about it (stale, corrupt, edited by hand, racing an edit) can make an export or --check wrong.
Also `--check` comparing zips by what a platform reads, not by their deflate bytes."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_runs import invoke
from conftest import CONTENT, DATA
from lmsexport import cache, pipeline
from lmsexport.diagnostics import Diagnostic, Severity
from lmsexport.output import same_export

QUIZ = "model-pipeline-parallelism"
OTHER = "optimizer-offload-cpu-nvme"
FILES = {"qti": "{}.zip", "canvas": "{}.zip", "moodle": "{}.xml", "gift": "{}.gift.txt"}


@pytest.fixture
def bank(tmp_path, monkeypatch):
    shutil.copytree(CONTENT, tmp_path / "content")
    shutil.copytree(DATA / "media", tmp_path / "content" / "illustrated")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def processed(monkeypatch):
    """The quiz files that go through the full build (load, check, render), by name."""
    seen: list[str] = []
    real = pipeline.process_quiz

    def counting(path, *args, **kwargs):
        seen.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(pipeline, "process_quiz", counting)
    return seen


def exports(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".lmsexport" not in p.parts}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def entry_path(bank: Path, quiz_id: str = QUIZ) -> Path:
    return bank / "exports" / ".lmsexport" / f"{quiz_id}.json"


def stale_lines(result) -> list[str]:
    return sorted(line for line in result.stdout.splitlines() if line.startswith(("stale:", "missing:", "extra:")))


def all_stale(quiz_id: str = QUIZ) -> list[str]:
    return sorted(f"stale: {Path('exports', f, p.format(quiz_id))}" for f, p in FILES.items())


def test_an_unchanged_bank_is_not_built_again_and_says_the_same(bank, processed):
    first = invoke("build")
    assert first.exit_code == 0, first.output
    assert len(processed) == 5
    before = exports(bank / "exports")
    processed.clear()
    second = invoke("build")
    assert second.exit_code == 0 and processed == []
    assert exports(bank / "exports") == before
    # The same warnings, in the same order, and the table a full build of the same bank prints.
    full = invoke("build", "--no-cache")
    assert len(processed) == 5
    assert second.stderr == first.stderr == full.stderr
    assert second.stdout == full.stdout and "up to date" in full.stdout
    processed.clear()
    check = invoke("build", "--check")
    assert check.exit_code == 0 and processed == [] and check.stderr == first.stderr


def test_only_the_changed_quiz_is_built_again(bank, processed):
    assert invoke("build").exit_code == 0
    processed.clear()
    edit(bank / "content" / f"{QUIZ}.json", "Megatron-LM", "Megatron-LM 2")
    check = invoke("build", "--check")
    assert check.exit_code == 1 and processed == [f"{QUIZ}.json"]
    assert stale_lines(check) == all_stale()
    processed.clear()
    assert invoke("build").exit_code == 0 and processed == [f"{QUIZ}.json"]
    processed.clear()
    assert invoke("build", "--check").exit_code == 0 and processed == []
    # What the incremental build wrote is what a build from nothing writes.
    assert invoke("build", "-o", "fresh", "--no-cache").exit_code == 0
    assert exports(bank / "fresh") == exports(bank / "exports")


def test_a_changed_media_file_rebuilds_its_quiz(bank, processed):
    assert invoke("build").exit_code == 0
    processed.clear()
    picture = bank / "content" / "illustrated" / "media" / "ring.png"
    picture.write_bytes(picture.read_bytes() + b"\0")
    result = invoke("build", "--check")
    assert result.exit_code == 1 and processed == ["media_and_math.json"]
    assert f"stale: {Path('exports/qti/media-and-math.zip')}" in result.stdout
    picture.unlink()  # and a media file that is gone is an error, not a cached success
    result = invoke("build", "--check")
    assert result.exit_code == 1 and "ring.png' does not exist" in result.stderr


@pytest.mark.parametrize("options", [["--strict"], ["--nearest-grade"], ["--media-base-url", "https://cdn.example.org/"],
                                     ["--format", "qti,gift"], ["--max-media-size", "1"]])
def test_other_options_do_not_reuse_the_cache(bank, processed, options):
    assert invoke("build").exit_code == 0
    processed.clear()
    invoke("build", *options, "--check")
    assert len(processed) == 5


def test_a_new_version_of_the_tool_rebuilds_everything(bank, processed, monkeypatch):
    assert invoke("build").exit_code == 0
    processed.clear()
    monkeypatch.setattr(cache, "tool_digest", lambda: "another version of the writers")
    assert invoke("build", "--check").exit_code == 0
    assert len(processed) == 5


def test_a_deleted_or_edited_export_is_noticed(bank, processed):
    assert invoke("build").exit_code == 0
    (bank / "exports" / "gift" / f"{QUIZ}.gift.txt").unlink()
    (bank / "exports" / "moodle" / f"{OTHER}.xml").write_bytes(b"<quiz/>")
    result = invoke("build", "--check")
    assert result.exit_code == 1
    assert stale_lines(result) == sorted([f"missing: {Path('exports/gift', QUIZ + '.gift.txt')}",
                                          f"stale: {Path('exports/moodle', OTHER + '.xml')}"])
    assert invoke("build").exit_code == 0
    assert invoke("build", "--check").exit_code == 0


def _hand_edits(bank: Path):
    """Ways a person (or a bad merge) might edit an entry so that it seems to match a quiz
    that changed since it was written."""
    path = entry_path(bank)
    header, _, body = path.read_bytes().partition(b"\n")
    data = json.loads(body)
    quiz = bank / "content" / f"{QUIZ}.json"
    new_key = cache.inputs_key(Path("content") / f"{QUIZ}.json", cache.file_digest(quiz.read_bytes()), [],
                               (["qti", "canvas", "moodle", "gift"], False, False, None, 5 * 1048576))
    yield "the key set to the changed quiz's key", header + b"\n" + body.replace(data["key"].encode(), new_key.encode())
    resealed_other = json.loads(entry_path(bank, OTHER).read_bytes().partition(b"\n")[2])
    resealed_other["source"] = data["source"]
    yield "another quiz's entry renamed onto this one, not resealed", header + b"\n" + json.dumps(resealed_other).encode()
    yield "the seal dropped", body
    yield "cut short", path.read_bytes()[:200]
    yield "not JSON", b"lmsexport-cache 1 0\n{"
    yield "binary garbage", bytes(range(256))


def test_a_cache_edited_by_hand_cannot_hide_a_changed_quiz(bank):
    assert invoke("build").exit_code == 0
    edit(bank / "content" / f"{QUIZ}.json", "Megatron-LM", "Megatron-LM 2")
    original = entry_path(bank).read_bytes()
    for label, data in list(_hand_edits(bank)):
        entry_path(bank).write_bytes(data)
        result = invoke("build", "--check")
        assert result.exit_code == 1, label
        assert stale_lines(result) == all_stale(), label
    entry_path(bank).write_bytes(original)
    assert invoke("build").exit_code == 0
    assert invoke("build", "--check").exit_code == 0


def test_an_export_edited_together_with_its_entry_is_still_noticed(bank):
    """Editing an export and writing its new digest into the entry (without the seal, which
    only the tool writes) is noticed."""
    assert invoke("build").exit_code == 0
    gift = bank / "exports" / "gift" / f"{QUIZ}.gift.txt"
    old_digest = cache.file_digest(gift.read_bytes())
    gift.write_bytes(gift.read_bytes().replace(b"Megatron", b"Megatron (edited)"))
    entry = entry_path(bank)
    entry.write_bytes(entry.read_bytes().replace(old_digest.encode(), cache.file_digest(gift.read_bytes()).encode()))
    result = invoke("build", "--check")
    assert result.exit_code == 1 and stale_lines(result) == [f"stale: {Path('exports/gift', QUIZ + '.gift.txt')}"]


def test_an_entry_listing_another_quizs_file_does_not_stand_for_this_quiz(bank):
    """A sound entry (sealed as the tool seals it) that names another quiz's export, on disk
    with its recorded digest, in place of this quiz's own: this quiz's file is still missing."""
    assert invoke("build").exit_code == 0
    (bank / "exports" / "gift" / f"{QUIZ}.gift.txt").unlink()
    body = json.loads(entry_path(bank).read_bytes().partition(b"\n")[2])
    other = json.loads(entry_path(bank, OTHER).read_bytes().partition(b"\n")[2])
    body["files"]["gift"] = other["files"]["gift"]
    assert body["files"]["gift"][0] == f"{OTHER}.gift.txt"
    resealed = json.dumps(body).encode()
    entry_path(bank).write_bytes(cache.HEADER + cache._seal(resealed) + b"\n" + resealed)
    result = invoke("build", "--check")
    assert result.exit_code == 1
    assert stale_lines(result) == [f"missing: {Path('exports/gift', QUIZ + '.gift.txt')}"]
    assert invoke("build").exit_code == 0
    assert (bank / "exports" / "gift" / f"{QUIZ}.gift.txt").is_file()
    assert invoke("build", "--check").exit_code == 0


def test_quiz_ids_are_still_compared_across_cached_quizzes(bank):
    assert invoke("build").exit_code == 0
    edit(bank / "content" / f"{QUIZ}.json", f'"id": "{QUIZ}"', f'"id": "{OTHER}"')
    result = invoke("build")
    assert result.exit_code == 1
    assert f"the quiz id '{OTHER}' is already used by" in result.stderr


def test_an_entry_is_not_written_when_the_quiz_changes_during_its_build(bank, monkeypatch):
    assert invoke("build").exit_code == 0
    quiz = bank / "content" / f"{QUIZ}.json"
    real = pipeline.process_quiz

    def edited_meanwhile(path, *args, **kwargs):
        outcome = real(path, *args, **kwargs)
        if Path(path).name == quiz.name and "Megatron-LM 2" not in quiz.read_text(encoding="utf-8"):
            edit(quiz, "Megatron-LM", "Megatron-LM 2")  # saved by the editor while this quiz was rendered
        return outcome

    edit(quiz, "Megatron-LM", "Megatron-LM 1")
    monkeypatch.setattr(pipeline, "process_quiz", edited_meanwhile)
    assert invoke("build").exit_code == 0
    monkeypatch.setattr(pipeline, "process_quiz", real)
    result = invoke("build", "--check")
    assert result.exit_code == 1 and stale_lines(result) == all_stale()


def test_an_entry_is_not_written_when_the_quiz_changed_and_changed_back_during_its_build(bank, monkeypatch):
    """The quiz is read as it was, then edited before its build loads it, then put back before
    its entry is written: the exports are of the edited quiz, so no entry may say that they are
    the ones of the quiz as it is now."""
    assert invoke("build").exit_code == 0
    quiz = bank / "content" / f"{QUIZ}.json"
    edit(quiz, "Megatron-LM", "Megatron-LM 1")  # changed since: this build must build it again
    original = quiz.read_bytes()
    real = pipeline.process_quiz

    def edited_and_put_back(path, *args, **kwargs):
        if Path(path).name != quiz.name:
            return real(path, *args, **kwargs)
        edit(quiz, "Megatron-LM 1", "Megatron-LM 3")
        outcome = real(path, *args, **kwargs)
        quiz.write_bytes(original)
        return outcome

    monkeypatch.setattr(pipeline, "process_quiz", edited_and_put_back)
    assert invoke("build").exit_code == 0
    monkeypatch.setattr(pipeline, "process_quiz", real)
    result = invoke("build", "--check")
    assert result.exit_code == 1 and stale_lines(result) == all_stale()


def test_entries_of_quizzes_that_are_gone_are_removed(bank):
    assert invoke("build").exit_code == 0
    assert entry_path(bank, OTHER).is_file()
    (bank / "content" / f"{OTHER}.json").unlink()
    assert invoke("build", "--prune").exit_code == 0
    assert not entry_path(bank, OTHER).exists()
    assert not list((bank / "exports").rglob(f"{OTHER}*"))


def test_the_cache_is_the_same_whoever_builds(bank):
    """Committed beside the exports, it must not differ between two machines or runs."""
    assert invoke("build", "-o", "one").exit_code == 0
    assert invoke("build", "-o", "two", "--jobs", "2").exit_code == 0
    entries = lambda root: {p.name: p.read_bytes() for p in (root / ".lmsexport").iterdir()}  # noqa: E731
    assert entries(bank / "one") == entries(bank / "two") and len(entries(bank / "one")) == 5


# --- --check compares zips by what a platform reads ---------------------------------------


def _rezip(data: bytes, change=None, level: int = 6, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """The same entries written again, at another compression level, optionally changed."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            content = source.read(info)
            copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            copy.external_attr, copy.create_system, copy.compress_type = info.external_attr, info.create_system, method
            if change:
                copy, content = change(copy, content)
            target.writestr(copy, content, compresslevel=level if method == zipfile.ZIP_DEFLATED else None)
    return out.getvalue()


@pytest.fixture
def package(bank):
    assert invoke("build").exit_code == 0
    return bank / "exports" / "qti" / "media-and-math.zip"


@pytest.mark.parametrize("level", [1, 9])
def test_a_package_recompressed_at_another_level_is_not_stale(package, level):
    recompressed = _rezip(package.read_bytes(), level=level)
    assert recompressed != package.read_bytes()
    package.write_bytes(recompressed)
    result = invoke("build", "--check")
    assert result.exit_code == 0, result.stdout
    # and `build` leaves it as it is: another zlib's bytes are not a change worth a commit
    assert invoke("build").exit_code == 0 and package.read_bytes() == recompressed
    assert invoke("build", "--check").exit_code == 0


def _one_change(kind: str):
    def change(info: zipfile.ZipInfo, content: bytes):
        if kind == "manifest" and info.filename == "imsmanifest.xml":
            content = content.replace(b"<resources>", b"<resources >")
        elif kind == "item" and info.filename.endswith(".xml") and info.filename != "imsmanifest.xml" and b"assessmentItem " in content:
            content = content.replace(b"</assessmentItem>", b"</assessmentItem>\n", 1)
        elif kind == "media" and info.filename.endswith("ring.png"):
            content = content[:-1] + bytes([content[-1] ^ 1])
        elif kind == "timestamp" and info.filename == "imsmanifest.xml":
            info.date_time = (2020, 1, 1, 0, 0, 0)
        elif kind == "permissions" and info.filename == "imsmanifest.xml":
            info.external_attr = 0o755 << 16
        elif kind == "renamed" and info.filename == "imsmanifest.xml":
            info.filename = "IMSmanifest.xml"
        return info, content
    return change


@pytest.mark.parametrize("kind", ["manifest", "item", "media", "timestamp", "permissions", "renamed"])
def test_each_tampered_entry_or_metadata_of_a_package_is_stale(package, kind):
    tampered = _rezip(package.read_bytes(), _one_change(kind))
    assert tampered != _rezip(package.read_bytes())  # the change took
    package.write_bytes(tampered)
    result = invoke("build", "--check")
    assert result.exit_code == 1
    assert stale_lines(result) == [f"stale: {Path('exports/qti/media-and-math.zip')}"]


def test_package_entries_in_another_order_or_with_one_more_are_stale(package):
    data = package.read_bytes()
    source = zipfile.ZipFile(io.BytesIO(data))
    reordered = io.BytesIO()
    with zipfile.ZipFile(reordered, "w", zipfile.ZIP_DEFLATED) as target:
        for info in reversed(source.infolist()):
            target.writestr(info, source.read(info))
    assert not same_export(data, reordered.getvalue())
    longer = io.BytesIO(data)
    with zipfile.ZipFile(longer, "a") as target:
        target.writestr(zipfile.ZipInfo("extra.txt", date_time=(1980, 1, 1, 0, 0, 0)), b"")
    assert not same_export(data, longer.getvalue())
    assert not same_export(data, data[:-10]) and not same_export(data, b"PK\x03\x04 not a zip")
    assert same_export(data, _rezip(data, method=zipfile.ZIP_STORED))  # stored or deflated: the same entries


def test_diagnostics_read_back_whole():
    """Every field of a diagnostic survives the cache, by the fast reading and the general one."""
    from lmsexport.diagnostics import Diagnostic, Severity

    found = (Diagnostic(Severity.WARNING, "GIFT cannot carry it", "q.json", "/questions/0", 3, 7, "gift-x", ("gift", "moodle"), True),
             Diagnostic(Severity.NOTE, "a draft", "q.json", "/questions/1", None, None, "draft"))
    entry = cache.Entry("../q.json", "k", "q", 2, 1, (), found, {"gift": ("q.gift.txt", "d")})
    data = cache.decode(cache.encode(entry))
    assert cache.Entry.from_json(data, "q.json") == entry
    # the fast reading of today's fields and the general one agree
    assert cache._diagnostics(data["diagnostics"], "q.json") == tuple(cache._diagnostic(v, "q.json") for v in data["diagnostics"]) == found


_TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(["", '"', "\\", "\u2028", "é\U0001f600", "\x00\x1f\x7f"])
_LINE = st.none() | st.integers(min_value=0, max_value=2**70)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(Severity)), _TEXT, _TEXT, _LINE, _LINE, _TEXT, st.lists(_TEXT, max_size=3).map(tuple), st.booleans())
def test_a_diagnostic_row_written_by_hand_is_the_encoders(severity, message, pointer, line, column, code, formats, loss):
    """Cache entries write each diagnostic's row field by field (cache._diagnostic_line); it is
    what the JSON encoder writes for the row, whatever the strings hold."""
    d = Diagnostic(severity, message, "q.json", pointer, line, column, code, formats, loss)
    assert cache._diagnostic_line(d) == cache._dumps(cache._diagnostic_json(d))
    assert json.loads(cache._diagnostic_line(d)) == json.loads(json.dumps(cache._diagnostic_json(d)))


def test_a_diagnostic_of_unexpected_types_is_written_by_the_encoder():
    odd = Diagnostic(Severity.ERROR, "m", "q.json", "/x", True, 2.5, "c", ("qti",), 1)  # type: ignore[arg-type]
    assert cache._diagnostic_line(odd) == cache._dumps(cache._diagnostic_json(odd)) == '["error", "m", "/x", true, 2.5, "c", ["qti"], 1]'


def test_an_entry_is_written_one_field_and_one_diagnostic_a_line():
    found = (Diagnostic(Severity.WARNING, "a \"quoted\" loss", "q.json", "/questions/0", 3, 7, "gift-x", ("gift", "moodle"), True),
             Diagnostic(Severity.NOTE, "a draft", "q.json", "/questions/1", None, None, "draft"))
    entry = cache.Entry("../q.json", "k", "q", 2, 1, ("a.png",), found, {"gift": ("q.gift.txt", "d"), "qti": None})
    body = cache.encode(entry).partition(b"\n")[2].decode()
    assert body == ('{\n "diagnostics": [\n'
                    '  ["warning", "a \\"quoted\\" loss", "/questions/0", 3, 7, "gift-x", ["gift", "moodle"], true],\n'
                    '  ["note", "a draft", "/questions/1", null, null, "draft", [], false]\n ],\n'
                    ' "drafts": 1,\n "files": {"gift": ["q.gift.txt", "d"], "qti": null},\n "key": "k",\n'
                    ' "media": ["a.png"],\n "questions": 2,\n "quiz_id": "q",\n "source": "../q.json"\n}\n')
    empty = cache.encode(cache.Entry("../q.json", "k", "q", 0, 0, (), (), {})).partition(b"\n")[2].decode()
    assert ' "diagnostics": [],\n' in empty


def test_an_incremental_build_in_several_processes_writes_what_a_full_one_does(bank):
    assert invoke("build").exit_code == 0
    edit(bank / "content" / f"{QUIZ}.json", "Megatron-LM", "Megatron-LM 2")
    edit(bank / "content" / f"{OTHER}.json", '"id": "', '"id": "renamed-')
    result = invoke("build", "--jobs", "2", "--prune")
    assert result.exit_code == 0, result.output
    assert invoke("build", "-o", "fresh", "--no-cache").exit_code == 0
    assert exports(bank / "exports") == exports(bank / "fresh")
    assert invoke("build", "--check").exit_code == 0


def test_a_folder_where_a_cached_export_was_is_an_error_not_up_to_date(bank):
    assert invoke("build").exit_code == 0
    export = bank / "exports" / "moodle" / f"{QUIZ}.xml"
    export.unlink()
    export.mkdir()
    result = invoke("build")
    assert result.exit_code == 1
    assert f"cannot use {Path('exports/moodle', QUIZ + '.xml')}" in result.stderr


def test_hidden_files_in_a_format_folder_are_never_the_tools(bank):
    assert invoke("build").exit_code == 0
    hidden = bank / "exports" / "qti" / ".draft.zip"  # named as qti names its files, but hidden
    hidden.write_bytes(b"mine")
    assert invoke("build", "--check").exit_code == 0
    assert invoke("build", "--prune").exit_code == 0
    assert hidden.read_bytes() == b"mine"


def test_extra_files_are_found_in_every_format_folder_while_one_is_missing(bank):
    assert invoke("build").exit_code == 0
    shutil.rmtree(bank / "exports" / "qti")
    (bank / "exports" / "gift" / "orphan.gift.txt").write_text("::orphan:: x {}\n", encoding="utf-8")
    result = invoke("build", "--check")
    assert result.exit_code == 1
    assert f"extra: {Path('exports/gift/orphan.gift.txt')} (no quiz produces it; remove it or run with --prune)" in result.stdout
    assert f"missing: {Path('exports/qti', QUIZ + '.zip')}" in result.stdout


# --- stamps: an unchanged export is not read again, a changed one always is ----------------


def _settle() -> None:
    """Past the margin a stamp needs on a file system with sub-second times (and on one with
    whole seconds)."""
    import time

    time.sleep(2.1)


@pytest.fixture
def reads(monkeypatch):
    """The export files the stamps read and hash, by name."""
    seen: list[str] = []
    real = cache.read_if_exists

    def counting(path):
        seen.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(cache, "read_if_exists", counting)
    return seen


def test_unchanged_exports_are_not_read_again_once_stamped(bank, reads):
    assert invoke("build").exit_code == 0
    _settle()
    assert invoke("build").exit_code == 0 and len(reads) == 20  # hashed once, stamped
    assert (bank / "exports" / ".lmsexport" / ".gitignore").read_bytes().endswith(b"\n/stamps\n")
    reads.clear()
    assert invoke("build", "--check").exit_code == 0 and reads == []


def test_an_export_edited_to_the_same_size_and_time_is_noticed(bank, reads):
    """A write changes the file's change time, which no user tool can set back."""
    import os

    assert invoke("build").exit_code == 0
    _settle()
    assert invoke("build").exit_code == 0
    gift = bank / "exports" / "gift" / f"{QUIZ}.gift.txt"
    status = gift.stat()
    data = gift.read_bytes()
    gift.write_bytes(data.replace(b"Megatron", b"Negatron"))
    os.utime(gift, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert gift.stat().st_size == status.st_size and gift.stat().st_mtime_ns == status.st_mtime_ns
    reads.clear()
    result = invoke("build", "--check")
    assert result.exit_code == 1 and stale_lines(result) == [f"stale: {Path('exports/gift', QUIZ + '.gift.txt')}"]
    assert reads == [gift.name]


def test_stamps_edited_by_hand_cannot_hide_an_edited_export(bank):
    import os

    assert invoke("build").exit_code == 0
    _settle()
    assert invoke("build").exit_code == 0
    gift = bank / "exports" / "gift" / f"{QUIZ}.gift.txt"
    stamps = bank / "exports" / ".lmsexport" / cache.STAMPS
    gift.write_bytes(gift.read_bytes().replace(b"Megatron", b"Negatron"))
    header, _, body = stamps.read_bytes().partition(b"\n")
    known = json.loads(body)
    name = f"../gift/{QUIZ}.gift.txt"
    status = gift.stat()
    known[name][:4] = [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino]  # the new status, the old digest
    for edited in (header + b"\n" + json.dumps(known).encode(), b"garbage", body):
        stamps.write_bytes(edited)
        result = invoke("build", "--check")
        assert result.exit_code == 1 and stale_lines(result) == [f"stale: {Path('exports/gift', QUIZ + '.gift.txt')}"]
    os.utime(gift)


def _stamped(tmp_path: Path, hashed_after_change_ns: int) -> tuple[Path, cache.Stamps]:
    """A file and stamps that claim a wrong digest for it, hashed this long after its last change."""
    target = tmp_path / "export.xml"
    target.write_bytes(b"<quiz/>")
    status = target.stat()
    body = json.dumps({"export.xml": [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino,
                                      max(status.st_mtime_ns, status.st_ctime_ns) + hashed_after_change_ns, "claimed"]}).encode()
    (tmp_path / cache.STAMPS).write_bytes(cache.STAMPS_HEADER + cache._seal(body) + b"\n" + body)
    return target, cache.Stamps(tmp_path)


def test_a_stamp_taken_too_soon_after_a_change_is_not_trusted(tmp_path):
    """Within the file system's time granularity a later write could leave the status as it
    was: such a stamp is hashed again."""
    target, stamps = _stamped(tmp_path, 10_000_000)
    assert stamps.digest(target) == cache.file_digest(b"<quiz/>")
    target, stamps = _stamped(tmp_path, 3_000_000_000)
    assert stamps.digest(target) == "claimed"  # (the trust the check above withholds)
    assert cache._settled_margin(5_000_000_000, 7_000_000_000) == 2_000_000_000  # whole seconds: a coarse file system
    assert cache._settled_margin(5_000_000_001, 7_000_000_000) < 1_000_000_000


def test_replayed_diagnostics_are_reported_as_the_diagnostics_themselves():
    """The build cache's rows give the report a full build gives, at every level."""
    from lmsexport.diagnostics import Diagnostic, Severity
    from lmsexport.report import Reporter

    def quiz(file: str) -> tuple[Diagnostic, ...]:
        return (Diagnostic(Severity.NOTE, "a draft", file, "/questions/0", 2, 3, "draft"),
                Diagnostic(Severity.WARNING, "GIFT has no penalty", file, "/questions/1", 4, 5, "gift-penalty", ("gift",), True),
                Diagnostic(Severity.WARNING, "GIFT has no penalty", file, "/questions/2", 6, 5, "gift-penalty", ("gift",), True),
                Diagnostic(Severity.WARNING, "Canvas drops it", file, "/questions/2", 6, 7, "canvas-x", ("canvas",), True),
                Diagnostic(Severity.ERROR, "not an id", file, "/id", 1, 8, "schema"))

    for level in ("default", "quiet", "verbose"):
        outputs = []
        for replayed in (False, True):
            stream = io.StringIO()
            reporter = Reporter(stream, "text", level)
            for file in ("a.json", "b.json"):
                found = quiz(file)
                if replayed:
                    entry = cache.Entry("x", "k", "q", 3, 1, (), found, {})
                    found = cache.Entry.from_json(cache.decode(cache.encode(entry)), file).diagnostics
                    assert not isinstance(found, tuple)
                reporter.report(found)
            outputs.append((stream.getvalue(), reporter.totals, reporter.kinds, reporter.kinds_line()))
        assert outputs[0] == outputs[1], level
        assert "GIFT has no penalty" in outputs[0][0] or level == "quiet"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name the file a descriptor is open on")
def test_exports_reach_the_disk_before_their_rename_and_cache_entries_need_not(bank, monkeypatch):
    """Each export is flushed to the disk before it takes its name (a power cut cannot leave an
    empty export); the sealed cache entries and stamps are not, since a torn one fails its seal."""
    import os

    from lmsexport import output

    flushed: list[str] = []
    real = output.os.fsync

    def recording(descriptor):
        flushed.append(os.readlink(f"/proc/self/fd/{descriptor}"))
        real(descriptor)

    monkeypatch.setattr(output.os, "fsync", recording)
    assert invoke("build").exit_code == 0
    written = sorted(p for p in (bank / "exports").rglob("*") if p.is_file() and ".lmsexport" not in p.parts)
    assert written and (bank / "exports" / cache.FOLDER).is_dir()
    # each flushed file is the temporary that became one export: ".<export name>.<random>.tmp" beside it
    names = sorted((Path(f).parent.name, Path(f).name.split(".tmp")[0].rsplit(".", 1)[0][1:]) for f in flushed)
    assert names == sorted((p.parent.name, p.name) for p in written)

"""Faults while writing: a failed or killed run leaves every earlier export intact."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CONTENT
from lmsexport import output
from lmsexport.cli import app

try:
    import resource  # POSIX only
except ImportError:  # pragma: no cover
    resource = None

runner = CliRunner()


@pytest.fixture
def built(tmp_path, monkeypatch):
    shutil.copytree(CONTENT, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["build"]).exit_code == 0
    quiz = tmp_path / "content" / "model-pipeline-parallelism.json"
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("Megatron-LM", "Megatron-Core"), encoding="utf-8")
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("where, code", [("replace", errno.ENOSPC), ("fsync", errno.ENOSPC), ("mkstemp", errno.EACCES), ("mkstemp", errno.EROFS)])
def test_failed_write_keeps_the_previous_export(built, monkeypatch, where, code):
    before = snapshot(built / "exports")

    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    target = {"replace": (output.os, "replace"), "fsync": (output.os, "fsync"), "mkstemp": (output.tempfile, "mkstemp")}[where]
    monkeypatch.setattr(*target, fail)
    result = runner.invoke(app, ["build"])
    assert result.exit_code == 1
    assert f"cannot write {Path('exports/qti/model-pipeline-parallelism.zip')}: {os.strerror(code)}; the previous file is untouched" in result.stderr
    assert "Traceback" not in result.output
    assert snapshot(built / "exports") == before  # old bytes everywhere, and no temporary file left


def _bank_of_copies(built: Path, copies: int) -> None:
    source = json.loads((built / "content" / "model-pipeline-parallelism.json").read_text(encoding="utf-8"))
    for i in range(copies):
        source["id"] = f"copy-{i:03d}"
        (built / "content" / f"copy-{i:03d}.json").write_text(json.dumps(source, ensure_ascii=False), encoding="utf-8")


def _whole_and_old_or_new(built: Path, before: dict[str, bytes], after: dict[str, bytes]) -> None:
    """Every export on disk is whole: an earlier one untouched or wholly replaced by its new
    version, a new one exactly what a complete run writes."""
    for name, current in snapshot_visible(built / "exports").items():
        assert current in (before.get(name), after[name]), f"{name} is neither the old export nor the new one"
    assert set(snapshot_visible_of(before)) <= set(snapshot_visible(built / "exports")), "an earlier export disappeared"


def _complete_run(built: Path, tmp_path_factory) -> dict[str, bytes]:
    """What an uninterrupted build of the same content writes (into a folder of its own)."""
    out = tmp_path_factory.mktemp("complete")
    assert subprocess.run([sys.executable, "-m", "lmsexport", "build", "--quiet", "-o", str(out)], cwd=built).returncode == 0
    return snapshot(out)


def test_killed_run_leaves_only_whole_files(built, tmp_path_factory):
    # A bank large enough that the build is still running when it is killed.
    _bank_of_copies(built, 300)
    before = snapshot_visible(built / "exports")
    process = subprocess.Popen([sys.executable, "-m", "lmsexport", "build", "--quiet"], cwd=built)
    deadline = time.monotonic() + 60
    while not any((built / "exports" / "qti").glob("copy-*.zip")) and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    # The kill must have stopped a running build: a build that had already finished proves nothing.
    assert process.returncode == -signal.SIGKILL, f"the build ended by itself ({process.returncode}) before it was killed"
    written = {p.name for p in (built / "exports" / "qti").glob("copy-*.zip")}
    assert 0 < len(written) < 300, f"{len(written)} of 300 copies written: the kill did not land mid-build"
    after = _complete_run(built, tmp_path_factory)
    _whole_and_old_or_new(built, before, after)
    # The next run clears what the killed one left and completes.
    assert subprocess.run([sys.executable, "-m", "lmsexport", "build", "--quiet"], cwd=built).returncode == 0
    assert not list((built / "exports").rglob(".*.tmp"))
    assert snapshot_visible(built / "exports") == snapshot_visible_of(after)


def _limit_file_size(limit: int, killed: bool):
    def in_child():
        # The kernel refuses to let a file grow past `limit`: the write in progress stops there,
        # at the same byte on every run. With SIGXFSZ at its default the process dies on the
        # spot (a kill in the middle of a write); Python ignores it otherwise, and the write fails.
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL if killed else signal.SIG_IGN)
    return in_child


@pytest.mark.skipif(resource is None or not hasattr(signal, "SIGXFSZ"), reason="needs POSIX file size limits (RLIMIT_FSIZE)")
@pytest.mark.parametrize("killed", [True, False], ids=["killed mid-write", "write fails mid-way"])
def test_a_write_stopped_part_way_leaves_the_old_export_byte_identical(built, tmp_path_factory, killed):
    before = snapshot_visible(built / "exports")
    after = _complete_run(built, tmp_path_factory)
    changed = sorted(name for name in before if before[name] != after[name])
    assert changed, "the edit must change some exports"
    limit = min(len(after[name]) for name in changed) // 2  # every changed file is cut in its middle
    # Python itself sets SIGXFSZ to "ignore" at start-up: the default is restored once it runs.
    restore = "import signal; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); " if killed else ""
    process = subprocess.run(
        [sys.executable, "-c", restore + "from lmsexport.cli import main; main()", "build", "--quiet"],
        cwd=built, preexec_fn=_limit_file_size(limit, killed), capture_output=True, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    if killed:
        assert process.returncode == -signal.SIGXFSZ, (process.returncode, process.stderr)
        # What the kill left is the one partial temporary file, hidden beside the export it was
        # to replace and named after it (.NAME.RANDOM.tmp): the same folder, so that the rename
        # cannot cross file systems, and the name the next run clears.
        [partial] = [p for p in (built / "exports").rglob("*") if p.is_file() and ".lmsexport" not in p.relative_to(built).parts
                     and str(p.relative_to(built / "exports")) not in before]
        name = re.fullmatch(r"\.(.+)\.[a-z0-9_]+\.tmp", partial.name)
        assert name and str((partial.parent / name.group(1)).relative_to(built / "exports")) in after, partial
    else:
        assert process.returncode == 1, process.stderr
        assert "File too large; the previous file is untouched" in process.stderr
        assert "Traceback" not in process.stderr
    assert snapshot_visible(built / "exports") == before  # nothing changed was written whole
    assert subprocess.run([sys.executable, "-m", "lmsexport", "build", "--quiet"], cwd=built).returncode == 0
    assert snapshot_visible(built / "exports") == snapshot_visible_of(after)
    assert not list((built / "exports").rglob(".*.tmp"))  # no temporary file left either,
    # nor any other hidden file but the build cache's
    assert [p for p in (built / "exports").rglob(".*") if ".lmsexport" not in p.relative_to(built).parts] == []


def snapshot_visible_of(files: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in files.items() if not any(part.startswith(".") for part in Path(name).parts)}


def snapshot_visible(folder: Path) -> dict[str, bytes]:
    """The exports a user sees: not the build's hidden cache, nor the hidden temporary file a
    killed run may leave behind."""
    return {name: data for name, data in snapshot(folder).items() if not any(part.startswith(".") for part in Path(name).parts)}


@pytest.mark.parametrize("check", [False, True])
def test_a_folder_where_an_export_goes_is_an_error_not_a_crash(built, check):
    (built / "exports" / "gift" / "model-pipeline-parallelism.gift.txt").unlink()
    (built / "exports" / "gift" / "model-pipeline-parallelism.gift.txt").mkdir()
    result = runner.invoke(app, ["build", "--check"] if check else ["build"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert f"cannot use {Path('exports/gift/model-pipeline-parallelism.gift.txt')}: Is a directory" in result.stderr


def test_ctrl_c_during_a_parallel_build_stops_cleanly(built):
    _bank_of_copies(built, 300)
    # As a terminal does: SIGINT to the whole process group, workers included.
    process = subprocess.Popen([sys.executable, "-m", "lmsexport", "build", "--jobs", "2", "--quiet"], cwd=built,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not any((built / "exports" / "qti").glob("copy-*.zip")) and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail("the build did not stop after Ctrl-C")
    assert process.returncode == 130
    assert b"Traceback" not in stderr and b"ForkPoolWorker" not in stderr

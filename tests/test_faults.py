"""Faults while writing: a failed or killed run leaves every earlier export intact."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from conftest import CONTENT
from lmsexport import output
from lmsexport.cli import app

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


def test_killed_run_leaves_only_whole_files(built):
    # A bank large enough that the build is still running when it is killed.
    source = json.loads((built / "content" / "model-pipeline-parallelism.json").read_text(encoding="utf-8"))
    for i in range(300):
        source["id"] = f"copy-{i:03d}"
        (built / "content" / f"copy-{i:03d}.json").write_text(json.dumps(source, ensure_ascii=False), encoding="utf-8")
    before = snapshot(built / "exports")
    process = subprocess.Popen([sys.executable, "-m", "lmsexport", "build", "--quiet"], cwd=built)
    deadline = time.monotonic() + 60
    while not any((built / "exports" / "qti").glob("copy-*.zip")) and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    for path in (built / "exports").rglob("*"):
        if path.is_file() and not path.name.startswith("."):
            if path.suffix == ".zip":
                with zipfile.ZipFile(path) as archive:
                    assert archive.testzip() is None
            elif path.suffix == ".xml":
                etree.parse(str(path))
    for name, data in before.items():  # an earlier export is either untouched or wholly replaced
        current = (built / "exports" / name).read_bytes()
        assert current == data or name.endswith(("model-pipeline-parallelism.zip", "model-pipeline-parallelism.xml", "model-pipeline-parallelism.gift.txt"))
    # The next run clears what the killed one left and completes.
    assert subprocess.run([sys.executable, "-m", "lmsexport", "build", "--quiet"], cwd=built).returncode == 0
    assert not list((built / "exports").rglob(".*.tmp"))
    assert subprocess.run([sys.executable, "-m", "lmsexport", "build", "--check", "--quiet"], cwd=built).returncode == 0


@pytest.mark.parametrize("check", [False, True])
def test_a_folder_where_an_export_goes_is_an_error_not_a_crash(built, check):
    (built / "exports" / "gift" / "model-pipeline-parallelism.gift.txt").unlink()
    (built / "exports" / "gift" / "model-pipeline-parallelism.gift.txt").mkdir()
    result = runner.invoke(app, ["build", "--check"] if check else ["build"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    assert f"cannot use {Path('exports/gift/model-pipeline-parallelism.gift.txt')}: Is a directory" in result.stderr


def test_ctrl_c_during_a_parallel_build_stops_cleanly(built):
    source = json.loads((built / "content" / "model-pipeline-parallelism.json").read_text(encoding="utf-8"))
    for i in range(300):
        source["id"] = f"copy-{i:03d}"
        (built / "content" / f"copy-{i:03d}.json").write_text(json.dumps(source, ensure_ascii=False), encoding="utf-8")
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

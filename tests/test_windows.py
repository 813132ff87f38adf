"""What a Windows machine does to a team: a cp1252 console for redirected output, and clones with
core.autocrlf=true. Neither may break validate or build --check."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import repos
from conftest import ROOT
from lmsexport.report import utf8_output

NON_ASCII_QUIZ = {"id": "Ŋaanu-ñ", "title": "Wolof: ŋ, ë, ñ; Greek: αβγ; emoji 🎓", "language": "wo",
                  "questions": [{"id": "q1", "type": "true_false", "stem": "Dëgg la? ŋ", "answer": True, "tags": ["a,β"]}]}


def lmsexport(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lmsexport", *args], cwd=cwd, capture_output=True,
                          env={**os.environ, **(env or {})}, timeout=120)


@pytest.mark.parametrize("style", ["text", "json", "github"])
def test_a_cp1252_console_gets_utf8_not_a_traceback(tmp_path, style):
    (tmp_path / "quiz.json").write_text(json.dumps(NON_ASCII_QUIZ, ensure_ascii=False), encoding="utf-8")
    result = lmsexport("validate", "quiz.json", "--format", style, cwd=tmp_path, env={"PYTHONIOENCODING": "cp1252"})
    assert b"Traceback" not in result.stderr, result.stderr.decode("utf-8", "replace")
    assert result.returncode == 1
    output = result.stdout.decode("utf-8")  # strict: it is UTF-8
    assert "Ŋaanu-ñ" in output
    if style == "json":
        assert json.loads(output)["summary"]["errors"] >= 2


def test_build_and_stats_on_a_cp1252_console(tmp_path):
    quiz = {**NON_ASCII_QUIZ, "id": "wolof-quiz", "questions": [{**NON_ASCII_QUIZ["questions"][0], "tags": ["ŋ"]}]}
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "wolof-quiz.json").write_text(json.dumps(quiz, ensure_ascii=False), encoding="utf-8")
    for args in (["build"], ["stats", "--format", "json"], ["stats"]):
        result = lmsexport(*args, cwd=tmp_path, env={"PYTHONIOENCODING": "cp1252"})
        assert result.returncode == 0 and b"Traceback" not in result.stderr, (args, result.stderr)
        result.stdout.decode("utf-8")


def test_a_cp1252_stream_is_switched_to_utf8():
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="cp1252")
    utf8_output(stream)
    stream.write("ŋ 🎓 \ud800\n")  # a lone surrogate from a broken file is escaped, not a crash
    stream.flush()
    assert raw.getvalue() == "ŋ 🎓 \\ud800\n".encode("utf-8")


@pytest.fixture
def content_repository(tmp_path):
    return repos.content_repository(tmp_path / "origin")


def _check_in_crlf_clone(origin: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    repos.git("add", "-A", cwd=origin)
    repos.git("commit", "-qm", "quizzes", cwd=origin)
    clone = tmp_path / "clone"
    repos.git("clone", "-q", "-c", "core.autocrlf=true", str(origin), str(clone), cwd=tmp_path)
    return lmsexport("build", "--check", cwd=clone)


def test_without_gitattributes_a_crlf_clone_sees_stale_exports(content_repository, tmp_path):
    # The hazard is real: this is what the shipped .gitattributes prevents.
    result = _check_in_crlf_clone(content_repository, tmp_path)
    assert result.returncode == 1 and b"stale" in result.stdout + result.stderr
    # ... and the check says what happened and what to do.
    assert b"only its line endings differ" in result.stdout and b"exports/** -text" in result.stdout


def test_with_the_shipped_gitattributes_a_crlf_clone_passes_build_check(content_repository, tmp_path):
    shutil.copy(ROOT / ".gitattributes", content_repository / ".gitattributes")
    result = _check_in_crlf_clone(content_repository, tmp_path)
    assert result.returncode == 0, (result.stdout + result.stderr).decode()
    assert b"\r\n" in (tmp_path / "clone" / "content" / "model-pipeline-parallelism.json").read_bytes()  # the clone is CRLF


def test_new_writes_the_gitattributes_a_crlf_clone_needs(content_repository, tmp_path):
    result = lmsexport("new", "fresh-quiz", cwd=content_repository)
    assert result.returncode == 0 and b".gitattributes" in result.stdout
    assert lmsexport("build", "--quiet", cwd=content_repository).returncode == 0
    result = _check_in_crlf_clone(content_repository, tmp_path)
    assert result.returncode == 0, (result.stdout + result.stderr).decode()


def test_new_leaves_an_existing_gitattributes_alone_and_says_what_to_add(tmp_path):
    (tmp_path / ".gitattributes").write_text("*.png binary\n", encoding="utf-8")
    result = lmsexport("new", "fresh-quiz", cwd=tmp_path)
    assert result.returncode == 0
    assert (tmp_path / ".gitattributes").read_text(encoding="utf-8") == "*.png binary\n"
    assert b"exports/** -text" in result.stderr

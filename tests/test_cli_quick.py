"""The export command lines read without typer (cli_quick) reach the work exactly as typer's
reading of them does, and every other command line is left to typer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lmsexport.cli as cli
import lmsexport.commands.export as export
from cli_runs import runner

TOKENS = ["build", "qti", "canvas", "moodle", "gift", "validate", "content", "a b.json", "x/y.json", "", "-", "--",
          "-q", "--quiet", "-v", "--verbose", "--check", "--prune", "--no-cache", "--strict", "--no-strict",
          "--out", "-o", "out dir", "--jobs", "-j", "2", "0", "02", "x", "--help", "-h", "-qv", "--out=x",
          "--format", "qti,gift", "--nearest-grade", "--media-base-url", "https://example.org/", "--max-media-size", "1.5"]


@pytest.fixture
def calls(monkeypatch, tmp_path):
    """Every call of run_export, recorded instead of run, from a folder with a project file."""
    (tmp_path / "lmsexport.toml").write_text('content = ["content"]\nstrict = false\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    recorded: list[tuple] = []

    def recording(*args, **kwargs):
        recorded.append((args, kwargs))
        return 0

    monkeypatch.setattr(export, "run_export", recording)
    return recorded


def _both(argv: list[str], calls: list) -> tuple[list, list, int | None]:
    calls.clear()
    result = runner.invoke(cli.app, argv)
    by_typer = list(calls) if result.exit_code == 0 else None
    calls.clear()
    code = cli._run_quickly(argv)
    return by_typer, list(calls), code


@pytest.mark.parametrize("argv", [
    ["build"], ["build", "content", "--out", "out dir", "-q"], ["qti", "a b.json", "x/y.json", "-o", "o", "--jobs", "2", "-v"],
    ["canvas", "--check", "--no-cache", "--strict", "--prune"], ["moodle", "--no-strict", "-j", "02"], ["gift", "content"],
])
def test_a_plain_command_line_reaches_the_work_as_typer_reads_it(calls, argv):
    by_typer, quickly, code = _both(argv, calls)
    assert code == 0 and len(quickly) == 1
    assert quickly == by_typer


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["qti", "--help"], ["validate", "content"], ["qti", "--out=x"], ["qti", "-qv"], ["qti", "-q", "-q"],
    ["qti", "--out", "-"], ["qti", "-"], ["qti", "--jobs", "0"], ["qti", "--jobs", "x"], ["build", "--format", "qti"],
    ["moodle", "--nearest-grade"], ["qti", "--max-media-size", "1"], ["qti", "--out"], ["qti", "--", "content"],
])
def test_anything_else_is_left_to_typer(calls, argv):
    assert cli._run_quickly(argv) is None
    assert calls == []


def test_shell_completion_and_windows_wildcards_are_left_to_typer(calls, monkeypatch):
    assert cli._run_quickly(["qti", "content"]) == 0
    monkeypatch.setenv("_LMSEXPORT_COMPLETE", "bash_complete")
    assert cli._run_quickly(["qti", "content"]) is None
    monkeypatch.delenv("_LMSEXPORT_COMPLETE")
    monkeypatch.setattr(cli.os, "name", "nt")  # typer expands *.json there
    assert cli._run_quickly(["qti", "content"]) is None
    assert len(calls) == 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # `calls` is cleared per run
@given(argv=st.lists(st.sampled_from(TOKENS), max_size=7))
def test_any_command_line_is_read_as_typer_reads_it_or_left_to_typer(calls, argv):
    by_typer, quickly, code = _both(argv, calls)
    if code is None:
        assert quickly == []
    else:
        assert by_typer is not None, f"typer refuses {argv} but it was run"
        assert quickly == by_typer


def _main(cwd: Path, argv: list[str], quick: bool) -> subprocess.CompletedProcess:
    script = ("import sys\nimport lmsexport.cli as cli\n"
              + ("" if quick else "cli._run_quickly = lambda argv: None\n")
              + f"sys.argv = ['lmsexport', *{argv!r}]\ncli.main()\n")
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True)


@pytest.mark.parametrize("setting", ['media-base-url = "javascript:alert(1)"', 'formats = "qti,nothing"', 'strict = "what"'])
def test_a_parameter_the_project_file_makes_wrong_is_said_as_typer_says_it(tmp_path, setting):
    """Refused before any work, with typer's message and exit code."""
    (tmp_path / "lmsexport.toml").write_text(setting + "\n", encoding="utf-8")
    for argv in (["gift", "content"], ["build", "content"]):
        quick, by_typer = _main(tmp_path, argv, True), _main(tmp_path, argv, False)
        assert (quick.returncode, quick.stdout, quick.stderr) == (by_typer.returncode, by_typer.stdout, by_typer.stderr)
        assert quick.returncode != 0
    assert not (tmp_path / "exports").exists()


def test_an_export_by_the_quick_path_is_the_one_typer_writes(tmp_path):
    source = Path(__file__).parent.parent / "content"
    quick = subprocess.run([sys.executable, "-m", "lmsexport", "qti", str(source), "--out", str(tmp_path / "a"), "-q"],
                           capture_output=True, text=True)
    assert quick.returncode == 0, quick.stderr
    result = runner.invoke(cli.app, ["qti", str(source), "--out", str(tmp_path / "b"), "-q"])
    assert result.exit_code == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir() if p.is_file())
    assert names and names == sorted(p.name for p in (tmp_path / "b").iterdir() if p.is_file())
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()

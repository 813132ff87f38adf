"""`lmsexport --version` is answered before Typer is imported (launch.py), with what Typer's own
`--version` prints; every other command line is Typer's."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

LAUNCHED = "import sys; sys.argv[0] = 'lmsexport'; from lmsexport.launch import main; main()"
THROUGH_TYPER = "import sys; sys.argv[0] = 'lmsexport'; from lmsexport.cli import main; main()"


def _run(code: str, *arguments: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, **options)


@pytest.mark.parametrize("arguments", [["--version"], ["--version", "validate"], ["validate", "--version"], ["--version", "--version"]])
def test_the_version_is_what_typer_prints(arguments):
    launched, typer_own = _run(LAUNCHED, *arguments), _run(THROUGH_TYPER, *arguments)
    assert (launched.returncode, launched.stdout, launched.stderr) == (typer_own.returncode, typer_own.stdout, typer_own.stderr)


def test_the_version_alone_imports_no_command_line_module():
    code = ("import sys; sys.argv = ['lmsexport', '--version']; from lmsexport.launch import main\n"
            "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
            "sys.stderr.write(repr((code, sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click') or m == 'lmsexport.cli'))))")
    run = _run(code)
    assert run.stdout.startswith("lmsexport ") and run.stderr == "(0, [])"


def test_another_command_line_goes_to_typer():
    run = _run(LAUNCHED, "--no-such-option")
    assert run.returncode == 2 and "No such option" in run.stderr


@pytest.mark.skipif(os.name != "posix", reason="needs a pipe whose reader is gone (POSIX)")
@pytest.mark.parametrize("code", [LAUNCHED, THROUGH_TYPER], ids=["launched", "through typer"])
def test_a_reader_gone_before_the_version_is_written_ends_with_exit_code_1(code):
    read, write = os.pipe()
    os.close(read)
    try:
        run = subprocess.run([sys.executable, "-c", code, "--version"], stdout=write, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write)
    assert (run.returncode, run.stderr) == (1, "")

"""The command line run in the test process, as a user runs it."""

from __future__ import annotations

from typer.testing import CliRunner

from lmsexport.cli import app

runner = CliRunner()


def invoke(*args: str):
    """`lmsexport ARGS...`; a crash (any exception but the exit) fails the test with its repr."""
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result

"""Command-line values converted without Typer's pydantic adapters (cli_values.py) are what
Typer's own conversion gives, value, type and message, for every parameter of every command."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lmsexport import cli_values
from lmsexport.cli import ReportStyle, StatsStyle, app

if cli_values._TyperParameter is None:  # pragma: no cover - depends on the installed Typer
    pytest.skip("this Typer converts values through click types: cli_values.py does nothing", allow_module_level=True)

import typer.main  # noqa: E402
from typer._coercion import build_runtime_param  # noqa: E402


def _outcome(convert):
    try:
        value = convert()
    except Exception as problem:  # the message a user reads
        return ("refused", type(problem).__name__, str(getattr(problem, "message", problem)))
    if isinstance(value, float) and math.isnan(value):
        return ("value", float, "nan")
    if isinstance(value, (list, tuple)):
        return ("value", type(value), [(type(v), v) for v in value])
    return ("value", type(value), value)


def _parameters():
    group = typer.main.get_command(app)
    ctx = group.make_context("lmsexport", ["validate"], resilient_parsing=True)
    yield group, ctx, group
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield command, command.make_context(name, [], parent=ctx, resilient_parsing=True), group


def _values(tmp_path: Path) -> list:
    afile = tmp_path / "quiz.json"
    afile.write_text("{}", encoding="utf-8")
    missing, folder = str(tmp_path / "missing"), str(tmp_path)
    strings = ["", "x", "-", "content", "a b", "./x", "x/", str(afile) + "/", folder + "//", "a//b", " 5 ", "5", "1_0", "inf", "nan", "-1", "2", "2.5", "json", "JSON", "table",
               "qti,gift", "\udcff", "é", str(afile), missing, folder, "a\x00b"]
    return [None, True, False, 0, 1, 2, -1, 0.0, 5.0, -0.5, math.inf, math.nan, *strings, *ReportStyle, *StatsStyle,
            Path(folder), (), [], tuple(strings), (str(afile),), (folder, missing), [folder], ("",), ("\udcff",), (1,),
            (Path(folder),)]


def test_each_conversion_is_typers_own(tmp_path):
    compared = 0
    for command, ctx, _ in _parameters():
        for param in command.get_params(ctx):
            if not isinstance(param, cli_values._TyperParameter):
                continue
            for value in _values(tmp_path):
                typer_own = build_runtime_param(param.type_descriptor)
                expected = _outcome(lambda: typer_own.coerce(value, param=param, ctx=ctx))
                param._runtime_param = None
                found = _outcome(lambda: cli_values._UNTIL_NEEDED.coerce(value, param, ctx))
                assert found == expected, (command.name, param.name, value)
                compared += 1
    assert compared > 1000


def test_every_parameter_of_every_command_gets_the_conversion():
    for command, ctx, _ in _parameters():
        params = [p for p in command.get_params(ctx) if isinstance(p, cli_values._TyperParameter)]
        assert params and all(p._runtime_param is not None for p in params), command.name


def test_validate_and_build_never_import_pydantic(tmp_path):
    """The usual runs convert nothing that needs Typer's adapters; a value that does still gets them."""
    example = Path(__file__).parent.parent / "examples" / "true_false.json"
    code = ("import sys; from lmsexport.cli import main\n"
            "try:\n    main()\nexcept SystemExit as done:\n    sys.stderr.write('exit %s ' % done.code)\n"
            "sys.stderr.write(str('pydantic' in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k != "LMSEXPORT_CONFIG"}

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=tmp_path, env=env)
        return done.stderr.strip().splitlines()[-1]

    assert run("validate", str(example)) == "exit 0 False"
    assert run("build", str(example), "--out", str(tmp_path / "out"), "--format", "qti") == "exit 0 False"
    assert run("validate", str(example), "--output-format", "json") == "exit 0 True"  # a choice typed: Typer converts it
    assert run("validate", str(example), "--max-media-size", "x").startswith("exit 2")

"""The command line holds the cycle collector off while a command's modules are imported
(startup.py); every command gives it back before its work, and the API never loses it."""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
from pathlib import Path

import lmsexport
from lmsexport import startup

COMMANDS = Path(lmsexport.__file__).parent / "commands"


def test_every_command_releases_the_collector_first():
    found = {}
    for path in sorted(COMMANDS.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("run_"):
                body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
                first = body[0]
                found[node.name] = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Call)
                                    and getattr(first.value.func, "id", "") == "release_collector")
    assert len(found) >= 7
    assert {name for name, releases in found.items() if not releases} == set()


def test_release_gives_the_collector_back_only_when_the_command_line_held_it():
    assert gc.isenabled()
    startup.release_collector()  # not held (the API, the tests): nothing changes, nothing frozen
    assert gc.isenabled() and not startup._held
    frozen = gc.get_freeze_count()
    try:
        startup.hold_collector()
        assert not gc.isenabled()
        startup.release_collector("lmsexport.writers.moodle.gift")
        assert gc.isenabled() and "lmsexport.writers.moodle.gift" in sys.modules
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.enable()


def test_the_command_line_works_with_the_collector_on():
    """A command run by `lmsexport` (cli.main) does its work with the collector enabled."""
    code = ("import gc, sys; import lmsexport.pipeline as p; seen = [];"
            "original = p.process_quiz\n"
            "def spy(*a, **k):\n    seen.append(gc.isenabled()); return original(*a, **k)\n"
            "p.process_quiz = spy; import lmsexport.commands.validate as v; v.process_files.__globals__['process_quiz'] = spy\n"
            "sys.argv = ['lmsexport', 'validate', sys.argv[1]]\n"
            "from lmsexport.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(repr(seen))")
    example = Path(__file__).parent.parent / "examples" / "true_false.json"
    done = subprocess.run([sys.executable, "-c", code, str(example)], capture_output=True, text=True)
    assert done.stderr.strip().endswith("[True]"), done.stderr

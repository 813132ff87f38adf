#!/usr/bin/env python3
"""Install lmsexport with the lowest versions pyproject.toml allows, in a throw-away venv, and use it.

Every `name>=X` floor of the runtime and test dependencies becomes `name==X` in a constraints file,
so pip must install exactly the floors (transitive dependencies resolve as usual). The CLI is then
driven as a user would (help, version, validate on a good and a broken quiz, build, build --check)
and the CLI tests run against that install. A floor that does not work fails here.

    python3 tools/lowest_deps.py [--pin NAME==VERSION ...]   # --pin overrides one floor, to probe others
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_FLOOR = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*>=\s*([^,;\s]+)")


def floors() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    result = {}
    for requirement in project["dependencies"] + project["optional-dependencies"]["test"]:
        match = _FLOOR.match(requirement)
        if not match:
            raise SystemExit(f"no '>=' floor in the dependency {requirement!r}: every dependency needs one")
        result[match.group(1).lower()] = match.group(3)
    return result


CLI_TESTS = ["tests/test_windows.py", "tests/test_report_format.py", "tests/test_api.py", "tests/test_install.py", "tests/test_editor_schema.py",
             "tests/test_schema_authority.py", "tests/test_svg_sanitiser.py"]
BROKEN_QUIZ = {"id": "Broken Id", "title": "t", "questions": []}


def smoke(bin_dir: Path, work: Path) -> list[str]:
    """Failures of the installed CLI, as messages (none when it works)."""
    exe = str(bin_dir / "lmsexport")
    failures = []

    def run(args, want_code, want_text="", cwd=work):
        result = subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, env={**os.environ, "COLUMNS": "120"})
        output = result.stdout + result.stderr
        if result.returncode != want_code or want_text not in output:
            failures.append(f"lmsexport {' '.join(args)}: exit {result.returncode} (wanted {want_code}), "
                            f"expected {want_text!r} in:\n{output[-2000:]}")
        return output

    shutil.copytree(ROOT / "content", work / "content")
    (work / "broken.json").write_text(json.dumps(BROKEN_QUIZ), encoding="utf-8")
    run(["--version"], 0, "lmsexport ")
    for command in ("", "validate", "build", "qti", "new"):
        output = run([command, "--help"] if command else ["--help"], 0, "Usage:")
        if "<bool>" in output or "list[Path]" in output:
            failures.append(f"lmsexport {command} --help shows a type placeholder:\n{output}")
    run(["validate", "broken.json"], 1, "not a valid quiz id")
    run(["validate", "content"], 0, "0 errors")
    run(["build"], 0, "0 errors")
    run(["gift", "content/model-pipeline-parallelism.json", "-o", "-"], 0, "// quiz: model-pipeline-parallelism")
    run(["build", "--check"], 0)
    # The progress bar (rich) only shows on a terminal with many quizzes: drive it directly.
    progress = subprocess.run([str(bin_dir / "python"), "-c", (
        "import io; from rich.console import Console; from rich.progress import Progress\n"
        "with Progress(transient=True, console=Console(file=io.StringIO(), force_terminal=True)) as p:\n"
        "    t = p.add_task('exporting', total=2); p.advance(t); p.advance(t)")], capture_output=True, text=True)
    if progress.returncode:
        failures.append(f"the progress bar fails with this rich:\n{progress.stderr[-2000:]}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pin", action="append", default=[], help="NAME==VERSION instead of the floor")
    parser.add_argument("--no-tests", action="store_true", help="only the CLI smoke checks, not the CLI tests")
    options = parser.parse_args()
    pins = floors()
    for pin in options.pin:
        name, _, version = pin.partition("==")
        pins[name.lower()] = version
    with tempfile.TemporaryDirectory(prefix="lmsexport-lowest-") as temp:
        temp_dir = Path(temp)
        constraints = temp_dir / "constraints.txt"
        constraints.write_text("".join(f"{name}=={version}\n" for name, version in sorted(pins.items())), encoding="utf-8")
        venv.create(temp_dir / "venv", with_pip=True)
        bin_dir = temp_dir / "venv" / ("Scripts" if os.name == "nt" else "bin")
        python = str(bin_dir / "python")
        # A copy of the tree, so that building the package leaves nothing in the repository.
        source = temp_dir / "source"
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", ".cache", "*.egg-info", "build", "dist", "__pycache__", "exports"))
        install = subprocess.run([python, "-m", "pip", "install", "--quiet", "-c", str(constraints), f"{source}[test]"],
                                 capture_output=True, text=True)
        if install.returncode:
            print(install.stdout + install.stderr)
            print(f"could not install the lowest versions: {pins}")
            return 1
        freeze = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True).stdout
        print("installed:", " ".join(line for line in freeze.split() if not line.startswith("lmsexport")))
        work = temp_dir / "work"
        work.mkdir()
        failures = smoke(bin_dir, work)
        if not options.no_tests and not failures:
            # The tests that drive the installed CLI and API in their own processes. (The in-process
            # CliRunner tests read stdout apart from stderr, which click before 8.2 mixes.)
            tests = subprocess.run([python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *CLI_TESTS],
                                   cwd=ROOT, capture_output=True, text=True,
                                   env={**{k: v for k, v in os.environ.items() if k != "LMSEXPORT_SLOW_CHECKS"}, "PYTHONPATH": ""})
            print(tests.stdout.strip().splitlines()[-1] if tests.stdout.strip() else tests.stderr[-2000:])
            if tests.returncode:
                failures.append("the CLI tests fail at the lowest versions:\n" + tests.stdout[-4000:])
    for failure in failures:
        print("FAIL", failure)
    print("lowest versions work" if not failures else f"{len(failures)} failure(s) at the lowest versions")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

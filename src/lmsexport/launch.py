"""The `lmsexport` program's entry point.

`lmsexport --version` alone is answered here, before the command line's modules are imported:
Typer (0.29, which carries its own click) takes about 0.1 s of CPU to import, more than the
whole answer needs, and version checks (editors, CI steps, package managers) run it often. Any
other command line, `--version` with other words included, goes to Typer (cli.main), whose
eager `--version` option prints the same line.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        from . import __version__

        try:
            sys.stdout.write(f"lmsexport {__version__}\n")
            sys.stdout.flush()
        except BrokenPipeError:  # a reader that went away, as Typer's own run treats it
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        raise SystemExit(0)
    from .cli import main as run_command_line

    run_command_line()

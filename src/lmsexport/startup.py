"""The command line's start-up: the cycle collector is held off while a command's modules are
imported, then those modules' objects are frozen out of its way.

Importing a command's modules (and typer's building of its parameters) makes tens of thousands
of objects the collector tracks, almost none of them garbage, and it would walk the young ones
again and again while they are made: holding it off takes about a quarter off the CPU time of
`validate` on one small quiz (0.32 -> 0.23 s, measured side by side). Frozen (`gc.freeze`),
those objects are skipped by the later collections between quizzes too. Only the command line
does this (cli.main): a program that uses the API keeps its collector as it set it.
"""

from __future__ import annotations

import gc
import importlib

_held = False


def hold_collector() -> None:
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release_collector(*modules: str) -> None:
    """Called by a command before its work, with the modules it will load on first use (its
    formats' writers or checks), imported first; and by cli.main at the end."""
    global _held
    if _held:
        for module in modules:
            importlib.import_module(module)
        _held = False
        gc.freeze()
        gc.enable()

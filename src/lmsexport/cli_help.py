"""Help output: what recent Typer adds beside each parameter, made readable."""

from __future__ import annotations

import re

import typer
import typer.core

from .cli_values import convert_until_needed


def _without_type_placeholders(params: list) -> list:
    """Recent Typer prints a Python type beside every parameter (`<bool>` after a flag,
    `<list[Path]>` after the paths): show nothing after a flag or a named argument, and a
    repeated value as `<str>...`; older Typer has no such column and ignores this."""
    for param in params:
        original = getattr(param, "display_type_rich", None)
        if original is None or getattr(param, "_plain_type", False):
            continue
        if getattr(param, "is_flag", False) or getattr(param, "count", False) or param.param_type_name == "argument" and param.metavar:
            param.display_type_rich = lambda ctx: None
        else:
            param.display_type_rich = lambda ctx, original=original: re.sub(r"<list\[(.*)\]>", r"<\1>...", original(ctx) or "") or None
        param._plain_type = True
    return params


def _prepared(params: list) -> list:
    # Every parameter passes here before it converts its value (cli_values.py).
    convert_until_needed(params)
    return _without_type_placeholders(params)


class PlainTypesGroup(typer.core.TyperGroup):
    """The command group whose help, and every command's, shows no Python type placeholders
    (and whose values are converted as cli_values.py says)."""

    def get_params(self, ctx):
        return _prepared(super().get_params(ctx))

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        if command is not None and not getattr(command, "_plain_types", False):
            original = command.get_params
            command.get_params = lambda ctx: _prepared(original(ctx))
            command._plain_types = True
        return command

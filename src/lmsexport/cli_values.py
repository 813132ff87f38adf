"""Command-line values converted without building Typer's pydantic adapters where they give
nothing but the value as it is.

Recent Typer converts every parameter that is not a plain flag through a pydantic TypeAdapter,
built on first use; importing pydantic and building those adapters is about 0.4 G instructions,
40 % of a small `validate` (measured by callgrind), for values that need no conversion: a
missing option (None), a flag's bool, a string, an enum default, a number default, a list of
paths. For those, the value here is what the adapter returns, and paths go through Typer's own
path rules (existence, readability and their messages); any other value (a number or a choice
typed on the command line, a string that is not valid Unicode) is handed to Typer's adapter,
built then. An older Typer without this machinery is left as it is.
`tests/test_cli_values.py` holds every conversion here to Typer's own.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

try:  # Typer 0.2x's coercion layer; older releases convert through click types and need nothing
    from typer._coercion import build_runtime_param
    from typer._param_types import coerce_cli_path
    from typer.core import _TyperParameter
except ImportError:  # pragma: no cover - depends on the installed Typer
    _TyperParameter = None

_AS_TYPER = object()  # no shortcut: Typer's adapter converts the value


def _is_unicode(value: str) -> bool:
    # A command line's undecodable bytes arrive as lone surrogates, which pydantic refuses.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _path(value: Any, param, ctx) -> Any:
    info = param.type_descriptor.parameter_info
    if (type(value) is not str or not _is_unicode(value) or info.allow_dash or info.path_type not in (None, Path)
            or str(Path(value)) != value):  # "", "a/", "./a": the Path pydantic makes is not the string typed
        return _AS_TYPER
    # Typer's own rules judge it (existence, readability, and their messages), then it is the
    # Path pydantic makes of it.
    try:
        checked = coerce_cli_path(value, info, path_type=None, param=param, ctx=ctx)
    except ValueError:  # (a NUL in the path) inside pydantic this becomes Typer's own message
        return _AS_TYPER
    return Path(checked)


def _within(value: float, info) -> bool:
    return not info.clamp and (info.min is None or value >= info.min) and (info.max is None or value <= info.max)


def _converted(annotation: Any, value: Any, param, ctx) -> Any:
    if annotation is bool:
        return value if type(value) is bool else _AS_TYPER
    if annotation is str:
        return value if type(value) is str and _is_unicode(value) else _AS_TYPER
    if annotation is int or annotation is float:
        info = param.type_descriptor.parameter_info
        return value if type(value) is annotation and _within(value, info) and info.parser is None else _AS_TYPER
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return value if isinstance(value, annotation) else _AS_TYPER  # a member is taken as it is
    if param.type_descriptor.parameter_info.parser is not None:
        return _AS_TYPER
    if annotation is Path:
        return _path(value, param, ctx)
    if get_origin(annotation) is list and get_args(annotation) == (Path,) and type(value) in (tuple, list):
        paths = []
        for item in value:  # in order, as Typer judges them: the first it would refuse is the one refused
            path = _path(item, param, ctx)
            if path is _AS_TYPER:
                return _AS_TYPER
            paths.append(path)
        return paths
    return _AS_TYPER


class _UntilNeeded:
    """A parameter's conversion that builds Typer's own only for a value it must convert."""

    __slots__ = ()

    def coerce(self, value: Any, param, ctx) -> Any:
        multiple = param.multiple or param.nargs == -1
        if value is None:  # Typer's RuntimeParam.coerce gives these without its adapter
            return () if multiple else None
        if not (multiple and isinstance(value, str)):  # Typer refuses that one itself
            converted = _converted(param.type_descriptor.annotation, value, param, ctx)
            if converted is not _AS_TYPER:
                return converted
        typer_own = param._runtime_param = build_runtime_param(param.type_descriptor)
        return typer_own.coerce(value, param=param, ctx=ctx)


_UNTIL_NEEDED = _UntilNeeded()


def convert_until_needed(params: list) -> None:
    """Give each of a command's parameters the conversion above (before it converts anything)."""
    if _TyperParameter is None:
        return
    for param in params:
        if isinstance(param, _TyperParameter) and getattr(param, "_runtime_param", False) is None:
            param._runtime_param = _UNTIL_NEEDED

"""The common export command lines read without typer.

`lmsexport build` and the single-format commands, with paths and the usual flags, are most
runs (CI, editors, scripts). Typer reads each parameter through a pydantic adapter it builds at
the first run of a command: importing pydantic and building those adapters is about half of the
start-up of such a run (550 M of 1,130 M instructions for `lmsexport qti` of one small quiz). A
command line made only of the plain forms below is read here instead, into the very values typer
would pass to the same command function (a test holds the two readings to each other); anything
else (help, `--opt=value`, grouped short flags, a value that typer would refuse or convert, a path
that starts with '-', an option given twice, one not listed here) returns None, and typer reads
the whole command line, with its own messages.
"""

from __future__ import annotations

from pathlib import Path

# Flags: option -> (parameter, value). Options with a value: option -> parameter.
_FLAGS = {
    "--quiet": ("quiet", True), "-q": ("quiet", True),
    "--verbose": ("verbose", True), "-v": ("verbose", True),
    "--check": ("check", True), "--prune": ("prune", True), "--no-cache": ("no_cache", True),
    "--strict": ("strict", True), "--no-strict": ("strict", False),
}
_VALUED = {"--out": "out", "-o": "out", "--jobs": "jobs", "-j": "jobs"}
# What typer passes for each parameter left out (the command's defaults).
_DEFAULTS = {"paths": None, "out": None, "strict": None, "check": False, "jobs": 1, "quiet": False,
             "verbose": False, "prune": False, "max_media_size": None, "no_cache": False}
_BUILD_DEFAULTS = {**_DEFAULTS, "format": None, "nearest_grade": None, "media_base_url": None}


def read(argv: list[str], export_commands: dict[str, tuple[str, ...]]) -> tuple[str, dict] | None:
    """(command, its parameters' values) for `build` or a command of `export_commands` (name ->
    its parameters), or None when typer must read the command line."""
    if not argv:
        return None
    name, rest = argv[0], argv[1:]
    if name == "build":
        given = dict(_BUILD_DEFAULTS)
    elif name in export_commands:
        given = {key: value for key, value in _BUILD_DEFAULTS.items() if key in export_commands[name]}
    else:
        return None
    paths: list[Path] = []
    seen: set[str] = set()
    index = 0
    while index < len(rest):
        token = rest[index]
        index += 1
        if not token.startswith("-"):
            paths.append(Path(token))
            continue
        if token in _FLAGS:
            parameter, value = _FLAGS[token]
        elif token in _VALUED and index < len(rest) and not rest[index].startswith("-"):
            parameter, value = _VALUED[token], rest[index]
            index += 1
            if parameter == "jobs":
                if not (value.isascii() and value.isdigit()) or int(value) < 1:
                    return None
                value = int(value)
            else:
                value = Path(value)
        else:
            return None
        if parameter in seen:
            return None
        seen.add(parameter)
        given[parameter] = value
    if paths:
        given["paths"] = paths
    return name, given

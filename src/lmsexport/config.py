"""The project file: settings a content repository repeats on every call, in `lmsexport.toml`
or in the `[tool.lmsexport]` table of `pyproject.toml`, found from the current folder upward
(in one folder, `lmsexport.toml` wins). Options on the command line win over the file.

    [tool.lmsexport]
    content = "content"                 # quiz files or folders (a string or a list)
    out = "exports"                     # build's output folder
    formats = ["qti", "moodle"]         # what build makes and validate checks
    strict = true                       # losses are errors
    nearest-grade = true                # Moodle/GIFT: move credits to the nearest grade
    media-base-url = "https://example.org/quiz-media/"
    max-media-size = 5                  # MB

Paths are relative to the folder of the file that sets them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """The project file cannot be read or holds an unknown or mistyped setting (a usage error)."""


_KEYS: dict[str, type | tuple[type, ...]] = {
    "content": (str, list), "out": str, "formats": (str, list), "strict": bool,
    "nearest-grade": bool, "media-base-url": str, "max-media-size": (int, float),
}


@dataclass(frozen=True)
class Config:
    file: Path | None = None
    values: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, given: Any = None, default: Any = None) -> Any:
        """The command line's value when given, else the file's, else the default."""
        if given is not None:
            return given
        return self.values.get(key, default)

    def paths(self, key: str) -> list[Path] | None:
        value = self.values.get(key)
        if value is None:
            return None
        base = self.file.parent if self.file is not None else Path(".")
        return [_relative(base / item) for item in ([value] if isinstance(value, str) else value)]


def _relative(path: Path) -> Path:
    """A path as short as it can be said from the current folder (messages name files so)."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def find_config(start: Path | None = None) -> Config:
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        own = candidate / "lmsexport.toml"
        if own.is_file():
            return _read(own, tool_table=False)
        project = candidate / "pyproject.toml"
        if project.is_file():
            config = _read(project, tool_table=True)
            if config.values or config.file is not None:
                return config
    return Config()


def _read(path: Path, tool_table: bool) -> Config:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as problem:
        raise ConfigError(f"{path}: cannot read the project file: {problem}") from None
    if tool_table:
        table = data.get("tool", {}).get("lmsexport")
        if table is None:
            return Config()
    else:
        table = data.get("tool", {}).get("lmsexport", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.lmsexport] must be a table")
    for key, value in table.items():
        expected = _KEYS.get(key)
        if expected is None:
            raise ConfigError(f"{path}: unknown setting '{key}'; known settings: {', '.join(_KEYS)}")
        if not isinstance(value, expected) or (isinstance(value, bool) and expected != bool):
            raise ConfigError(f"{path}: the setting '{key}' has the wrong type ({type(value).__name__})")
        if isinstance(value, list) and not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{path}: the setting '{key}' must be a list of strings")
    return Config(path, dict(table))

"""lmsexport: quiz content written once as JSON, exported to QTI 2.1, Canvas, Moodle XML and GIFT.

The API (see `lmsexport.api`): `load`, `validate` and `export`, with `Diagnostic`, `Severity`,
`Export`, `LoadResult`, `Quiz` and `FORMATS`. They are imported on first use, so that the command
line's `--version` stays fast.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("lmsexport")  # the one version string: pyproject.toml's
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

_API = frozenset({"FORMATS", "Diagnostic", "Export", "LoadResult", "Quiz", "Severity", "Source", "export", "load", "validate"})
__all__ = ["__version__", *sorted(_API)]


def __getattr__(name: str):
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'lmsexport' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})

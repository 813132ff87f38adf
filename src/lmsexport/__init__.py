"""lmsexport: quiz content written once as JSON, exported to QTI 2.1, Canvas, Moodle XML and GIFT.

The API (see `lmsexport.api`): `load`, `validate` and `export`, with `Diagnostic`, `Severity`,
`Export`, `LoadResult`, `Quiz` and `FORMATS`, and `__version__`. They are loaded on first use, so
that the command line starts fast.
"""

_API = frozenset({"FORMATS", "Diagnostic", "Export", "LoadResult", "Quiz", "Severity", "Source", "export", "load", "validate"})
__all__ = ["__version__", *sorted(_API)]


def __getattr__(name: str):
    if name == "__version__":
        # The one version string is pyproject.toml's, read from the installed metadata on first
        # use: importlib.metadata costs more start-up than the whole CLI does without it.
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("lmsexport")
        except PackageNotFoundError:  # a source tree that was never installed
            value = "0+unknown"
        globals()["__version__"] = value
        return value
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'lmsexport' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API, "__version__"})

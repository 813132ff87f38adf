"""The optional compiled build: with LMSEXPORT_COMPILE=1 (and Cython installed, see `make
accelerated`), the text rendering and the writers are compiled by Cython from the same Python
source, which is also installed and stays the reference. Without it (every normal install) this
file adds nothing and the package is pure Python. Everything else is in pyproject.toml."""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

# Where the writers spend their own time: rendering texts, building and escaping XML strings.
COMPILED = ("lmsexport/text", "lmsexport/writers")


def _extensions() -> list:
    from Cython.Build import cythonize
    from setuptools import Extension

    source = Path("src")
    # Named by path, `__init__` included: a package's own module compiles to its __init__ too.
    modules = [
        Extension(".".join(path.with_suffix("").relative_to(source).parts), [str(path)])
        for folder in COMPILED
        for path in sorted((source / folder).rglob("*.py"))
    ]
    # Types are left to Python: annotations are documentation here, not constraints to enforce.
    directives = {"language_level": 3, "annotation_typing": False, "binding": True}
    # The generated C goes to build/ (ignored by git), not beside the source.
    return cythonize(modules, compiler_directives=directives, build_dir="build/cython", nthreads=os.cpu_count() or 1, quiet=True)


setup(ext_modules=_extensions() if os.environ.get("LMSEXPORT_COMPILE") == "1" else [])

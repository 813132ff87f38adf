"""The optional compiled build (`make accelerated`, setup.py): under `make test-accelerated` the
tests run against it, and this one proves that they did, module by module. Elsewhere it only
checks that a normal install is the pure-Python one."""

from __future__ import annotations

import importlib
import os
import pkgutil

import pytest

import lmsexport

COMPILED = ("lmsexport.text", "lmsexport.writers")


def _modules() -> list[str]:
    names = []
    for package_name in COMPILED:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, package_name + ".")]
    return names


def test_every_module_of_the_compiled_build_is_compiled():
    if os.environ.get("LMSEXPORT_EXPECT_COMPILED") != "1":
        pytest.skip("only under `make test-accelerated`, which builds the compiled modules (setup.py)")
    pure = [name for name in _modules() if importlib.import_module(name).__file__.endswith(".py")]
    assert not pure, f"these modules are still Python: {pure}"


def test_a_normal_install_is_pure_python():
    if os.environ.get("LMSEXPORT_EXPECT_COMPILED") == "1":
        pytest.skip("this run is of the compiled build")
    compiled = [name for name in _modules() if not importlib.import_module(name).__file__.endswith(".py")]
    assert not compiled, f"compiled modules in a normal install: {compiled} (left over from `make accelerated`?)"
    assert lmsexport.__file__.endswith(".py")

"""Shared test fixtures: where the project and `../shared` are."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
DATA = Path(__file__).resolve().parent / "data"


def _shared_dir() -> Path | None:
    configured = os.environ.get("LMSEXPORT_SHARED")
    candidate = Path(configured) if configured else ROOT.parent / "shared"
    return candidate if candidate.is_dir() else None


SHARED = _shared_dir()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """`../shared` beside the repository, or $LMSEXPORT_SHARED. Tests that need it are skipped,
    with the reason, where it is absent (a clone on its own); CI always has it."""
    if SHARED is None:
        pytest.skip(
            "../shared is missing: put the shared folder beside the repository or set LMSEXPORT_SHARED "
            "to its path (it holds the seeds and the official IMS XSDs these tests check against)."
        )
    return SHARED


@pytest.fixture(scope="session")
def schemas(shared_dir: Path) -> dict[str, etree.XMLSchema]:
    """The official IMS schemas, compiled once per session (compiling takes seconds)."""
    parser = etree.XMLParser(no_network=True)
    xsd = shared_dir / "xsd"

    def load(name: str) -> etree.XMLSchema:
        return etree.XMLSchema(etree.parse(str(xsd / name), parser))

    return {
        "qti 2.1": load("qtiv2p1/imsqti_v2p1.xsd"),
        "qti 2.1.2": load("qtiv2p1/imsqti_v2p1p2.xsd"),
        "manifest": load("drivers/qti21-manifest-driver.xsd"),
    }


# Under mutmut (`make mutation`, see setup.cfg's [mutation] section): each mutant runs the tests
# that reach the mutated function, fastest first (with -x a killed mutant stops at the first
# failure), without the slow ones, and child processes import the mutated tree too, so that the
# tests that run `lmsexport` as a process (torn writes, exit codes) can kill a mutant as well.
def _mutation_settings() -> tuple[dict[str, float], float]:
    from configparser import ConfigParser

    try:
        with open("mutmut-stats.json") as stream:
            durations = json.load(stream)["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return {}, float("inf")
    settings = ConfigParser()
    settings.read("setup.cfg")
    return durations, settings.getfloat("mutation", "slowest_test_seconds", fallback=float("inf"))


def pytest_collection_modifyitems(config, items):
    mutant = os.environ.get("MUTANT_UNDER_TEST")
    if mutant is None or mutant in ("stats", "list_all_tests", "mutant_generation"):
        return
    mutated = str(Path.cwd() / "src")  # mutmut runs the tests from its copy of the tree
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (mutated, os.environ.get("PYTHONPATH"))))
    durations, slowest = _mutation_settings()
    if not durations:
        return
    slow = [item for item in items if durations.get(item.nodeid, 0.0) > slowest]
    if slow:
        config.hook.pytest_deselected(items=slow)
    kept = [item for item in items if durations.get(item.nodeid, 0.0) <= slowest]
    # Files in order of their tests' mean time, each file's tests together (module fixtures are set
    # up once) and in their own order.
    by_file: dict[str, list] = {}
    for item in kept:
        by_file.setdefault(item.nodeid.split("::")[0], []).append(item)
    files = sorted(by_file.values(), key=lambda tests: sum(durations.get(t.nodeid, 0.0) for t in tests) / len(tests))
    items[:] = [item for tests in files for item in tests]

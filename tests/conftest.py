"""Shared test fixtures: where the project and `../shared` are."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import settings
from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
DATA = Path(__file__).resolve().parent / "data"

# Hypothesis's profiles, for every test module at once (a profile is global: one module loading
# its own would change every other module's). Health checks stay on. "ci" is derandomised and
# keeps no example database, so every run tests the same examples: a failure is reproducible and
# coverage does not change run to run; "thorough" draws 1,000 fresh random examples per property.
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("LMSEXPORT_HYPOTHESIS_PROFILE", "ci"))

# Hypothesis (6.131 and later) also draws constants read from the source of every local module
# loaded so far, so its examples would change with any edit anywhere in the tree and with which
# tests ran before, derandomised or not: the hostile cases a run reaches would differ between a
# run of one file and the whole suite. Without them the examples depend on the strategies alone.
try:  # older releases have no such constants (and no such module)
    from hypothesis.internal.conjecture import providers as _hypothesis_providers
except ImportError:
    _hypothesis_providers = None
if hasattr(_hypothesis_providers, "_get_local_constants"):
    _hypothesis_providers._get_local_constants = _hypothesis_providers.Constants


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
# that reach the mutated function and that are listed for its module, in the order listed (the
# unit tests first: with -x a killed mutant stops at the first failure), without the slow ones;
# and child processes import the mutated tree too, so that the tests that run `lmsexport` as a
# process (torn writes, exit codes) can kill a mutant as well.
def _mutation_settings() -> tuple[dict[str, float], float, tuple[str, ...], dict[str, list[str]]]:
    from configparser import ConfigParser

    try:
        with open("mutmut-stats.json") as stream:  # mutmut runs the tests in its copy of the tree
            durations = json.load(stream)["duration_by_test"]
    except (OSError, ValueError, KeyError):
        return {}, float("inf"), (), {}
    settings = ConfigParser()
    settings.read("setup.cfg")
    slowest = settings.getfloat("mutation", "slowest_test_seconds", fallback=float("inf"))
    always = tuple(settings.get("mutation", "slow tests that always run", fallback="").split())
    prefix = "tests for "
    lists = {key[len(prefix):]: value.split() for key, value in settings.items("mutation") if key.startswith(prefix)} \
        if settings.has_section("mutation") else {}
    return durations, slowest, always, lists


def _tests_listed(mutant: str, lists: dict[str, list[str]]) -> list[str] | None:
    """The test files listed for the module of a mutant (lmsexport.text.x_to_html__mutmut_3), or
    for the clean run before the mutants (no mutant) every file listed."""
    if not mutant:
        return sorted({file for files in lists.values() for file in files}) or None
    module = mutant.split(".x_")[0].split(".x\u01c1")[0]
    return lists.get(module)


def _children_import_the_mutated_tree() -> None:
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (str(Path.cwd() / "src"), os.environ.get("PYTHONPATH"))))


def pytest_collection_modifyitems(config, items):
    mutant = os.environ.get("MUTANT_UNDER_TEST")
    if mutant == "stats":
        # The timing pass. A child process must run the same code as the test (the build cache
        # hashes the tool's code: a child on the unmutated tree would find every entry stale and
        # rebuild everything), but not record which functions ran, which needs mutmut's own
        # settings: without the variable, the child's trampolines call the original functions,
        # while this process keeps the mode mutmut set in it.
        _children_import_the_mutated_tree()
        del os.environ["MUTANT_UNDER_TEST"]
        return
    if mutant is None or mutant in ("list_all_tests", "mutant_generation", "fail"):
        return
    _children_import_the_mutated_tree()
    # Each mutant's tests run in a process forked from the one that ran the clean tests: the
    # renderings that process kept are the unmutated code's, and would hide the mutant.
    from lmsexport import text

    text.forget_renderings()
    text._render_markdown.cache_clear()
    durations, slowest, always, lists = _mutation_settings()
    if not durations:
        return
    files = _tests_listed(mutant, lists)
    kept = [item for item in items if (durations.get(item.nodeid, 0.0) <= slowest or item.nodeid.startswith(always))
            and (files is None or item.nodeid.split("::")[0] in files)]
    left = [item for item in items if item not in set(kept)]
    if left:
        config.hook.pytest_deselected(items=left)
    by_file: dict[str, list] = {}
    for item in kept:
        by_file.setdefault(item.nodeid.split("::")[0], []).append(item)
    if files is not None and mutant:
        order = sorted(by_file, key=files.index)
    else:  # files in order of their tests' mean time
        order = sorted(by_file, key=lambda f: sum(durations.get(t.nodeid, 0.0) for t in by_file[f]) / len(by_file[f]))
    items[:] = [item for file in order for item in by_file[file]]

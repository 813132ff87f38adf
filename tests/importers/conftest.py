"""Where the real importers are, where their state goes, and when their tests cannot run.

The harnesses in ../shared/harness (or $LMSEXPORT_SHARED/harness) run the platforms' own import
code: Moodle's qformat_xml / qformat_gift on a real site (PHP + PostgreSQL), Canvas's QTI import
classes (Ruby). That folder may be read-only, so everything they build (extracted Moodle trees,
the PostgreSQL cluster, site data) goes to the project's ignored cache, `.cache/harness`, or to
$LMSEXPORT_HARNESS_CACHE when it is set (a folder where sites are already installed, to save the
first-time install). Without the system tools the tests skip, naming what is missing and the
make target that installs it (`make test-importers`).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import socket
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

INSTALL_HINT = "run `make test-importers` as root (it installs the system packages the importers need)"


def shared_dir() -> Path | None:
    """../shared or $LMSEXPORT_SHARED, as tests/conftest.py finds it for every test."""
    return SHARED


def harness_cache() -> Path:
    """A writable folder for the harnesses' state, inside the project's ignored cache by default."""
    configured = os.environ.get("LMSEXPORT_HARNESS_CACHE")
    folder = Path(configured) if configured else ROOT / ".cache" / "harness"
    folder.mkdir(parents=True, exist_ok=True)
    return folder.resolve()


# PHP extensions the Moodle harness needs, and the Debian package that brings each.
PHP_EXTENSIONS = {
    "pgsql": "php-pgsql", "mbstring": "php-mbstring", "curl": "php-curl", "dom": "php-xml",
    "xmlreader": "php-xml", "zip": "php-zip", "gd": "php-gd", "intl": "php-intl", "soap": "php-soap",
}
RUBY_LIBRARIES = {"nokogiri": "ruby-nokogiri", "sanitize": "ruby-sanitize", "active_support": "ruby-activesupport"}


@lru_cache(maxsize=None)
def missing_for_moodle() -> tuple[str, ...]:
    """The Debian packages the Moodle harness needs and this machine lacks."""
    missing = []
    if shutil.which("php") is None:
        missing.append("php-cli")
        modules = ""
    else:
        modules = subprocess.run(["php", "-m"], capture_output=True, text=True).stdout.lower()
    present = set(modules.split())
    missing += sorted({package for extension, package in PHP_EXTENSIONS.items() if extension not in present})
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb") or shutil.which("psql") is None:
        missing.append("postgresql")
    return tuple(missing)


@lru_cache(maxsize=None)
def missing_for_canvas() -> tuple[str, ...]:
    """The Debian packages the Canvas harness needs and this machine lacks."""
    if shutil.which("ruby") is None:
        return ("ruby", *RUBY_LIBRARIES.values(), *(() if shutil.which("unzip") else ("unzip",)))
    missing = []
    for library, package in RUBY_LIBRARIES.items():
        if subprocess.run(["ruby", "-e", f"require '{library}'"], capture_output=True).returncode != 0:
            missing.append(package)
    if shutil.which("unzip") is None:
        missing.append("unzip")
    return tuple(missing)


def _harness(name: str) -> Path:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared is missing (set LMSEXPORT_SHARED to its path): it holds the real importers these tests run")
    folder = shared / "harness" / name
    if not folder.is_dir():
        pytest.skip(f"{folder} is missing: the shared folder has no {name} importer")
    return folder


def moodle_harness_folder() -> Path:
    """../shared/harness/moodle, on a machine that has what it needs; the test skips otherwise."""
    folder = _harness("moodle")
    missing = missing_for_moodle()
    if missing:
        pytest.skip(f"the real Moodle importer needs PHP and PostgreSQL; missing: {' '.join(missing)}; {INSTALL_HINT}")
    return folder


def canvas_harness_folder() -> Path:
    """../shared/harness/canvas, on a machine that has what it needs; the test skips otherwise."""
    folder = _harness("canvas")
    missing = missing_for_canvas()
    if missing:
        pytest.skip(f"the real Canvas importer needs Ruby and its libraries; missing: {' '.join(missing)}; {INSTALL_HINT}")
    return folder


@pytest.fixture(scope="session")
def moodle_harness() -> Path:
    return moodle_harness_folder()


@pytest.fixture(scope="session")
def canvas_harness() -> Path:
    return canvas_harness_folder()


@pytest.fixture(scope="session")
def importer_cache() -> Path:
    """Where the harnesses keep their state (see harness_cache)."""
    return harness_cache()


def _port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def postgres_port(state: Path) -> int:
    """The port of the harness's PostgreSQL cluster in this state folder: $MOODLE_HARNESS_PGPORT,
    else the one the cluster was made with (the harness writes it into postgresql.conf), else for
    a new cluster the harness's default 55432 when free, else the next free one, so that another
    checkout's cluster on 55432 does not stop a first install here. Every test that runs the
    Moodle harness asks here, so that they all share one cluster."""
    configured = os.environ.get("MOODLE_HARNESS_PGPORT")
    if configured:
        return int(configured)
    conf = state / "pgdata" / "postgresql.conf"
    if conf.is_file():
        ports = re.findall(r"^port\s*=\s*(\d+)", conf.read_text(errors="replace"), re.M)
        if ports:
            return int(ports[-1])
    port = 55432
    while not _port_is_free(port):
        port += 1
    return port

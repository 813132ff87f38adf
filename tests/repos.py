"""Git repositories of content as a team keeps them, for the tests of hooks, installs and clones."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CONTENT


def git(*args: str, cwd: Path) -> None:
    """git with a fixed author and default branch, so that no user configuration is needed."""
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main", *args],
                   cwd=cwd, check=True, capture_output=True)


def content_repository(folder: Path) -> Path:
    """This repository's content/ and its exports, built by the installed lmsexport, in a new git
    repository at `folder` with nothing committed yet; skipped where git is not installed."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    shutil.copytree(CONTENT, folder / "content")
    built = subprocess.run([sys.executable, "-m", "lmsexport", "build", "--quiet"], cwd=folder, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    git("init", "-q", cwd=folder)
    return folder

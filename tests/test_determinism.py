"""Output does not depend on the process that wrote it: two processes with different hash seeds
(which reorder every set and every dict built from one) write byte-identical files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import CONTENT, DATA


def build_in_a_process(bank: Path, out: Path, hash_seed: str, *extra: str) -> dict[str, bytes]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run([sys.executable, "-m", "lmsexport", "build", "--quiet", "-o", str(out), *extra, str(bank)],
                            env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert files, "nothing was written"
    return files


def test_two_processes_with_different_hash_seeds_write_the_same_bytes(tmp_path):
    bank = tmp_path / "bank"
    shutil.copytree(CONTENT, bank)
    shutil.copytree(DATA / "media", bank, dirs_exist_ok=True)  # media files, formulas
    shutil.copy(DATA / "every_type.json", bank)
    first = build_in_a_process(bank, tmp_path / "one", "1")
    second = build_in_a_process(bank, tmp_path / "two", "4242")
    assert sorted(first) == sorted(second)
    different = [name for name in first if first[name] != second[name]]
    assert not different, f"these files depend on the hash seed: {different}"
    # Spreading quizzes over worker processes (each with its own seed) changes nothing either.
    third = build_in_a_process(bank, tmp_path / "three", "random", "--jobs", "2")
    assert third == first

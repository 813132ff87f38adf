"""The mutation score of each mutated module, from mutmut's results in mutants/ (after `make mutation`).

A mutant counts as killed when a test failed or it ran out of time (an endless loop is caught);
the score is killed of those that ran against at least one test. The survivors are listed by name,
for `.venv/bin/mutmut show NAME`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

KILLED = {1, 3}
TIMEOUT = {24, -24, 36, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}


def module_of(meta: Path, mutants: Path) -> str:
    return str(meta.relative_to(mutants / "src")).removesuffix(".meta")


def mutated_modules(setup_cfg: Path = Path("setup.cfg")) -> set[str] | None:
    """The modules setup.cfg's [mutmut] only_mutate lists (src/ left off), or None for all: a
    module taken off the list keeps its old results in mutants/, which are no longer this run's."""
    from configparser import ConfigParser

    settings = ConfigParser()
    settings.read(setup_cfg)
    listed = settings.get("mutmut", "only_mutate", fallback="").split()
    return {path.removeprefix("src/") for path in listed} or None


def main(mutants: Path = Path("mutants")) -> int:
    modules = mutated_modules()
    metas = sorted(meta for meta in (mutants / "src").rglob("*.py.meta")
                   if modules is None or module_of(meta, mutants) in modules)
    if not metas:
        print(f"no mutation results in {mutants}: run `make mutation` first", file=sys.stderr)
        return 2
    rows, survivors = [], []
    totals = [0, 0, 0, 0, 0]
    for meta in metas:
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        killed = sum(code in KILLED for code in codes.values())
        timeout = sum(code in TIMEOUT for code in codes.values())
        survived = [name for name, code in codes.items() if code in SURVIVED]
        untested = sum(code in NO_TESTS for code in codes.values())
        other = len(codes) - killed - timeout - len(survived) - untested
        counts = (len(codes), killed, timeout, len(survived), untested)
        totals = [a + b for a, b in zip(totals, counts)]
        rows.append((module_of(meta, mutants), *counts, other))
        survivors += sorted(survived)
    print(f"{'module':<45} {'mutants':>7} {'killed':>6} {'timeout':>7} {'survived':>8} {'no test':>7} {'other':>5} {'score':>6}")
    for name, total, killed, timeout, survived, untested, other in rows + [("total", *totals, totals[0] - sum(totals[1:]))]:
        tested = killed + timeout + survived
        score = f"{100 * (killed + timeout) / tested:.1f}%" if tested else "-"
        print(f"{name:<45} {total:>7} {killed:>6} {timeout:>7} {survived:>8} {untested:>7} {other:>5} {score:>6}")
    if survivors:
        print("\nsurvivors:")
        for name in survivors:
            print("  " + name)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("mutants")))

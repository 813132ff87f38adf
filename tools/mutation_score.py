"""The mutation score of each mutated module, from mutmut's results in mutants/ (after `make mutation`).

A mutant counts as killed when a test failed or it ran out of time (an endless loop is caught);
the score is killed of those judged (run against at least one test), the equivalent mutants
(setup.cfg's [mutation] `equivalent mutants`: no input can tell them from the original, the README
says why) left out and counted apart. The survivors are listed by name, for
`.venv/bin/mutmut show NAME`; so is a mutant listed as equivalent that a test kills (it was not).
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


def equivalent_mutants(setup_cfg: Path = Path("setup.cfg")) -> set[str]:
    from configparser import ConfigParser

    settings = ConfigParser()
    settings.read(setup_cfg)
    return set(settings.get("mutation", "equivalent mutants", fallback="").split())


def main(mutants: Path = Path("mutants")) -> int:
    modules = mutated_modules()
    equivalent = equivalent_mutants()
    metas = sorted(meta for meta in (mutants / "src").rglob("*.py.meta")
                   if modules is None or module_of(meta, mutants) in modules)
    if not metas:
        print(f"no mutation results in {mutants}: run `make mutation` first", file=sys.stderr)
        return 2
    rows, survivors, killed_equivalents, unjudged = [], [], [], []
    totals = [0] * 7
    for meta in metas:
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        equivalents = {name for name in codes if name in equivalent}
        killed_equivalents += sorted(name for name in equivalents if codes[name] in KILLED | TIMEOUT)
        judged = {name: code for name, code in codes.items() if name not in equivalents}
        killed = sum(code in KILLED for code in judged.values())
        timeout = sum(code in TIMEOUT for code in judged.values())
        survived = [name for name, code in judged.items() if code in SURVIVED]
        untested = sum(code in NO_TESTS for code in judged.values())
        not_run = [name for name, code in judged.items() if code is None]
        other = len(judged) - killed - timeout - len(survived) - untested - len(not_run)
        counts = (len(codes), len(equivalents), killed, timeout, len(survived), untested, len(not_run))
        totals = [a + b for a, b in zip(totals, counts)]
        rows.append((module_of(meta, mutants), *counts, other))
        survivors += sorted(survived)
        unjudged += not_run
    print(f"{'module':<45} {'mutants':>7} {'equiv.':>6} {'killed':>6} {'timeout':>7} {'survived':>8} "
          f"{'no test':>7} {'not run':>7} {'other':>5} {'score':>6}")
    for name, total, equivalents, killed, timeout, survived, untested, not_run, other in \
            rows + [("total", *totals, totals[0] - sum(totals[1:]))]:
        tested = killed + timeout + survived
        score = f"{100 * (killed + timeout) / tested:.1f}%" if tested else "-"
        print(f"{name:<45} {total:>7} {equivalents:>6} {killed:>6} {timeout:>7} {survived:>8} "
              f"{untested:>7} {not_run:>7} {other:>5} {score:>6}")
    if survivors:
        print("\nsurvivors:")
        for name in survivors:
            print("  " + name)
    if killed_equivalents:
        print("\nlisted as equivalent in setup.cfg, but killed by a test:")
        for name in killed_equivalents:
            print("  " + name)
    if unjudged:
        print(f"\n{len(unjudged)} mutants not run yet: `make mutation-continue` goes on")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("mutants")))

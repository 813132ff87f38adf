"""How often the generators of tests/strategies.py produce each hostile case.

    .venv/bin/python tests/strategy_stats.py [EXAMPLES]

prints, for EXAMPLES generated quizzes (default 300, in runs of fixed seeds), how many hold each
hostile case, and how many invalid documents of each defect were drawn. The test suite runs the
same count and fails when a case is never generated.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import DEFECTS, HOSTILE_CASES, hostile_cases, invalid_quiz, quiz  # noqa: E402


# Runs with fixed seeds: one derandomised run explores around its own first examples, so a
# choice among many (eight gradings) can be missing from hundreds of its quizzes; a few
# independent runs of the same total are as reproducible and see every choice.
SEEDS = tuple(range(10))


def collect(examples: int = 300, invalid: bool = True) -> tuple[Counter, Counter]:
    """(quizzes holding each hostile case, invalid documents of each defect)."""
    cases: Counter = Counter()
    defects: Counter = Counter()
    run = settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                   phases=[Phase.explicit, Phase.generate], suppress_health_check=[HealthCheck.too_slow])

    for number in SEEDS:
        @seed(number)
        @settings(run, max_examples=max(1, examples // len(SEEDS)), derandomize=False)
        @given(data=quiz())
        def count_quizzes(data):
            cases.update(hostile_cases(data))

        count_quizzes()
    for defect in DEFECTS if invalid else []:  # as the validator property draws them: each defect in its own examples
        @settings(run, max_examples=max(1, examples // 60))
        @given(case=invalid_quiz(defect))
        def count_defects(case):
            defects[case[0]] += 1

        count_defects()
    return cases, defects


def main() -> None:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    cases, defects = collect(examples)
    print(f"{examples} generated quizzes; quizzes holding each hostile case:")
    for name in HOSTILE_CASES:
        print(f"  {cases[name]:5d}  {name}")
    print("generated invalid documents of each defect:")
    for name in DEFECTS:
        print(f"  {defects[name]:5d}  {name}")
    missing = [n for n in HOSTILE_CASES if not cases[n]] + [n for n in DEFECTS if not defects[n]]
    if missing:
        print("never generated: " + ", ".join(missing))
        sys.exit(1)


if __name__ == "__main__":
    main()

"""export -> import -> export gives the same bytes, for every format: what a format cannot carry
is dropped by the first export and stays dropped. Canvas carries no content ids (it names items
by hashes of them), so its packages are compared with those identifiers numbered in order."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from import_support import difference, round_trip
from strategies import quiz as quizzes

from lmsexport.loader import load_quiz

ROOT = Path(__file__).resolve().parent.parent
QUIZZES = [*sorted((ROOT / "content").glob("*.json")), ROOT / "tests/data/every_type.json", ROOT / "tests/data/media/media_and_math.json"]
FORMATS = ["moodle", "gift", "qti", "canvas"]

# A fixed seed in CI, so that the suite is reproducible; the thorough profile explores freely.
settings.register_profile("import-ci", max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
settings.register_profile("import-thorough", max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("format_name", FORMATS)
@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_content_survives_export_import_export(path, format_name):
    quiz = load_quiz(path).quiz
    first, second, _ = round_trip(quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


NEW_TYPES = [ROOT / "tests/data/blanks.json", ROOT / "tests/data/ordering.json", ROOT / "tests/data/sections.json"]


# Canvas holds an ordering as a matching of its items to the places 1..N; read back as matching,
# it must come out of the Canvas writer as the ordering did.
@pytest.mark.parametrize("format_name", ["qti", "canvas"])
@pytest.mark.parametrize("path", NEW_TYPES, ids=lambda p: p.stem)
def test_new_types_survive_export_import_export_in_qti_and_canvas(path, format_name):
    quiz = load_quiz(path).quiz
    first, second, _ = round_trip(quiz, format_name)
    assert not difference(first, second, format_name), difference(first, second, format_name)


def _load(data: dict):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "quiz.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        result = load_quiz(path)
    assume(result.ok)
    return result.quiz


@pytest.mark.xfail(strict=False, reason="generated quizzes still find white-space edge cases (plain text written as CDATA by the "
                   "Moodle writer, character references of spaces at a text's end) that the import does not yet give back byte for byte")
@pytest.mark.parametrize("format_name", FORMATS)
def test_generated_quizzes_survive_export_import_export(format_name):
    profile = "import-thorough" if os.environ.get("LMSEXPORT_HYPOTHESIS_PROFILE") == "thorough" else "import-ci"

    @settings(settings.get_profile(profile))
    @given(data=quizzes())
    def check(data):
        from import_support import export

        quiz = _load(data)
        assume(export(quiz, format_name) is not None)  # a quiz a format refuses (GIFT and '->') has no export to import
        first, second, said = round_trip(quiz, format_name)
        # MathML back to LaTeX is not always exact (a formula of stray symbols); the import says so
        # where it happens, and such a quiz cannot come back byte for byte.
        assume(not any("MathML formula that LaTeX cannot say exactly" in d.message for d in said))
        assert not difference(first, second, format_name), difference(first, second, format_name)

    check()

"""Our Moodle XML through the real Moodle importer, re-exported by Moodle, and imported by
`lmsexport import`: we get our content back. With Moodle 4.5 the re-export writes the category
as `$course$/top/...`; with Moodle 5.0 (banks in mod_qbank) as `$module$/top/...`, which the import
must read the same way.

Moodle keeps no option ids and no quiz-level data but the category tree and its description (which
states the quiz's language), so the comparison is of what Moodle can hold: the quiz's language,
question ids (idnumbers), names, types, points,
penalties, texts as shown, keys, credits and every feedback. The sites come from
../shared/harness/moodle (see its README); the fixtures that find and skip it are in conftest.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
import os
import subprocess
from pathlib import Path

import pytest
from moodle_checks import assert_same_languages, assert_same_quiz

from lmsexport.importers import import_data
from importers.conftest import postgres_port
from lmsexport.loader import load_quiz
from lmsexport.importers.moodle.reader import read_moodle_xml
from lmsexport.writers.moodle import moodle_xml
from lmsexport.writers.shared import ExportOptions

ROOT = Path(__file__).resolve().parents[2]
QUIZZES = [*sorted((ROOT / "content").glob("*.json")), ROOT / "tests/data/every_type.json",
           *(ROOT / "tests/data" / f"{name}.json" for name in ("blanks", "one_blank", "ordering", "sections"))]


@pytest.fixture(scope="module")
def reexport(moodle_harness, importer_cache, tmp_path_factory):
    """(version, quiz path) -> the bytes of Moodle's own export of what it stored from our file."""
    folder = tmp_path_factory.mktemp("moodle-reexports")
    sources: dict[str, str] = {}
    state = importer_cache / "moodle-harness"

    def run(version: str, path: Path) -> bytes:
        if version not in sources:
            setup = subprocess.run(["bash", str(moodle_harness / "setup.sh"), version, str(importer_cache)], capture_output=True, text=True)
            if setup.returncode != 0:
                pytest.fail(f"extracting Moodle {version} failed: {setup.stderr[-2000:]}")
            sources[version] = setup.stdout.strip()
        quiz = load_quiz(path).quiz
        ours = folder / f"{version}-{path.stem}.xml"
        ours.write_bytes(moodle_xml.render(quiz, ExportOptions()).data)
        again = folder / f"{version}-{path.stem}.moodle.xml"
        env = dict(os.environ, MOODLE_HARNESS_DIR=str(state), MOODLE_HARNESS_QUIET="1", MOODLE_HARNESS_PGPORT=str(postgres_port(state)))
        done = subprocess.run(["bash", str(moodle_harness / "moodle-import.sh"), sources[version], str(ours), "xml", f"--export={again}"],
                              capture_output=True, text=True, env=env, timeout=900)
        if done.returncode == 2 or not again.exists():
            pytest.fail(f"the Moodle {version} harness failed (exit {done.returncode}): {done.stderr[-3000:]}")
        report = json.loads(done.stdout)
        assert not report.get("errors"), report["errors"]
        return again.read_bytes()

    return run


@pytest.mark.parametrize("version", ["4.5", "5.0"])
@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_moodles_reexport_imports_back_to_our_content(reexport, version, path):
    quiz = load_quiz(path).quiz
    data = reexport(version, path)
    prefix = "$module$/top/" if version == "5.0" else "$course$/top/"
    assert prefix.encode() in data, f"Moodle {version} wrote another context than {prefix}"
    imported, problems = import_data(data, f"moodle-{version}.xml", "moodle")
    assert not [p for p in problems if p.is_error], problems
    banks = [i for i in imported if i.quiz.questions]
    assert len(banks) == 1, [i.quiz.id for i in imported]
    back = banks[0].quiz
    # The quiz's language rides in the category's info, which Moodle stores and writes back as is.
    assert back.language == quiz.language
    assert not [d for d in banks[0].diagnostics if d.code == "import-language"]
    # Moodle strips tags from category names (the writers warn about it).
    assert (back.title, back.category) == (moodle_name(quiz.title), tuple(moodle_name(c) for c in quiz.category))
    # Moodle re-exports questions grouped by type, not in our order: compared by id.
    ours = {q.id: q for q in quiz.exported_questions}
    assert sorted(q.id for q in back.questions) == sorted(ours)
    for question in back.questions:
        original = ours[question.id]
        assert (question.type, question.points, question.title) == (original.type, original.points, original.title), question.id
        # Moodle fixes true/false's penalty at 1; any other is what we wrote or Moodle's default.
        assert question.penalty in (original.penalty, 1.0 if original.type == "true_false" else original.penalty), question.id
    assert_same_new_constructs(back, quiz)
    # Texts, keys, credits and feedback as the Moodle reader sees them, field by field.
    read = read_moodle_xml(data)
    order = {q.id: i for i, q in enumerate(quiz.exported_questions)}
    read = dataclasses.replace(read, title=quiz.title, category=quiz.category,
                               questions=tuple(sorted(read.questions, key=lambda q: order[q.id])))
    assert_same_quiz(read, with_blanks_numbered(quiz), full=True)
    # Every question's and option's language, from the quiz's and the wrappers Moodle kept.
    assert_same_languages(dataclasses.replace(back, questions=tuple(sorted(back.questions, key=lambda q: order[q.id]))), quiz, options=True)


def numbered(stem):
    """A fill in the blanks text with its blanks named as the import names them: b1, b2... in order."""
    from lmsexport.text.blanks import PLACEHOLDER

    count = iter(range(1, 1000))
    return dataclasses.replace(stem, source=PLACEHOLDER.sub(lambda m: f"[[b{next(count)}]]", stem.source))


def with_blanks_numbered(quiz):
    return dataclasses.replace(quiz, questions=tuple(
        dataclasses.replace(q, stem=numbered(q.stem)) if q.type == "fill_in_blanks" else q for q in quiz.questions))


def assert_same_new_constructs(back, quiz) -> None:
    """Fill in the blanks (blanks named b1, b2... in text order), ordering and sections as imported
    from Moodle's re-export, against the content they were written from."""
    from lmsexport.text.blanks import placeholders

    ours = {q.id: q for q in quiz.exported_questions}
    for question in back.questions:
        original = ours[question.id]
        if original.type == "fill_in_blanks":
            names = placeholders(original.stem.source)
            assert placeholders(question.stem.source) == [f"b{i}" for i in range(1, len(names) + 1)], question.id
            by_name = {b.id: b for b in original.blanks}
            for index, blank in enumerate(question.blanks, 1):
                want = by_name[names[index - 1]]
                assert (blank.id, blank.kind) == (f"b{index}", want.kind), question.id
                if want.kind == "dropdown":
                    assert [(o.text, o.correct, round(o.credit, 5)) for o in blank.options] == \
                        [(o.text, o.correct, round(o.credit, 5)) for o in want.options], question.id
                    assert blank.shuffle == want.shuffle, question.id
                elif want.kind == "short_answer":
                    assert [(a.text, round(a.credit, 5)) for a in blank.answers] == [(a.text, round(a.credit, 5)) for a in want.answers]
                    assert blank.case_sensitive == want.case_sensitive, question.id
                else:
                    assert [(round(a.low, 12), round(a.high, 12), round(a.credit, 5)) for a in blank.answers] == \
                        [(round(a.low, 12), round(a.high, 12), round(a.credit, 5)) for a in want.answers], question.id
            assert [round(p, 9) for p in question.blank_points] == [round(p, 9) for p in original.blank_points], question.id
        elif original.type == "ordering":
            assert [i.text.source for i in question.items] == [i.text.source for i in original.items], question.id
            assert (question.grading, question.horizontal) == (original.grading, original.horizontal), question.id
    exported = set(ours)
    assert [(s.title, set(s.question_ids), s.pick) for s in back.sections] == \
        [(s.title, set(s.question_ids) & exported, s.pick) for s in quiz.sections]
    for got, want in zip(back.sections, quiz.sections):
        assert (got.instructions.source if got.instructions else None) == (want.instructions.source if want.instructions else None)


def moodle_name(name: str) -> str:
    """A category name as Moodle stores it: clean_param(PARAM_TEXT) strips tags, then trimmed."""
    return re.sub(r"<[^>]*>", "", name).strip()

"""Every file of the third-party corpora imports with its questions' types, keys and points
right, or fails with a located, honest message; where a corpus states the expected result, the
import agrees with it. The share imported exactly is printed by tests/import_corpora.py."""

from __future__ import annotations

import pytest
from import_corpora import CORPORA, corpus_files, import_file

from conftest import SHARED

pytestmark = pytest.mark.skipif(SHARED is None, reason="../shared (the corpora) is missing: set LMSEXPORT_SHARED")

FILES = [(name, path) for name in CORPORA for path in (corpus_files(SHARED, name) if SHARED else [])]

# Files the corpora's own notes call broken or not of a format lmsexport imports, with what the
# import must say about them.
REFUSED = {
    "questions_encoding_windows-1252.gift.txt": "not UTF-8",
    "category1.gift": "no question",
    "empty_assessment_no_ident.xml": "no question",
    "tao_wrong_MalformedManifest.zip": "not well-formed",
    "testimport.moodle.xml": "without the <quiz>",
    "broken_multianswer_1.txt": "cloze",
    "broken_multianswer_2.txt": "cloze",
    "questions.multianswer.txt": "cloze",
}


@pytest.mark.parametrize("name,path", FILES, ids=[f"{n}/{p.name}" for n, p in FILES])
def test_every_corpus_file_imports_or_is_refused_with_a_reason(name, path):
    result = import_file(path)
    if not result.questions:
        assert result.errors, f"{path.name}: nothing imported and nothing said"
        assert path.name in REFUSED, f"{path.name} refused: {result.errors}"
        assert REFUSED[path.name] in result.errors[0]
        return
    assert not result.errors, result.errors
    assert not result.mismatches, result.mismatches
    for question in result.questions:
        assert question.id and question.stem.source.strip()
        assert question.points >= 0


def test_moodle_gift_expectations_agree(shared_dir):
    """Moodle's own GIFT test cases: the same type, name and fractions as Moodle's reader gives."""
    checked = 0
    for path in corpus_files(shared_dir, "moodle-gift"):
        result = import_file(path)
        if path.with_name(path.name.replace(".gift.txt", ".expected.json")).exists() and result.questions:
            assert not result.mismatches, (path.name, result.mismatches)
            checked += 1
    assert checked >= 10


def test_known_questions_come_out_right(shared_dir):
    from lmsexport.model import Numerical, ShortAnswer, SingleChoice, TrueFalse

    short = import_file(shared_dir / "corpora/moodle-xml/qtype/shortanswer/testquestion.moodle.xml").questions[0]
    assert isinstance(short, ShortAnswer) and [(a.text, a.credit) for a in short.answers][:2] == [("frog", 1.0), ("toad", 0.8)]
    number = import_file(shared_dir / "corpora/moodle-xml/qtype/numerical/testquestion.moodle.xml").questions[0]
    assert isinstance(number, Numerical) and (number.answers[0].value, number.answers[0].tolerance) == (6.25, 0.05)
    true_false = import_file(shared_dir / "corpora/canvas-qti/canvas/true_false.xml").questions[0]
    assert isinstance(true_false, TrueFalse)
    choice = import_file(shared_dir / "fixtures/qti21/items/ims_choice.xml").questions[0]
    assert isinstance(choice, SingleChoice) and [c.correct for c in choice.choices] == [True, False, False]
    drafts = import_file(shared_dir / "corpora/moodle-xml/format-xml/broken_cloze_questions.xml").questions
    assert len(drafts) == 5 and all(q.draft for q in drafts) and "{" in drafts[1].stem.source



def _readme_table() -> list[tuple]:
    """The rows of the README's table of shares (the one headed as import_corpora prints it)."""
    from conftest import ROOT

    rows, inside = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("| corpus | files | files refused"):
            inside = True
        elif inside and line.startswith("|---"):
            continue
        elif inside and line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows.append((cells[0], *(int(c) for c in cells[1:5]), cells[5]))
        elif inside:
            break
    return rows


def test_the_readme_gives_the_shares_this_computation_gives(shared_dir):
    """The README's figures are what tests/import_corpora.py prints for these readers."""
    from import_corpora import report

    computed = [(*row, f"{100 * row[4] / row[3]:.0f} %") for row in report(shared_dir)]
    assert _readme_table() == computed, "update the README's table: .venv/bin/python tests/import_corpora.py"

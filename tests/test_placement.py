"""Placing diagnostics at their line and column: the fast paths against the plain way.

A quiz's diagnostics are sorted by where their values stand in the file, read off the parsed
data (`ParsedJson.document_order`), and placed only as far as the text needs reading (the
locator reads a container's children up to the one asked for, and counts lines on from the last
place asked for); `validate` places only the diagnostics it prints. Each is held here to what a
full scan of the text gives (`jsonsource._walk` visits every value with its offset).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from conftest import CONTENT, DATA, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from lmsexport import jsonsource
from lmsexport.diagnostics import RecordedDiagnostics, Severity, warning
from lmsexport.formats import FORMATS
from lmsexport.loader import load_quiz
from lmsexport.pipeline import _placed_by_line, process_quiz, settle
from lmsexport.writers.shared import ExportOptions

CORPUS = sorted([*DATA.rglob("*.json"), *CONTENT.glob("*.json"), *(ROOT / "examples").glob("*.json")])

keys = st.text(st.sampled_from("ab/~0 é\"\\"), max_size=3)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=25,
)


def _every_value(text: str) -> dict[str, tuple[int, int]]:
    """pointer -> (line, column) of every value, by a full scan of the text."""
    starts = jsonsource._line_starts(text)
    found: dict[str, tuple[int, int]] = {}
    jsonsource._walk(text, lambda pointer, offset: found.setdefault(pointer, jsonsource._line_column(offset, starts)))
    return found


def _pointers(found: dict[str, tuple[int, int]], rng: random.Random) -> list[str]:
    """Every value's pointer, pointers to values not written (a default's place is its parent's),
    tokens the locator does not know ("01", "-1", beyond an array's end), in a random order."""
    pointers = list(found)
    for pointer in list(found):
        pointers += [pointer + "/missing", pointer + "/01", pointer + "/-1", pointer + "/99", pointer + "/0/deeper"]
    rng.shuffle(pointers)
    return pointers


@settings(max_examples=200, deadline=None)
@given(json_values, st.sampled_from([None, 0, 1, 2, "\t"]), st.integers(0, 2**32))
def test_the_locator_and_the_document_order_agree_with_a_full_scan(value, indent, seed):
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    parsed = jsonsource.parse(text.encode("utf-8"), "q.json")
    assert parsed.ok
    found = _every_value(text)
    pointers = _pointers(found, random.Random(seed))
    for pointer in pointers:  # in a random order: the locator reads on, and counts lines back from the start
        expected = found.get(pointer)
        parent = pointer
        while expected is None:
            parent = parent.rsplit("/", 1)[0]
            expected = found.get(parent)
        assert parsed.position(pointer) == expected, pointer
    by_place = sorted(pointers, key=lambda p: parsed.position(p))
    by_order = sorted(pointers, key=parsed.document_order)
    assert [parsed.position(p) for p in by_order] == [parsed.position(p) for p in by_place]
    for a, b in zip(by_order, by_order[1:]):  # the same place, and only then, the same order
        assert (parsed.document_order(a) == parsed.document_order(b)) == (parsed.position(a) == parsed.position(b))


@settings(max_examples=200, deadline=None)
@given(json_values, st.integers(0, 2**32))
def test_written_and_order_is_has_and_document_order_in_one_walk(value, seed):
    """What settle asks of each loss's pointer, in one walk, against the two questions asked
    apart, on every pointer of the data and on those it does not hold ("01", "-1", "/missing")."""
    text = json.dumps(value, ensure_ascii=False)
    parsed = jsonsource.parse(text.encode("utf-8"), "q.json")
    pointers = _pointers(_every_value(text), random.Random(seed))
    pointers += [p + "/~0" for p in pointers[:5]] + [p + "/~1x" for p in pointers[:5]]
    for pointer in pointers:
        apart = (parsed.has(pointer), parsed.document_order(pointer))
        assert parsed.written_and_order(pointer) == apart, pointer


def _unplaced_diagnostics(path: Path, options: ExportOptions):
    result = load_quiz(path, placed=False)
    found = list(result.diagnostics)
    if result.quiz is not None and result.ok:
        for fmt in FORMATS.values():
            found += fmt.check(result.quiz, options)
    return found, result.source


def _reference(found, strict: bool, source) -> tuple:
    """Settled the plain way: each placed from its pointer, then sorted by line and column."""
    kept = [d for d in found if not (d.loss and source is not None and not source.has(d.pointer))]
    return _placed_by_line(list(settle(kept, strict, None)), source)


def test_settled_diagnostics_are_placed_and_ordered_as_by_their_lines():
    checked = 0
    for path in CORPUS:
        for strict in (False, True):
            found, source = _unplaced_diagnostics(path, ExportOptions(strict=strict))
            expected = _reference(found, strict, source)
            assert settle(found, strict, source) == expected, path
            lazy = settle(found, strict, source, lazily=True)
            assert tuple(lazy) == expected, path
            checked += len(expected)
    assert checked > 200  # the corpus gives diagnostics of every kind to order


def test_a_generated_bank_settles_as_by_lines(tmp_path):
    """The benchmark's bank: thousands of warnings over every question type, in one file."""
    import subprocess
    import sys

    subprocess.run([sys.executable, str(ROOT / "bench" / "generate.py"), str(tmp_path), "--questions", "300", "--files", "1",
                    "--seed", "7"], check=True, capture_output=True)
    path = next((tmp_path / "json").glob("*.json"))
    found, source = _unplaced_diagnostics(path, ExportOptions())
    expected = _reference(found, False, source)
    assert len(expected) > 100
    assert settle(found, False, source) == expected
    assert list(settle(found, False, source, lazily=True)) == list(expected)


def test_validate_places_only_what_it_is_asked_for(tmp_path):
    """The diagnostics of `validate` (render=False) are placed when read, each as the eager path places it."""
    path = DATA / "every_type.json"
    outcome = process_quiz(path, tuple(FORMATS), ExportOptions(), render=False)
    assert isinstance(outcome.diagnostics, RecordedDiagnostics)
    assert all(d.line is None for d in outcome.diagnostics._rows)
    placed = list(outcome.diagnostics)
    assert placed and all(d.line is not None for d in placed)
    found, source = _unplaced_diagnostics(path, ExportOptions())
    assert tuple(placed) == _reference(found, False, source)


def test_diagnostics_placed_already_are_sorted_with_the_others_by_line():
    """A diagnostic with its line given (an internal error at 1:1) keeps the plain sort by line."""
    text = '{\n  "a": 1,\n  "b": [1, 2]\n}\n'
    parsed = jsonsource.parse(text.encode(), "q.json")
    given_line = warning("given", "q.json", "/b")
    given_line = type(given_line)(Severity.WARNING, "at the start", "q.json", "/b/1", 1, 1)
    settled = settle([warning("b", "q.json", "/b/1"), given_line, warning("a", "q.json", "/a")], False, parsed)
    assert [(d.message, d.line, d.column) for d in settled] == [("at the start", 1, 1), ("a", 2, 8), ("b", 3, 12)]


def test_semantic_diagnostics_keep_their_places_in_the_loader():
    """load_quiz, as the API gives it, still places every diagnostic itself."""
    for path in CORPUS:
        result = load_quiz(path)
        assert all(d.line is not None for d in result.diagnostics), path
        unplaced = load_quiz(path, placed=False)
        if result.quiz is not None and not any(d.is_error for d in result.diagnostics):
            assert [d.pointer for d in unplaced.diagnostics] == [d.pointer for d in result.diagnostics]
            assert all(d.line is None for d in unplaced.diagnostics), path


def _fresh_position(text: str, pointer: str):
    """Where a locator that has been asked nothing before places `pointer`: no container's
    children read already, no line counted on from an earlier place."""
    return jsonsource._Locator(text).position(pointer)


@settings(max_examples=200, deadline=None)
@given(json_values, st.sampled_from([None, 0, 2]), st.integers(0, 2**32))
def test_the_locator_places_as_a_fresh_one_in_document_order(value, indent, seed):
    """Settling asks in document order, pointers repeated (formats share them): the locator then
    steps over the value of a child it went into, and reads on from the children it kept. Each
    answer is held to a fresh locator's and to the full scan's."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    parsed = jsonsource.parse(text.encode("utf-8"), "q.json")
    found = _every_value(text)
    rng = random.Random(seed)
    # A part of them, as a quiz's diagnostics are: a pointer to a missing value asks for every
    # child of its parent, and with all of them asked no container would be stepped over.
    pointers = rng.sample(_pointers(found, rng), len(found))
    pointers += rng.sample(pointers, min(len(pointers), 5))  # asked again
    for pointer in sorted(pointers, key=parsed.document_order):
        expected = _fresh_position(text, pointer)
        assert parsed.position(pointer) == expected, pointer
        parent = pointer
        while parent not in found:
            parent = parent.rsplit("/", 1)[0]
        assert expected == found[parent], pointer


def _placed_apart(path: Path) -> int:
    """Settles the diagnostics of the quiz at `path` (placed by one locator, in document order)
    and holds each place to a fresh locator's; how many were placed."""
    found, source = _unplaced_diagnostics(path, ExportOptions())
    if source is None or not source.text or not source.ok:
        return 0
    fresh = jsonsource.ParsedJson(source.data, source.text, source.diagnostics)  # nothing asked of it yet
    placed = 0
    for d in settle(found, False, fresh):
        if d.line is not None:
            assert (d.line, d.column) == _fresh_position(source.text, d.pointer), (path, d.pointer)
            placed += 1
    return placed


def test_settling_places_as_a_fresh_locator(tmp_path):
    """Every diagnostic of the corpus and of a generated bank (hundreds of warnings sharing each
    question's pointers) stands where a fresh locator places its pointer."""
    import subprocess
    import sys

    assert sum(_placed_apart(path) for path in CORPUS) > 200
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate.py"), str(tmp_path), "--questions", "300", "--files", "1",
                    "--seed", "11"], check=True, capture_output=True)
    assert _placed_apart(next((tmp_path / "json").glob("*.json"))) > 100

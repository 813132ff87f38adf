"""One verdict on schema validity: the Rust validator (which decides) and the Python one (which
explains) agree on every document, valid or not, and every pattern is anchored at the very end."""

from __future__ import annotations

import copy
import json

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import quiz as quizzes
from typer.testing import CliRunner

from lmsexport.cli import app
from lmsexport.loader import load_quiz
from lmsexport.schema import python_regex, quiz_schema, rust_verdict, schema_errors, validator



def _patterns(node) -> set[str]:
    found = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                found.add(value)
            else:
                found |= _patterns(value)
    elif isinstance(node, list):
        for value in node:
            found |= _patterns(value)
    return found


PATTERNS = sorted(_patterns(quiz_schema()))

# Values a mutation puts into a document: the edges where validators have differed.
_edge_strings = st.sampled_from(["ring\n", "ring\r\n", "\nring", "ring\u2028", "a,b", "a/b", "en\n", "A" * 65, "", " ", "q1\n"])
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False, allow_infinity=False),
                     st.text(max_size=8), _edge_strings)
_json = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                     max_leaves=6)
_keys = st.sampled_from(["id", "type", "stem", "text", "format", "options", "answers", "correct", "credit", "points", "language",
                         "tags", "category", "value", "tolerance", "min", "max", "pairs", "prompt", "answer", "unknown"])


def _containers(node, path=()):
    yield path, node
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        if isinstance(value, (dict, list)):
            yield from _containers(value, (*path, key))


@st.composite
def mutated_quizzes(draw):
    """A valid quiz with one to three changes at random places: most of these are invalid."""
    document = copy.deepcopy(draw(quizzes(max_questions=3)))
    for _ in range(draw(st.integers(1, 3))):
        places = list(_containers(document))
        _, target = places[draw(st.integers(0, len(places) - 1))]
        action = draw(st.sampled_from(["set", "delete", "newline", "edge"]))
        if isinstance(target, dict):
            keys = sorted(target)
            if action == "delete" and keys:
                del target[draw(st.sampled_from(keys))]
            elif action in ("newline", "edge") and any(isinstance(target[k], str) for k in keys):
                key = draw(st.sampled_from([k for k in keys if isinstance(target[k], str)]))
                target[key] = target[key] + "\n" if action == "newline" else draw(_edge_strings)
            else:
                target[draw(_keys)] = draw(_json)
        elif target:
            index = draw(st.integers(0, len(target) - 1))
            if action == "delete":
                del target[index]
            else:
                target[index] = draw(_json)
    return document


@given(document=mutated_quizzes())
def test_both_validators_agree_on_valid_and_invalid_documents(document):
    rust = rust_verdict(document)
    python = validator().is_valid(document)
    # The Rust validator decides; where it cannot take a document (None), the Python one does.
    assert rust in (python, None), json.dumps(document, ensure_ascii=False)[:2000]
    # And a document that is not valid is never reported as clean.
    assert (python if rust is None else rust) or list(schema_errors(document, "quiz.json"))


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=60)
@given(data=st.data())
def test_each_pattern_means_the_same_to_both_validators(pattern, data):
    rust = jsonschema_rs.Draft202012Validator({"type": "string", "pattern": pattern})
    text = data.draw(st.one_of(st.from_regex(pattern), st.from_regex(pattern).map(lambda s: s + "\n"), st.text(max_size=10)))
    assert rust.is_valid(text) == bool(python_regex(pattern).search(text)), repr(text)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_pattern_is_anchored_at_both_ends(pattern):
    assert pattern.startswith("^") and pattern.endswith("$"), pattern
    rust = jsonschema_rs.Draft202012Validator({"type": "string", "pattern": pattern})
    example = next(s for s in ("ring", "en", "a", "x1") if python_regex(pattern).search(s))
    for text in (example + "\n", "\n" + example, example + "\r\n", f"{example}\n{example}"):
        assert rust.is_valid(text) == bool(python_regex(pattern).search(text)), (pattern, text)


@pytest.mark.parametrize("where", ["/properties/id/pattern", "/$defs/identifier/pattern", "/$defs/language/pattern"])
def test_ids_and_languages_ending_in_a_newline_are_refused_by_both(where):
    node = quiz_schema()
    for part in where.strip("/").split("/"):
        node = node[part]
    for text in ("ring\n", "en\n"):
        assert not python_regex(node).search(text)
        assert not jsonschema_rs.Draft202012Validator({"type": "string", "pattern": node}).is_valid(text)


def test_an_id_ending_in_a_newline_is_a_located_error_and_writes_nothing(tmp_path, monkeypatch):
    quiz = {"id": "ring\n", "title": "Ring", "questions": [
        {"id": "q1\n", "type": "true_false", "stem": "True?", "answer": True}]}
    path = tmp_path / "content" / "ring.json"
    path.parent.mkdir()
    path.write_text(json.dumps(quiz, indent=2), encoding="utf-8")
    result = load_quiz(path)
    errors = {d.pointer: d for d in result.diagnostics if d.is_error}
    assert "/id" in errors and "/questions/0/id" in errors, [d.message for d in result.diagnostics]
    assert errors["/id"].line == 2 and "not a valid quiz id" in errors["/id"].message
    monkeypatch.chdir(tmp_path)
    built = CliRunner().invoke(app, ["build"])
    assert built.exit_code == 1
    assert not any("\n" in p.name for p in tmp_path.rglob("*"))


@pytest.mark.parametrize("where", ["tags", "id", "language"])
def test_a_lone_surrogate_where_a_pattern_applies_is_an_error_not_a_traceback(tmp_path, where):
    # The Rust validator cannot take a string UTF-8 cannot encode; the Python one judges it.
    quiz = {"id": "ring", "title": "Ring", "language": "en", "questions": [{"id": "q1", "type": "essay", "stem": "S"}]}
    quiz[where] = ["x\ud800"] if where == "tags" else "x\ud800"
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps(quiz), encoding="utf-8")  # ensure_ascii: the file holds the escape \ud800
    result = load_quiz(path)
    assert result.quiz is None and any(d.is_error and d.pointer.startswith(f"/{where}") for d in result.diagnostics)


def test_the_python_validator_is_loaded_only_for_a_file_it_must_explain(tmp_path):
    """A valid quiz is judged by the Rust validator alone; the Python one, slow to import, comes
    in only to explain an invalid file."""
    import subprocess
    import sys

    good = tmp_path / "good.json"
    good.write_text('{"id": "q", "title": "T", "language": "en", "questions": [{"id": "a", "type": "essay", "stem": "S"}]}')
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "q", "title": "T", "language": "en", "questions": [{"id": "a", "type": "essay"}]}')
    script = ("import sys; from pathlib import Path; from lmsexport.loader import load_quiz; r = load_quiz(Path(sys.argv[1]));"
              "print(r.ok, 'jsonschema' in sys.modules, [d.message for d in r.diagnostics if d.is_error])")
    shown = [subprocess.run([sys.executable, "-c", script, str(p)], capture_output=True, text=True, check=True).stdout.strip()
             for p in (good, bad)]
    assert shown == ["True False []", "False True [\"the required property 'stem' is missing\"]"]

"""The model's fast constructors (model.constructor), which canonical.py builds a quiz with, make
the very objects the dataclasses' own __init__ makes."""

from __future__ import annotations

import dataclasses
import inspect
import json

import pytest
from conftest import CONTENT, DATA, ROOT
from hypothesis import given, settings

import strategies
from lmsexport import canonical, model
from lmsexport.jsonsource import parse
from lmsexport.schema import schema_errors

CLASSES = [c for c in vars(model).values() if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == model.__name__]
CORPUS = sorted([*DATA.rglob("*.json"), *CONTENT.glob("*.json"), *(ROOT / "examples").glob("*.json")])


def _parameters(function, skip_self: bool):
    """(name, kind, has a default) of each parameter; the defaults themselves are compared by
    what they make (a factory's default shows as a sentinel of each kind)."""
    found = list(inspect.signature(function).parameters.values())[1 if skip_self else 0:]
    return [(p.name, p.kind, p.default is not inspect.Parameter.empty) for p in found]


def test_every_model_class_is_covered():
    assert len(CLASSES) >= 25
    assert {c.__name__ for c in canonical._new} <= {c.__name__ for c in CLASSES}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_constructor_takes_what_init_takes_and_makes_the_same_object(cls):
    make = model.constructor(cls)
    assert _parameters(make, skip_self=False) == _parameters(cls.__init__, skip_self=True)
    # The required fields given, the rest left to their defaults (and factories), then every field given.
    required = {f.name: f"{f.name}-value" for f in dataclasses.fields(cls)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    every = {f.name: (f"{f.name}-other",) for f in dataclasses.fields(cls)}
    for given_fields in (required, every):
        made, expected = make(**given_fields), cls(**given_fields)
        assert type(made) is cls
        assert repr(made) == repr(expected)  # every field, those not compared (location) too
        assert made == expected and hash(made) == hash(expected)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, dataclasses.fields(cls)[0].name, "changed")


def _built_both_ways(data: dict, monkeypatch) -> tuple[str, str]:
    fast = canonical.build_quiz(data, "q.json")
    with monkeypatch.context() as patched:
        patched.setattr(canonical, "_new", {cls: cls for cls in canonical._new})
        reference = canonical.build_quiz(data, "q.json")
    return repr(fast), repr(reference)


def test_the_corpus_builds_alike_with_the_dataclasses_own_init(monkeypatch):
    built = 0
    for path in CORPUS:
        parsed = parse(path.read_bytes(), str(path))
        if not parsed.ok or list(schema_errors(parsed.data, str(path))):
            continue
        fast, reference = _built_both_ways(parsed.data, monkeypatch)
        assert fast == reference, path
        built += 1
    assert built >= 15


@settings(max_examples=60, deadline=None)
@given(strategies.quiz())
def test_generated_quizzes_build_alike_with_the_dataclasses_own_init(data):
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, reference = _built_both_ways(json.loads(json.dumps(data)), monkeypatch)
    assert fast == reference

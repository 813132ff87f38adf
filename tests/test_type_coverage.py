"""Every question type and blank kind is known to the schema, the model, the checks, every writer,
the preview and the readers that build the model's types: each dispatches by a table keyed by the
model's class, and a table that forgets a type fails here, not silently in an export."""

from __future__ import annotations

import importlib

import pytest

from lmsexport.model import BLANK_KINDS, QUESTION_TYPES, Description, Essay
from lmsexport.schema import quiz_schema as load_schema

EVERY_TYPE = set(QUESTION_TYPES.values())
EVERY_BLANK = set(BLANK_KINDS.values())

# (module, table, what it must cover beyond its own keys): every per-type table of the code.
QUESTION_TABLES = [
    ("lmsexport.canonical", "_QUESTIONS", set()),
    ("lmsexport.checks", "TYPE_RULES", set()),
    # Essay and description have no scored interaction: the item builder writes them itself.
    ("lmsexport.writers.qti.item", "_BUILDERS", {Essay, Description}),
    ("lmsexport.writers.canvas.assessment", "_FILL", set()),
    ("lmsexport.writers.canvas.item", "QUESTION_TYPES", set()),
    ("lmsexport.writers.moodle.moodle_xml.questions", "WRITERS", set()),
    ("lmsexport.writers.moodle.gift.questions", "WRITERS", set()),
    ("lmsexport.writers.moodle.check", "CREDITS", set()),
    ("lmsexport.writers.canvas.losses", "RULES", set()),
    ("lmsexport.writers.qti.check", "INTERACTION_RULES", set()),
    ("lmsexport.preview.student", "CONTROLS", set()),
    ("lmsexport.preview.key", "KEY_DATA", set()),
    ("lmsexport.preview.key", "ANSWERS", set()),
    ("lmsexport.importers.canonical_json", "QUESTION_FIELDS", set()),
]
# Tables that name some types on purpose: the item types Canvas cannot guess from a QTI item.
# The question types GIFT's missing word form can turn into a blank.
PARTIAL_TABLES = {("lmsexport.writers.qti", "_CANVAS_TYPES"), ("lmsexport.importers.gift.reader", "_AS_BLANK")}
BLANK_TABLES = [
    ("lmsexport.writers.moodle.gift.questions", "STAND_INS"),
    ("lmsexport.writers.qti.blanks", "BLANK_WRITERS"),
    ("lmsexport.writers.moodle.moodle_xml.cloze", "SUB_QUESTIONS"),
    ("lmsexport.checks.blanks", "BLANK_RULES"),
    ("lmsexport.preview.key", "BLANK_KEYS"),
    ("lmsexport.preview.key", "BLANK_ANSWERS"),
    ("lmsexport.preview.student", "BLANK_CONTROLS"),
    ("lmsexport.importers.canonical_json", "BLANK_FIELDS"),
    ("lmsexport.writers.moodle.gift.questions", "AS_QUESTION"),
    ("lmsexport.writers.canvas.losses", "BLANK_RULES"),
    ("lmsexport.writers.canvas.blanks_item", "ACCEPTED_TEXTS"),
    ("lmsexport.writers.qti.check", "BLANK_FEEDBACK"),
]


def test_the_schema_names_exactly_the_models_types():
    schema = load_schema()
    assert set(schema["$defs"]["question"]["properties"]["type"]["enum"]) == set(QUESTION_TYPES)
    branches = {c["if"]["properties"]["type"]["const"] for c in schema["$defs"]["question"]["allOf"]}
    assert branches == set(QUESTION_TYPES)
    assert set(schema["$defs"]["blank"]["properties"]["type"]["enum"]) == set(BLANK_KINDS)


@pytest.mark.parametrize("module, table, written_otherwise", QUESTION_TABLES, ids=[f"{m}.{t}" for m, t, _ in QUESTION_TABLES])
def test_every_table_covers_every_question_type(module, table, written_otherwise):
    keys = set(getattr(importlib.import_module(module), table))
    assert keys | written_otherwise == EVERY_TYPE
    assert not keys & written_otherwise


@pytest.mark.parametrize("module, table", BLANK_TABLES, ids=[f"{m}.{t}" for m, t in BLANK_TABLES])
def test_every_blank_table_covers_every_blank_kind(module, table):
    assert set(getattr(importlib.import_module(module), table)) == EVERY_BLANK


def test_nothing_dispatches_on_a_question_by_a_method_name():
    """Dispatch by method name ("_" + question.type) escapes the table tests above: none is left.
    (A reader dispatches on its platform's own type names, which no model class stands for.)"""
    from pathlib import Path

    import lmsexport

    package = Path(lmsexport.__file__).parent
    found = [str(p.relative_to(package)) for p in package.rglob("*.py") if '"_" + question.type' in p.read_text(encoding="utf-8")]
    assert found == []


def _tables_keyed_by(base: type) -> dict[int, set[tuple[str, str]]]:
    """Every module-level dict of the package keyed by subclasses of `base`, each once (by
    identity) with every name it has wherever a module imports it."""
    from pathlib import Path

    import lmsexport

    package = Path(lmsexport.__file__).parent
    places: dict[int, set[tuple[str, str]]] = {}
    for path in sorted(package.rglob("*.py")):  # files, not pkgutil: writers/moodle is a namespace package
        if path.name == "__main__.py":  # runs the command line
            continue
        parts = path.relative_to(package.parent).with_suffix("").parts
        module = importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        for name, value in vars(module).items():
            if isinstance(value, dict) and value and all(isinstance(k, type) and issubclass(k, base) for k in value):
                places.setdefault(id(value), set()).add((module.__name__, name))
    return places


def test_every_table_keyed_by_question_types_is_listed_here():
    """A table added later is checked too: every module-level dict of the package keyed by question
    classes is one of QUESTION_TABLES (wherever a module imports it from)."""
    from lmsexport.model import Question

    places = _tables_keyed_by(Question)
    listed = {(module, table) for module, table, _ in QUESTION_TABLES} | PARTIAL_TABLES
    unlisted = [sorted(names) for names in places.values() if not names & listed]
    assert unlisted == []
    assert len(places) == len(listed)


def test_every_table_keyed_by_blank_kinds_is_listed_here():
    from lmsexport.model import Blank

    places = _tables_keyed_by(Blank)
    listed = set(BLANK_TABLES)
    unlisted = [sorted(names) for names in places.values() if not names & listed]
    assert unlisted == []
    assert len(places) == len(listed)

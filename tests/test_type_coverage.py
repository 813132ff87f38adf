"""Every question type is known to the schema, the model, the checks and every writer: each
dispatches by a table keyed by the model's class, and a table that forgets a type fails here, not
silently in an export."""

from __future__ import annotations

import importlib

import pytest

from lmsexport.model import BLANK_KINDS, QUESTION_TYPES, Description, Essay
from lmsexport.schema import quiz_schema as load_schema

EVERY_TYPE = set(QUESTION_TYPES.values())
EVERY_BLANK = set(BLANK_KINDS.values())

# (module, table, what it must cover beyond its own keys): every per-type table of the code.
QUESTION_TABLES = [
    ("lmsexport.checks", "TYPE_RULES", set()),
    # Essay and description have no scored interaction: the item builder writes them itself.
    ("lmsexport.writers.qti.item", "_BUILDERS", {Essay, Description}),
    ("lmsexport.writers.canvas.assessment", "_FILL", set()),
    ("lmsexport.writers.canvas.item", "QUESTION_TYPES", set()),
    ("lmsexport.writers.moodle.moodle_xml.questions", "WRITERS", set()),
    ("lmsexport.writers.moodle.gift.questions", "WRITERS", set()),
    ("lmsexport.preview.student", "CONTROLS", set()),
]
BLANK_TABLES = [
    ("lmsexport.writers.moodle.gift.questions", "STAND_INS"),
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

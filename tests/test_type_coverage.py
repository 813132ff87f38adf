"""Every question type is known to the schema, the model and every writer: a type that one of
them forgets fails here, not silently in an export."""

from __future__ import annotations

import pytest

from lmsexport.model import BLANK_KINDS, QUESTION_TYPES, Description, Essay
from lmsexport.schema import quiz_schema as load_schema

EVERY_TYPE = set(QUESTION_TYPES.values())


def test_the_schema_names_exactly_the_models_types():
    schema = load_schema()
    assert set(schema["$defs"]["question"]["properties"]["type"]["enum"]) == set(QUESTION_TYPES)
    branches = {c["if"]["properties"]["type"]["const"] for c in schema["$defs"]["question"]["allOf"]}
    assert branches == set(QUESTION_TYPES)
    assert set(schema["$defs"]["blank"]["properties"]["type"]["enum"]) == set(BLANK_KINDS)


def test_qti_builds_every_type():
    from lmsexport.writers.qti.item import _BUILDERS

    # Essay and description have no scored interaction: the item builder writes them itself.
    assert set(_BUILDERS) | {Essay, Description} == EVERY_TYPE


def test_canvas_builds_every_type():
    from lmsexport.writers.canvas.assessment import _FILL
    from lmsexport.writers.canvas.item import QUESTION_TYPES as CANVAS_TYPES

    assert set(_FILL) == EVERY_TYPE
    assert set(CANVAS_TYPES) == EVERY_TYPE


@pytest.mark.parametrize("module", ["lmsexport.writers.moodle.moodle_xml.questions", "lmsexport.writers.moodle.gift.questions"])
def test_moodle_formats_write_every_type(module):
    import importlib

    writer = importlib.import_module(module)
    cls = getattr(writer, "QuestionWriter", None) or getattr(writer, "BlockWriter")
    missing = [t for t in QUESTION_TYPES if not callable(getattr(cls, "_" + t, None))]
    assert not missing

"""The guarantee the XML writers rely on instead of checking it again: loading refuses a character
XML 1.0 cannot hold in every string of a quiz, each at its own place, so no model holds one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import DATA

from lmsexport.loader import load_quiz

# A C0 control, the two controls between the allowed ones, a lone surrogate of each kind, the two noncharacters.
NOT_XML = ["\x01", "\x0b", "\x1f", "\ud800", "\udfff", "\ufffe", "\uffff"]
FILES = ["every_type.json", "sections.json", "hostile_strings.json", "blanks.json", "ordering.json"]
# Strings whose value picks the schema a document is read with (a question's type, the schema's own
# address): changed, they make other errors instead of being read as text.
_SELECTORS = {"type", "$schema", "text_format", "grading", "kind"}


def _spoiled(value: Any, bad: str, pointer: str = "") -> Iterator[tuple[str, Any]]:
    """(pointer, value) of every string of a document, each with `bad` inside it."""
    if isinstance(value, str):
        yield pointer, value[:1] + bad + value[1:]
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in _SELECTORS:
                yield from _spoiled(item, bad, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _spoiled(item, bad, f"{pointer}/{index}")


def _set(document: Any, pointer: str, value: Any) -> None:
    *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    for part in parents:
        document = document[int(part) if isinstance(document, list) else part]
    document[int(last) if isinstance(document, list) else last] = value


@pytest.mark.parametrize("bad", NOT_XML, ids=[f"U+{ord(c):04X}" for c in NOT_XML])
@pytest.mark.parametrize("name", FILES)
def test_every_string_holding_a_character_xml_cannot_hold_is_refused_at_its_place(tmp_path, name, bad):
    document = json.loads((DATA / name).read_text(encoding="utf-8"))
    spoiled = dict(_spoiled(document, bad))
    assert len(spoiled) > 10
    for pointer, value in spoiled.items():
        _set(document, pointer, value)
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")  # ensure_ascii: surrogates as escapes
    result = load_quiz(path)
    assert not result.ok
    refused = {d.pointer for d in result.diagnostics if d.is_error and d.code == "xml-char"}
    assert refused == set(spoiled)

"""The quiz schema as editors read it: hovers in Markdown, a description for each enum value, and
each property's own words on hover. The last test asks VS Code's own JSON engine
(vscode-json-languageservice, from npm) what it shows."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from lmsexport.schema import quiz_schema

QUIZ = {"id": "ring", "title": "Ring", "language": "en", "text_format": "markdown", "questions": [
    {"id": "q1", "type": "single_choice", "stem": "Which?", "explanation": "Because.",
     "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]}]}


def _nodes(node, path=""):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key in ("properties", "$defs"):  # maps of names to schemas
                for name, sub in value.items():
                    yield from _nodes(sub, f"{path}/{key}/{name}")
            elif key not in ("enum", "const", "examples", "default", "description", "markdownDescription",
                             "enumDescriptions", "markdownEnumDescriptions"):
                yield from _nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _nodes(value, f"{path}/{i}")


def test_every_description_has_a_markdown_description():
    missing = [p for p, n in _nodes(quiz_schema()) if "description" in n and "markdownDescription" not in n]
    assert not missing, f"run python3 tools/editor_schema.py: {missing}"


def test_every_enum_describes_each_value():
    enums = [(p, n) for p, n in _nodes(quiz_schema()) if "enum" in n]
    assert len(enums) >= 4
    for path, node in enums:
        for key in ("enumDescriptions", "markdownEnumDescriptions"):
            assert len(node.get(key, [])) == len(node["enum"]) and all(len(d) > 10 for d in node[key]), (path, key)


def test_the_stem_says_what_a_stem_is():
    stems = [n for p, n in _nodes(quiz_schema()) if p.endswith("/properties/stem")]
    assert len(stems) >= 8
    for stem in stems:
        assert stem["description"].startswith("The stem: the question itself"), stem


def test_shared_types_leave_the_hover_to_the_property_that_uses_them():
    defs = quiz_schema()["$defs"]
    for name in ("text", "language", "identifier", "credit"):
        assert "description" not in defs[name], name
    assert all("description" not in branch for branch in defs["text"]["oneOf"])


def test_the_schema_is_as_the_editor_tool_leaves_it(tmp_path):
    # The tool is idempotent: on a schema it already prepared it changes nothing.
    copy = tmp_path / "repo"
    (copy / "tools").mkdir(parents=True)
    (copy / "src" / "lmsexport").mkdir(parents=True)
    (copy / "schema").mkdir()
    shutil.copy(ROOT / "tools" / "editor_schema.py", copy / "tools")
    shutil.copy(ROOT / "src" / "lmsexport" / "quiz.schema.json", copy / "src" / "lmsexport")
    subprocess.run([sys.executable, str(copy / "tools" / "editor_schema.py")], check=True, timeout=60)
    assert (copy / "src" / "lmsexport" / "quiz.schema.json").read_bytes() == (ROOT / "src" / "lmsexport" / "quiz.schema.json").read_bytes(), \
        "run python3 tools/editor_schema.py"


def test_the_two_schema_copies_are_one():
    assert (ROOT / "schema" / "quiz.schema.json").read_bytes() == (ROOT / "src" / "lmsexport" / "quiz.schema.json").read_bytes()


@pytest.mark.skipif(not os.environ.get("LMSEXPORT_SLOW_CHECKS"), reason="installs VS Code's JSON engine from npm: run `make install-checks`")
def test_vscode_json_engine_shows_the_stem_and_value_descriptions(tmp_path):
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed (apt-get install nodejs npm)")
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(tmp_path), "vscode-json-languageservice@5"],
                   check=True, capture_output=True, timeout=600)
    shutil.copy(ROOT / "tests" / "vscode_hover.js", tmp_path / "hover.js")
    (tmp_path / "quiz.json").write_text(json.dumps(QUIZ, indent=2), encoding="utf-8")
    result = subprocess.run(["node", "hover.js", str(ROOT / "schema" / "quiz.schema.json"), "quiz.json", "stem", "language", "explanation", "text_format"],
                            cwd=tmp_path, capture_output=True, text=True, check=True, timeout=120)
    seen = json.loads(result.stdout)
    assert seen["diagnostics"] == []
    assert seen["hovers"]["stem"].startswith("The stem: the question itself")
    assert seen["hovers"]["language"].startswith("Main language of the quiz")
    assert seen["hovers"]["explanation"].startswith("General feedback")
    assert "`markdown`: CommonMark" in seen["hovers"]["text_format"]  # the value's own description
    types = {c["label"].strip('"'): c["doc"] for c in seen["typeCompletions"]}
    assert set(types) >= {"single_choice", "matching", "essay"} and all(types.values())

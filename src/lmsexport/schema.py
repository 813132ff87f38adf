"""The packaged JSON Schema of a quiz, and schema violations as plain-language diagnostics."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

from jsonschema import Draft202012Validator

from .diagnostics import Diagnostic, error


def schema_path():
    return resources.files("lmsexport") / "quiz.schema.json"


@lru_cache(maxsize=1)
def quiz_schema() -> dict[str, Any]:
    return json.loads(schema_path().read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    return Draft202012Validator(quiz_schema())


def schema_errors(data: Any, file: str) -> Iterator[Diagnostic]:
    for problem in validator().iter_errors(data):
        pointer = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in problem.absolute_path)
        yield error(problem.message, file, pointer, code="schema")

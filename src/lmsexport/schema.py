"""The packaged JSON Schema of a quiz, and schema violations as plain-language diagnostics."""

from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterator

import jsonschema_rs

from .diagnostics import Diagnostic, error, pointer_join

if TYPE_CHECKING:  # the Python validator only explains invalid files: it is imported when one is met
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


def schema_path():
    return resources.files("lmsexport") / "quiz.schema.json"


@lru_cache(maxsize=1)
def quiz_schema() -> dict[str, Any]:
    return json.loads(schema_path().read_text(encoding="utf-8"))


@lru_cache(maxsize=256)
def python_regex(pattern: str) -> re.Pattern[str]:
    r"""A schema `pattern` (ECMA-262, as editors and the Rust validator read it) as a Python regex.

    ECMA's `$` without the multiline flag matches only at the very end; Python's also matches before
    a final newline, so `^[a-z]+$` would accept "ring\n". Outside character classes `$` becomes
    `\Z`, and ASCII matching keeps `\d` and `\w` to the ASCII characters ECMA gives them.
    """
    translated: list[str] = []
    in_class = escaped = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        translated.append(char)
    return re.compile("".join(translated), re.ASCII)


def _pattern(validator, pattern: str, instance: Any, schema: dict) -> Iterator[ValidationError]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not python_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def validator() -> Draft202012Validator:
    """The stock validator with ECMA-262 pattern semantics, so that it and the Rust one agree on
    every document (a property test holds them to it). Imported on first use: a valid file
    never needs it, and the import costs more than checking a small quiz."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {"pattern": _pattern})(quiz_schema())


@lru_cache(maxsize=1)
def fast_validator():
    # The Rust validator answers "valid?" a few hundred times faster than the Python one; the
    # Python one still explains every problem of an invalid file, with its place.
    return jsonschema_rs.Draft202012Validator(quiz_schema())


_TYPE_NAMES = {"string": "text", "number": "a number", "integer": "a whole number", "boolean": "true or false",
               "array": "a list [...]", "object": "an object {...}", "null": "null"}


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"


def _pattern_message(problem: ValidationError) -> str:
    pattern = problem.schema.get("pattern", "")
    value = problem.instance
    if pattern == quiz_schema()["properties"]["id"]["pattern"]:
        return f"{value!r} is not a valid quiz id: use lower-case letters, digits and single '-' (a slug such as 'ring-attention')"
    if pattern == quiz_schema()["$defs"]["identifier"]["pattern"]:
        return f"{value!r} is not a valid id: start with a letter, then letters, digits, '-' or '_' (at most 64)"
    if pattern == quiz_schema()["$defs"]["language"]["pattern"]:
        return f"{value!r} is not a well-formed language tag (BCP 47, such as 'en', 'wo' or 'pt-BR')"
    if pattern == "^[^,]+$":
        return f"{value!r}: a tag cannot contain a comma"
    if pattern == "^[^/]+$":
        return f"{value!r}: a category name cannot contain '/'"
    return f"{value!r} does not have the expected form ({pattern})"


def _message(problem: ValidationError) -> tuple[str, str]:
    """A plain sentence for one violation, and the pointer it is about."""
    pointer = "".join(pointer_join("", p) for p in problem.absolute_path)
    kind = problem.validator
    value = problem.instance
    if kind == "required":
        missing = problem.message.split("'")[1] if "'" in problem.message else problem.message
        return f"the required property '{missing}' is missing", pointer
    if kind == "additionalProperties":
        allowed = sorted(problem.schema.get("properties", {}))
        extra = sorted(set(value) - set(allowed))
        hints = []
        for name in extra:
            close = difflib.get_close_matches(name, allowed, n=1)
            hints.append(f"'{name}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
        where = pointer_join(pointer, extra[0]) if len(extra) == 1 else pointer
        return f"unknown propert{'y' if len(extra) == 1 else 'ies'} {', '.join(hints)}; allowed here: {', '.join(allowed)}", where
    if kind == "type":
        wanted = problem.validator_value
        wanted = [wanted] if isinstance(wanted, str) else wanted
        expected = " or ".join(_TYPE_NAMES[w] for w in wanted)
        if "object" in wanted and problem.schema.get("required"):  # say what the object must hold
            expected += " with " + ", ".join(f"'{key}'" for key in problem.schema["required"])
        return f"expected {expected}, found {_kind(value)}", pointer
    if kind == "enum":
        return f"{value!r} is not allowed here; use one of: {', '.join(map(str, problem.validator_value))}", pointer
    if kind == "const":
        return f"expected {problem.validator_value!r}, found {value!r}", pointer
    if kind == "minLength":
        return "this text must not be empty", pointer
    if kind == "maxLength":
        return f"this text is longer than {problem.validator_value} characters", pointer
    if kind == "pattern":
        return _pattern_message(problem), pointer
    if kind in ("minimum", "exclusiveMinimum"):
        return f"{value} is below the smallest allowed value, {problem.validator_value}", pointer
    if kind in ("maximum", "exclusiveMaximum"):
        return f"{value} is above the largest allowed value, {problem.validator_value}", pointer
    if kind == "minItems":
        return f"this list needs at least {problem.validator_value} item{'s' if problem.validator_value != 1 else ''}", pointer
    if kind == "uniqueItems":
        return "this list has the same item twice", pointer
    if kind == "oneOf" and problem.schema == quiz_schema()["$defs"]["text"]:
        if isinstance(value, (str, dict)):
            branch = 0 if isinstance(value, str) else 1
            from jsonschema.exceptions import best_match

            inner = best_match(e for e in problem.context if e.relative_schema_path[0] == branch)
            return _message(inner) if inner is not None else ("this text is not valid", pointer)
        return f"expected text (a string, or an object with 'text' and 'format'), found {_kind(value)}", pointer
    if kind == "oneOf":  # the only other oneOf: a numerical answer
        return "a numerical answer has either 'value' (with an optional 'tolerance') or both 'min' and 'max'", pointer
    return problem.message, pointer


def _document_order(path) -> list[tuple[int, int, str]]:
    return [(0, x, "") if isinstance(x, int) else (1, 0, x) for x in path]


def rust_verdict(data: Any) -> bool | None:
    """The Rust validator's verdict, or None for a document it cannot take: a string UTF-8 cannot
    encode (a lone surrogate), or, in older releases, an integer beyond 64 bits."""
    try:
        return fast_validator().is_valid(data)
    except (UnicodeError, ValueError, OverflowError, SystemError):
        return None


def schema_errors(data: Any, file: str) -> Iterator[Diagnostic]:
    """Every schema violation, in document order.

    The Rust validator is the one authority on validity; the Python one explains. Should the two
    ever disagree, the Rust validator's own words are reported rather than nothing. A document the
    Rust validator cannot take at all (see rust_verdict) is judged by the Python validator alone.
    """
    rust_valid = rust_verdict(data)
    if rust_valid:
        return
    problems = sorted(validator().iter_errors(data), key=lambda p: _document_order(p.absolute_path))
    seen: set[tuple[str, str]] = set()
    for problem in problems:
        message, pointer = _message(problem)
        # A value of the wrong type fails each branch of a schema (one per question type): once is enough.
        key = (problem.validator, pointer) if problem.validator == "type" else (message, pointer)
        if key not in seen:
            seen.add(key)
            yield error(message, file, pointer, code="schema")
    if not seen and rust_valid is False:
        for problem in sorted(fast_validator().iter_errors(data), key=lambda p: _document_order(p.instance_path)):
            pointer = "".join(pointer_join("", p) for p in problem.instance_path)
            if (problem.message, pointer) not in seen:
                seen.add((problem.message, pointer))
                yield error(problem.message, file, pointer, code="schema")

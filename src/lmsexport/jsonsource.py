"""Reading a JSON file the strict way: encoding, syntax, duplicate keys, NaN, and where things are.

A plain `json.load` silently keeps the last of two duplicate keys and accepts NaN; both lose
an author's content without a word, so both are errors here. Positions (line and column of a
JSON pointer) are worked out only when a diagnostic needs them, so valid files pay nothing.
"""

from __future__ import annotations

import bisect
import json
import math
from operator import indexOf
import re
from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Diagnostic, error

UTF8_BOM = b"\xef\xbb\xbf"



def written_at(data: object, pointer: str) -> bool:
    """Whether `data` holds a value at the JSON pointer."""
    value = data
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return False
    return True

@dataclass
class ParsedJson:
    """A quiz file parsed: its data, its text (for finding where values stand) and the problems
    found in reading it."""

    data: Any = None
    text: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _locator: "_Locator | None" = None

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def has(self, pointer: str) -> bool:
        """Whether the author wrote a value at `pointer` (a default has no place in the file)."""
        return written_at(self.data, pointer)

    def position(self, pointer: str) -> tuple[int, int] | None:
        """(line, column) where the value at `pointer` starts, or its nearest parent's."""
        if self._locator is None:
            self._locator = _Locator(self.text)
        return self._locator.position(pointer)

    def written_and_order(self, pointer: str) -> tuple[bool, tuple[int, ...]]:
        """`has(pointer)` and `document_order(pointer)` in one walk down the data: settling a
        quiz's diagnostics asks both of each loss's pointer (tests/test_placement.py holds the
        pair to the two)."""
        value, order = self.data, []
        for token in pointer.split("/")[1:]:
            if isinstance(value, dict):
                key = token.replace("~1", "/").replace("~0", "~") if "~" in token else token
                if key not in value:
                    return False, tuple(order)
                # The key's ordinal among the object's keys, found by C's scan of them: an
                # object holds a few keys, so a table of ordinals per object costs more to make
                # than the scans it would save.
                order.append(indexOf(value, key))
                value = value[key]
            elif isinstance(value, list):
                if not (token.isascii() and token.isdigit() and (token == "0" or token[0] != "0")):
                    # not an index the order knows ("01"): the order stops here, `has` reads on
                    return written_at(self.data, pointer), tuple(order)
                index = int(token)
                if index >= len(value):
                    return False, tuple(order)
                order.append(index)
                value = value[index]
            else:
                return False, tuple(order)
        return True, tuple(order)

    def document_order(self, pointer: str) -> tuple[int, ...]:
        """Where the value at `pointer` (or its nearest written parent, as `position` finds it)
        stands in the file, as the ordinals of its keys and indexes, read off the parsed data:
        sorting by it sorts by line and column, without looking for either in the text. Keys
        keep the file's order (the parser keeps it, and a duplicate key is an error)."""
        return self.written_and_order(pointer)[1]


class _Locator:
    """Finds where values start, skipping whole values with the C JSON scanner. A container's
    children are read only as far as the one looked for, and kept, so many lookups in one file
    stay cheap and a lookup never reads past what it needs (the questions after the last one
    asked about, the top level's keys after "questions")."""

    _scan = json.JSONDecoder().scan_once  # (value, end) of the value at an offset; StopIteration if none

    def __init__(self, text: str):
        self.text = text
        # offset of a container -> (pointer token -> offset of each child read so far)
        self.children: dict[int, dict[str, int]] = {}
        # offset of a container -> (where its next child starts, that child's index, False) while
        # unread children remain; (where the value of the child found last starts, the next
        # child's index, True) until a later child is wanted
        self.unread: dict[int, tuple[int, int, bool]] = {}
        self.counted = (0, 1)  # (offset, its line): lines are counted on from the last place asked for

    def _skip_space(self, offset: int) -> int:
        return _SPACE.match(self.text, offset).end()

    def _child(self, offset: int, wanted: str) -> int | None:
        """The offset of the child `wanted` (a pointer token) of the container at `offset`."""
        known = self.children.get(offset)
        if known is None:
            known = self.children[offset] = {}
            self.unread[offset] = (self._skip_space(offset + 1), 0, False)
        elif wanted in known:
            return known[wanted]
        if offset not in self.unread:
            return None
        # The C scanner itself (what raw_decode wraps) and one regex for each run of separators:
        # a bank's diagnostics have this loop step over a few dozen values a question.
        text, scan, colon, comma = self.text, self._scan, _COLON.match, _COMMA.match
        is_object = text[offset] == "{"
        position, index, at_value = self.unread[offset]
        if at_value:
            # The value of the child found last is stepped over only now that a later child is
            # wanted: the top level's "questions" is not read whole to find one question in it.
            position = comma(text, scan(text, position)[1]).end()
        while position < len(text) and text[position] not in "]}":
            if is_object:
                key, position = scan(text, position)
                position = colon(text, position).end()
                token = key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key
            else:
                token = str(index)
            index += 1
            known.setdefault(token, position)
            if token == wanted:
                self.unread[offset] = (position, index, True)
                return known[token]
            _, position = scan(text, position)
            position = comma(text, position).end()
        del self.unread[offset]
        return None

    def position(self, pointer: str) -> tuple[int, int] | None:
        try:
            offset = self._skip_space(0)
            for token in pointer.split("/")[1:]:
                if self.text[offset] not in "[{":
                    break
                child = self._child(offset, token)
                if child is None:
                    break
                offset = child
        except (ValueError, IndexError, StopIteration):
            return None
        return self._line_column(offset)

    def _line_column(self, offset: int) -> tuple[int, int]:
        # Lines are counted from the last offset asked for (placing a quiz's diagnostics asks in
        # file order), or from the start when asked for an earlier one.
        start, line = self.counted
        if offset < start:
            start, line = 0, 1
        line += self.text.count("\n", start, offset)
        self.counted = (offset, line)
        return line, offset - self.text.rfind("\n", 0, offset)


def decode(raw: bytes, file: str) -> tuple[str | None, Diagnostic | None]:
    """The text of a UTF-8 file (a BOM is accepted), or an error naming the encoding it seems to be in."""
    if raw.startswith(UTF8_BOM):
        raw = raw[len(UTF8_BOM):]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) >= 2 and (raw[0] == 0 or raw[1] == 0)):
        return None, error("the file is UTF-16, not UTF-8: save it as UTF-8", file, line=1, column=1, code="encoding")
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as problem:
        before = raw[: problem.start]
        line = before.count(b"\n") + 1
        column = problem.start - (before.rfind(b"\n") + 1) + 1
        guess = "Latin-1 or Windows-1252" if raw[problem.start] >= 0x80 else "another encoding"
        message = (
            f"the file is not valid UTF-8 (byte 0x{raw[problem.start]:02X} at line {line}, column {column}); "
            f"it looks like {guess}: save it as UTF-8"
        )
        return None, error(message, file, line=line, column=column, code="encoding")


_FRIENDLY = {
    "Expecting value": "a value was expected here (a string, number, object, array, true, false or null)",
    "Expecting ',' delimiter": "a ',' or a closing bracket was expected here",
    "Expecting ':' delimiter": "a ':' was expected after the property name",
    "Expecting property name enclosed in double quotes": "a property name in double quotes was expected (no trailing commas)",
    "Unterminated string starting at": "this string is never closed",
    "Invalid control character at": "a control character (such as a raw tab or line break) must be escaped inside a string",
    "Invalid \\escape": "this backslash escape is not valid JSON",
    "Extra data": "there is more after the end of the JSON value",
}


def _friendly(message: str) -> str:
    for start, plain in _FRIENDLY.items():
        if message.startswith(start):
            return plain
    return message


def parse(raw: bytes, file: str) -> ParsedJson:
    result = ParsedJson()
    if not raw.strip():
        result.diagnostics.append(error("the file is empty: a quiz is a JSON object", file, line=1, column=1, code="json"))
        return result
    text, problem = decode(raw, file)
    if problem:
        result.diagnostics.append(problem)
        return result
    result.text = text
    found_duplicates = False
    found_non_finite = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal found_duplicates
        obj = dict(pairs)
        if len(obj) != len(pairs):
            found_duplicates = True
        return obj

    def constant_hook(name: str) -> float:
        nonlocal found_non_finite
        found_non_finite = True
        return math.nan

    def float_hook(literal: str) -> float:
        nonlocal found_non_finite
        value = float(literal)
        if math.isinf(value):
            found_non_finite = True
        return value

    def int_hook(literal: str) -> int | float:
        nonlocal found_non_finite
        value = int(literal)
        if len(literal) > 308 and math.isinf(float(literal)):  # no double holds it: every writer would fail
            found_non_finite = True
            return math.inf
        return value

    try:
        result.data = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=constant_hook, parse_float=float_hook,
                                 parse_int=int_hook)
    except json.JSONDecodeError as problem:
        result.diagnostics.append(
            error(f"invalid JSON: {_friendly(problem.msg)}", file, line=problem.lineno, column=problem.colno, code="json")
        )
        return result
    except RecursionError:
        result.diagnostics.append(error("invalid JSON: arrays or objects are nested too deeply", file, line=1, column=1, code="json"))
        return result
    except ValueError as problem:  # e.g. an integer with more digits than Python converts
        result.diagnostics.append(error(f"invalid JSON: {problem}", file, line=1, column=1, code="json"))
        return result
    if found_duplicates or found_non_finite:
        line_starts = _line_starts(text)
        for pointer, message, offset in _scan_problems(text):
            line, column = _line_column(offset, line_starts)
            result.diagnostics.append(error(message, file, pointer, line=line, column=column, code="json"))
    return result


# --- Locating values -------------------------------------------------------------------------

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NUMBER_OR_WORD = re.compile(r"-?[A-Za-z0-9_.+-]+")
_SPACE = re.compile(r"[ \t\r\n]*")
_COLON = re.compile(r"[ \t\r\n]*:[ \t\r\n]*")  # between a key and its value
_COMMA = re.compile(r"[ \t\r\n]*(?:,[ \t\r\n]*)?")  # after a value: to the next one, or the closing bracket


def _walk(text: str, on_value, on_key=None) -> None:
    """Visit every value of a syntactically valid JSON text with its pointer and offset."""
    stack: list[tuple[str, str, set[str] | None, int]] = []  # (kind, pointer, keys seen, next index)
    pos = _SPACE.match(text, 0).end()
    pointer = ""
    expecting_value = True
    while pos < len(text):
        char = text[pos]
        if expecting_value:
            on_value(pointer, pos)
            if char == "{":
                stack.append(("object", pointer, set(), 0))
                pos += 1
                expecting_value = False
            elif char == "[":
                stack.append(("array", pointer, None, 0))
                pos += 1
                pos = _SPACE.match(text, pos).end()
                if text[pos] == "]":
                    expecting_value = False
                else:
                    pointer = stack[-1][1] + "/0"
                    continue
            else:
                match = _STRING.match(text, pos) if char == '"' else _NUMBER_OR_WORD.match(text, pos)
                pos = match.end()
                expecting_value = False
            pos = _SPACE.match(text, pos).end()
            continue
        if not stack:
            return
        kind, parent, keys, index = stack[-1]
        char = text[pos]
        if kind == "object":
            if char in "{,":
                pos = _SPACE.match(text, pos + 1).end()
                char = text[pos]
            if char == "}":
                stack.pop()
                pos = _SPACE.match(text, pos + 1).end()
                continue
            match = _STRING.match(text, pos)
            key = json.loads(match.group())
            token = key.replace("~", "~0").replace("/", "~1")
            if on_key is not None and key in keys:
                on_key(parent + "/" + token, key, match.start())
            keys.add(key)
            pos = _SPACE.match(text, match.end()).end() + 1  # past ':'
            pos = _SPACE.match(text, pos).end()
            pointer = parent + "/" + token
            expecting_value = True
        else:
            if char == "]":
                stack.pop()
                pos = _SPACE.match(text, pos + 1).end()
                continue
            index += 1
            stack[-1] = (kind, parent, keys, index)
            pos = _SPACE.match(text, pos + 1).end()
            pointer = f"{parent}/{index}"
            expecting_value = True


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


def _line_column(offset: int, line_starts: list[int]) -> tuple[int, int]:
    line = bisect.bisect_right(line_starts, offset)
    return line, offset - line_starts[line - 1] + 1


def _scan_problems(text: str) -> list[tuple[str, str, int]]:
    """(pointer, message, offset) of each duplicate key and each non-finite number."""
    problems: list[tuple[str, str, int]] = []

    def check_number(pointer: str, offset: int) -> None:
        if text[offset] in '"{[tfn':
            return
        literal = _NUMBER_OR_WORD.match(text, offset).group()
        if literal.lstrip("-") in ("NaN", "Infinity"):
            problems.append((pointer, f"{literal} is not a finite number: JSON content must use ordinary numbers", offset))
        elif math.isinf(float(literal)):
            shown = literal if len(literal) <= 24 else f"{literal[:12]}... ({len(literal.lstrip('-'))} digits)"
            problems.append((pointer, f"{shown} is not a finite number: it is too large for a double (at most about 1.8e308); JSON content must use ordinary numbers", offset))

    def duplicate_key(pointer: str, key: str, offset: int) -> None:
        problems.append((pointer, f"the key {key!r} appears twice in this object; JSON keeps only the last one", offset))

    _walk(text, check_number, duplicate_key)
    return problems

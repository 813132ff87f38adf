"""Characters XML 1.0 cannot carry: every export format is XML or ends up in one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..diagnostics import Diagnostic, error, pointer_join

from ..model import NOT_XML as _NOT_XML
# In the raw JSON text such characters can only come from an escape (raw control characters
# are a JSON syntax error) or stand as U+FFFE/U+FFFF themselves.
# Starting with the literal "\\u" lets the regex engine skip ahead fast on megabyte files.
_MAYBE_NOT_XML = re.compile(
    r"\\u(?:00[01][0-9a-fA-F]"  # an escaped control character
    r"|[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"  # a high surrogate alone
    r"|(?<![dD][89abAB][0-9a-fA-F]{2}\\u)[dD][c-fC-F][0-9a-fA-F]{2}"  # a low surrogate alone
    r"|[fF]{3}[eEfF])"
)


def xml_character_errors(data: Any, raw_text: str, file: str) -> Iterator[Diagnostic]:
    """Strings holding characters that XML 1.0 forbids (control characters, lone surrogates, U+FFFE)."""
    if not _MAYBE_NOT_XML.search(raw_text) and "\ufffe" not in raw_text and "\uffff" not in raw_text:
        return

    def walk(value: Any, pointer: str) -> Iterator[Diagnostic]:
        if isinstance(value, str):
            found = sorted(set(_NOT_XML.findall(value)))
            if found:
                names = ", ".join(f"U+{ord(c):04X}" for c in found)
                what = "the character" if len(found) == 1 else "the characters"
                yield error(f"this text holds {what} {names}, which XML (and so every export) cannot carry", file, pointer, code="xml-char")
        elif isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, pointer_join(pointer, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from walk(item, f"{pointer}/{index}")

    yield from walk(data, "")

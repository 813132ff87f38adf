"""Language tags must be registered BCP 47 tags, not only well formed ones."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import langcodes

from ..diagnostics import Diagnostic, error


@lru_cache(maxsize=1024)
def language_is_valid(tag: str) -> bool:
    return langcodes.tag_is_valid(tag)


def language_errors(tag: str | None, file: str, pointer: str) -> Iterator[Diagnostic]:
    if tag is not None and not language_is_valid(tag):
        yield error(f"{tag!r} is not a registered language tag (BCP 47: for example 'en', 'wo', 'nl' or 'pt-BR')", file, pointer, code="language")

"""What Markdown may not carry into an export: unsafe addresses, images without alt text,
formulas that cannot be converted."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Question, Text, TextFormat
from ..text import formula_problems, markdown
from .addresses import addresses, unsafe_address


def rich_texts(question: Question) -> tuple[tuple[tuple, Text | None], ...]:
    """(pointer parts below the question, text) of every rich text field, as the JSON names them."""
    return question.texts()


# Inline links and images "](", reference definitions "]:", autolinks "<scheme:": only a text with
# one of these can hold an address, and parsing Markdown is the costliest check.
_MARKDOWN = TextFormat.MARKDOWN  # read once: an Enum member read off its class is slow on Python 3.11
_MAY_LINK = re.compile(r"\]\(|\]:|<[A-Za-z][A-Za-z0-9.+-]{1,31}:")


def markdown_errors(texts: Iterable[tuple[tuple, Text | None]], base: str, file: str) -> Iterator[Diagnostic]:
    """Unsafe addresses, images without alt text and formulas that cannot be converted."""
    for parts, text in texts:
        if text is None or text.format is not _MARKDOWN:
            continue
        problems: list[tuple[str, str]] = []
        if _MAY_LINK.search(text.source):
            for kind, address in addresses(text.source):
                problem = unsafe_address(kind, address)
                if problem:
                    problems.append((problem, "unsafe-url"))
            for address, alt in markdown.images(text.source):
                if not alt.strip():
                    problems.append((f"the image '{address}' has no alt text: write ![what it shows]({address})", "alt-text"))
                if address.startswith("/") and not address.startswith("//"):
                    problems.append((f"the media path '{address}' is absolute: use a path relative to the quiz file, or a full https:// address", "media"))
        problems += [(problem, "math") for problem in formula_problems(text)]
        for message, code in problems:
            yield error(message, file, pointer_join(base, *parts), code=code)

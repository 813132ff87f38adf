"""Blanks in a fill-in-the-blanks text: written [[name]] where they stand.

`[[name]]` means nothing to CommonMark (without a matching reference definition, which the
checks rule out by rendering), to LaTeX or to HTML, and renders as the same characters in every
format, so a writer renders the stem as any other text and then puts its own blank markup where
each placeholder stands.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PLACEHOLDER = re.compile(r"\[\[([A-Za-z][A-Za-z0-9_-]{0,63})\]\]")


def placeholders(source: str) -> list[str]:
    """The blank names a text holds, in order, as often as they stand."""
    return PLACEHOLDER.findall(source)


def fill(rendered: str, blank: Callable[[str], str]) -> str:
    """The rendered text with each placeholder replaced by `blank(name)`."""
    return PLACEHOLDER.sub(lambda match: blank(match.group(1)), rendered)

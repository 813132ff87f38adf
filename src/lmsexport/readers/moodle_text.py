"""What the Moodle readers share: PHP's trim, text formats and the category path."""

from __future__ import annotations

import re

from ..model import Text, TextFormat

# PHP's trim() removes exactly these characters; Moodle trims every text it imports.
PHP_SPACE = " \t\n\r\0\x0b"


def php_trim(value: str) -> str:
    return value.strip(PHP_SPACE)


def text_of(source: str, fmt: str) -> Text | None:
    """A Moodle text in the model; an empty text is no text."""
    if source == "":
        return None
    if fmt in ("plain", "plain_text"):
        return Text(source, TextFormat.PLAIN)
    if fmt == "markdown":
        return Text(source, TextFormat.MARKDOWN)
    return Text(source, TextFormat.HTML)  # html, moodle_auto_format and anything unknown (Moodle assumes html)


def split_category_path(path: str) -> list[str]:
    """Moodle's split_category_path, without its PARAM_TEXT cleaning."""
    return [php_trim(part.replace("//", "/")) for part in re.split(r"(?<!/)/(?!/)", path)]

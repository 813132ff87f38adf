"""GIFT's escapes as Moodle reads them (question/format/gift/format.php): escapedchar_pre turns
`\\\\` into a backslash and each escaped special character into a placeholder before the question
is split; escapedchar_post puts the characters back. The GIFT writer refuses or works around a
text holding a placeholder literally (Moodle would turn it into a character) and the GIFT reader
undoes the escapes as Moodle does: both read this one table."""

from __future__ import annotations

import re

# (what the file holds, Moodle's placeholder for it, the character it stands for), in the order of
# Moodle's arrays (each is replaced in turn). `\n` is a line break; its placeholder has no semicolon.
ESCAPES: tuple[tuple[str, str, str], ...] = (
    ("\\:", "&&058;", ":"),
    ("\\#", "&&035;", "#"),
    ("\\=", "&&061;", "="),
    ("\\{", "&&123;", "{"),
    ("\\}", "&&125;", "}"),
    ("\\~", "&&126;", "~"),
    ("\\n", "&&010", "\n"),
)
# `\\` is a backslash: replaced first, by a placeholder of its own, so that `\\:` stays `\` + `:`.
BACKSLASH = ("\\\\", "&&092;", "\\")

PLACEHOLDER = re.compile("|".join(re.escape(placeholder) for _, placeholder, _ in (*ESCAPES, BACKSLASH)))


def escapes_undone(text: str) -> str:
    """Moodle's escapedchar_pre: `\\\\` a backslash, each escaped special its placeholder."""
    backslash, placeholder, character = BACKSLASH
    text = text.replace(backslash, placeholder)
    for escaped, stand_in, _ in ESCAPES:
        text = text.replace(escaped, stand_in)
    return text.replace(placeholder, character)


def placeholders_undone(text: str) -> str:
    """Moodle's escapedchar_post: each placeholder its character."""
    for _, placeholder, character in ESCAPES:
        text = text.replace(placeholder, character)
    return text

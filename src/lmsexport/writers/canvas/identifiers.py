"""Identifiers Canvas needs, derived from the stable content ids so that re-exports are identical.

Canvas's own export names quizzes and items `g` + 32 hex digits, and its importer reads answer
and match ids as integers (`original_answer_ids`, and the digits of a match label's ident), so
those are numbers here.
"""

from __future__ import annotations

import struct
from hashlib import md5, sha256

from ...model import Question, Quiz, Section

# Canvas's importer draws its own local ids from rand(100_000): five digits fit the same column.
_LOW = 10_000
_SPAN = 90_000
# The first eight bytes of a digest as a big-endian number, read in place (no slice).
_FIRST_EIGHT = struct.Struct(">Q").unpack_from


def _key(*parts: str) -> str:
    return "g" + md5("\x1f".join(parts).encode("utf-8")).hexdigest()


def assessment_ident(quiz: Quiz) -> str:
    return _key("assessment", quiz.id)


def meta_ident(quiz: Quiz) -> str:
    return _key("assessment_meta", quiz.id)


def manifest_ident(quiz: Quiz) -> str:
    return _key("manifest", quiz.id)


def item_ident(quiz: Quiz, question: Question) -> str:
    return _key("item", quiz.id, question.id)


def group_ident(quiz: Quiz, section: Section) -> str:
    return _key("question_group", quiz.id, section.id)


def bank_item_ident(quiz: Quiz, question: Question) -> str:
    return _key("assessment_question", quiz.id, question.id)


class NumberIds:
    """Distinct numeric ids within one question: a hash of each key, moved on when taken."""

    def __init__(self, quiz: Quiz, question: Question):
        self._seed = f"{quiz.id}\x1f{question.id}\x1f".encode("utf-8")
        self._taken: set[int] = set()

    def __call__(self, key: str) -> str:
        number = _LOW + _FIRST_EIGHT(sha256(self._seed + key.encode("utf-8")).digest())[0] % _SPAN
        while number in self._taken:
            number = _LOW + (number - _LOW + 1) % _SPAN
        self._taken.add(number)
        return str(number)

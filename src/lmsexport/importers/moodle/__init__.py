"""Moodle XML files: one bank per category, embedded files written beside the quiz."""

from __future__ import annotations

import dataclasses

from ...diagnostics import error
from . import reader as moodle_xml
from ..media import MediaStore
from ..result import SourceBank, SourceFile, SourceQuestion
from ..safety import InputError, parse_xml

FORMAT = "moodle"

# Moodle question types the content format cannot hold, with what to tell the teacher.
_WHY = {
    "calculated": "a calculated question (formulas with wildcards)",
    "calculatedsimple": "a simple calculated question",
    "calculatedmulti": "a calculated multichoice question",
    "cloze": "an embedded answers (cloze) question",
    "multianswer": "an embedded answers (cloze) question",
    "ddimageortext": "a drag and drop onto image question",
    "ddmarker": "a drag and drop markers question",
    "ddwtos": "a drag and drop into text question",
    "gapselect": "a select missing words question",
    "randomsamatch": "a random short-answer matching question",
    "random": "a random question (a draw from a category, not a question)",
}


def unread_reason(kind: str, reason: str) -> str:
    return f"{_WHY[kind]}: the content format has no such type" if kind in _WHY else reason


def _without_default_penalty(question):
    """Moodle writes a penalty for every question: its default (0.3333333), or for types with no
    second try its fixed 0, is no penalty the author chose."""
    if question.penalty is None:
        return question
    if abs(question.penalty - 0.3333333) < 1e-9 or (question.type in ("essay", "description") and question.penalty == 0):
        return dataclasses.replace(question, penalty=None)
    return question


def read(data: bytes, file: str) -> SourceFile:
    root = parse_xml(data)
    if root.tag == "question":
        raise InputError("a single <question> without the <quiz> around it: Moodle's importer refuses such a file too", line=root.sourceline)
    if root.tag != "quiz":
        raise InputError(f"the root element is <{root.tag}>, not Moodle XML's <quiz>", line=root.sourceline)
    store = MediaStore()
    result = SourceFile(FORMAT)
    for bank in moodle_xml.read_banks(root, store.add):
        description, level, learning_path = bank.info
        source = SourceBank(list(bank.names), description=description, level=level, learning_path=learning_path)
        for question, line in bank.questions:
            if isinstance(question, moodle_xml.Unread):
                question.reason = unread_reason(question.kind, question.reason)
            else:
                question = _without_default_penalty(question)
            source.questions.append(SourceQuestion(question, line))
        for message, line in bank.problems:
            result.diagnostics.append(error(message, file, code="import-media", line=line))
        result.banks.append(source)
    result.media = store.files
    if not result.banks:
        raise InputError("the Moodle XML file holds no question", line=root.sourceline)
    return result

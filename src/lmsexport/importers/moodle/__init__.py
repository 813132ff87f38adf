"""Moodle XML files: one bank per category, embedded files written beside the quiz."""

from __future__ import annotations

import dataclasses
import re

from ...diagnostics import error
from . import reader as moodle_xml
from ..media import MediaStore
from ..result import SourceBank, SourceFile, SourceQuestion, SourceSection
from ..safety import InputError, parse_xml
from ...tolerances import same_but_for_rounding

FORMAT = "moodle"

# Moodle question types the content format cannot hold, with what to tell the teacher.
_WHY = {
    "calculated": "a calculated question (formulas with wildcards)",
    "calculatedsimple": "a simple calculated question",
    "calculatedmulti": "a calculated multichoice question",
    "ddimageortext": "a drag and drop onto image question",
    "ddmarker": "a drag and drop markers question",
    "ddwtos": "a drag and drop into text question (words dragged into gaps, each word usable in several)",
    "randomsamatch": "a random short-answer matching question",
    "random": "a random question (a draw from a category, not a question)",
}


def named_sections(sections: list[SourceSection]) -> list[SourceSection]:
    """The sections a file records, with ids that are slugs of their titles, unique in the quiz
    (lmsexport's Moodle XML and GIFT exports do not carry section ids)."""
    from ..finish import slug, unique

    taken: set[str] = set()
    for index, section in enumerate(sections, 1):
        derived = slug(section.title, 60)
        section.id = unique(derived if derived[:1].isalpha() else f"section-{index}", taken, 64)
    return sections


def unread_reason(kind: str, reason: str) -> str:
    return f"{_WHY[kind]}: the content format has no such type" if kind in _WHY else reason


def _without_default_penalty(question):
    """Moodle writes a penalty for every question: the default of its type (0.3333333; 1 for
    true/false, whose one wrong answer is all the others; 0 for types with no second try), which
    the writer gives them too, is no penalty the author chose."""
    if question.penalty is None:
        return question
    default = {"essay": 0.0, "description": 0.0, "true_false": 1.0}.get(question.type, 0.3333333)
    if same_but_for_rounding(question.penalty, default):
        return dataclasses.replace(question, penalty=None)
    return question


_CDATA = re.compile(rb"<!\[CDATA\[.*?\]\]>", re.S)


def with_carriage_returns(data: bytes) -> bytes:
    """The file with each carriage return inside a CDATA section as a character reference beside
    it: Moodle's parser keeps a carriage return there (the writers rely on it), while an XML
    parser that follows the standard turns it into a line feed. For encodings that keep ASCII
    bytes as they are (UTF-8 and the like)."""
    if b"\r" not in data or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data
    return _CDATA.sub(lambda found: found.group().replace(b"\r", b"]]>&#13;<![CDATA["), data)


def read(data: bytes, file: str) -> SourceFile:
    root = parse_xml(with_carriage_returns(data))
    if root.tag == "question":
        raise InputError("a single <question> without the <quiz> around it: Moodle's importer refuses such a file too", line=root.sourceline)
    if root.tag != "quiz":
        raise InputError(f"the root element is <{root.tag}>, not Moodle XML's <quiz>", line=root.sourceline)
    store = MediaStore()
    result = SourceFile(FORMAT)
    for bank in moodle_xml.read_banks(root, store.add):
        description, level, learning_path = bank.info
        source = SourceBank(list(bank.names), description=description, level=level, learning_path=learning_path, language=bank.language,
                            sections=named_sections(bank.sections))
        for index, (question, line) in enumerate(bank.questions):
            if isinstance(question, moodle_xml.Unread):
                question.reason = unread_reason(question.kind, question.reason)
            else:
                question = _without_default_penalty(question)
            source.questions.append(SourceQuestion(question, line, losses=list(bank.losses.get(index, []))))
        for message, line in bank.problems:
            result.diagnostics.append(error(message, file, code="import-media", line=line))
        result.banks.append(source)
    result.media = store.files
    if not result.banks:
        raise InputError("the Moodle XML file holds no question", line=root.sourceline)
    return result

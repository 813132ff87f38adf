"""GIFT files: one bank per `$CATEGORY:`, with the quiz metadata lmsexport writes in its header."""

from __future__ import annotations

from ...model import Text
from . import reader as gift_reader
from ..moodle import named_sections
from ..result import SourceBank, SourceFile, SourceQuestion
from ..safety import InputError, decode_text

FORMAT = "gift"


def read(data: bytes, file: str) -> SourceFile:
    text = decode_text(data)
    metadata = gift_reader.header(text)
    result = SourceFile(FORMAT)
    for bank in gift_reader.read_banks(text):
        source = SourceBank(list(bank.names), sections=named_sections(bank.sections))
        for question, line in bank.questions:
            source.questions.append(SourceQuestion(question, line))
        result.banks.append(source)
    result.banks = [b for b in result.banks if b.questions] or result.banks[:1]
    if not result.banks or not any(b.questions for b in result.banks):
        raise InputError("the GIFT file holds no question")
    if metadata and len(result.banks) == 1:
        bank = result.banks[0]
        bank.quiz_id = metadata.get("quiz")
        bank.language = metadata.get("language")
        if "title" in metadata:
            bank.names = [*bank.names[:-1], metadata["title"]] if bank.names else [metadata["title"]]
        bank.description = next((Text(metadata[label], fmt) for label, fmt in gift_reader.HEADER_FORMATS.items() if label in metadata), None)
        bank.level = metadata.get("level")
        bank.learning_path = metadata.get("learning path")
    return result

"""Export a quiz, import the export with `lmsexport import`'s own code, export again."""

from __future__ import annotations

import tempfile
from pathlib import Path

from lmsexport.importers import import_data
from lmsexport.importers.canonical_json import quiz_to_json
from lmsexport.loader import load_quiz
from lmsexport.writers import canvas, gift, moodle_xml, qti
from lmsexport.writers.shared import ExportOptions

WRITERS = {"moodle": moodle_xml, "gift": gift, "qti": qti, "canvas": canvas}
NAMES = {"moodle": "quiz.xml", "gift": "quiz.gift.txt", "qti": "quiz.zip", "canvas": "quiz.zip"}


def export(quiz, format_name: str) -> bytes | None:
    return WRITERS[format_name].render(quiz, ExportOptions()).data


def import_back(data: bytes, format_name: str, folder: Path):
    """The quizzes imported from an export, each loaded from the content file the import writes."""
    imported, problems = import_data(data, NAMES[format_name], format_name)
    assert not [p for p in problems if p.is_error], [p.message for p in problems]
    loaded = []
    for item in imported:
        assert not [d for d in item.diagnostics if d.is_error], [d.message for d in item.diagnostics]
        for relative, media in item.media.items():
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / relative).write_bytes(media)
        path = folder / f"{item.quiz.id}.json"
        path.write_bytes(quiz_to_json(item.quiz))
        result = load_quiz(path)
        assert result.ok, [d.message for d in result.diagnostics if d.is_error] + [path.read_text()]
        loaded.append((item, result.quiz))
    return loaded


def round_trip(quiz, format_name: str) -> tuple[bytes, bytes | None, list]:
    """(first export, export of what the first export imports to, what the import said)."""
    first = export(quiz, format_name)
    assert first is not None
    with tempfile.TemporaryDirectory() as folder:
        loaded = import_back(first, format_name, Path(folder))
        assert len(loaded) == 1, f"{len(loaded)} quizzes from one"
        item, again = loaded[0]
        return first, export(again, format_name), item.diagnostics

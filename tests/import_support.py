"""Export a quiz, import the export with `lmsexport import`'s own code, export again."""

from __future__ import annotations

import io
import re
import tempfile
import zipfile
from pathlib import Path

from lmsexport.importers import import_data
from lmsexport.importers.canonical_json import quiz_to_json
from lmsexport.loader import load_quiz
from lmsexport.writers import canvas, qti
from lmsexport.writers.moodle import gift, moodle_xml
from lmsexport.writers.shared import ExportOptions

WRITERS = {"moodle": moodle_xml, "gift": gift, "qti": qti, "canvas": canvas}
NAMES = {"moodle": "quiz.xml", "gift": "quiz.gift.txt", "qti": "quiz.zip", "canvas": "quiz.zip"}


def export(quiz, format_name: str) -> bytes | None:
    return WRITERS[format_name].render(quiz, ExportOptions()).data


def import_back(data: bytes, format_name: str, folder: Path, linked_media=()):
    """The quizzes imported from an export, each loaded from the content file the import writes."""
    for media in linked_media:  # GIFT only links its media: the files stay where they were
        (folder / media.path).parent.mkdir(parents=True, exist_ok=True)
        (folder / media.path).write_bytes(media.data)
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


_HASH = re.compile(r"g[0-9a-f]{32}")
_NUMBER_ID = re.compile(r'((?:ident|linkrefid|respident)="(?:response_)?)(\d{5})(?=[_"])|(">)(\d{5})(?=<)|(?<=[>,])(\d{5})(?=[,<])')


def without_canvas_ids(data: bytes) -> dict[str, str]:
    """A Canvas package's files with the identifiers Canvas derives from content ids (which it
    does not carry, so an import cannot know them) numbered in order of appearance instead."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name).decode("utf-8" if name.endswith(".xml") else "latin-1") for name in archive.namelist()}
    names: dict[str, str] = {}

    def token(value: str) -> str:
        return names.setdefault(value, f"ID{len(names)}")

    def numbers(found: re.Match) -> str:
        if found.group(2):
            return found.group(1) + token(found.group(2))
        if found.group(4):
            return found.group(3) + token(found.group(4))
        return token(found.group(5))

    result = {}
    for name in sorted(files, key=lambda n: (n != "imsmanifest.xml", n)):
        text = _HASH.sub(lambda m: token(m.group()), files[name])
        result[_HASH.sub(lambda m: token(m.group()), name)] = _NUMBER_ID.sub(numbers, text)
    return result


def round_trip(quiz, format_name: str) -> tuple[bytes, bytes | None, list]:
    """(first export, export of what the first export imports to, what the import said)."""
    first = export(quiz, format_name)
    assert first is not None
    with tempfile.TemporaryDirectory() as folder:
        loaded = import_back(first, format_name, Path(folder), quiz.media if format_name == "gift" else ())
        assert len(loaded) == 1, f"{len(loaded)} quizzes from one"
        item, again = loaded[0]
        return first, export(again, format_name), item.diagnostics


def difference(first: bytes, second: bytes | None, format_name: str) -> str:
    """The first lines that differ between two exports ('' when they are the same)."""
    import difflib

    if second is None:
        return "the second export failed"
    if format_name in ("moodle", "gift"):
        a, b = {"file": first.decode("utf-8")}, {"file": second.decode("utf-8")}
    elif format_name == "canvas":
        a, b = without_canvas_ids(first), without_canvas_ids(second)
    else:
        with zipfile.ZipFile(io.BytesIO(first)) as x, zipfile.ZipFile(io.BytesIO(second)) as y:
            a = {n: x.read(n).decode("latin-1") for n in x.namelist()}
            b = {n: y.read(n).decode("latin-1") for n in y.namelist()}
    if a.keys() != b.keys():
        return f"files differ: {sorted(set(a) ^ set(b))}"
    for name in a:
        if a[name] != b[name]:
            lines = difflib.unified_diff(a[name].splitlines(), b[name].splitlines(), lineterm="", n=0)
            return name + "\n" + "\n".join(line[:300] for line in list(lines)[2:12])
    return ""

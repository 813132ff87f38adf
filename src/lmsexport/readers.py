"""The import formats, each registered once with what the `import` command, auto-detection and the
README need: the reader module, its `--format` name, what it is called and what becomes one quiz
file. Nothing else lists them: `import --format` offers these names, `importers.read_source` reads
by this table, `importers.detect` names only these formats, and tests/test_readers.py holds the
README's import table to this one. (The export formats are `formats.py`.)"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI reads this registry at start-up: lxml and the readers load with the import
    from .importers.result import SourceFile


@dataclass(frozen=True, slots=True)
class Reader:
    name: str  # the `--format` value, and what detection answers
    module: str  # imported on first use; its `read(data, file)` gives the banks of one file
    title: str  # what the README's import table and the command's help call it
    quiz_per: str  # what becomes one quiz file

    @property
    def read(self) -> Callable[[bytes, str], SourceFile]:
        return importlib.import_module(self.module).read


READERS: dict[str, Reader] = {
    r.name: r
    for r in (
        Reader("moodle", "lmsexport.importers.moodle", "Moodle XML", "category"),
        Reader("gift", "lmsexport.importers.gift", "GIFT", "category"),
        Reader("qti", "lmsexport.importers.qti", "QTI 2.1", "test, and one for the items in no test"),
        Reader("canvas", "lmsexport.importers.canvas", "Canvas", "assessment or question bank"),
    )
}


def reader_titles() -> str:
    """'Moodle XML, GIFT, QTI 2.1 or Canvas': the formats as a sentence names them."""
    titles = [r.title for r in READERS.values()]
    return f"{', '.join(titles[:-1])} or {titles[-1]}"

"""The export formats: which writer module makes each, and the folder its files go to."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from .model import Quiz
from .writers.shared import Export, ExportOptions


@dataclass(frozen=True, slots=True)
class Format:
    name: str
    module: str  # imported on first use: start-up stays fast and a command loads only its writer
    folder: str

    @property
    def render(self) -> Callable[[Quiz, ExportOptions], Export]:
        return importlib.import_module(self.module).render


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("qti", "lmsexport.writers.qti", "qti"),
        Format("canvas", "lmsexport.writers.canvas", "canvas"),
        Format("moodle", "lmsexport.writers.moodle_xml", "moodle"),
        Format("gift", "lmsexport.writers.gift", "gift"),
    )
}

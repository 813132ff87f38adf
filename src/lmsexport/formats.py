"""The export formats, each registered once with what the CLI, the preview, the README and the
bench need: the writer module that renders it, the check that finds every problem without
rendering, the folder and file extension of its exports, what it is called, its help text,
whether it can go to standard output and whether `build` makes it by default. Nothing else lists
the formats: tests/test_format_checks.py holds the README's table to this one."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI reads this registry at start-up: lxml and the writers load with the first command
    from .diagnostics import Diagnostic
    from .model import Quiz
    from .writers.shared import Export, ExportOptions


@dataclass(frozen=True, slots=True)
class Format:
    """One export format as the registry knows it."""

    name: str
    module: str  # imported on first use: start-up stays fast and a command loads only its writer
    folder: str
    extension: str  # every file of the format ends so: the only files --prune may delete
    title: str  # what the README's table calls what it writes
    label: str  # its short name, as the preview shows it
    help: str
    to_stdout: bool = False  # a text format, which `-o -` writes to standard output
    default: bool = True  # made by `build` without --format
    # Options of the export commands that act on this format only (others are not offered).
    options: tuple[str, ...] = ()
    # Formats of one family share rules (Moodle XML and GIFT: what Moodle does with any import),
    # said once for all of them: checked or written together, the first says them for the family
    # (its check and its writer take `family`, the names to say them for; () when another says them).
    family: str | None = None

    @property
    def render(self) -> Callable[[Quiz, ExportOptions], Export]:
        return importlib.import_module(self.module).render

    @property
    def check(self) -> Callable[[Quiz, ExportOptions], Iterable[Diagnostic]]:
        """Every diagnostic `render` gives, found without rendering (the writer's own rules,
        run with text rendering left out): `validate` and `build` both run it."""
        return importlib.import_module(self.module + ".check").check


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("qti", "lmsexport.writers.qti", "qti", ".zip", "IMS QTI 2.1 content package", "QTI 2.1",
               "Write one IMS QTI 2.1 content package (.zip) per quiz."),
        Format("canvas", "lmsexport.writers.canvas", "canvas", ".zip", "Canvas quiz package (Canvas's QTI 1.2)", "Canvas",
               "Write one Canvas quiz package (Canvas's QTI 1.2) per quiz."),
        Format("moodle", "lmsexport.writers.moodle.moodle_xml", "moodle", ".xml", "Moodle XML", "Moodle XML",
               "Write one Moodle XML file per quiz.", to_stdout=True, options=("nearest_grade",), family="moodle"),
        Format("gift", "lmsexport.writers.moodle.gift", "gift", ".gift.txt", "GIFT", "GIFT",
               "Write one GIFT file per quiz.", to_stdout=True, options=("nearest_grade", "media_base_url"), family="moodle"),
    )
}

DEFAULT_FORMATS: tuple[str, ...] = tuple(f.name for f in FORMATS.values() if f.default)


def families(formats: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """For each of `formats` whose family is checked with it, the formats its check says the
    family's shared rules for (all of them, in registry order, for the first; () for the others).
    A format checked without another of its family says them for itself, as its check alone does."""
    members: dict[str, list[str]] = {}
    for name in formats:
        family = FORMATS[name].family
        if family is not None:
            members.setdefault(family, []).append(name)
    said: dict[str, tuple[str, ...]] = {}
    for names in members.values():
        if len(names) > 1:
            said[names[0]] = tuple(n for n in FORMATS if n in names)
            said.update((name, ()) for name in names[1:])
    return said


def parse_formats(value: str | Iterable[str]) -> tuple[str, ...]:
    """Format names from 'qti,gift' (or a list), in registry order; ValueError naming unknown ones."""
    names = [n.strip() for n in value.split(",")] if isinstance(value, str) else [n.strip() for n in value]
    names = [n for n in names if n]
    unknown = [n for n in names if n not in FORMATS]
    if unknown or not names:
        raise ValueError(f"unknown format {', '.join(unknown) or '(none)'}; choose from {', '.join(FORMATS)}")
    return tuple(n for n in FORMATS if n in names)

"""How a writer wants text rendered: formulas as MathML or TeX, and where media files are."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class MathStyle(str, Enum):
    TEX = "tex"  # \( \) and \[ \], which the MathJax filters of Moodle and Canvas typeset
    MATHML = "mathml"  # MathML 2, which QTI 2.1 carries natively


@dataclass(frozen=True, slots=True)
class RenderStyle:
    math: MathStyle = MathStyle.TEX
    # Maps a media path as written in the content ("media/ring.png") to its address in the export.
    media_url: Callable[[str], str] | None = None


DEFAULT_STYLE = RenderStyle()

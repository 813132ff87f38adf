"""Canvas's XML lines: indented element lines as lxml's pretty printer writes them.

The output is byte for byte what lxml writes for the same tree (two spaces per level, `<a/>`
when empty, `<a></a>` for an empty text), at a fraction of the cost of building element trees
for banks of many thousand questions. Escaping is every XML writer's (writers/xml.py).
"""

from __future__ import annotations

from ..xml import text

INDENT = tuple("  " * depth for depth in range(40))


class Lines:
    """Indented element lines, appended in document order."""

    __slots__ = ("parts", "depth")

    def __init__(self, depth: int, parts: list[str] | None = None):
        self.parts = [] if parts is None else parts
        self.depth = depth

    def open(self, tag: str, attributes: str = "") -> None:
        self.parts.append(f"{INDENT[self.depth]}<{tag}{attributes}>\n")
        self.depth += 1

    def close(self, tag: str) -> None:
        self.depth -= 1
        self.parts.append(f"{INDENT[self.depth]}</{tag}>\n")

    def leaf(self, tag: str, attributes: str = "", content: str | None = None) -> None:
        """An element without children; `content` is its text, escaped here."""
        if content is None:
            self.parts.append(f"{INDENT[self.depth]}<{tag}{attributes}/>\n")
        else:
            self.parts.append(f"{INDENT[self.depth]}<{tag}{attributes}>{text(content)}</{tag}>\n")

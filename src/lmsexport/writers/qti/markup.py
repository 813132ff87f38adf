"""QTI's element builders, over the escaping every XML writer shares (writers/xml.py)."""

from __future__ import annotations

from ..xml import attribute, text


def make(tag: str, *children: str, **pairs: str) -> str:
    """An element whose children are already markup."""
    attrs = "".join(f' {name}="{attribute(value)}"' for name, value in pairs.items()) if pairs else ""
    if children:
        return f"<{tag}{attrs}>{''.join(children)}</{tag}>"
    return f"<{tag}{attrs}/>"


def with_text(tag: str, content: str, **pairs: str) -> str:
    """An element holding character data."""
    attrs = "".join(f' {name}="{attribute(value)}"' for name, value in pairs.items()) if pairs else ""
    return f"<{tag}{attrs}>{text(content)}</{tag}>"

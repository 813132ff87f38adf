"""What may not reach a platform from Markdown: link and image addresses that could run code.

Raw HTML in Markdown is never passed through (it is shown as text, see `text`), so the only
way left to smuggle script into an export is an address: `javascript:`, `vbscript:`, `file:`
or a `data:` URL that is not an image. Those are errors, so the author learns of them instead of
finding a dead link on the platform.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..text.markdown import references

_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):")
SAFE_SCHEMES = {"http", "https", "mailto"}
_SAFE_IMAGE_DATA = re.compile(r"^data:image/(png|gif|jpeg|webp);", re.IGNORECASE)


def addresses(source: str) -> Iterator[tuple[str, str]]:
    """(kind, address) of every link and image in a Markdown text."""
    for kind, address, _alt in references(source):
        yield kind, address


def unsafe_address(kind: str, address: str) -> str | None:
    """Why an address may not be exported, or None when it is fine."""
    cleaned = re.sub(r"[\x00-\x20]", "", address)  # browsers ignore these inside a scheme
    match = _SCHEME.match(cleaned)
    if not match:
        return None  # relative: a file next to the quiz
    scheme = match.group(1).lower()
    if scheme in SAFE_SCHEMES:
        return None
    if scheme == "data" and kind == "image" and _SAFE_IMAGE_DATA.match(cleaned):
        return None
    return f"the {kind} address {address!r} uses '{scheme}:', which platforms may run or block; use http(s), mailto or a relative path"


def media_base_url_problem(base: str) -> str | None:
    """Why a media base URL may not prefix the addresses of published media, or None: it must
    be http(s), protocol-relative or a relative path, with no character that ends an address."""
    cleaned = re.sub(r"[\x00-\x20]", "", base)  # as browsers read a scheme
    match = _SCHEME.match(cleaned)
    if cleaned != base.strip() or any(c in base for c in "\"'<>`\\"):
        return f"{base!r} holds spaces, control characters, quotes, '<', '>', '`' or '\\', which end or break an address"
    if match and match.group(1).lower() not in ("http", "https"):
        return f"{base!r} uses '{match.group(1).lower()}:'; a media base URL is an http or https address, or a relative path"
    if not base.strip():
        return f"{base!r} is empty"
    return None

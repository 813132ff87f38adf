"""Namespaces and identifiers shared by the QTI 2.1 files."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote


QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"
QTI_XSD = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP = "http://www.imsglobal.org/xsd/imscp_v1p1"
CP_XSD = "http://www.imsglobal.org/xsd/imscp_v1p1.xsd"
MD = "http://www.imsglobal.org/xsd/imsmd_v1p2"
MD_XSD = "http://www.imsglobal.org/xsd/imsmd_v1p2p4.xsd"
XSI = "http://www.w3.org/2001/XMLSchema-instance"

TEMPLATES = "http://www.imsglobal.org/question/qti_v2p1/rptemplates/"
MATCH_CORRECT = TEMPLATES + "match_correct"
MAP_RESPONSE = TEMPLATES + "map_response"

RESPONSE = "RESPONSE"
SCORE = "SCORE"
MAXSCORE = "MAXSCORE"
FEEDBACK = "FEEDBACK"

_NCNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_NOT_NCNAME_CHAR = re.compile(r"[^A-Za-z0-9_.-]")


# An item's own variables; a choice may not share an identifier with any of them.
ITEM_VARIABLES = frozenset({"RESPONSE", "SCORE", "MAXSCORE", "FEEDBACK", "completionStatus", "duration", "numAttempts"})


@lru_cache(maxsize=4096)  # options are named alike from question to question
def choice_identifier(raw: str) -> str:
    """The identifier of a choice, prompt or answer. Content ids never hold a '.', so the
    prefixed form of a reserved name cannot meet another id."""
    result = identifier(raw)
    return "choice." + result if result in ITEM_VARIABLES else result


def identifier(raw: str) -> str:
    """A QTI identifier (an XML NCName) for a content id; valid ids are kept as they are, so
    re-exports keep their identifiers."""
    if _NCNAME.fullmatch(raw):
        return raw
    cleaned = _NOT_NCNAME_CHAR.sub("_", raw)
    return cleaned if _NCNAME.fullmatch(cleaned) else "id_" + cleaned


def media_path(path: str) -> str:
    """Where a media file goes in the zip: its content path, so that two files never meet (a
    media type is never .xml, so no file meets the package's own either)."""
    return path


def media_href(path: str) -> str:
    """A media file's address in a manifest or an item: its path, URL-encoded."""
    return quote(path, safe="/")

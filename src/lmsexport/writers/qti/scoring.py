"""Scoring that every platform can run: mappings bounded to the points, and the map_response rules."""

from __future__ import annotations

from lxml import etree

from .expressions import base, condition, make, set_outcome, variable
from .names import RESPONSE, SCORE, number


def mapping(entries: list[tuple[str, float]], points: float, case_sensitive: bool | None = None) -> etree._Element:
    """Each key scores its value; the sum is kept in [0, points] as the content's credits are."""
    element = make("mapping", lowerBound="0", upperBound=number(points), defaultValue="0")
    for key, mapped in entries:
        entry = make("mapEntry", mapKey=key, mappedValue=number(mapped))
        if case_sensitive is not None:
            entry.set("caseSensitive", "true" if case_sensitive else "false")
        element.append(entry)
    return element


def map_response_rules() -> list[etree._Element]:
    """The rules of the standard map_response template, written out."""
    return [
        condition(
            (make("isNull", variable(RESPONSE)), [set_outcome(SCORE, base("float", "0"))]),
            (None, [set_outcome(SCORE, make("mapResponse", identifier=RESPONSE))]),
        )
    ]

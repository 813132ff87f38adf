"""Scoring that every platform can run: mappings bounded to the points, and the map_response rules."""

from __future__ import annotations

from .expressions import base, condition, make, set_outcome, variable
from ..xml import attribute, number
from .names import RESPONSE, SCORE


def worth(points: float) -> float:
    """What a credit of 1 maps to: the points, or 1 for a question worth nothing, whose credits
    stay readable in the mapping while its upper bound of 0 keeps the score at 0."""
    return points if points else 1.0


def mapping(entries: list[tuple[str, float]], points: float, case_sensitive: bool | None = None) -> str:
    """Each key scores its value; the sum is kept in [0, points] as the content's credits are."""
    case = "" if case_sensitive is None else f' caseSensitive="{"true" if case_sensitive else "false"}"'
    mapped = "".join(f'<mapEntry mapKey="{attribute(key)}" mappedValue="{number(score)}"{case}/>' for key, score in entries)
    return f'<mapping lowerBound="0" upperBound="{number(points)}" defaultValue="0">{mapped}</mapping>'


# The rules of the standard map_response template, written out.
MAP_RESPONSE_RULES = condition(
    (make("isNull", variable(RESPONSE)), [set_outcome(SCORE, base("float", "0"))]),
    (None, [set_outcome(SCORE, f'<mapResponse identifier="{RESPONSE}"/>')]),
)


def map_response_rules() -> list[str]:
    return [MAP_RESPONSE_RULES]

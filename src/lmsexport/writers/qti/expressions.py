"""Small builders for QTI response processing expressions and rules."""

from __future__ import annotations

from lxml import etree

from .names import FEEDBACK, q


def make(tag: str, *children: etree._Element, **attributes: str) -> etree._Element:
    element = etree.Element(q(tag), attributes)
    if children:
        element.extend(children)
    return element


def variable(name: str) -> etree._Element:
    return make("variable", identifier=name)


def base(base_type: str, value: str) -> etree._Element:
    element = make("baseValue", baseType=base_type)
    element.text = value
    return element


def set_outcome(name: str, expression: etree._Element) -> etree._Element:
    return make("setOutcomeValue", expression, identifier=name)


def add_feedback(feedback_id: str) -> etree._Element:
    """FEEDBACK gains one more identifier; several feedbacks can be shown together."""
    return set_outcome(FEEDBACK, make("multiple", variable(FEEDBACK), base("identifier", feedback_id)))


def condition(*branches: tuple[etree._Element | None, list[etree._Element]]) -> etree._Element:
    """responseIf / responseElseIf... / responseElse (a branch with no expression)."""
    rule = make("responseCondition")
    for index, (expression, rules) in enumerate(branches):
        tag = "responseElse" if expression is None else ("responseIf" if index == 0 else "responseElseIf")
        branch = make(tag) if expression is None else make(tag, expression)
        branch.extend(rules)
        rule.append(branch)
    return rule


def value(text: str, **attributes: str) -> etree._Element:
    element = make("value", **attributes)
    element.text = text
    return element

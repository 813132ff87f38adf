"""Small builders for QTI response processing expressions and rules, as markup strings."""

from __future__ import annotations

from functools import lru_cache

from ..xml import text
from .markup import make, with_text
from .names import FEEDBACK

__all__ = ["add_feedback", "base", "condition", "make", "set_outcome", "value", "variable"]


def variable(name: str) -> str:
    return f'<variable identifier="{name}"/>'  # names are the writer's own NCNames


def base(base_type: str, content: str) -> str:
    return f'<baseValue baseType="{base_type}">{text(content)}</baseValue>'


def set_outcome(name: str, expression: str) -> str:
    return f'<setOutcomeValue identifier="{name}">{expression}</setOutcomeValue>'


@lru_cache(maxsize=4096)  # the same few feedback identifiers in every item
def add_feedback(feedback_id: str) -> str:
    """FEEDBACK gains one more identifier; several feedbacks can be shown together."""
    return set_outcome(FEEDBACK, f"<multiple>{variable(FEEDBACK)}{base('identifier', feedback_id)}</multiple>")


def condition(*branches: tuple[str | None, list[str]]) -> str:
    """responseIf / responseElseIf... / responseElse (a branch with no expression)."""
    parts = []
    for index, (expression, rules) in enumerate(branches):
        if expression is None:
            parts.append(f"<responseElse>{''.join(rules)}</responseElse>" if rules else "<responseElse/>")
        else:
            tag = "responseIf" if index == 0 else "responseElseIf"
            parts.append(f"<{tag}>{expression}{''.join(rules)}</{tag}>")
    return f"<responseCondition>{''.join(parts)}</responseCondition>"


def value(content: str, **pairs: str) -> str:
    return with_text("value", content, **pairs)

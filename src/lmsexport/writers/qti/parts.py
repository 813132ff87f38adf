"""What each question type contributes to its assessmentItem, as markup strings."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model import Text


@dataclass(slots=True)
class AnswerFeedback:
    """Feedback shown when `when` holds: one option chosen, or one accepted answer given."""

    identifier: str
    text: Text
    where: tuple[str | int, ...]
    when: str


@dataclass(slots=True)
class Parts:
    responses: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)  # the item's own outcomes beyond SCORE, MAXSCORE, FEEDBACK
    # The interaction that stands for each [[name]] of the stem (fill in the blanks).
    blanks: dict[str, str] = field(default_factory=dict)
    body: list[str] = field(default_factory=list)
    scoring: list[str] = field(default_factory=list)
    # The standard template that does exactly what `scoring` does, when the item needs nothing else.
    template: str | None = None
    # True when the answer earns full marks; None when the platform cannot know (essay, description).
    correct: str | None = None
    answer_feedback: list[AnswerFeedback] = field(default_factory=list)
    # Accepted answers are tried in order and the first that matches counts; options all count.
    first_match_only: bool = False

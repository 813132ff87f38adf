"""The media files a question shows, which travel in the package with it."""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Question, Quiz, Text
from ...text import media_references


def texts(question: Question) -> Iterator[Text]:
    given = question.feedback
    candidates = [question.stem, given.general, given.correct, given.partially_correct, given.incorrect]
    for choice in getattr(question, "choices", ()):
        candidates += [choice.text, choice.feedback]
    candidates += [a.feedback for a in getattr(question, "answers", ())]
    candidates += [p.prompt for p in getattr(question, "pairs", ())]
    candidates += [getattr(question, name, None) for name in ("true_feedback", "false_feedback", "grader_info")]
    return (t for t in candidates if t is not None)


def used_media(quiz: Quiz, question: Question) -> list[str]:
    """Content paths of the quiz's media files that this question shows, each once, in order."""
    if not quiz.media:
        return []
    known = {m.path for m in quiz.media}
    seen: dict[str, None] = {}
    for text in texts(question):
        for path in media_references(text):
            if path in known:
                seen.setdefault(path, None)
    return list(seen)

"""The media files a question shows, which travel in the package with it."""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Question, Quiz, Text
from ...text import media_references


def texts(question: Question) -> Iterator[Text]:
    return (text for _, text in question.texts() if text is not None)


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

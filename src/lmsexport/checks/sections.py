"""Sections: each names questions of the quiz, each question in one section at most, and a
random draw that every student can be given and that is worth the same to each."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Quiz
from ..text import media_references
from .blank import is_blank
from .ids import unique_ids_of_list


def section_errors(quiz: Quiz) -> Iterator[Diagnostic]:
    file = quiz.location.file
    yield from unique_ids_of_list([s.id for s in quiz.sections], "/sections", "section", file)
    questions = {q.id: q for q in quiz.questions}
    owner: dict[str, str] = {}
    for i, section in enumerate(quiz.sections):
        base = section.location.pointer
        if is_blank(section.title):
            yield error("the title cannot be only white space", file, pointer_join(base, "title"), code="blank")
        if section.instructions is not None and media_references(section.instructions):
            # Canvas's question groups have no instructions and QTI tests carry no files of their own.
            yield error("section instructions cannot show media files: put the image in a description question of the section",
                        file, pointer_join(base, "instructions"), code="media")
        for j, question_id in enumerate(section.question_ids):
            where = pointer_join(base, "questions", j)
            if question_id not in questions:
                yield error(f"no question of the quiz has the id '{question_id}'", file, where, code="sections")
            elif question_id in owner:
                yield error(f"the question '{question_id}' is already in the section '{owner[question_id]}': a question belongs to one section at most", file, where, code="sections")
            else:
                owner[question_id] = section.id
        if section.pick is None:
            continue
        drawn = [questions[q] for q in section.question_ids if q in questions and not questions[q].draft]
        if section.pick > len(drawn):
            yield error(f"the section draws {section.pick} questions but has {len(drawn)} to draw from (drafts are not drawn)", file,
                        pointer_join(base, "pick"), code="sections")
        points = sorted({q.points for q in drawn})
        if len(points) > 1:
            listed = ", ".join(f"{p:g}" for p in points)
            yield error(f"questions drawn at random must be worth the same, so that every student can earn as much; these are worth {listed}",
                        file, pointer_join(base, "pick"), code="sections")

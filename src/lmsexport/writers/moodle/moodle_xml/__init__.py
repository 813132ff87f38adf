"""Moodle XML: a category question, then every exported question, as Moodle 4.5 imports it
(question/format/xml/format.php)."""

from __future__ import annotations

from ....model import Quiz
from ....text import media_references
from ..check import grade_problems
from ..common import question_diagnostics, quiz_diagnostics, quiz_loss, section_category_path, section_note
from ...shared import Export, ExportOptions, nothing_to_export, sections_of_drafts_notes
from .category import category_question, section_category_question
from .questions import QuestionWriter
from ...xml import DECLARATION


def filename(quiz: Quiz) -> str:
    return f"{quiz.id}.xml"


def render(quiz: Quiz, options: ExportOptions) -> Export:
    questions = quiz.exported_questions
    if not questions:
        return nothing_to_export(quiz, filename(quiz), "Moodle XML")
    diagnostics = list(quiz_diagnostics(quiz, options, "Moodle XML"))
    diagnostics.extend(sections_of_drafts_notes(quiz, "moodle-section"))
    media = media_references(quiz.description) if quiz.media else []
    if media:
        message = f"the description's media files ({', '.join(media)}) cannot ride with a Moodle category description: Moodle will show them broken"
        diagnostics.append(quiz_loss(quiz, message, options, "moodle-media", "/description"))
    writer = QuestionWriter(quiz, options)
    parts = [DECLARATION + "<quiz>\n", category_question(quiz)]
    in_quiz_category = True
    for section, members in quiz.layout():
        if section is not None:
            diagnostics.append(section_note(quiz, section, section_category_path(quiz, section)))
            parts.append(section_category_question(quiz, section, len(members)))
            in_quiz_category = False
        elif not in_quiz_category:
            parts.append(category_question(quiz))
            in_quiz_category = True
        for question in members:
            diagnostics.extend(question_diagnostics(quiz, question, options))
            diagnostics.extend(grade_problems(quiz, question, options))
            part = writer.write(question)
            if part is not None:
                parts.append(part)
    diagnostics.extend(writer.diagnostics)
    if any(d.is_error for d in diagnostics):
        return Export(filename(quiz), None, tuple(diagnostics))
    parts.append("</quiz>\n")
    return Export(filename(quiz), "".join(parts).encode("utf-8"), tuple(diagnostics))

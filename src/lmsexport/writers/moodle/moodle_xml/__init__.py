"""Moodle XML: a category question, then every exported question, as Moodle 4.5 imports it
(question/format/xml/format.php)."""

from __future__ import annotations

from ....model import Quiz, Section
from ....text import media_references
from ..common import holds_tex_delimiter, quiz_losses, section_category_path, section_note, typeset_whole, typesets_literal_tex, written_questions
from ...reporter import LITERAL_TEX, Reporter, nothing_to_export
from ...shared import Export, ExportOptions, utf8
from .category import category_question, section_category_question
from .questions import QuestionWriter
from ...xml import DECLARATION


def filename(quiz: Quiz) -> str:
    return f"{quiz.id}.xml"


def render(quiz: Quiz, options: ExportOptions, family: tuple[str, ...] | None = None) -> Export:
    """`family`: see common.written_questions."""
    report = Reporter(quiz, "moodle", options)
    if not quiz.exported_questions:
        return nothing_to_export(report, filename(quiz), "Moodle XML")
    quiz_reported(report)
    writer = QuestionWriter(report)

    def section_start(section: Section, count: int) -> str:
        section_reported(report, section)
        return section_category_question(quiz, section, count)

    parts = written_questions(report, writer.write, section_start, lambda: category_question(quiz), family)
    if report.failed:
        return report.export(filename(quiz))
    return report.export(filename(quiz), utf8([DECLARATION, "<quiz>\n", category_question(quiz), *parts, "</quiz>\n"]))


def quiz_reported(report: Reporter) -> None:
    """What Moodle XML loses of the quiz itself, beyond its questions and sections."""
    quiz = report.quiz
    quiz_losses(report, "Moodle XML")
    if typeset_whole(quiz.description):
        # One field, the category's info: MathJax typesets it whole, character references too.
        if typesets_literal_tex(quiz.description):
            report.lost(None, LITERAL_TEX, "description")
        for name, value in (("level", quiz.level), ("learning_path", quiz.learning_path)):
            if value is not None and holds_tex_delimiter(value):
                message = (f"the category's info holds the description's formulas, so Moodle's MathJax filter typesets it whole, this "
                           f"{name.replace('_', ' ')}'s literal \\( \\[ or $$ too: that part shows as a formula")
                report.loss(None, message, name, code=LITERAL_TEX.code)
    media = media_references(quiz.description) if quiz.media else []
    if media:
        message = f"the description's media files ({', '.join(media)}) cannot ride with a Moodle category description: Moodle will show them broken"
        report.loss(None, message, "description", code="moodle-media")


def section_reported(report: Reporter, section: Section) -> None:
    section_note(report, section, section_category_path(report.quiz, section))

"""Moodle XML: a category question, then every exported question, as Moodle 4.5 imports it
(question/format/xml/format.php)."""

from __future__ import annotations

from lxml import etree

from ...diagnostics import note
from ...model import Quiz
from ..moodle_common import category_path, question_diagnostics, quiz_diagnostics
from ..shared import Export, ExportOptions, xml_bytes
from .elements import SubElement, rich, text_child, value
from .questions import QuestionWriter


def filename(quiz: Quiz) -> str:
    return f"{quiz.id}.xml"


def render(quiz: Quiz, options: ExportOptions) -> Export:
    questions = quiz.exported_questions
    if not questions:
        # Moodle throws on a <quiz> without questions, so there is no file at all.
        message = "no question to export (all are drafts): no Moodle XML file is written"
        return Export(filename(quiz), None, (note(message, quiz.location.file, code="nothing-to-export"),))
    diagnostics = list(quiz_diagnostics(quiz, options))
    root = etree.Element("quiz")
    category = SubElement(root, "question", type="category")
    text_child(SubElement(category, "category"), category_path(quiz))
    rich(category, "info", quiz.description)
    value(category, "idnumber", "")
    writer = QuestionWriter(quiz, options)
    for question in questions:
        diagnostics.extend(question_diagnostics(quiz, question, options))
        writer.write(root, question)
    diagnostics.extend(writer.diagnostics)
    if any(d.is_error for d in diagnostics):
        return Export(filename(quiz), None, tuple(diagnostics))
    return Export(filename(quiz), xml_bytes(root), tuple(diagnostics))

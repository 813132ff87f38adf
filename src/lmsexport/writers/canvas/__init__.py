"""Canvas's own dialect of QTI 1.2, the format of Canvas's classic quiz export.

Canvas imports standard QTI 2.1 poorly (types, points and feedback are lost); this dialect,
read by Canvas's QTIMigrationTool conversion and its qti_exporter plugin, keeps every type,
the points and all the feedback Canvas has a place for. One zip per quiz:

    imsmanifest.xml
    <assessment ident>/<assessment ident>.xml   the questestinterop
    <assessment ident>/assessment_meta.xml      quiz settings (title, description, shuffle, points)
    non_cc_assessments/                         empty, as in Canvas's QTI export
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, error, note
from ...model import Essay, Quiz
from ..shared import Export, ExportOptions, deterministic_zip, loss_warning, xml_bytes
from .assessment import add_question, new_assessment
from .losses import question_errors, question_losses
from .manifest import manifest_document, paths
from .meta import meta_document
from .rules import shuffle_answers

NON_CC_FOLDER = "non_cc_assessments/"


def render(quiz: Quiz, options: ExportOptions) -> Export:
    filename = f"{quiz.id}.zip"
    questions = quiz.exported_questions
    if not questions:
        return Export(filename, None, (note("no question to export: every question is a draft", quiz.location.file, code="canvas-empty"),))

    shuffled = shuffle_answers(quiz)
    diagnostics: list[Diagnostic] = []
    root, section = new_assessment(quiz)
    failed = False
    for question in questions:
        for code, message in question_errors(question):
            diagnostics.append(error(message, quiz.location.file, question.location.pointer, code=code))
            failed = True
        for code, message in question_losses(question, shuffled):
            diagnostics.append(loss_warning(quiz, question, message, options, code))
            failed = failed or diagnostics[-1].is_error
        if failed:
            continue  # nothing will be written: spare building the rest
        try:
            add_question(section, quiz, question)
        except ValueError as exc:  # lxml refuses characters XML 1.0 cannot carry
            failed = True
            diagnostics.append(
                error(f"question {question.id!r}: {exc}", quiz.location.file, question.location.pointer, code="canvas-xml")
            )
    metadata = _dropped_metadata(quiz)
    if metadata:
        diagnostics.append(metadata)
    if failed:
        return Export(filename, None, tuple(diagnostics))

    points = sum(q.points for q in questions if q.type != "description")
    assessment_path, meta_path = paths(quiz)
    files = {
        "imsmanifest.xml": xml_bytes(manifest_document(quiz)),
        assessment_path: xml_bytes(root),
        meta_path: xml_bytes(meta_document(quiz, points, shuffled)),
        NON_CC_FOLDER: b"",
    }
    return Export(filename, deterministic_zip(files), tuple(diagnostics))


def _dropped_metadata(quiz: Quiz) -> Diagnostic | None:
    """Bank metadata Canvas's quizzes have no field for; students see none of it, so a note."""
    fields = [
        name
        for name, value in (
            ("level", quiz.level),
            ("difficulty", quiz.difficulty),
            ("learning_path", quiz.learning_path),
            ("category", quiz.category),
            ("tags", quiz.tags),
            ("source name and url", quiz.source and (quiz.source.name or quiz.source.url)),
        )
        if value
    ]
    questions = quiz.exported_questions
    if any(q.tags for q in questions):
        fields.append("question tags")
    if any(q.penalty is not None for q in questions):
        fields.append("penalties")
    if any(isinstance(q, Essay) for q in questions):
        fields.append("essay box heights")
    if not fields:
        return None
    return note("Canvas quizzes have no place for: " + ", ".join(fields), quiz.location.file, code="canvas-metadata")

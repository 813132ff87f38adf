"""Canvas's own dialect of QTI 1.2, the format of Canvas's classic quiz export.

Canvas imports standard QTI 2.1 poorly (types, points and feedback are lost); this dialect,
read by Canvas's QTIMigrationTool conversion and its qti_exporter plugin, keeps every type,
the points and all the feedback Canvas has a place for. One zip per quiz:

    imsmanifest.xml
    <assessment ident>/<assessment ident>.xml   the questestinterop
    <assessment ident>/assessment_meta.xml      quiz settings (title, description, shuffle, points)
    web_resources/<path>                        each media file the quiz shows, once
    non_cc_assessments/                         empty, as in Canvas's QTI export
"""

from __future__ import annotations

from ...diagnostics import Diagnostic, error, note
from ...model import Essay, Quiz
from ..shared import Export, ExportOptions, deterministic_zip, loss_warning, nothing_to_export, quiz_loss, sections_of_drafts_notes
from ..xml import tree_bytes
from . import identifiers
from .assessment import AssessmentDocument, item_xml
from .losses import loss_place, question_errors, question_losses
from .manifest import manifest_document, paths
from .media import FOLDER, used_media
from .meta import meta_document
from .rules import shuffle_answers

NON_CC_FOLDER = "non_cc_assessments/"


def render(quiz: Quiz, options: ExportOptions) -> Export:
    filename = f"{quiz.id}.zip"
    questions = quiz.exported_questions
    if not questions:
        return nothing_to_export(quiz, filename, "Canvas")

    shuffled = shuffle_answers(quiz)
    diagnostics: list[Diagnostic] = []
    document = AssessmentDocument(quiz)
    failed = False
    diagnostics.extend(sections_of_drafts_notes(quiz, "canvas-section"))
    for section, members in quiz.layout():
        # A group gives each of its questions the same points: a section shuffled but worth
        # different points per question stays a plain run of questions.
        equal = len({q.points for q in members}) == 1
        group = section is not None and (section.pick is not None or (section.shuffle and equal))
        if section is not None:
            diagnostics.extend(_section_losses(quiz, section, group, options))
        if group and not failed:
            document.open_group(identifiers.group_ident(quiz, section), section.title, section.pick or len(members), members[0].points)
        for question in members:
            for code, message in question_errors(question):
                diagnostics.append(error(message, quiz.location.file, question.location.pointer, code=code))
                failed = True
            for code, message in question_losses(question, shuffled):
                diagnostics.append(loss_warning(quiz, question, message, options, code, loss_place(question, code, message)))
                failed = failed or diagnostics[-1].is_error
            if failed:
                continue  # nothing will be written: spare building the rest
            document.add(item_xml(quiz, question))
        if group and not failed:
            document.close_group()
    metadata = _dropped_metadata(quiz)
    if metadata:
        diagnostics.append(metadata)
    if failed:
        return Export(filename, None, tuple(diagnostics))

    media = used_media(quiz, questions)
    points = sum(
        (section.pick * members[0].points) if section is not None and section.pick else sum(q.points for q in members if q.type != "description")
        for section, members in quiz.layout()
    )
    assessment_path, meta_path = paths(quiz)
    manifest = tree_bytes(manifest_document(quiz, media))
    meta = tree_bytes(meta_document(quiz, points, shuffled))
    files = {"imsmanifest.xml": manifest, assessment_path: document.close(), meta_path: meta, NON_CC_FOLDER: b""}
    for file in media:
        files[FOLDER + file.path] = file.data
    return Export(filename, deterministic_zip(files), tuple(diagnostics))


def _section_losses(quiz: Quiz, section, group: bool, options: ExportOptions) -> list[Diagnostic]:
    """Canvas's classic quizzes know question groups (a random draw), not sections."""
    found = []
    if not group and section.shuffle:
        found.append(quiz_loss(quiz, f"section {section.id!r}: Canvas shuffles questions only in a question group, which gives each the same points; "
                                     "these are worth different points, so they are listed in order", options, "canvas-section", section.location.pointer + "/shuffle"))
    elif not group:
        found.append(note(f"section {section.id!r}: Canvas has question groups for random draws, not sections: its questions are listed in order without its title",
                          quiz.location.file, section.location.pointer, code="canvas-section"))
    if section.instructions is not None:
        found.append(quiz_loss(quiz, f"section {section.id!r}: Canvas's question groups have no instructions; they are left out", options,
                               "canvas-section", section.location.pointer + "/instructions"))
    return found


def _dropped_metadata(quiz: Quiz) -> Diagnostic | None:
    """Bank metadata Canvas's quizzes have no field for; students see none of it, so a note.
    The level and learning path are shown in the quiz description instead (see meta.py)."""
    fields = [
        name
        for name, value in (
            ("difficulty", quiz.difficulty),
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

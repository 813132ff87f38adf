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

from ...model import Essay, Quiz, Section
from ..reporter import Reporter, nothing_to_export, sections_of_drafts
from ..shared import Export, ExportOptions, deterministic_zip
from ..xml import tree_bytes
from . import identifiers
from .assessment import AssessmentDocument, item_xml
from .losses import question_rules
from .manifest import manifest_document, paths
from .media import FOLDER, used_media
from .meta import meta_document
from .rules import shuffle_answers

NON_CC_FOLDER = "non_cc_assessments/"


def render(quiz: Quiz, options: ExportOptions) -> Export:
    filename = f"{quiz.id}.zip"
    report = Reporter(quiz, "canvas", options)
    questions = quiz.exported_questions
    if not questions:
        return nothing_to_export(report, filename, "Canvas")

    shuffled = shuffle_answers(quiz)
    document = AssessmentDocument(quiz)
    sections_of_drafts(report, "canvas-section")
    layout = quiz.layout()  # made once: the points below walk it again
    for section, members in layout:
        group = section is not None and is_group(section, members)
        if section is not None:
            section_losses(report, section, group)
        if group and not report.failed:
            document.open_group(identifiers.group_ident(quiz, section), section.title, section.pick or len(members), members[0].points)
        for question in members:
            question_rules(report, question, shuffled)
            if report.failed:
                continue  # nothing will be written: spare building the rest
            document.add(item_xml(quiz, question))
        if group and not report.failed:
            document.close_group()
    dropped_metadata(report)
    if report.failed:
        return report.export(filename)

    media = used_media(quiz, questions)
    points = sum(
        (section.pick * members[0].points) if section is not None and section.pick else sum(q.points for q in members if q.type != "description")
        for section, members in layout
    )
    assessment_path, meta_path = paths(quiz)
    manifest = tree_bytes(manifest_document(quiz, media))
    meta = tree_bytes(meta_document(quiz, points, shuffled))
    files = {"imsmanifest.xml": manifest, assessment_path: document.close(), meta_path: meta, NON_CC_FOLDER: b""}
    for file in media:
        files[FOLDER + file.path] = file.data
    return report.export(filename, deterministic_zip(files))


def is_group(section: Section, members) -> bool:
    """Whether a section becomes a question group. A group gives each of its questions the same
    points: a section shuffled but worth different points per question stays a plain run."""
    return section.pick is not None or (section.shuffle and len({q.points for q in members}) == 1)


def section_losses(report: Reporter, section: Section, group: bool) -> None:
    """Canvas's classic quizzes know question groups (a random draw), not sections."""
    if not group and section.shuffle:
        report.loss(section, f"section {section.id!r}: Canvas shuffles questions only in a question group, which gives each the same points; "
                             "these are worth different points, so they are listed in order", "shuffle", code="canvas-section")
    elif not group:
        report.note(section, f"section {section.id!r}: Canvas has question groups for random draws, not sections: its questions are listed in order without its title",
                    code="canvas-section")
    if section.instructions is not None:
        report.loss(section, f"section {section.id!r}: Canvas's question groups have no instructions; they are left out", "instructions", code="canvas-section")


def dropped_metadata(report: Reporter) -> None:
    """Bank metadata Canvas's quizzes have no field for; students see none of it, so a note.
    The level and learning path are shown in the quiz description instead (see meta.py)."""
    quiz = report.quiz
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
    if fields:
        report.note(None, "Canvas quizzes have no place for: " + ", ".join(fields), code="canvas-metadata")

"""GIFT as Moodle 4.5 imports it (question/format/gift/format.php): a `$CATEGORY:` block, then
one block per exported question, blocks separated by blank lines."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ....checks.addresses import media_base_url_problem
from ....diagnostics import Diagnostic, error, loss
from ....model import Quiz, TextFormat
from ..check import grade_problems
from ..common import category_path, question_diagnostics, quiz_diagnostics, section_category_path, section_note
from ...shared import Export, ExportOptions, nothing_to_export, sections_of_drafts_notes
from .escape import PLACEHOLDER, line_breaks
from .questions import BlockWriter


def filename(quiz: Quiz) -> str:
    return f"{quiz.id}.gift.txt"


def render(quiz: Quiz, options: ExportOptions) -> Export:
    questions = quiz.exported_questions
    if not questions:
        return nothing_to_export(quiz, filename(quiz), "GIFT")
    diagnostics = list(media_base_url_errors(quiz, options))
    diagnostics.extend(quiz_diagnostics(quiz, options, "GIFT", in_comments=True))
    diagnostics.extend(sections_of_drafts_notes(quiz, "moodle-section"))
    # The category line is read before any escape is undone, so it is written as it is;
    # a line break would end it.
    path = category_path(quiz)
    diagnostics.extend(_category_losses(quiz, path, options))
    blocks = [header(quiz), _category_line(path)]
    writer = BlockWriter(quiz, options)
    in_quiz_category = True
    for section, members in quiz.layout():
        if section is not None:
            section_path = section_category_path(quiz, section)
            diagnostics.append(section_note(quiz, section, section_path))
            diagnostics.extend(_category_losses(quiz, section_path, options))
            blocks.append(_comments([("section", section.title), *_section_fields(section, len(members))]) + "\n" + _category_line(section_path))
            in_quiz_category = False
        elif not in_quiz_category:
            blocks.append(_category_line(path))
            in_quiz_category = True
        for question in members:
            diagnostics.extend(question_diagnostics(quiz, question, options))
            diagnostics.extend(grade_problems(quiz, question, options))
            block = writer.block(question)
            if block is not None:
                blocks.append(block)
    diagnostics.extend(writer.diagnostics)
    if any(d.is_error for d in diagnostics):
        return Export(filename(quiz), None, tuple(diagnostics))
    text = blocks[0] + "\n" + blocks[1] + "\n\n" + "\n\n".join(blocks[2:]) + "\n"
    return Export(filename(quiz), text.encode("utf-8"), tuple(diagnostics))


def media_base_url_errors(quiz: Quiz, options: ExportOptions) -> Iterator[Diagnostic]:
    """A media base URL no link may start with. The command line refuses it too; this guards
    other callers."""
    if options.media_base_url is not None:
        problem = media_base_url_problem(options.media_base_url)
        if problem:
            yield error(f"the media base URL {problem}", quiz.location.file, code="gift-media-base-url", line=1, column=1)


def header(quiz: Quiz) -> str:
    """Comment lines naming the quiz and holding its metadata, which GIFT has no field for.
    Moodle skips `//` lines; a value's line breaks each start a new comment line with the same
    label, so nothing of the value can end the comment or become GIFT."""
    fields = [("title", quiz.title)]
    if quiz.description is not None:
        label = "description" if quiz.description.format is TextFormat.PLAIN else f"description ({quiz.description.format.value})"
        fields.append((label, quiz.description.source))
    if quiz.level is not None:
        fields.append(("level", quiz.level))
    if quiz.learning_path is not None:
        fields.append(("learning path", quiz.learning_path))
    return _comments([("quiz", quiz.id), *fields])


def _comments(fields: list[tuple[str, str]]) -> str:
    lines = []
    for label, value in fields:
        lines.extend(f"// {label}: {line}" for line in value.split("\n"))
    return "\n".join(lines)


def _category_line(path: str) -> str:
    # The category line is read before any escape is undone, so it is written as it is; a
    # line break would end it.
    return "$CATEGORY: " + line_breaks(path).replace("\n", " ")


def _section_fields(section, count: int) -> list[tuple[str, str]]:
    """A section's instructions and draw, which GIFT has no field for, as comment lines."""
    fields = []
    instructions = section.instructions
    if instructions is not None:
        label = "instructions" if instructions.format is TextFormat.PLAIN else f"instructions ({instructions.format.value})"
        fields.append((label, instructions.source))
    if section.pick is not None:
        fields.append(("draw", f"{section.pick} of these {count} questions at random for each student"))
    if section.shuffle:
        fields.append(("shuffle", "yes"))
    return fields


def _category_losses(quiz: Quiz, path: str, options: ExportOptions):
    if re.search(r"\\[\\:#={}~n]", path) or PLACEHOLDER.search(path):
        message = "category path: Moodle reads GIFT escapes and placeholders (&&058; ...) in a $CATEGORY line and keeps no escape there, so these characters change"
        yield loss(message, quiz.location.file, "", code="gift-category")

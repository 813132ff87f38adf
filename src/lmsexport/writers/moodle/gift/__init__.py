"""GIFT as Moodle 4.5 imports it (question/format/gift/format.php): a `$CATEGORY:` block, then
one block per exported question, blocks separated by blank lines."""

from __future__ import annotations

from ....checks.addresses import media_base_url_problem
from ....model import Quiz, Section, TextFormat
from ....text.gift_escapes import BACKSLASH
from ..common import category_path, quiz_losses, section_category_path, section_note, written_questions
from ...reporter import Reporter, nothing_to_export
from ...shared import Export, ExportOptions, utf8
from .escape import category
from .questions import BlockWriter


def filename(quiz: Quiz) -> str:
    return f"{quiz.id}.gift.txt"


def render(quiz: Quiz, options: ExportOptions, family: tuple[str, ...] | None = None) -> Export:
    """`family`: see common.written_questions."""
    report = Reporter(quiz, "gift", options)
    if not quiz.exported_questions:
        return nothing_to_export(report, filename(quiz), "GIFT")
    path = quiz_reported(report)

    def section_start(section: Section, count: int) -> str:
        section_path = section_reported(report, section)
        return _comments([("section", section.title), *_section_fields(section, count)]) + "\n" + _category_line(section_path)

    blocks = written_questions(report, BlockWriter(report).block, section_start, lambda: _category_line(path), family)
    if report.failed:
        return report.export(filename(quiz))
    head = header(quiz) + "\n" + _category_line(path) + "\n\n"
    return report.export(filename(quiz), head.encode("utf-8") + utf8(blocks, b"\n\n") + b"\n")


def quiz_reported(report: Reporter) -> str:
    """What GIFT refuses or loses of the quiz itself; the quiz's category path."""
    media_base_url_errors(report)
    quiz_losses(report, "GIFT", in_comments=True)
    path = category_path(report.quiz)
    quiz = report.quiz
    for index, name in enumerate(quiz.category):
        _category_losses(report, None, name, "category", index)
    _category_losses(report, None, quiz.title, "title")
    return path


def section_reported(report: Reporter, section: Section) -> str:
    """What GIFT says of a section; the path of its category."""
    section_path = section_category_path(report.quiz, section)
    section_note(report, section, section_path)
    _category_losses(report, section, section.title, "title")
    return section_path


def media_base_url_errors(report: Reporter) -> None:
    """A media base URL no link may start with. The command line refuses it too; this guards
    other callers."""
    base = report.options.media_base_url
    if base is not None:
        problem = media_base_url_problem(base)
        if problem:
            report.error(None, f"the media base URL {problem}", code="gift-media-base-url")


def header(quiz: Quiz) -> str:
    """Comment lines naming the quiz and holding its metadata, which GIFT has no field for (its
    language included: `// language: nl`). Moodle skips `//` lines; a value's line breaks each
    start a new comment line with the same label, so nothing of the value can end the comment or
    become GIFT."""
    fields = [("title", quiz.title), ("language", quiz.language)]
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
    return "$CATEGORY: " + category(path)


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


def _category_losses(report: Reporter, at: Section | None, name: str, *where: str | int) -> None:
    # Moodle's escapedchar_pre turns every '&&092;' of the line into a backslash; the rest of the
    # path reaches Moodle as it is (see escape.category).
    if BACKSLASH[1] in name:
        report.loss(at, f"category name: Moodle's GIFT import turns '{BACKSLASH[1]}' in a $CATEGORY line into a backslash", *where, code="gift-category")

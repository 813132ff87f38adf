"""The category question that opens the file: where Moodle files the questions, and what the quiz
is about (question/format/xml/format.php import_category keeps <category> and <info>; it reads
<info> with import_text alone, so no file can ride with it).

Moodle has no place for a quiz's level or learning path, so they join the description in <info>,
each as its own paragraph with a class naming it (Moodle's purifier keeps class attributes). A
plain text there is escaped with `<br/>` before each line break, so it reads back exactly.

Nor has Moodle XML a place for the quiz's language: the whole <info> is one `<div lang>` stating
it (empty when the quiz has no description). Moodle 4.5 and 5.0 store the info as written and
write it back in their own export, so the language survives a trip through Moodle; the element
shows nothing of its own (an empty `<div>` in the category's description). A plain description
alone, which was a plain_text info, is then the element's escaped text in a block of no margins
(`<div class="quiz-description">`), with a space following a space as `&nbsp;`, as Moodle shows
plain text (tests/importers/test_moodle.py measures what Moodle stores).
"""

from __future__ import annotations

import re
from html import escape as html_escape

from ....model import Quiz, Section, TextFormat
from ..common import category_path, draw_html, html_of, section_category_path, shown_as_written
from ...shared import in_language
from .xml import character_data

LEVEL = "quiz-level"
LEARNING_PATH = "quiz-learning-path"
DESCRIPTION = "quiz-description"
INSTRUCTIONS = "section-instructions"


def exact_html(source: str) -> str:
    """A plain text as HTML that shows it and reads back exactly: escaped, `<br/>` before each
    line break, and a space that HTML would collapse (after a space, or starting a line) as
    `&nbsp;`, which escaping never writes otherwise; a literal TeX delimiter as in any text shown
    in HTML (common.shown_as_written)."""
    # A carriage return as an HTML reference: XML parsers turn a literal one into a line feed.
    html = html_escape(source, quote=False).replace("\r", "&#13;")
    # Moodle shows a category's info with format_text, filters included (the question bank's
    # category list): a literal \( \[ or $$ goes as character references, shown as written.
    return shown_as_written("<br/>\n".join(re.sub(r"(?:(?<= )|^) ", "&nbsp;", line) for line in html.split("\n")))


def exact_paragraph(css_class: str, source: str) -> str:
    return f'<p class="{css_class}">' + exact_html(source) + "</p>"


def info_html(quiz: Quiz) -> str:
    parts = []
    description = quiz.description
    alone = quiz.level is None and quiz.learning_path is None
    if description is not None:
        if description.format is TextFormat.PLAIN and alone:
            parts.append(f'<div class="{DESCRIPTION}">' + exact_html(description.source) + "</div>")
        elif description.format is TextFormat.PLAIN:
            parts.append(exact_paragraph(DESCRIPTION, description.source))
        else:
            parts.append(html_of(description, False))
    if quiz.level is not None:
        parts.append(exact_paragraph(LEVEL, quiz.level))
    if quiz.learning_path is not None:
        parts.append(exact_paragraph(LEARNING_PATH, quiz.learning_path))
    return "\n".join(parts)


def section_category_question(quiz: Quiz, section: Section, count: int) -> str:
    """The subcategory of one section: its instructions and its random draw as the info."""
    parts = []
    if section.instructions is not None:
        if section.instructions.format is TextFormat.PLAIN:
            parts.append(exact_paragraph(INSTRUCTIONS, section.instructions.source))
        else:
            parts.append(html_of(section.instructions, False))
    parts.append(draw_html(section, count))
    return (
        '  <question type="category">\n'
        f"    <category>\n      <text>{character_data(section_category_path(quiz, section))}</text>\n    </category>\n"
        f'    <info format="html">\n      <text>{character_data(chr(10).join(parts))}</text>\n    </info>\n'
        f"    <idnumber></idnumber>\n  </question>\n"
    )


def category_question(quiz: Quiz) -> str:
    info = f'    <info format="html">\n      <text>{character_data(in_language(info_html(quiz), quiz.language, inline=False))}</text>\n    </info>\n'
    return (
        '  <question type="category">\n'
        f"    <category>\n      <text>{character_data(category_path(quiz))}</text>\n    </category>\n"
        + info
        + "    <idnumber></idnumber>\n  </question>\n"
    )

"""The category question that opens the file: where Moodle files the questions, and what the quiz
is about (question/format/xml/format.php import_category keeps <category> and <info>; it reads
<info> with import_text alone, so no file can ride with it).

Moodle has no place for a quiz's level or learning path, so they join the description in <info>,
each as its own paragraph with a class naming it (Moodle's purifier keeps class attributes). A
plain text there is escaped with `<br/>` before each line break, so it reads back exactly.
"""

from __future__ import annotations

from html import escape as html_escape

from ....model import Quiz, Section, TextFormat
from ..common import category_path, draw_html, html_of, section_category_path
from .xml import character_data

LEVEL = "quiz-level"
LEARNING_PATH = "quiz-learning-path"
DESCRIPTION = "quiz-description"
INSTRUCTIONS = "section-instructions"


def exact_paragraph(css_class: str, source: str) -> str:
    # A carriage return as an HTML reference: XML parsers turn a literal one into a line feed.
    html = html_escape(source, quote=False).replace("\r", "&#13;").replace("\n", "<br/>\n")
    return f'<p class="{css_class}">' + html + "</p>"


def info_html(quiz: Quiz) -> str:
    parts = []
    description = quiz.description
    if description is not None:
        if description.format is TextFormat.PLAIN:
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
    description = quiz.description
    if quiz.level is None and quiz.learning_path is None:
        if description is None:
            info = '    <info format="html">\n      <text></text>\n    </info>\n'
        elif description.format is TextFormat.PLAIN:
            info = f'    <info format="plain_text">\n      <text>{character_data(description.source)}</text>\n    </info>\n'
        else:
            info = f'    <info format="html">\n      <text>{character_data(html_of(description, False))}</text>\n    </info>\n'
    else:
        info = f'    <info format="html">\n      <text>{character_data(info_html(quiz))}</text>\n    </info>\n'
    return (
        '  <question type="category">\n'
        f"    <category>\n      <text>{character_data(category_path(quiz))}</text>\n    </category>\n"
        + info
        + "    <idnumber></idnumber>\n  </question>\n"
    )

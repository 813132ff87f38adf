"""assessment_meta.xml: the quiz settings Canvas reads beside the QTI (quiz_metadata_converter.rb)."""

from __future__ import annotations

from lxml import etree

from ...model import Quiz
from ...text import plain_to_inline_html, to_html
from . import identifiers
from .item import decimal_text
from .media import STYLE

NS = "http://canvas.instructure.com/xsd/cccv1p0"
XSI = "http://www.w3.org/2001/XMLSchema-instance"


def meta_document(quiz: Quiz, points: float, shuffle: bool) -> etree._Element:
    root = etree.Element(f"{{{NS}}}quiz", nsmap={None: NS, "xsi": XSI})
    root.set("identifier", identifiers.assessment_ident(quiz))
    root.set(f"{{{XSI}}}schemaLocation", f"{NS} https://canvas.instructure.com/xsd/cccv1p0.xsd")
    description = description_html(quiz)
    # Canvas's exporter writes these; the importer reads each by name and keeps its defaults otherwise.
    for name, value in (
        ("title", quiz.title),
        ("description", description),
        ("shuffle_answers", "true" if shuffle else "false"),
        ("scoring_policy", "keep_highest"),
        ("hide_results", ""),
        ("quiz_type", "assignment"),
        ("points_possible", decimal_text(points)),
        ("show_correct_answers", "true"),
        ("anonymous_submissions", "false"),
        ("could_be_locked", "false"),
        ("allowed_attempts", "1"),
        ("one_question_at_a_time", "false"),
        ("cant_go_back", "false"),
        ("available", "false"),
        ("one_time_results", "false"),
        ("show_correct_answers_last_attempt", "false"),
        ("only_visible_to_overrides", "false"),
        ("module_locked", "false"),
    ):
        etree.SubElement(root, f"{{{NS}}}{name}").text = value
    etree.SubElement(root, f"{{{NS}}}assignment_overrides")
    return root


# Canvas quizzes have no field for them, so they are shown where teachers and students read
# about the quiz: each its own paragraph after the description, the value exactly as written.
SHOWN_METADATA = (("Level", "level"), ("Learning path", "learning_path"))


def description_html(quiz: Quiz) -> str:
    html = to_html(quiz.description, STYLE) if quiz.description is not None else ""
    for label, name in SHOWN_METADATA:
        value = getattr(quiz, name)
        if value:
            html += f"<p>{plain_to_inline_html(f'{label}: {value}')}</p>"
    return html

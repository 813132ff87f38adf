"""What the Moodle XML and GIFT writers share: names, categories, tags and rich text choices.

Facts from Moodle's importers (question/format.php, question/format/xml/format.php,
question/format/gift/format.php):
- names go through clean_param(PARAM_TEXT), which strips HTML tags, and are cut at 255 characters;
- category paths split on '/', with '//' standing for a '/' inside a name (assemble_category_path);
- tags go through PARAM_TAG, which drops '<', '>', '`' and control characters and keeps 50 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, localcontext
from urllib.parse import quote, unquote

from ...diagnostics import Diagnostic, note, pointer_join
from ...model import Question, Quiz, Section, Text, TextFormat
from ...text import (
    RenderStyle,
    plain_to_html,
    plain_to_inline_html,
    to_html,
    to_inline_html,
)
from ..shared import ExportOptions, loss_warning, quiz_loss
from ..xml import number

_TAG_LIKE = re.compile(r"<[A-Za-z/!?]")
_TAG_UNSAFE = re.compile(r"[\x00-\x1f\x7f<>`]|\s\s")
TAG_MAX = 50
NAME_MAX = 255


def question_name(question: Question) -> str:
    return question.title if question.title is not None else question.id


# question_categories.name is a 255-character column; a longer name fails Moodle's insert and,
# with stop-on-error, the whole import.
CATEGORY_MAX = 255


def category_names(quiz: Quiz) -> tuple[str, ...]:
    return tuple(name[:CATEGORY_MAX] for name in (*quiz.category, quiz.title))


def _escape_category(name: str) -> str:
    escaped = name.replace("/", "//")
    # A name starting or ending with '/' would merge with the separator: Moodle pads it with a space.
    if escaped.startswith("/"):
        escaped = " " + escaped
    if escaped.endswith("/"):
        escaped += " "
    return escaped


def category_path(quiz: Quiz) -> str:
    return "$course$/top/" + "/".join(_escape_category(n) for n in category_names(quiz))


def section_category_path(quiz: Quiz, section: Section) -> str:
    """A section is a subcategory of the quiz's category: the bank of a random draw."""
    return category_path(quiz) + "/" + _escape_category(section.title[:CATEGORY_MAX])


def section_note(quiz: Quiz, section: Section, path: str) -> Diagnostic:
    """What a teacher must do in Moodle to have the section's layout: the bank carries no quiz."""
    if section.pick is not None:
        todo = f"to draw {section.pick} of its questions, add {section.pick} random question(s) from this category to the quiz"
    else:
        todo = "add its questions to the quiz together" + (" and shuffle them" if section.shuffle else "")
    message = f"section {section.id!r}: a Moodle question bank holds no quiz layout, so the section is the category {path!r}; {todo}"
    return note(message, quiz.location.file, section.location.pointer, code="moodle-section")


def draw_html(section: Section, count: int) -> str:
    """The category's own record of how its questions go into the quiz, for the teacher who builds
    it; always written, so that a section's category can be told from any other subcategory."""
    if section.pick is None:
        order = "in a random order" if section.shuffle else "in this order"
        return f'<p class="section-draw">Add all {count} of these questions to the quiz together, {order}.</p>'
    return f'<p class="section-draw">Draw {section.pick} of these {count} questions at random for each student.</p>'


def question_tags(quiz: Quiz, question: Question) -> tuple[str, ...]:
    """The quiz's tags apply to each of its questions; each tag once, in order."""
    if not quiz.tags:
        return question.tags if len(question.tags) < 2 else tuple(dict.fromkeys(question.tags))
    return tuple(dict.fromkeys((*quiz.tags, *question.tags)))


def tag_pointer(quiz: Quiz, question: Question, tag: str) -> str:
    """Where a tag of a question stands: its own tags first, then the quiz's, which apply to it."""
    if tag in question.tags:
        return pointer_join(question.location.pointer, "tags", question.tags.index(tag))
    return pointer_join("", "tags", quiz.tags.index(tag))


def quiz_diagnostics(quiz: Quiz, options: ExportOptions, format_name: str, in_comments: bool = False) -> Iterator[Diagnostic]:
    """What Moodle changes in the category names it creates for this quiz, and the metadata it
    does not keep from this format (see `dropped_metadata`)."""
    dropped = dropped_metadata(quiz, format_name, in_comments)
    if dropped is not None:
        yield dropped
    for name in (*quiz.category, quiz.title):
        if len(name) > CATEGORY_MAX:
            message = f"category name {name[:40]!r}...: Moodle stores {CATEGORY_MAX} characters of a category name; it is cut there"
            yield quiz_loss(quiz, message, options, "moodle-category")
        if _TAG_LIKE.search(name) or "\n" in name or name != name.strip():
            message = f"category name {name!r}: Moodle strips HTML tags, line breaks and outer spaces from category names"
            yield quiz_loss(quiz, message, options, "moodle-category")


def dropped_metadata(quiz: Quiz, format_name: str, in_comments: bool = False) -> Diagnostic | None:
    """A note naming the bank metadata Moodle does not keep from this format (students see none of
    it). Moodle XML carries the description, level and learning path in the category's info; GIFT
    has only comment lines for them (`in_comments`), which Moodle skips."""
    source = quiz.source
    dropped = [name for name, value in (
        ("difficulty", quiz.difficulty),
        ("source", source is not None and (source.name or source.url or source.license)),
    ) if value]
    commented = [name for name, value in (
        ("description", quiz.description), ("level", quiz.level), ("learning path", quiz.learning_path),
    ) if value] if in_comments else []
    parts = []
    if dropped:
        parts.append(f"{format_name} has no place for the quiz's {' and '.join(dropped)}")
    if commented:
        parts.append(f"its {', '.join(commented)} ride in comment lines, which Moodle skips")
    if not parts:
        return None
    return note("; ".join(parts) + ": Moodle does not keep them", quiz.location.file, code="moodle-metadata")


def question_diagnostics(quiz: Quiz, question: Question, options: ExportOptions) -> Iterator[Diagnostic]:
    """Losses common to both Moodle formats."""
    name = question_name(question)
    if len(name) > NAME_MAX or name != name.strip() or ("<" in name and _TAG_LIKE.search(name)):
        yield loss_warning(quiz, question, f"question name {name!r}: Moodle strips HTML tags and outer spaces from names and cuts them at {NAME_MAX} characters", options, code="moodle-name")
    for tag in question_tags(quiz, question):
        if _TAG_UNSAFE.search(tag) or len(tag) > TAG_MAX or tag != tag.strip():
            yield loss_warning(quiz, question, f"tag {tag!r}: Moodle drops '<', '>', '`', control characters and repeated spaces from tags and keeps {TAG_MAX} characters", options, "moodle-tag", tag_pointer(quiz, question, tag))
    choices = getattr(question, "choices", ())
    if choices and getattr(question, "shuffle", False) and any(c.pinned for c in choices):
        pinned = ", ".join(c.id for c in choices if c.pinned)
        yield loss_warning(quiz, question, f"Moodle cannot keep options in place while it shuffles: pinned option(s) {pinned} will move", options, code="moodle-pinned")


def plugin_url(path: str) -> str:
    """Moodle refers to a file stored with a text as @@PLUGINFILE@@ followed by its path."""
    # Markdown gives the path already percent-encoded; the stored file has the decoded name.
    return "@@PLUGINFILE@@/" + quote(unquote(path))


# Formulas stay TeX (\( \) and \[ \]): Moodle's MathJax filter typesets them.
PLUGINFILE_STYLE = RenderStyle(media_url=plugin_url)


def html_of(text: Text, inline: bool, style: RenderStyle | None = None) -> str:
    """The XHTML Moodle gets for a text shown in HTML."""
    if style is None:
        return to_inline_html(text) if inline else to_html(text)
    return to_inline_html(text, style) if inline else to_html(text, style)


def plain_html(source: str, inline: bool) -> str:
    return plain_to_inline_html(source) if inline else plain_to_html(source)


def is_plain(text: Text) -> bool:
    return text.format is TextFormat.PLAIN


# Moodle's grading widens value ± tolerance by 10^-precision (PHP's precision, 14) of the larger of
# the two (qtype_numerical_answer::get_tolerance_interval), so that rounding cannot shut a bound out.
MOODLE_EPSILON = 1e-14


def _decimal_text(value: Decimal) -> str:
    """The exact decimal as the double nearest it, spelled as any other number is: Moodle grades with
    that double whichever digits the file gives (17 exact digits would only look more precise), and
    a value read back and written again gives the same text."""
    return "0" if value.is_zero() else number(float(value))


def range_as_value_and_tolerance(low: float, high: float) -> tuple[str, str, bool]:
    """Moodle has value ± tolerance only: [low, high] is the value (low + high) / 2 with the
    tolerance (high - low) / 2. Computed in decimal on the numbers as the content writes them, so no
    binary rounding noise (0.20000000000000007) reaches the file, then rounded once to a double.
    Also says whether Moodle, grading in doubles with its own margin, still accepts both bounds."""
    with localcontext() as context:
        context.prec = 1000  # exact for any pair of doubles
        lo, hi = Decimal(repr(low)), Decimal(repr(high))
        centre, tolerance = _decimal_text((lo + hi) / 2), _decimal_text((hi - lo) / 2)
    c, t = float(centre), float(tolerance)
    margin = t + MOODLE_EPSILON * max(abs(t), abs(c), MOODLE_EPSILON)
    return centre, tolerance, c - margin <= low and high <= c + margin


def question_texts(question: Question) -> Iterator[Text]:
    """Every rich text of a question that is set."""
    return (text for _, text in question.texts() if text is not None)


def escape_wildcards(answer: str) -> str:
    """Short answers treat '*' as a wildcard; '\\*' is a literal star (qtype_shortanswer
    compare_string_with_wildcard), so every star of the content is escaped."""
    return answer.replace("*", "\\*")

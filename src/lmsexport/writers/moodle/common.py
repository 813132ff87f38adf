"""What the Moodle XML and GIFT writers share: names, categories, tags and rich text choices.

Facts from Moodle's importers (question/format.php, question/format/xml/format.php,
question/format/gift/format.php):
- names go through clean_param(PARAM_TEXT), which strips HTML tags, and are cut at 255 characters;
- category paths split on '/', with '//' standing for a '/' inside a name (assemble_category_path);
- tags go through PARAM_TAG, which drops '<', '>', '`' and control characters and keeps 50 characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from decimal import Decimal, localcontext
from functools import lru_cache, partial
from operator import attrgetter, is_not, itemgetter
from urllib.parse import quote, unquote

from ...diagnostics import Diagnostic
from ...model import Question, Quiz, Section, Text
from ...text import (
    MARKDOWN,
    PLAIN,
    RenderStyle,
    plain_to_html,
    plain_to_inline_html,
    to_html,
    to_inline_html,
)
from ...text.markdown import formulas as markdown_formulas
from ..literal_tex import literal_tex
from ..reporter import LITERAL_TEX, Reporter, nothing_to_export, sections_of_drafts
from ..shared import merged_tags
from ..xml import number
from .check import grade_problems

_TAG_LIKE = re.compile(r"<[A-Za-z/!?]")
_TAG_UNSAFE = re.compile(r"[\x00-\x1f\x7f<>`]|\s\s")
TAG_MAX = 50
NAME_MAX = 255
_PINNED = attrgetter("pinned")
_TEXT_OF_PLACE = itemgetter(1)
_FORMAT = attrgetter("format")
_IS_SET = partial(is_not, None)


def question_name(question: Question) -> str:
    return question.title if question.title is not None else question.id


def name_place(question: Question) -> str:
    """The field a question's name comes from."""
    return "title" if question.title is not None else "id"


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


def section_note(report: Reporter, section: Section, path: str) -> None:
    """What a teacher must do in Moodle to have the section's layout: the bank carries no quiz."""
    if section.pick is not None:
        todo = f"to draw {section.pick} of its questions, add {section.pick} random question(s) from this category to the quiz"
    else:
        todo = "add its questions to the quiz together" + (" and shuffle them" if section.shuffle else "")
    message = f"section {section.id!r}: a Moodle question bank holds no quiz layout, so the section is the category {path!r}; {todo}"
    report.note(section, message, code="moodle-section")


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
    return _merged_tags(quiz.tags, question.tags)


@lru_cache(maxsize=4096)  # asked four times a question by the two formats; a bank has few combinations
def _merged_tags(quiz_tags: tuple[str, ...], own: tuple[str, ...]) -> tuple[str, ...]:
    return merged_tags(quiz_tags, own)


@lru_cache(maxsize=4096)  # a bank repeats a few combinations of tags over its questions
def tags_moodle_changes(tags: tuple[str, ...]) -> tuple[str, ...]:
    """The tags of a question that Moodle's PARAM_TAG changes: it drops '<', '>', '`', control
    characters and repeated spaces, and keeps 50 characters (outer spaces go too)."""
    return tuple(tag for tag in tags if _TAG_UNSAFE.search(tag) or len(tag) > TAG_MAX or tag != tag.strip())


def tag_place(quiz: Quiz, question: Question, tag: str) -> tuple[Question | None, tuple[str | int, ...]]:
    """Where a tag of a question stands: its own tags first, then the quiz's, which apply to it."""
    if tag in question.tags:
        return question, ("tags", question.tags.index(tag))
    return None, ("tags", quiz.tags.index(tag))


def quiz_losses(report: Reporter, format_title: str, in_comments: bool = False) -> None:
    """What Moodle changes in the category names it creates for this quiz, and the metadata it
    does not keep from this format (see `dropped_metadata`)."""
    quiz = report.quiz
    dropped_metadata(report, format_title, in_comments)
    named = [(("category", i), name) for i, name in enumerate(quiz.category)] + [(("title",), quiz.title)]
    for where, name in named:
        if len(name) > CATEGORY_MAX:
            message = f"category name {name[:40]!r}...: Moodle stores {CATEGORY_MAX} characters of a category name; it is cut there"
            report.loss(None, message, *where, code="moodle-category")
        if _TAG_LIKE.search(name) or "\n" in name or name != name.strip():
            message = f"category name {name!r}: Moodle strips HTML tags, line breaks and outer spaces from category names"
            report.loss(None, message, *where, code="moodle-category")


def dropped_metadata(report: Reporter, format_title: str, in_comments: bool) -> None:
    """A note naming the bank metadata Moodle does not keep from this format (students see none of
    it). Moodle XML carries the description, level and learning path in the category's info; GIFT
    has only comment lines for them (`in_comments`), which Moodle skips."""
    quiz = report.quiz
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
        parts.append(f"{format_title} has no place for the quiz's {' and '.join(dropped)}")
    if commented:
        parts.append(f"its {', '.join(commented)} ride in comment lines, which Moodle skips")
    if parts:
        report.note(None, "; ".join(parts) + ": Moodle does not keep them", code="moodle-metadata")


def question_losses(report: Reporter, question: Question) -> None:
    """Losses common to both Moodle formats: said alike by both, so said once for both."""
    name = question_name(question)
    if len(name) > NAME_MAX or name != name.strip() or ("<" in name and _TAG_LIKE.search(name)):
        report.loss(question, f"question name {name!r}: Moodle strips HTML tags and outer spaces from names and cuts them at {NAME_MAX} characters", name_place(question), code="moodle-name")
    tags = question_tags(report.quiz, question)
    for tag in tags_moodle_changes(tags) if tags else ():
        at, parts = tag_place(report.quiz, question, tag)
        report.loss(at, f"tag {tag!r}: Moodle drops '<', '>', '`', control characters and repeated spaces from tags and keeps {TAG_MAX} characters", *parts, code="moodle-tag")
    texts = question.texts()
    # Only Markdown has formulas: a question with no Markdown text (about half) is told by one scan
    # of its texts' formats in C, the others walked.
    if MARKDOWN in map(_FORMAT, filter(_IS_SET, map(_TEXT_OF_PLACE, texts))):
        for parts, text in texts:
            if text is not None and text.format is MARKDOWN and typesets_literal_tex(text):
                report.lost(question, LITERAL_TEX, *parts)
    if getattr(question, "shuffle", False) and any(map(_PINNED, getattr(question, "choices", ()))):  # few options are pinned
        for index, choice in enumerate(question.choices):
            if choice.pinned:
                report.loss(question, f"Moodle cannot keep options in place while it shuffles: pinned option {choice.id} will move", "options", index, "pinned", code="moodle-pinned")


def written_questions(report: Reporter, write: Callable[[Question], str | None], section_start: Callable[[Section, int], str],
                      quiz_category: Callable[[], str], family: tuple[str, ...] | None = None) -> list[str]:
    """The parts of a Moodle XML or GIFT file after its head, in the order Moodle reads them: each
    section opens its subcategory (`section_start`, given the section and its question count),
    the questions after a section go back to the quiz's category (`quiz_category`), and each
    question is judged by the rules both formats share, then written (`write`, None when it
    cannot be). `family` (formats.families): when both formats are made or checked together, the
    formats to say the shared rules for, naming them all (what each would say, merged as `settle`
    merges them), or () when the other format says them; None, this format alone says them."""
    shared_said = family is None or bool(family)
    own = report.formats
    shared = family or own
    parts: list[str] = []
    in_quiz_category = True
    sections_of_drafts(report, "moodle-section")
    for section, members in report.quiz.layout():
        if section is not None:
            parts.append(section_start(section, len(members)))
            in_quiz_category = False
        elif not in_quiz_category:
            parts.append(quiz_category())
            in_quiz_category = True
        for question in members:
            if shared_said:
                report.formats = shared  # counted among this format's errors all the same
                question_losses(report, question)
                grade_problems(report, question)
                report.formats = own
            part = write(question)
            if part is not None:
                parts.append(part)
    return parts


def checked(report: Reporter, format_title: str, writer: Callable[[Reporter], Callable[[Question], object]],
            quiz_reported: Callable[[Reporter], object], section_reported: Callable[[Reporter, Section], object],
            family: tuple[str, ...] | None = None) -> Iterator[Diagnostic]:
    """A Moodle XML or GIFT check: what `render` says, in its order, from the same rules (the
    quiz's, each section's, then `written_questions` with `writer`, the format's question writer
    with no text rendered, and `family` as `render` takes it; tests/test_format_checks.py)."""
    if not report.quiz.exported_questions:  # the writer's own note: no file for a quiz of drafts only
        return iter(nothing_to_export(report, "", format_title).diagnostics)
    quiz_reported(report)

    def section_start(section: Section, count: int) -> str:
        section_reported(report, section)
        return ""

    written_questions(report, writer(report), section_start, str, family)
    return iter(report.found)


def plugin_url(path: str) -> str:
    """Moodle refers to a file stored with a text as @@PLUGINFILE@@ followed by its path."""
    # Markdown gives the path already percent-encoded; the stored file has the decoded name.
    return "@@PLUGINFILE@@/" + quote(unquote(path))


# Formulas stay TeX (\( \) and \[ \]): Moodle's MathJax filter typesets them.
PLUGINFILE_STYLE = RenderStyle(media_url=plugin_url)


# Moodle's MathJax filter (filter/mathjaxloader, on by default in 4.5 and 5.0) marks a field for
# MathJax when the HTML as stored holds `\(`, `\[` or `$$`, and MathJax then typesets every
# formula of that field; a field holding none is shown as it is. So a text with no formula whose
# HTML holds one of them gets its backslashes and dollars as character references, which show the
# same characters and which the filter does not see (question texts are filtered uncleaned, so
# the references reach the filter as written; tests/importers/test_moodle_math.py runs the filter).
_TYPESET = re.compile(r"\\[(\[]|\$\$")
# What MathJax typesets in a field it was given: the formulas between Moodle's delimiters.
_FORMULA = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|\$\$.*?\$\$", re.S)


def typesets_literal_tex(text: Text | None) -> bool:
    """A Markdown text with a formula whose HTML holds TeX of its own beside the formulas: the
    filter marks the field, and MathJax typesets that too (a loss)."""
    return literal_tex(text, _FORMULA, with_formula=True) is not None


def typeset_whole(text: Text | None) -> bool:
    """A Markdown text with a formula whose HTML holds a delimiter: the filter marks the whole
    field it stands in (html_of writes it as it is)."""
    return (text is not None and text.format is not PLAIN and markdown_formulas(text.source)
            and _TYPESET.search(to_html(text)) is not None)


def holds_tex_delimiter(value: str) -> bool:
    return _TYPESET.search(value) is not None


def shown_as_written(html: str) -> str:
    """The HTML of a text with no formula, unable to make Moodle typeset it."""
    if _TYPESET.search(html) is None:
        return html
    return html.replace("\\", "&#92;").replace("$", "&#36;")


def html_of(text: Text, inline: bool, style: RenderStyle | None = None) -> str:
    """The XHTML Moodle gets for a text shown in HTML."""
    if style is None:
        html = to_inline_html(text) if inline else to_html(text)
    else:
        html = to_inline_html(text, style) if inline else to_html(text, style)
    if text.format is not PLAIN and _TYPESET.search(html) is not None and markdown_formulas(text.source):
        return html  # typeset whole: its formulas must be (a literal beside them is said: typesets_literal_tex)
    return shown_as_written(html)


def plain_html(source: str, inline: bool) -> str:
    """The XHTML Moodle gets for a plain text shown in HTML."""
    return shown_as_written(plain_to_inline_html(source) if inline else plain_to_html(source))


def is_plain(text: Text) -> bool:
    return text.format is PLAIN




def _decimal_text(value: Decimal) -> str:
    """The exact decimal as the double nearest it, spelled as any other number is: Moodle grades with
    that double whichever digits the file gives (17 exact digits would only look more precise), and
    a value read back and written again gives the same text."""
    return "0" if value.is_zero() else number(float(value))


def range_as_value_and_tolerance(low: float, high: float) -> tuple[str, str]:
    """Moodle has value ± tolerance only: [low, high] is the value (low + high) / 2 with the
    tolerance (high - low) / 2. Computed in decimal on the numbers as the content writes them, so no
    binary rounding noise (0.20000000000000007) reaches the file, then rounded once to a double.
    Moodle grades in doubles, widening value ± tolerance by 10^-precision (PHP's precision, 14) of
    the larger of the two (qtype_numerical_answer::get_tolerance_interval): far more than the half
    unit in the last place each loses in that rounding, so both bounds are always accepted and
    nothing is lost (tests/test_moodle_xml.py runs Moodle's grading in PHP on written ranges)."""
    with localcontext() as context:
        context.prec = 1000  # exact for any pair of doubles
        lo, hi = Decimal(repr(low)), Decimal(repr(high))
        return _decimal_text((lo + hi) / 2), _decimal_text((hi - lo) / 2)


def escape_wildcards(answer: str) -> str:
    """Short answers treat '*' as a wildcard; '\\*' is a literal star (qtype_shortanswer
    compare_string_with_wildcard), so every star of the content is escaped."""
    return answer.replace("*", "\\*")

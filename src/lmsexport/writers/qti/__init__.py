"""IMS QTI 2.1 content package: one zip with a manifest, an assessmentTest and one item per question.

    imsmanifest.xml
    test.xml              the assessmentTest
    <identifier>.xml      one assessmentItem per question, at the root (see `_unique_href`)
    <media path>          each media file at its path beside the quiz, listed by a resource
                          without href (see `render`)

Every file is meant to validate against the official QTI 2.1 and IMS CP 1.1 schemas, and follows
the conventions Canvas's QTI importer needs (see manifest.py, test.py, feedback.py, choices.py);
what Canvas still changes is the data of platform_losses.py. The quiz's own data (level,
difficulty, learning path, category, source, tags) rides in the manifest's LOM (see lom.py).
"""

from __future__ import annotations

from ...model import Description, Ordering, Question, Quiz, Section
from ..reporter import Reporter, nothing_to_export, sections_of_drafts
from ..shared import Export, ExportOptions, merged_tags
from ..zips import Package
from .context import ItemContext
from .item import assessment_item
from .lom import quiz_lom, write
from .manifest import ITEM_TYPE, MEDIA_TYPE, TEST_TYPE, Resource, manifest
from .media import used_media
from .platform_losses import Severity, found_in_quiz, found_in_sections
from .names import identifier, media_href, media_path
from .test import assessment_test

MANIFEST = "imsmanifest.xml"
# Items whose type Canvas cannot guess from their interactions: it guesses none for an item with
# no interaction or an orderInteraction and makes an "Error" of it (question_type_educated_guesser.rb).
_CANVAS_TYPES = {Description: "text_only_question", Ordering: "orderInteraction"}
TEST_FILE = "test.xml"


def render(quiz: Quiz, options: ExportOptions) -> Export:
    filename = f"{quiz.id}.zip"
    questions = quiz.exported_questions
    if not questions:
        return nothing_to_export(Reporter(quiz, "qti", options), filename, "QTI")
    report = Reporter(quiz, "qti", options)

    files = Package()  # each item deflated as it is made
    media_ids = {m.path: f"media.{n}" for n, m in enumerate(quiz.media, 1)}
    resources: list[Resource] = []
    refs: dict[str, tuple[str, str, float]] = {}
    taken: set[str] = set()
    file_names: set[str] = {MANIFEST, TEST_FILE}
    for question in questions:
        item_id = identifier(question.id)
        if item_id in taken:
            report.error(question, f"the identifier '{item_id}' is used by another question", "id", code="qti")
        taken.add(item_id)
        href = _unique_href(item_id, file_names)
        language = quiz.language_of(question)
        ctx = ItemContext(report, question, language)
        files[href] = assessment_item(ctx, item_id)
        title = question.title if question.title is not None else question.id
        shows = tuple(used_media(quiz, question)) if media_ids else ()
        uses = (tuple([media_ids[path] for path in shows]), tuple([media_href(path) for path in shows])) if shows else ((), ())
        resources.append(Resource(item_id, ITEM_TYPE, href, title, language, _item_keywords(quiz, question), *uses,
                                  canvas_type=_CANVAS_TYPES.get(type(question))))
        refs[question.id] = (item_id, href, question.points)
    if report.failed:
        return report.export(filename)

    sections_of_drafts(report, "qti-section")
    groups = [(_section(quiz, section, report), [refs[q.id] for q in members]) for section, members in quiz.layout()]
    if report.failed:
        return report.export(filename)
    test_id = f"test.{quiz.id}"
    files[TEST_FILE] = assessment_test(test_id, quiz.title, groups)
    keywords = tuple(dict.fromkeys(quiz.tags))
    lom = quiz_lom(quiz, keywords)
    test = Resource(test_id, TEST_TYPE, TEST_FILE, quiz.title, quiz.language, keywords, tuple(r.identifier for r in resources), lom=write(lom, 4))
    for media in quiz.media:
        files[media_path(media.path)] = media.data
    # A media resource has no href: Canvas (Qti.convert_files) makes a course file of every <file>
    # except a resource's own href, and links resolve only to course files.
    shown = [Resource(media_ids[m.path], MEDIA_TYPE, None, m.name, quiz.language, files=(media_href(m.path),)) for m in quiz.media]
    files[MANIFEST] = manifest(f"manifest.{quiz.id}", write(lom, 2), [test, *resources, *shown])
    report_platform_losses(quiz, report)
    return report.export(filename, files.zip())


def report_platform_losses(quiz: Quiz, report: Reporter) -> None:
    """What a platform's importer will change, from the table in platform_losses. The package
    itself carries everything, so these never become errors under --strict. A change of score is
    a warning at each question or section; the rest one note per kind, naming the questions."""
    for loss, questions in found_in_quiz(quiz).items():
        message = f"on import into {loss.platform}: {loss.effect}"
        if loss.severity is Severity.WARNING:
            for question in questions:
                report.platform_warning(question, message, code="qti-platform")
        else:
            names = ", ".join(repr(q.id) for q in questions[:5])
            more = f" and {len(questions) - 5} more" if len(questions) > 5 else ""
            report.note(None, f"{message} (question {names}{more})", code="qti-platform")
    for index, loss in found_in_sections(quiz):
        message = f"on import into {loss.platform}: {loss.effect}"
        if loss.severity is Severity.WARNING:
            report.platform_warning(None, message, "sections", index, code="qti-platform")
        else:
            report.note(None, message, "sections", index, code="qti-platform")


def _section(quiz: Quiz, section: Section | None, report: Reporter):
    if section is None:
        return None
    index = quiz.sections.index(section)
    ctx = ItemContext(report, None, quiz.language)
    title = section.title
    rubric = "" if section.instructions is None else ctx.block(section.instructions, "sections", index, "instructions")
    # Content ids hold no '.', so this cannot meet an item's identifier.
    return (f"section.{identifier(section.id)}", title, section.pick, section.shuffle, rubric)


def _item_keywords(quiz: Quiz, question: Question) -> tuple[str, ...]:
    """The quiz's tags apply to each of its questions; each tag once, in order."""
    return merged_tags(quiz.tags, question.tags) if quiz.tags else question.tags


def _unique_href(item_id: str, used: set[str]) -> str:
    """<identifier>.xml at the package root, unique even where file names ignore case (Windows,
    macOS). At the root, an item refers to a media file by the file's own package path, the only
    form Canvas's path matching (html_helper.rb, find_best_path_match) resolves: it cannot follow
    `../` from an item in a subfolder."""
    href, n = f"{item_id}.xml", 1
    folded = href.lower()
    while folded in used:
        n += 1
        href = f"{item_id}-{n}.xml"
        folded = href.lower()
    used.add(folded)
    return href


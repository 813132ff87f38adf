"""The Canvas package with media, formulas and the quiz's level and learning path, parsed back."""

from __future__ import annotations

import dataclasses
import io
import zipfile
from urllib.parse import unquote

import pytest
from canvas_reader import CANVAS, CP, read_package
from conftest import CONTENT, DATA
from lxml import html as lxml_html

from lmsexport.loader import load_quiz
from lmsexport.model import Description, TextFormat
from lmsexport.text import markdown, media_references
from lmsexport.writers import canvas
from lmsexport.writers.shared import ExportOptions

MEDIA_QUIZ = DATA / "media" / "media_and_math.json"
# Canvas's importer resolves this token against the course files made from web_resources/.
TOKEN = "%24IMS_CC_FILEBASE%24/"


@pytest.fixture(scope="module")
def exported():
    quiz = load_quiz(MEDIA_QUIZ).quiz
    export = canvas.render(quiz, ExportOptions())
    assert export.data is not None, export.diagnostics
    return quiz, export.data, read_package(export.data)


def _texts(quiz, question, item):
    """(content text, the HTML Canvas receives for it) for every text of a question."""
    yield question.stem, item.stem_html
    for ident, text in (("general_fb", question.feedback.general), ("correct_fb", question.feedback.correct)):
        if text is not None and not isinstance(question, Description):
            yield text, item.feedback[ident]
    for answer_id, choice in zip(item.answer_ids, getattr(question, "choices", ())):
        yield choice.text, item.labels[answer_id]
        if choice.feedback is not None:
            yield choice.feedback, item.feedback[f"{answer_id}_fb"]


def _addresses(html: str) -> list[str]:
    fragment = lxml_html.fragment_fromstring(html, create_parent="div")
    return [e.get("src") for e in fragment.iter("img", "audio", "video")]


def test_every_media_file_once_in_web_resources(exported):
    quiz, data, package = exported
    archive = zipfile.ZipFile(io.BytesIO(data))
    stored = [n for n in archive.namelist() if n.startswith("web_resources/")]
    assert sorted(stored) == sorted(f"web_resources/{m.path}" for m in quiz.media)
    assert len(stored) == len(set(stored)) == 4  # ring.png is used three times, stored once
    for media in quiz.media:
        assert archive.read(f"web_resources/{media.path}") == media.data


def test_every_media_file_is_a_webcontent_resource(exported):
    quiz, _, package = exported
    resources = package.manifest.findall(f"{CP}resources/{CP}resource[@type='webcontent']")
    hrefs = {unquote(r.get("href")): r for r in resources}
    assert sorted(hrefs) == sorted(f"web_resources/{m.path}" for m in quiz.media)
    for href, resource in hrefs.items():
        # The importer makes a course file of each <file>, keyed by its href.
        assert [unquote(f.get("href")) for f in resource.findall(f"{CP}file")] == [href]
    assert len({r.get("identifier") for r in resources}) == len(resources)


def test_texts_refer_to_their_files_through_the_course_files(exported):
    quiz, _, package = exported
    referenced = set()
    for question, item in zip(quiz.exported_questions, package.items):
        for text, html in _texts(quiz, question, item):
            expected = [TOKEN + path for path in media_references(text)]
            assert [a for a in _addresses(html) if a.startswith("%24")] == expected
            referenced.update(media_references(text))
    assert referenced == {m.path for m in quiz.media}
    audio = lxml_html.fragment_fromstring(package.items[4].stem_html, create_parent="div")
    assert audio.find(".//audio").get("src") == TOKEN + "media/clip.mp3"


def test_description_media_is_packaged():
    quiz = load_quiz(MEDIA_QUIZ).quiz
    quiz = dataclasses.replace(
        quiz,
        description=dataclasses.replace(quiz.description, source="Look: ![ring](media/ring.png)"),
        questions=quiz.questions[4:5],  # the sound only
    )
    package = read_package(canvas.render(quiz, ExportOptions()).data)
    assert sorted(n for n in package.names if n.startswith("web_resources/")) == [
        "web_resources/media/clip.mp3",
        "web_resources/media/ring.png",
    ]
    assert TOKEN + "media/ring.png" in package.meta.findtext(f"{CANVAS}description")


def test_every_formula_survives_for_mathjax(exported):
    quiz, _, package = exported
    found = 0
    for question, item in zip(quiz.exported_questions, package.items):
        for text, html in _texts(quiz, question, item):
            if text.format is not TextFormat.MARKDOWN:
                continue
            shown = lxml_html.fragment_fromstring(html, create_parent="div").text_content()
            for latex, display in markdown.formulas(text.source):
                # Canvas typesets \( \) and \[ \] with MathJax; the TeX must arrive unchanged.
                assert ("\\[" + latex + "\\]" if display else "\\(" + latex + "\\)") in shown
                found += 1
    description = lxml_html.fragment_fromstring(package.meta.findtext(f"{CANVAS}description"), create_parent="div")
    assert "\\(M = 16\\Psi\\)" in description.text_content()
    assert found == 5
    # "$2 and a CPU hour $1" is money, not a formula.
    assert "$2 and a CPU hour $1" in lxml_html.fragment_fromstring(package.items[5].stem_html).text_content()


def _metadata_paragraphs(package) -> list[str]:
    description = lxml_html.fragment_fromstring(package.meta.findtext(f"{CANVAS}description"), create_parent="div")
    return [p.text_content() for p in description.findall("p")]


@pytest.mark.parametrize("path", sorted(CONTENT.glob("*.json")), ids=lambda p: p.stem)
def test_level_and_learning_path_shown_in_the_description(path):
    quiz = load_quiz(path).quiz
    paragraphs = _metadata_paragraphs(read_package(canvas.render(quiz, ExportOptions()).data))
    expected = [f"{label}: {value}" for label, value in (("Level", quiz.level), ("Learning path", quiz.learning_path)) if value]
    assert expected and paragraphs[-len(expected):] == expected


def test_hostile_metadata_survives_character_for_character():
    quiz = load_quiz(CONTENT / "model-pipeline-parallelism.json").quiz
    level = "Dëgër Niveau <script>alert(1)</script> & ]]> \"q\" 'q' ‮שלום‬ e\u0301 🚀"
    path = "A\nB"
    export = canvas.render(dataclasses.replace(quiz, level=level, learning_path=path), ExportOptions())
    paragraphs = _metadata_paragraphs(read_package(export.data))
    assert paragraphs[-2:] == [f"Level: {level}", "Learning path: AB"]  # a line break is a <br/>
    assert "<script>" not in read_package(export.data).meta.findtext(f"{CANVAS}description")
    notes = [d.message for d in export.diagnostics if d.code == "canvas-metadata"]
    # What Canvas still has no place for is named; what the description carries is not.
    assert notes and "difficulty" in notes[0] and "level" not in notes[0] and "learning_path" not in notes[0]

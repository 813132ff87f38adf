"""`lmsexport import` as a command: detection by content, one quiz per category, files that
validate, nothing overwritten without --force, --strict, and hostile input refused with a clear
message and nothing written outside the output folder."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CONTENT, DATA
from lmsexport.cli import app
from lmsexport.importers import import_data
from lmsexport.importers.detect import detect
from lmsexport.importers.safety import MAX_RATIO
from lmsexport.loader import load_quiz
from lmsexport.writers import qti
from lmsexport.writers.moodle import gift, moodle_xml
from lmsexport.writers.shared import ExportOptions

runner = CliRunner()

TWO_CATEGORIES = b"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$module$/top/Physics/Waves</text></category></question>
  <question type="truefalse">
    <name><text>Sound needs a medium</text></name>
    <questiontext format="html"><text><![CDATA[<p>Sound travels through a <strong>vacuum</strong>.</p>]]></text></questiontext>
    <defaultgrade>2</defaultgrade>
    <answer fraction="0"><text>true</text><feedback><text>No air, no sound.</text></feedback></answer>
    <answer fraction="100"><text>false</text><feedback><text>Right.</text></feedback></answer>
  </question>
  <question type="category"><category><text>$system$/top/Physics/Optics</text></category></question>
  <question type="calculated">
    <name><text>Lens power</text></name>
    <questiontext format="html"><text>What is the power of a lens of focal length {f} m?</text></questiontext>
  </question>
  <question type="multichoice">
    <name><text>Colour</text></name>
    <idnumber>colour-1</idnumber>
    <questiontext format="html"><text><![CDATA[<p style="color: red">Which colour bends most?</p>]]></text></questiontext>
    <single>true</single>
    <answer fraction="100"><text>violet</text></answer>
    <answer fraction="0"><text>red</text></answer>
  </question>
</quiz>
"""


def run(*args: str):
    return runner.invoke(app, ["import", *args])


def written(folder: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


def test_one_quiz_per_category_with_slug_ids_paths_drafts_and_located_warnings(tmp_path):
    source = tmp_path / "bank.xml"
    source.write_bytes(TWO_CATEGORIES)
    result = run(str(source), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    quizzes = written(tmp_path / "out")
    assert sorted(quizzes) == ["physics-optics.json", "physics-waves.json"]
    waves, optics = quizzes["physics-waves.json"], quizzes["physics-optics.json"]
    assert waves["$schema"] == "../schema/quiz.schema.json" and list(waves)[:3] == ["$schema", "id", "title"]
    assert (waves["title"], waves["category"]) == ("Waves", ["Physics"])
    question = waves["questions"][0]
    assert waves["text_format"] == "markdown"
    assert question == {"id": "sound-needs-a-medium", "type": "true_false", "title": "Sound needs a medium",
                        "stem": "Sound travels through a **vacuum**.", "points": 2,
                        "answer": False, "true_feedback": "No air, no sound.", "false_feedback": "Right."}
    draft, colour = optics["questions"]
    assert draft["draft"] is True and "{f}" in draft["stem"]["text"]
    assert colour["id"] == "colour-1" and colour["options"][0]["correct"] is True
    assert f"{source}:12: warning: question 'Lens power': a calculated question" in result.output
    assert f"{source}:16: warning: question 'Colour': the question text: style=\"color: red\" on <p>" in result.output
    for name in quizzes:
        assert load_quiz(tmp_path / "out" / name).ok


def test_never_overwrites_without_force_and_strict_makes_losses_errors(tmp_path):
    source = tmp_path / "bank.xml"
    source.write_bytes(TWO_CATEGORIES)
    out = tmp_path / "out"
    assert run(str(source), "-o", str(out)).exit_code == 0
    before = (out / "physics-waves.json").read_bytes()
    (out / "physics-waves.json").write_text("{}", encoding="utf-8")
    again = run(str(source), "-o", str(out))
    assert again.exit_code == 1 and "exists" in again.output and "--force" in again.output
    assert (out / "physics-waves.json").read_text(encoding="utf-8") == "{}"
    assert run(str(source), "-o", str(out), "--force").exit_code == 0
    assert (out / "physics-waves.json").read_bytes() == before
    strict = run(str(source), "-o", str(tmp_path / "strict"), "--strict")
    assert strict.exit_code == 1 and "error: " in strict.output and "(an error under --strict)" in strict.output
    assert not (tmp_path / "strict" / "physics-optics.json").exists() and (tmp_path / "strict" / "physics-waves.json").exists()
    assert not list(out.glob(".import-*")), "the staging folder is left behind"


def test_id_option_and_detection_by_content(tmp_path):
    quiz = load_quiz(DATA / "every_type.json").quiz
    source = tmp_path / "no-extension"
    source.write_bytes(gift.render(quiz, ExportOptions()).data)
    assert detect(source.read_bytes(), source.name) == "gift"
    result = run(str(source), "-o", str(tmp_path / "out"), "--id", "physics-bank")
    assert result.exit_code == 0, result.output
    assert list(written(tmp_path / "out")) == ["physics-bank.json"]
    assert run(str(source), "-o", str(tmp_path / "out"), "--id", "Not A Slug").exit_code == 2
    package = qti.render(quiz, ExportOptions()).data
    assert detect(package, "x.bin") == "qti"
    assert detect(moodle_xml.render(quiz, ExportOptions()).data, "x.txt") == "moodle"


def test_media_are_written_beside_the_quiz_and_referenced_from_markdown(tmp_path):
    from lmsexport.writers import canvas

    quiz = load_quiz(DATA / "media" / "media_and_math.json").quiz
    assert quiz.media
    for writer, name in ((moodle_xml, "quiz.xml"), (qti, "quiz.zip"), (canvas, "canvas.zip")):
        source = tmp_path / name
        source.write_bytes(writer.render(quiz, ExportOptions()).data)
        out = tmp_path / name.replace(".", "-")
        result = run(str(source), "-o", str(out))
        assert result.exit_code == 0, result.output
        data = next(iter(written(out).values()))
        text = json.dumps(data)
        for media in quiz.media:
            assert (out / media.path).read_bytes() == media.data, (name, media.path)
            assert f"]({media.path}" in text


def _zip(entries: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


HOSTILE = {
    "xxe.xml": (b'<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz><question type="essay">'
                b'<name><text>&x;</text></name><questiontext><text>&x;</text></questiontext></question></quiz>', "entities"),
    "laughs.xml": (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
                   b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><quiz>&lol3;</quiz>', "entities"),
    "latin1.gift": ("::Q:: Café ou thé ? {=café ~thé}".encode("latin-1"), "not UTF-8"),
    "utf16.gift": ("::Q:: x {=a ~b}".encode("utf-16"), "UTF-16"),
    "slip.zip": (_zip({"imsmanifest.xml": b"<manifest/>", "../../evil.txt": b"owned"}), "outside the package"),
    "absolute.zip": (_zip({"/etc/evil.xml": b"<x/>"}), "outside the package"),
    "bomb.zip": (_zip({"imsmanifest.xml": b"<manifest/>", "items/a.xml": b"\0" * (MAX_RATIO * 20000)}), "zip bomb"),
    "truncated.zip": (_zip({"imsmanifest.xml": b"<manifest>" + b"x" * 5000 + b"</manifest>"})[:300], "zip"),
    "broken.xml": (b"<quiz><question type='essay'><name>", "not well-formed"),
    "random.bin": (bytes(range(256)) * 4, "not UTF-8"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_a_clear_error_and_writes_nothing(tmp_path, name):
    data, words = HOSTILE[name]
    folder = tmp_path / "in"
    folder.mkdir()
    source = folder / name
    source.write_bytes(data)
    out = tmp_path / "out"
    result = run(str(source), "-o", str(out))
    assert result.exit_code == 1, result.output
    assert f"{source}" in result.output and "error:" in result.output and words in result.output, result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [name]


def test_a_zip_cannot_name_files_outside_the_output_even_through_media():
    manifest = (b'<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="i" type="imsqti_item_xmlv2p1" href="i.xml"/>'
                b"</resources></manifest>")
    item = (b'<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="i" title="t"><itemBody><p>See '
            b'<img src="../../../etc/passwd" alt="x"/></p></itemBody></assessmentItem>')
    quizzes, problems = import_data(_zip({"imsmanifest.xml": manifest, "i.xml": item}), "p.zip")
    assert not problems and not quizzes[0].media
    assert "../" not in json.dumps([q.stem.source for q in quizzes[0].quiz.questions])


def test_content_files_import_back_as_they_were_written():
    """Moodle XML of the real content, imported, gives back its questions' types, ids and keys."""
    for path in sorted(CONTENT.glob("*.json")):
        quiz = load_quiz(path).quiz
        imported, problems = import_data(moodle_xml.render(quiz, ExportOptions()).data, "quiz.xml")
        assert not problems
        back = imported[0].quiz
        assert [(q.id, q.type, q.points) for q in back.questions] == [(q.id, q.type, q.points) for q in quiz.exported_questions]
        assert (back.title, back.category) == (quiz.title, quiz.category)


@pytest.mark.parametrize("path", [*sorted(CONTENT.glob("*.json")), *sorted(DATA.glob("*.json")), DATA / "media" / "media_and_math.json"],
                         ids=lambda p: p.stem)
def test_the_json_writer_gives_back_the_same_model_and_validates(path, tmp_path):
    """Every quiz the project holds, written by the import's JSON writer, loads as the same model."""
    from lmsexport.importers.canonical_json import quiz_to_json

    quiz = load_quiz(path).quiz
    copy = tmp_path / path.name
    for media in quiz.media:
        (tmp_path / media.path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / media.path).write_bytes(media.data)
    copy.write_bytes(quiz_to_json(quiz))
    again = load_quiz(copy)
    assert again.ok, [d.message for d in again.diagnostics if d.is_error]
    assert again.quiz == quiz
    assert quiz_to_json(again.quiz) == copy.read_bytes()  # stable: written twice, the same bytes

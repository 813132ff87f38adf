"""One quiz with shared and unique images, an SVG, a sound and formulas, built into every format.

Each package is opened: every media file is present (once where the format packs files), listed
and referenced by the texts that show it; QTI's MathML validates; every formula survives.
"""

from __future__ import annotations

import base64
import re

import pytest
from lxml import etree
from typer.testing import CliRunner

from conftest import DATA
from packages import entries
from qti_support import is_item
from lmsexport.cli import app
from lmsexport.loader import load_quiz

QUIZ = DATA / "media" / "media_and_math.json"
# The files as exported: as on disk, except the SVG, which is sanitised on loading.
MEDIA = {m.name: m.data for m in load_quiz(QUIZ).quiz.media}
MATHML = "{http://www.w3.org/1998/Math/MathML}"
# (LaTeX as written, display?) for every formula of the quiz's questions, in order.
FORMULAS = [
    ("2\\frac{N-1}{N}", False),
    ("M = 2 + 2 + 12 = \\sum_{k} b_k", True),
    ("M", False),
    ("e^{m_{old} - m_{new}}", False),
    ("\\ell_{new} = \\ell_{old}\\, e^{m_{old}-m_{new}} + \\sum_j e^{x_j - m_{new}}", True),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports")
    result = CliRunner().invoke(app, ["build", str(QUIZ.parent), "-o", str(out), "--media-base-url", "https://cdn.example.org/quiz/"])
    assert result.exit_code == 0, result.output
    return out


def tex(latex: str, display: bool) -> str:
    return ("\\[" if display else "\\(") + latex + ("\\]" if display else "\\)")


def test_quiz_loads_with_all_its_media():
    assert sorted(MEDIA) == sorted(p.name for p in (DATA / "media" / "media").iterdir())


def test_qti_packs_each_file_once_lists_and_references_it_and_mathml_validates(built, schemas):
    files = entries(built / "qti" / "media-and-math.zip")
    assert {n: d for n, d in files.items() if n.startswith("media/")} == {f"media/{k}": v for k, v in MEDIA.items()}
    manifest = etree.fromstring(files["imsmanifest.xml"])
    listed = [f.get("href") for f in manifest.iter("{http://www.imsglobal.org/xsd/imscp_v1p1}file")]
    assert sorted(set(listed)) == sorted(set(files) - {"imsmanifest.xml"})
    items = {n: files[n].decode() for n in files if is_item(n)}
    for name in MEDIA:
        assert any(f'"media/{name}"' in xml for xml in items.values()), name
    # Each item's resource lists, as <file>, exactly the media its item shows.
    for resource in manifest.iter("{http://www.imsglobal.org/xsd/imscp_v1p1}resource"):
        if resource.get("type") == "imsqti_item_xmlv2p1":
            shown = set(re.findall(r'"(media/[^"]+)"', items[resource.get("href")]))
            listed_here = {f.get("href") for f in resource.iter("{http://www.imsglobal.org/xsd/imscp_v1p1}file")}
            assert listed_here == {resource.get("href")} | shown
    maths = []
    for name in sorted(items, key=lambda n: ["ring", "bubble", "memory", "softmax", "listen", "price"].index(n[:-4])):
        document = etree.fromstring(files[name])
        assert schemas["qti 2.1"].validate(document) and schemas["qti 2.1.2"].validate(document), schemas["qti 2.1"].error_log
        maths += document.iter(f"{MATHML}math")
    assert len(maths) == len(FORMULAS)
    assert [m.get("display") == "block" for m in maths] == [display for _, display in FORMULAS]
    assert "$2 and a CPU hour $1" in items["price.xml"]


def test_canvas_packs_each_file_once_and_keeps_formulas_as_tex(built):
    files = entries(built / "canvas" / "media-and-math.zip")
    assert {n.rsplit("/", 1)[1]: d for n, d in files.items() if n.startswith("web_resources/")} == MEDIA
    manifest = files["imsmanifest.xml"].decode()
    assessment = next(d.decode() for n, d in files.items() if n.endswith(".xml") and "questestinterop" in d.decode()[:400])
    for name in MEDIA:
        assert f"web_resources/media/{name}" in manifest
        assert f"media/{name}" in assessment
    for latex, display in FORMULAS:
        assert etree.fromstring(assessment.encode()).xpath("count(//*[contains(text(), $t)])", t=tex(latex, display)) >= 1, latex


def test_moodle_xml_embeds_files_in_each_text_that_shows_them(built):
    document = etree.parse(str(built / "moodle" / "media-and-math.xml"))
    for text in document.iter("questiontext", "feedback", "generalfeedback"):
        body = text.findtext("text") or ""
        shown = set(re.findall(r"@@PLUGINFILE@@/([^\"']+)", body))
        embedded = {(f.get("path") + f.get("name")).lstrip("/"): base64.b64decode(f.text) for f in text.findall("file")}
        assert set(embedded) == shown
        for path, data in embedded.items():
            assert data == MEDIA[path.rsplit("/", 1)[1]]
    every = "".join(t.findtext("text") or "" for t in document.iter("questiontext", "generalfeedback"))
    for latex, display in FORMULAS:
        assert tex(latex, display).replace("&", "&amp;").replace("<", "&lt;") in every, latex
    assert {f.get("name") for f in document.iter("file")} == set(MEDIA)


def test_gift_links_media_under_the_base_url_and_escapes_formulas(built):
    text = (built / "gift" / "media-and-math.gift.txt").read_text(encoding="utf-8")
    for name in MEDIA:
        assert f"https\\://cdn.example.org/quiz/media/{name}" in text  # GIFT escapes ':'

    for latex, display in FORMULAS:
        escaped = tex(latex, display).replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("=", "\\=")
        assert escaped in text, latex


def test_gift_without_base_url_warns_per_text(tmp_path):
    result = CliRunner().invoke(app, ["gift", str(QUIZ), "-o", str(tmp_path), "--verbose"])  # every occurrence
    assert result.exit_code == 0
    warned = re.findall(r"warning: gift: GIFT cannot carry media files .*\(at (/questions/\d+)/[a-z_/0-9]+\)", result.stderr)
    assert set(warned) >= {"/questions/0", "/questions/1", "/questions/3", "/questions/4"}
    strict = CliRunner().invoke(app, ["gift", str(QUIZ), "-o", str(tmp_path / "strict"), "--strict"])
    assert strict.exit_code == 1
    assert not (tmp_path / "strict" / "media-and-math.gift.txt").exists()


def test_reference_style_images_are_loaded_and_packed(tmp_path):
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "ring.png").write_bytes((DATA / "media" / "media" / "ring.png").read_bytes())
    quiz = {"id": "reference-images", "title": "R", "language": "en", "text_format": "markdown", "questions": [
        {"id": "q1", "type": "essay", "stem": "Look: ![A ring of four GPUs][ring]\n\n[ring]: media/ring.png"}]}
    (tmp_path / "quiz.json").write_text(__import__("json").dumps(quiz), encoding="utf-8")
    loaded = load_quiz(tmp_path / "quiz.json")
    assert loaded.ok and [m.path for m in loaded.quiz.media] == ["media/ring.png"]
    (tmp_path / "media" / "ring.png").unlink()
    missing = load_quiz(tmp_path / "quiz.json")
    assert any("'media/ring.png' does not exist" in d.message for d in missing.diagnostics)


@pytest.fixture
def awkward_media(tmp_path):
    """Two different files with one name in two folders, and names with a space and an accent."""
    ring = (DATA / "media" / "media" / "ring.png").read_bytes()
    schedule = (DATA / "media" / "media" / "schedule.png").read_bytes()
    (tmp_path / "media").mkdir()
    (tmp_path / "ring.png").write_bytes(schedule)
    (tmp_path / "media" / "ring.png").write_bytes(ring)
    (tmp_path / "media" / "réseau.png").write_bytes(ring)
    (tmp_path / "media" / "a b.png").write_bytes(schedule)
    quiz = {"id": "awkward", "title": "Awkward", "language": "nl", "text_format": "markdown", "questions": [
        {"id": "a", "type": "essay", "stem": "Top ![top ring](ring.png)"},
        {"id": "b", "type": "essay", "stem": "Nested ![nested ring](media/ring.png)"},
        {"id": "c", "type": "essay", "stem": "Accent ![netwerk](media/réseau.png) and space ![ab](<media/a b.png>)"}]}
    (tmp_path / "awkward.json").write_text(__import__("json").dumps(quiz, ensure_ascii=False), encoding="utf-8")
    return tmp_path, {"ring.png": schedule, "media/ring.png": ring, "media/réseau.png": ring, "media/a b.png": schedule}


def test_awkward_media_names_load_and_stay_apart_in_every_format(awkward_media, tmp_path_factory):
    folder, expected = awkward_media
    loaded = load_quiz(folder / "awkward.json")
    assert loaded.ok, [d.message for d in loaded.diagnostics]
    assert {m.path: m.data for m in loaded.quiz.media} == expected
    out = tmp_path_factory.mktemp("awkward")
    result = CliRunner().invoke(app, ["build", str(folder / "awkward.json"), "-o", str(out), "--media-base-url", "https://cdn.example.org/q/"])
    assert result.exit_code == 0, result.output
    qti_files = entries(out / "qti" / "awkward.zip")
    assert {path: qti_files[path] for path in expected} == expected
    items = {name: qti_files[name].decode() for name in qti_files if is_item(name)}
    assert 'src="ring.png"' in items["a.xml"] and 'src="media/ring.png"' in items["b.xml"]
    assert 'src="media/r%C3%A9seau.png"' in items["c.xml"] and 'src="media/a%20b.png"' in items["c.xml"]
    canvas_files = entries(out / "canvas" / "awkward.zip")
    assert {n[len("web_resources/"):]: d for n, d in canvas_files.items() if n.startswith("web_resources/")} == expected
    moodle = etree.parse(str(out / "moodle" / "awkward.xml"))
    embedded = {(f.get("path") + f.get("name")).lstrip("/"): base64.b64decode(f.text) for f in moodle.iter("file")}
    assert embedded == expected
    gift = (out / "gift" / "awkward.gift.txt").read_text(encoding="utf-8")
    assert "https\\://cdn.example.org/q/media/r%C3%A9seau.png" in gift and "https\\://cdn.example.org/q/media/a%20b.png" in gift

"""Markdown and hostile strings in every place QTI holds text: valid files, or diagnostics with the place."""

from __future__ import annotations

import json

from lxml import etree
from qti_support import NS, is_item
from packages import entries

from lmsexport.loader import load_quiz
from lmsexport.canonical import build_quiz
from lmsexport.writers import qti
from lmsexport.writers.shared import ExportOptions
from lmsexport.pipeline import export_quiz

CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
EVERYTHING = """# Heading *one*

Some **bold**, *em*, `code`, a [link](https://example.org/?a=1&b=2 "with a title") and ![an image](img/x.png "image title").
Hard  
break.

> quoted **text**
>
> - in a list

1. first
   - nested `code`
2. second

3) starts at three

```python
if a < b and c > d: print("]]> & <script>")
```

| left | centre | right |
|:-----|:------:|------:|
| 1 | *2* | 3 |

| only | a header |
|---|---|

---

Bidi: נעם — Wolof: Dëgg; emoji 🚀; combining: e\u0301."""


def md(text: str) -> dict:
    return {"text": text, "format": "markdown"}


def quiz_with(text: dict) -> object:
    feedback = {"correct": text, "incorrect": text, "partially_correct": text}
    return build_quiz(
        {
            "id": "markdown",
            "title": "Markdown",
            "language": "en",
            "questions": [
                {
                    "id": "mr",
                    "type": "multiple_response",
                    "stem": text,
                    "explanation": text,
                    "feedback": feedback,
                    "options": [{"id": "a", "text": text, "correct": True, "feedback": text}, {"id": "b", "text": md("*short*")}],
                },
                {"id": "m", "type": "matching", "stem": text, "pairs": [{"id": "p", "prompt": text, "answer": "x"}]},
                {"id": "e", "type": "essay", "stem": text, "grader_info": text},
                {"id": "d", "type": "description", "stem": text},
            ],
        },
        "markdown.json",
    )


def _valid_items(package: bytes, schemas) -> dict[str, etree._Element]:
    """Every item of a package, each valid against both QTI 2.1 schemas."""
    items = {name: etree.fromstring(data) for name, data in entries(package).items() if is_item(name)}
    for name, doc in items.items():
        for key in ("qti 2.1", "qti 2.1.2"):
            assert schemas[key].validate(doc), f"{name}: {schemas[key].error_log}"
    return items


def test_every_markdown_feature_in_every_place_validates(schemas):  # noqa: F811
    result = qti.render(quiz_with(md(EVERYTHING)), ExportOptions())
    assert not result.failed, result.diagnostics
    item = _valid_items(result.data, schemas)["mr.xml"]
    # What QTI has no attribute for is reported once per text, at the text's place.
    lost = {(d.pointer, d.message) for d in own(result)}
    assert all(d.severity.value == "warning" for d in own(result))
    for pointer in ("/questions/0/stem", "/questions/0/options/0/text", "/questions/0/explanation", "/questions/1/pairs/0/prompt", "/questions/2/grader_info"):
        messages = {m for p, m in lost if p == pointer}
        assert any("alignment" in m for m in messages) and any("titles" in m for m in messages) and any("first number" in m for m in messages), pointer
    stem = item.find(f"{NS}itemBody/{NS}div")
    assert stem.find(f".//{NS}pre/{NS}code").text == 'if a < b and c > d: print("]]> & <script>")\n'
    assert [c.text for c in stem.iter(f"{NS}td")][:1] == ["1"]
    assert all(t.find(f"{NS}tbody") is not None for t in stem.iter(f"{NS}table"))
    assert not any(e.get("style") or e.get("title") or e.get("start") for e in stem.iter())
    assert stem.find(f".//{NS}img").get("alt") == "an image"
    assert "e\u0301" in "".join(stem.itertext()) and "🚀" in "".join(stem.itertext())


def test_loss_warnings_become_errors_under_strict():
    result = export_quiz(quiz_with(md("| a |\n|--:|\n| 1 |")), "qti", ExportOptions(strict=True))
    assert result.data is None and result.failed
    assert {d.pointer for d in result.diagnostics} >= {"/questions/0/stem", "/questions/0/options/0/feedback"}


def test_plain_text_that_looks_like_markup_stays_text():
    hostile = "<b>not bold</b> & ]]> <script>alert(1)</script> **not markdown** \"q\" 'q'\nline two"
    quiz = quiz_with(hostile)
    result = qti.render(quiz, ExportOptions())
    assert own(result) == []
    item = etree.fromstring(entries(result.data)["mr.xml"])
    choice = item.find(f".//{NS}simpleChoice")
    assert choice.text + "\n" + choice[0].tail == hostile and len(choice) == 1
    paragraph = item.find(f"{NS}itemBody/{NS}div/{NS}p")
    assert paragraph.text + "\n" + paragraph[0].tail == hostile


def test_nothing_to_export_writes_nothing():
    quiz = build_quiz(
        {"id": "drafts", "title": "Drafts", "language": "en", "questions": [{"id": "q", "type": "essay", "stem": "S", "draft": True}]}, "d.json"
    )
    result = qti.render(quiz, ExportOptions())
    assert result.data is None and not result.failed and result.diagnostics


def test_feedback_a_question_cannot_show_is_reported():
    quiz = build_quiz(
        {"id": "e", "title": "E", "language": "en", "questions": [{"id": "q", "type": "essay", "stem": "S", "feedback": {"correct": "Well done"}}]}, "e.json"
    )
    result = qti.render(quiz, ExportOptions())
    assert [d.pointer for d in own(result)] == ["/questions/0/feedback/correct"]
    assert export_quiz(quiz, "qti", ExportOptions(strict=True)).data is None


FORMULAS = r"""Inline $x^2 + \frac{a}{b}$, \(\sqrt{n}\) and $\sum_{i=1}^{n} i$, $\begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}$.

$$\int_0^1 f(x)\,dx = \mathbb{R}^{n}$$"""


def test_formulas_are_mathml_and_validate(schemas):  # noqa: F811
    result = qti.render(quiz_with(md(FORMULAS)), ExportOptions())
    assert not result.failed, result.diagnostics
    item = _valid_items(result.data, schemas)["mr.xml"]
    maths = list(item.find(f"{NS}itemBody/{NS}div").iter("{http://www.w3.org/1998/Math/MathML}math"))
    assert len(maths) == 5 and maths[-1].get("display") == "block"
    assert "\\(" not in "".join(item.find(f"{NS}itemBody/{NS}div").itertext())


PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
MP3 = b"ID3" + b"\x00" * 32


def test_media_files_travel_in_the_package(tmp_path, schemas):  # noqa: F811
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "ring.png").write_bytes(PNG)
    (tmp_path / "clip.mp3").write_bytes(MP3)
    quiz_file = tmp_path / "media-quiz.json"
    quiz_file.write_text(
        json.dumps(
            {
                "id": "media-quiz",
                "title": "Media",
                "language": "en",
                "text_format": "markdown",
                "questions": [
                    {"id": "q1", "type": "essay", "stem": "See ![the ring](media/ring.png) and hear ![a clip](clip.mp3)."},
                    {"id": "q2", "type": "essay", "stem": "Again ![the ring](media/ring.png)."},
                    {"id": "q3", "type": "essay", "stem": "No media here."},
                ],
            }
        ),
        encoding="utf-8",
    )
    loaded = load_quiz(quiz_file)
    assert loaded.ok, loaded.diagnostics
    result = qti.render(loaded.quiz, ExportOptions())
    assert not result.failed, result.diagnostics
    files = entries(result.data)
    # Each file keeps its path beside the quiz, so two files never share a place in the zip.
    assert files["media/ring.png"] == PNG and files["clip.mp3"] == MP3
    item = etree.fromstring(files["q1.xml"])
    assert schemas["qti 2.1"].validate(item) and schemas["qti 2.1.2"].validate(item), schemas["qti 2.1.2"].error_log
    image = item.find(f".//{NS}img")
    sound = item.find(f".//{NS}object")
    assert (image.get("src"), image.get("alt")) == ("media/ring.png", "the ring")
    assert (sound.get("data"), sound.get("type"), sound.text) == ("clip.mp3", "audio/mpeg", "a clip")
    manifest = etree.fromstring(files["imsmanifest.xml"])
    assert schemas["manifest"].validate(manifest), schemas["manifest"].error_log
    resources = {r.get("identifier"): r for r in manifest.iter(f"{CP}resource")}
    hrefs = {r.get("href"): key for key, r in resources.items()}
    needs = lambda key: [hrefs_of(resources, d.get("identifierref")) for d in resources[key].iter(f"{CP}dependency")]  # noqa: E731
    assert needs("q1") == ["media/ring.png", "clip.mp3"]
    assert needs("q2") == ["media/ring.png"] and needs("q3") == []
    assert resources["media.1"].get("type") == "webcontent" and hrefs_of(resources, "media.1") == "media/ring.png"
    listed = {f.get("href") for f in manifest.iter(f"{CP}file")}
    assert listed == set(files) - {"imsmanifest.xml"}


def hrefs_of(resources, identifier):
    """A media resource has no href of its own (Canvas would skip the file): its one <file>."""
    resource = resources[identifier]
    assert resource.get("href") is None
    (file,) = resource.iter(f"{CP}file")
    return file.get("href")


def own(result) -> list:
    """The diagnostics about the package itself, not the notes on what a platform will do."""
    return [d for d in result.diagnostics if d.code != "qti-platform"]


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_MARKUP = st.lists(st.sampled_from(["<p>", "</p>", '<p class="x">', "<p\n>", "</p >", "<pre>", "</pre>", "<param/>", "<p/>",
                                    "text", "é🚀", "&lt;p&gt;", " ", "<", "p>", "<div>", "</div>"]), max_size=10).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_MARKUP)
def test_answer_feedback_paragraphs_become_divs_as_the_substitution_makes_them(html):
    """The quick replacement of bare paragraphs gives what the general substitution gives."""
    from lmsexport.writers.qti.feedback import _PARAGRAPH, _WRAPPER, _answer_content

    assert _answer_content(html) == "<div>" + _WRAPPER + _PARAGRAPH.sub(r"<\1div", html) + "</div></div>"

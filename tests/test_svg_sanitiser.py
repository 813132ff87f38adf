"""SVG files are rebuilt from an allowlist: the known SVG XSS vectors leave nothing that runs or
fetches, the result parses on its own, and a media file's name agrees with what it holds."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from conftest import DATA
from lmsexport.loader import load_quiz
from lmsexport.media import sanitise_svg

SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
PNG = (DATA / "media" / "media" / "ring.png").read_bytes()

# Each vector, and what must not survive it (lower-cased bytes of the cleaned file).
VECTORS = {
    "script element": (f'<svg {SVG}><script>alert(1)</script></svg>', [b"script", b"alert"]),
    "script in xlink namespace trick": (f'<svg {SVG}><script xlink:href="https://evil.example/x.js"/></svg>', [b"script", b"evil"]),
    "onload on the root": (f'<svg {SVG} onload="alert(1)"/>', [b"onload", b"alert"]),
    "event handler on a shape": (f'<svg {SVG}><rect width="5" height="5" onmouseover="alert(1)" onclick="x()"/></svg>', [b"onmouseover", b"onclick"]),
    "animate rewriting href": (f'<svg {SVG}><a href="#x"><animate attributeName="href" values="javascript:alert(1)"/><text>click</text></a></svg>',
                               [b"animate", b"javascript"]),
    "set rewriting xlink:href": (f'<svg {SVG}><a xlink:href="#x"><set attributeName="xlink:href" to="javascript:alert(1)"/><text>go</text></a></svg>',
                                 [b"<set", b"javascript"]),
    "animate on the values of an event": (f'<svg {SVG}><animate attributeName="onbegin" values="alert(1)" begin="0s"/></svg>', [b"animate", b"alert"]),
    "animateMotion with href": (f'<svg {SVG}><animateMotion href="javascript:alert(1)"/></svg>', [b"animatemotion", b"javascript"]),
    "foreignObject with HTML": (f'<svg {SVG}><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject></svg>',
                                [b"foreignobject", b"onerror", b"alert", b"<img"]),
    "iframe and embed": (f'<svg {SVG}><iframe src="https://evil.example"/><embed src="https://evil.example"/></svg>', [b"iframe", b"embed", b"evil"]),
    "link to javascript": (f'<svg {SVG}><a href="javascript:alert(1)"><text>x</text></a></svg>', [b"javascript"]),
    "xlink link to javascript with spaces": (f'<svg {SVG}><a xlink:href=" JaVaScRiPt:alert(1)"><text>x</text></a></svg>', [b"javascript"]),
    "use of an external file": (f'<svg {SVG}><use href="https://evil.example/sprite.svg#a"/><use xlink:href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#a"/></svg>',
                                [b"evil", b"data:image/svg"]),
    "image from a tracker": (f'<svg {SVG}><image href="https://tracker.example/p.png" width="1" height="1"/></svg>', [b"tracker"]),
    "style attribute with url(javascript:)": (f'<svg {SVG}><rect style="fill:url(javascript:alert(1))" width="1" height="1"/></svg>', [b"javascript"]),
    "style attribute fetching": (f'<svg {SVG}><rect style="background:url( \'https://evil.example/x\')" width="1" height="1"/></svg>', [b"evil"]),
    "fill attribute fetching": (f'<svg {SVG}><rect fill="url(https://evil.example/p#g)" width="1" height="1"/></svg>', [b"evil"]),
    "style element importing": (f'<svg {SVG}><style>@import url(https://evil.example/x.css); rect {{fill: red}}</style></svg>', [b"import", b"evil"]),
    "style element with expression": (f'<svg {SVG}><style>rect {{width: expression(alert(1))}}</style></svg>', [b"expression", b"alert"]),
    "handler element": (f'<svg {SVG} xmlns:ev="http://www.w3.org/2001/xml-events"><handler ev:event="load">alert(1)</handler></svg>', [b"handler", b"alert"]),
    "external entity": (f'<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg {SVG}><text>&xxe;</text></svg>', [b"&xxe;", b"passwd", b"doctype"]),
    "processing instruction stylesheet": (f'<?xml-stylesheet href="https://evil.example/x.xsl" type="text/xsl"?><svg {SVG}/>', [b"evil", b"stylesheet"]),
    "namespaced attribute of another vocabulary": (f'<svg {SVG} xmlns:h="http://www.w3.org/1999/xhtml"><rect h:onclick="alert(1)" width="1" height="1"/></svg>', [b"onclick"]),
}


@pytest.mark.parametrize("name", VECTORS)
def test_known_svg_xss_vectors_leave_nothing_that_runs_or_fetches(name):
    source, forbidden = VECTORS[name]
    clean, removed = sanitise_svg(source.encode())
    root = etree.fromstring(clean, etree.XMLParser(resolve_entities=False, no_network=True))  # it parses on its own
    assert etree.QName(root).localname == "svg"
    lowered = clean.lower()
    for word in forbidden:
        assert word not in lowered, (name, clean)
    assert removed, f"{name}: nothing reported as removed"


def test_ordinary_drawings_keep_their_shapes_styles_gradients_and_text():
    drawing = f"""<svg {SVG} width="40" height="20" viewBox="0 0 40 20">
      <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>
        <path id="glyph" d="M0 0L1 1"/></defs>
      <style>rect {{ fill: url(#g); }}</style>
      <rect x="0" y="0" width="10" height="20" fill="url(#g)" style="stroke: #000; stroke-width: 1"/>
      <use xlink:href="#glyph" transform="translate(2 3)"/>
      <image width="2" height="2" href="data:image/png;base64,iVBORw0KGgo//8="/>
      <text x="12" y="14" xml:space="preserve">ring <tspan font-weight="bold">all</tspan>-reduce</text>
    </svg>"""
    clean, removed = sanitise_svg(drawing.encode())
    assert removed == []
    root = etree.fromstring(clean)
    assert "".join(root.find("{http://www.w3.org/2000/svg}text").itertext()) == "ring all-reduce"
    for kept in (b'fill="url(#g)"', b'xlink:href="#glyph"', b"stop-color", b"data:image/png;base64", b"url(#g)", b'viewBox="0 0 40 20"'):
        assert kept in clean


def test_entities_are_replaced_by_their_text_or_removed_so_the_file_parses():
    source = f"""<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY name "all-reduce">]>
<svg {SVG}><text>a &xxe; b &name; c</text><desc>&xxe;</desc></svg>""".encode()
    clean, removed = sanitise_svg(source)
    root = etree.fromstring(clean)  # a plain parser: no DTD is left to resolve anything
    assert root.find("{http://www.w3.org/2000/svg}text").text == "a  b all-reduce c"
    assert b"&" not in clean and "&xxe;" in removed


def test_a_real_browser_runs_nothing_from_a_cleaned_svg(tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (apt-get install chromium): the browser check cannot run")
    marker = "document.documentElement.setAttribute('data-ran','yes')"
    hostile = (f'<svg {SVG} onload="{marker}"><script>{marker}</script>'
               f'<image href="x" onerror="{marker}"/><animate attributeName="onload" to="{marker}"/></svg>')
    dirty, clean = tmp_path / "dirty.svg", tmp_path / "clean.svg"
    dirty.write_text(hostile, encoding="utf-8")
    clean.write_bytes(sanitise_svg(hostile.encode())[0])

    def dom(path: Path) -> str:
        return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", path.as_uri()],
                              capture_output=True, text=True, timeout=60).stdout

    assert 'data-ran="yes"' in dom(dirty)  # the check can fail: unsanitised, the script runs
    assert "data-ran" not in dom(clean) and "<svg" in dom(clean)


def _quiz_with_images(folder: Path, *addresses: str) -> Path:
    stem = "\n\n".join(f"![Picture {i}]({a})" for i, a in enumerate(addresses))
    quiz = {"id": "pictures", "title": "Pictures", "language": "en", "text_format": "markdown",
            "questions": [{"id": "q1", "type": "essay", "stem": "Look."}, {"id": "q2", "type": "essay", "stem": stem}]}
    path = folder / "pictures.json"
    path.write_text(json.dumps(quiz, indent=2), encoding="utf-8")
    return path


def _errors(path: Path):
    return [d for d in load_quiz(path).diagnostics if d.is_error]


def test_svg_content_under_a_png_name_is_refused_and_located(tmp_path):
    (tmp_path / "media").mkdir()
    (tmp_path / "media" / "chart.png").write_text(f'<svg {SVG}><rect width="1" height="1"/></svg>', encoding="utf-8")
    [problem] = _errors(_quiz_with_images(tmp_path, "media/chart.png"))
    assert "holds SVG content, but its name ends in '.png': rename it to end in .svg" in problem.message
    assert (problem.pointer, problem.line) == ("/questions/1/stem", 15)


def test_png_content_under_an_svg_name_or_no_extension_is_refused(tmp_path):
    (tmp_path / "a.svg").write_bytes(PNG)
    (tmp_path / "b").write_bytes(PNG)
    messages = [d.message for d in _errors(_quiz_with_images(tmp_path, "a.svg", "b"))]
    assert any("'a.svg' holds PNG content, but its name ends in '.svg'" in m for m in messages)
    assert any("'b' holds PNG content, but its name has no extension" in m for m in messages)


def test_a_line_break_in_a_media_name_is_refused_and_located(tmp_path):
    (tmp_path / "a\nb.png").write_bytes(PNG)
    [problem] = _errors(_quiz_with_images(tmp_path, "a%0Ab.png"))
    assert "holds a control character" in problem.message and problem.pointer == "/questions/1/stem" and problem.line == 15


def test_two_names_that_differ_only_by_case_are_refused_at_the_second(tmp_path):
    (tmp_path / "A.png").write_bytes(PNG)
    (tmp_path / "a.png").write_bytes(PNG)
    [problem] = _errors(_quiz_with_images(tmp_path, "A.png", "a.png"))
    assert "'A.png' and 'a.png' differ only by case" in problem.message
    assert problem.pointer == "/questions/1/stem"


# --- generated documents -------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lmsexport import media  # noqa: E402

_NAMES = st.sampled_from(["g", "rect", "text", "a", "use", "image", "style", "defs", "tspan", "script", "animate", "set",
                          "foreignObject", "iframe", "handler", "animateMotion", "discard", "feImage", "title"])
_ATTRS = st.sampled_from(["fill", "style", "href", "xlink:href", "onload", "onclick", "attributeName", "values", "to",
                          "transform", "id", "class", "begin", "filter", "mask", "x", "src"])
_VALUES = st.sampled_from(["#a", "red", "url(#g)", "url(https://evil.example/x)", "javascript:alert(1)", " JAVASCRIPT:x",
                           "data:image/png;base64,iVBO", "data:text/html,<b>", "expression(alert(1))", "@import 'x'",
                           "https://evil.example/p.png", "1 2", "&amp;", "<", "url( 'https://evil.example' )"])


@st.composite
def _element(draw, depth=0):
    name = draw(_NAMES)
    attrs = "".join(f' {a}="{v}"' for a, v in draw(st.dictionaries(_ATTRS, _VALUES.map(lambda v: v.replace("&", "&amp;").replace("<", "&lt;")), max_size=4)).items())
    text = draw(st.sampled_from(["", "x", "&xxe;", "&name;", "a < b".replace("<", "&lt;")]))
    children = "".join(draw(st.lists(_element(depth + 1), max_size=3))) if depth < 3 else ""
    return f"<{name}{attrs}>{text}{children}</{name}>" + draw(st.sampled_from(["", "tail", "&xxe;"]))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.lists(_element(), max_size=4))
def test_whatever_goes_in_what_comes_out_parses_and_holds_only_allowed_things(body):
    source = (f'<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY name "ring">]>'
              f'<svg {SVG}>{"".join(body)}</svg>').encode()
    clean, _ = sanitise_svg(source)
    root = etree.fromstring(clean)  # parses with no DTD: no entity reference is left
    for element in root.iter():
        assert isinstance(element.tag, str), element  # no comment, processing instruction or entity
        assert etree.QName(element).namespace == "http://www.w3.org/2000/svg"
        assert etree.QName(element).localname in media._ELEMENTS
        for attribute, value in element.attrib.items():
            assert attribute in media._ATTRIBUTES
            if etree.QName(attribute).localname == "href":
                assert value.startswith("#") or value.startswith("data:image/png;base64,")
            else:
                assert not media._UNSAFE_VALUE.search(value), (attribute, value)
    assert b"evil.example" not in clean and b"javascript" not in clean.lower() and b"passwd" not in clean

"""Escaping checked by parsers lmsexport does not share (lxml, the XML spec's own rules) and by
literal GIFT text; each test here was written for a change to the code that no other test saw."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import DATA
from packages import entries
from lxml import etree

from lmsexport.loader import load_quiz
from lmsexport.model import Text, TextFormat
from lmsexport.text import media_references
from lmsexport.writers import qti
from lmsexport.writers.moodle.gift.escape import answer
from lmsexport.writers.xml import attribute, text
from lmsexport.writers.shared import ExportOptions

HOSTILE = ['a"b', "a\nb", "a\tb", "a\rb", "a\r\nb", "& < > ' \"", "]]>", "  two  spaces  ", "é 🚀 שלום"]


@pytest.mark.parametrize("value", HOSTILE)
def test_an_attribute_value_reads_back_exactly(value):
    # An XML parser normalises a literal tab or line break in an attribute to a space, and ends
    # the value at a bare quote: each must be a reference.
    assert etree.fromstring(f'<x a="{attribute(value)}"/>').get("a") == value


@pytest.mark.parametrize("value", HOSTILE)
def test_element_text_reads_back_exactly(value):
    assert etree.fromstring(f"<x>{text(value)}</x>").text == value


@pytest.mark.parametrize("source, written", [
    ("Paris", "Paris"),
    ("a = b", "a \\= b"),
    ("[x] y", "[plain][x] y"),  # a leading '[' would be read as a format marker
    ("x [y]", "x [y]"),  # GIFT gives "[" a meaning only at the start of a text
])
def test_gift_short_answer_text_is_written_literally(source, written):
    assert answer(source) == written


def test_plain_text_never_shows_media():
    assert media_references(Text("![a ring](media/ring.png)", TextFormat.PLAIN)) == []
    assert media_references(Text("![a ring](media/ring.png)", TextFormat.MARKDOWN)) == ["media/ring.png"]


def _qti_item_body(tmp_path, stem: str) -> etree._Element:
    shutil.copytree(DATA / "media" / "media", tmp_path / "media")
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps({"id": "q", "title": "Q", "language": "en", "text_format": "markdown",
                                "questions": [{"id": "q0", "type": "essay", "stem": stem}]}), encoding="utf-8")
    result = load_quiz(path)
    assert result.ok, [d.message for d in result.diagnostics]
    item = entries(qti.render(result.quiz, ExportOptions()).data)["q0.xml"]
    return etree.fromstring(item).find("{http://www.imsglobal.org/xsd/imsqti_v2p1}itemBody")


@pytest.mark.parametrize("stem", ["$x^2$", "The area is $x^2$.", "area \\(x^2\\) here"])
def test_a_formula_alone_in_a_text_is_mathml_in_qti(tmp_path, stem):
    # Texts without formulas or media are rendered once for every writer; a formula must not be
    # taken for such a text and reach QTI as TeX.
    body = _qti_item_body(tmp_path, stem)
    assert body.find(".//{http://www.w3.org/1998/Math/MathML}math") is not None
    assert "\\(" not in "".join(body.itertext()) and "$" not in "".join(body.itertext())


def test_an_image_by_reference_definition_points_into_the_package(tmp_path):
    body = _qti_item_body(tmp_path, "![a ring][r]\n\n[r]: media/ring.png")
    image = body.find(".//{http://www.imsglobal.org/xsd/imsqti_v2p1}img")
    assert image is not None and image.get("src") == "media/ring.png" and image.get("alt") == "a ring"


def test_canvas_xml_is_what_lxml_writes_for_the_same_tree():
    """Canvas's files are built as lines (writers/canvas/xml.py) or trees (tree_bytes): each must
    be what lxml's own pretty printer writes for the tree it parses to, declaration included."""
    from lmsexport.writers import canvas

    export = canvas.render(load_quiz(DATA / "every_type.json").quiz, ExportOptions())
    documents = {name: data for name, data in entries(export.data).items() if name.endswith(".xml")}
    assert len(documents) >= 3  # the manifest, the assessment's metadata, its questions
    parser = etree.XMLParser(remove_blank_text=True)
    for name, data in documents.items():
        assert data.startswith(b"<?xml version='1.0' encoding='UTF-8'?>\n<"), name
        tree = etree.fromstring(data, parser)
        # An element built with an empty text is written <a></a>; parsed back it has no text: <a/>.
        written = re.sub(rb"<([\w:.-]+)([^<>]*)></\1>", rb"<\1\2/>", data)
        assert etree.tostring(tree, xml_declaration=True, encoding="UTF-8", pretty_print=True) == written, name


@pytest.mark.parametrize("source, text_format, inline, expected", [
    ("a {b} = ~c", TextFormat.PLAIN, False, "[plain]a \\{b\\} \\= \\~c"),
    ("**a** b", TextFormat.MARKDOWN, True, "[html]<strong>a</strong> b"),
    ("**a** b", TextFormat.MARKDOWN, False, "[html]<p><strong>a</strong> b</p>"),
])
def test_gift_rich_text_marks_its_format(source, text_format, inline, expected):
    from lmsexport.writers.moodle.gift.escape import rich

    assert rich(Text(source, text_format), inline) == expected


def test_numbers_are_written_as_xsd_reads_them_back_integers_up_to_1e15_without_a_point():
    from lmsexport.writers.xml import number

    table = [(3.0, "3"), (-0.0, "0"), (999999999999999.0, "999999999999999"), (1e15, "1000000000000000.0"),
             (0.1, "0.1"), (1e16, "1e+16"), (-2.5, "-2.5")]
    assert [(value, number(value)) for value, _ in table] == table


@settings(max_examples=300, deadline=None)
@given(value=st.text(alphabet=st.sampled_from(list("ab <>&\r\n]]>é")) | st.characters(), max_size=30))
def test_moodle_text_content_is_cdata_exactly_when_a_character_needs_escaping(value):
    from lmsexport.writers.moodle.moodle_xml.xml import character_data

    cdata = "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>") + "]]>"
    assert character_data(value) == (cdata if re.search("[&<>\r]", value) else value)


@pytest.mark.parametrize("special", ["&", "<", ">", "\r"])
def test_each_character_needing_escape_alone_makes_moodle_text_cdata(special):
    from lmsexport.writers.moodle.moodle_xml.xml import character_data

    assert character_data(f"a{special}b") == f"<![CDATA[a{special}b]]>" and character_data("a]b") == "a]b"

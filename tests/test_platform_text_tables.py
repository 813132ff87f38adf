"""What each platform shows and stores for a plain or Markdown text, as literal tables.

The expected values here are written out by hand from what a reader of the text sees (a space is
a space, a line break a line break, `&` an ampersand); none is computed with the code under test.
The exports are read by parsers the writers do not share: Moodle's own XML parser
(lib/xmlize.php, run by PHP, as question/format/xml/format.php calls it), Canvas's own QTI
importer (../shared/harness/canvas), and lxml for QTI 2.1, whose text a delivery engine renders
as XHTML. HTML is turned into what a browser shows by `shown`, below: white space collapses,
`<br>` breaks a line, a paragraph is set off by a blank line.

One quiz carries every row; each row is one question whose stem, general feedback, first option
and that option's feedback all hold the row's text.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree
from shown_text import markdown_shown, plain_shown, shown, shown_of_element
from typer.testing import CliRunner

from conftest import SHARED
from importers.conftest import canvas_harness_folder
from lmsexport.cli import app


@dataclass(frozen=True)
class Row:
    name: str
    source: str
    markdown: bool
    shown: str  # what a student reads, in a block field (stem, general feedback)
    shown_inline: str | None = None  # in an option or its feedback, when it differs


ROWS = [
    # Plain text: shown exactly as typed, line breaks and runs of spaces included.
    Row("amp-lt", "& <", False, "& <"),
    Row("spaced-escapes", "Is < > or & & right?", False, "Is < > or & & right?"),
    Row("tags-spaced", "<b> <i>", False, "<b> <i>"),
    Row("double-space", "a  b", False, "a  b"),
    Row("crlf", "line one\r\nline two", False, "line one\nline two"),
    Row("lone-cr", "line one\rline two", False, "line one\nline two"),
    Row("blank-line", "para one\n\npara two", False, "para one\n\npara two"),
    Row("entity-text", "&amp; &lt; &#65;", False, "&amp; &lt; &#65;"),
    Row("cdata-end", "x ]]> y", False, "x ]]> y"),
    Row("indented-line", "one\n  two", False, "one\n  two"),
    # Markdown: CommonMark's meaning (markup, entities, soft breaks), raw HTML shown as text.
    Row("md-strong-em", "**ring** *attention*", True, "ring attention"),
    Row("md-entity-space", "a &amp; &lt; b", True, "a & < b"),
    Row("md-raw-html", "<b> <i>", True, "<b> <i>"),
    Row("md-spaces", "x  y", True, "x y"),
    Row("md-soft-break", "line one\nline two", True, "line one line two"),
    Row("md-paragraphs", "p1\n\np2", True, "p1\n\np2"),
    Row("md-cdata-end", "x ]]> y", True, "x ]]> y"),
]
FIELDS = ("stem", "explanation", "option", "option_feedback")
INLINE = {"option", "option_feedback"}


def shown_text(row: Row, field: str) -> str:
    return row.shown_inline if field in INLINE and row.shown_inline is not None else row.shown


# --- what a browser shows (shown_text: none of it calls lmsexport) -------------------------------

def test_shown_follows_html_white_space_rules():
    # The helper itself, on literal markup: a wrong helper would make every table below wrong.
    assert shown("<p>a  \n b</p>") == "a b"
    assert shown("<p>a&nbsp; b</p>") == "a  b"
    assert shown("<p>one</p>\n<p>two</p>") == "one\n\ntwo"
    assert shown("x<br/>\u00a0\u00a0y") == "x\n  y"
    assert shown("&amp; &lt;") == "& <"
    assert shown("<div lang='en'><p><strong>a</strong> <em>b</em></p></div>") == "a b"
    assert shown('<p>see <img src="r.png" alt="a ring"/></p>') == "see [a ring]"
    assert plain_shown("a  b \r\nc\rd\n\n\ne") == "a  b\nc\nd\n\ne"
    assert markdown_shown("**a** &amp; <b> $x<y$") == "a & <b> \\(x<y\\)"


# --- the quiz of the table, exported ----------------------------------------------------------

def table_quiz() -> dict:
    questions = []
    for row in ROWS:
        text = {"text": row.source, "format": "markdown"} if row.markdown else row.source
        questions.append({"id": row.name, "type": "single_choice", "stem": text, "explanation": text, "options": [
            {"id": "a", "text": text, "correct": True, "feedback": text}, {"id": "b", "text": "other"}]})
    return {"id": "text-table", "title": "Text table", "language": "en", "text_format": "plain", "questions": questions}


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("text-table")
    (folder / "text-table.json").write_text(json.dumps(table_quiz(), ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(app, ["build", "--quiet", "-o", str(folder / "out"), str(folder / "text-table.json")])
    assert result.exit_code == 0, result.output
    return folder / "out"


def cases(known: dict[tuple[str, str], str]):
    """(row, field) pairs; those a known defect breaks are expected to fail, strictly, so that
    they are noticed the moment the defect is fixed."""
    found = []
    for row in ROWS:
        for field in FIELDS:
            reason = known.get((row.name, field)) or known.get((row.name, "*"))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            found.append(pytest.param(row, field, id=f"{row.name}-{field}", marks=marks))
    return found


# --- Moodle XML, read by Moodle's own XML parser ----------------------------------------------

# What Moodle keeps (after its trim) of a plain text: the text itself (line breaks written "\n").
MOODLE_PLAIN_STORED = {
    "amp-lt": "& <",
    "spaced-escapes": "Is < > or & & right?",
    "tags-spaced": "<b> <i>",
    "double-space": "a  b",
    "crlf": "line one\nline two",
    "lone-cr": "line one\nline two",
    "blank-line": "para one\n\npara two",
    "entity-text": "&amp; &lt; &#65;",
    "cdata-end": "x ]]> y",
    "indented-line": "one\n  two",
}
# Moodle's XML parser (core_xml_parser::characterdata) drops a chunk of character data that is only
# white space, and expat hands each entity over as a chunk of its own: a space between two escaped
# characters (`&lt; &gt;`) or a lone `&#13;` would be lost. The rows "amp-lt", "spaced-escapes",
# "tags-spaced", "lone-cr" and "md-strong-em" are there for it; text written as CDATA passes them.
MOODLE_KNOWN: dict[tuple[str, str], str] = {}

_XMLIZE_DRIVER = r"""<?php
define('MOODLE_INTERNAL', 1);
class moodle_exception extends Exception {}
require($argv[1]);
$parser = new core_xml_parser();
$xml = $parser->parse(file_get_contents($argv[2]), 1, 'UTF-8', true);
// As qformat_xml::getpath(..., true) and import_text do: the first text child, trimmed.
$text = function ($node) { return [$node['@']['format'] ?? null, trim($node['#']['text'][0]['#'] ?? '')]; };
$out = [];
foreach ($xml['quiz']['#']['question'] as $q) {
    if ($q['@']['type'] == 'category') continue;
    $answer = $q['#']['answer'][0];
    $out[trim($q['#']['name'][0]['#']['text'][0]['#'])] = [
        'stem' => $text($q['#']['questiontext'][0]),
        'explanation' => $text($q['#']['generalfeedback'][0]),
        'option' => [$answer['@']['format'] ?? null, trim($answer['#']['text'][0]['#'])],
        'option_feedback' => $text($answer['#']['feedback'][0]),
    ];
}
echo json_encode($out);
"""


@pytest.fixture(scope="module")
def moodle_stored(exports, tmp_path_factory) -> dict:
    """Each field as Moodle's qformat_xml receives it from Moodle's own lib/xmlize.php."""
    if shutil.which("php") is None:
        pytest.skip("php is not installed: Moodle's XML parser cannot run (apt-get install php-cli php-xml)")
    archive = SHARED / "harness" / "moodle" / "moodle-4.5.6-src.tar.xz" if SHARED else None
    if archive is None or not archive.is_file():
        pytest.skip("../shared/harness/moodle/moodle-4.5.6-src.tar.xz is missing (set LMSEXPORT_SHARED)")
    folder = tmp_path_factory.mktemp("xmlize")
    with tarfile.open(archive) as tar:
        member = tar.getmember("./lib/xmlize.php")
        (folder / "xmlize.php").write_bytes(tar.extractfile(member).read())
    (folder / "driver.php").write_text(_XMLIZE_DRIVER, encoding="utf-8")
    result = subprocess.run(["php", str(folder / "driver.php"), str(folder / "xmlize.php"),
                             str(exports / "moodle" / "text-table.xml")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("row, field", cases(MOODLE_KNOWN))
def test_moodle_xml_stores_what_the_text_says(moodle_stored, row, field):
    fmt, text = moodle_stored[row.name][field]
    if row.markdown:
        assert fmt == "html"
        assert shown(text) == shown_text(row, field), text
    else:
        # FORMAT_PLAIN: Moodle shows the stored text as it is, double spaces too; nl2br makes
        # "\r\n", "\r" and "\n" each one line break.
        assert fmt == "plain_text"
        assert text.replace("\r\n", "\n").replace("\r", "\n") == MOODLE_PLAIN_STORED[row.name], repr(text)


# --- GIFT, as written -------------------------------------------------------------------------

# The exact text after `::name::`, `=` and `#`: plain text behind [plain] with GIFT's escapes
# (\n for a line break; \# \= \~ \{ \} \: for the specials), Markdown rendered behind [html].
GIFT_WRITTEN = {
    "amp-lt": ("[plain]& <", None),
    "spaced-escapes": ("[plain]Is < > or & & right?", None),
    "tags-spaced": ("[plain]<b> <i>", None),
    "double-space": ("[plain]a  b", None),
    "crlf": ("[plain]line one\\nline two", None),
    "lone-cr": ("[plain]line one\\nline two", None),
    "blank-line": ("[plain]para one\\n\\npara two", None),
    "entity-text": ("[plain]&amp; &lt; &\\#65;", None),
    "cdata-end": ("[plain]x ]]> y", None),
    "indented-line": ("[plain]one\\n  two", None),
    "md-strong-em": ("[html]<p><strong>ring</strong> <em>attention</em></p>", "[html]<strong>ring</strong> <em>attention</em>"),
    "md-entity-space": ("[html]<p>a &amp; &lt; b</p>", "[html]a &amp; &lt; b"),
    "md-raw-html": ("[html]<p>&lt;b&gt; &lt;i&gt;</p>", "[html]&lt;b&gt; &lt;i&gt;"),
    "md-spaces": ("[html]<p>x  y</p>", "[html]x  y"),
    "md-soft-break": ("[html]<p>line one\\nline two</p>", "[html]line one\\nline two"),
    "md-paragraphs": ("[html]<p>p1</p>\\n<p>p2</p>", "[html]<p>p1</p>\\n<p>p2</p>"),
    "md-cdata-end": ("[html]<p>x ]]&gt; y</p>", "[html]x ]]&gt; y"),
}


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_gift_writes_each_text_exactly(exports, row):
    gift = (exports / "gift" / "text-table.gift.txt").read_text(encoding="utf-8")
    block, inline = GIFT_WRITTEN[row.name]
    inline = inline or block
    expected = (f"// [id:{row.name}]\n::{row.name}::{block}{{\n\t={inline}#{inline}\n\t~[plain]other\n\t####{block}\n}}\n")
    assert expected in gift, gift[gift.find(f"// [id:{row.name}]"):][:400]


# --- Canvas, through Canvas's own importer ----------------------------------------------------

# Canvas's importer (html_helper.rb, detect_html) unwraps a feedback whose only content is text and
# keeps it as plain text still HTML-escaped, so students would read '&amp;' and '&lt;': the rows with
# '&', '<' or ']]>' in a feedback are there for it; feedback wrapped in an element with an
# attribute passes them.
CANVAS_KNOWN: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def canvas_stored(exports, tmp_path_factory) -> dict:
    harness = canvas_harness_folder()  # skips, naming what is missing, where Canvas's importer cannot run
    full = tmp_path_factory.mktemp("canvas") / "full.json"
    env = {**os.environ, "QTI_PYTHON": sys.executable, "CANVAS_FULL_JSON": str(full)}
    result = subprocess.run(["bash", str(harness / "canvas-qti-import.sh"), str(harness / "canvas-src"),
                             str(exports / "canvas" / "text-table.zip")], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return {q["question"]["question_name"]: q["question"] for q in json.loads(full.read_text(encoding="utf-8"))["questions"]}


def canvas_shows(question: dict, field: str) -> str:
    """What Canvas shows: the HTML it kept, else its plain text as it is."""
    answer = question["answers"][0]
    if field == "stem":
        return shown(question["question_text"])
    html, text = {
        "explanation": (question.get("neutral_comments_html"), question.get("neutral_comments")),
        "option": (answer.get("html"), answer.get("text")),
        "option_feedback": (answer.get("comments_html"), answer.get("comments")),
    }[field]
    return shown(html) if html else (text or "").replace("\u00a0", " ")


@pytest.mark.parametrize("row, field", cases(CANVAS_KNOWN))
def test_canvas_shows_what_the_text_says(canvas_stored, row, field):
    assert canvas_shows(canvas_stored[row.name], field) == shown_text(row, field)


# --- QTI 2.1, as a delivery engine renders its XHTML ------------------------------------------

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


def qti_fields(item) -> dict[str, object]:
    body = item.find(f"{QTI}itemBody")
    stem = etree.Element("stem")
    stem.extend(child for child in list(body) if child.tag != f"{QTI}choiceInteraction")
    feedback = {f.get("identifier"): f for f in item.iter(f"{QTI}modalFeedback")}
    return {"stem": stem, "explanation": feedback["general_feedback"], "option_feedback": feedback["option_a_feedback"],
            "option": next(c for c in item.iter(f"{QTI}simpleChoice") if c.get("identifier") == "a")}


@pytest.mark.parametrize("row, field", cases({}))
def test_qti_shows_what_the_text_says(exports, row, field):
    with zipfile.ZipFile(exports / "qti" / "text-table.zip") as archive:
        item = etree.fromstring(archive.read(f"{row.name}.xml"))
    assert shown_of_element(qti_fields(item)[field]) == shown_text(row, field)

"""Moodle's MathJax filter on what the Moodle XML and GIFT writers give it: a formula is typeset,
a text's literal \\( \\[ or $$ is shown as written, in a question's texts and a category's info;
and on a foreign $$...$$, typeset where the import reads a formula.

filter/mathjaxloader (on by default) marks a field for MathJax when its stored HTML holds \\( \\[
or $$, and MathJax typesets only inside fields so marked (its loader typesets the elements of
class filter_mathjaxloader_equation and nothing else). Here the real Moodle 4.5 and 5.0 import
the export, and Moodle's own format_text, with the site's filters, shows each stored text as a
question shows it (tests/importers/moodle_filter_probe.php).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from lxml import html as lxml_html

from conftest import DATA
from importers.test_moodle import VERSIONS, moodle_sites  # noqa: F401 (the fixture)
from lmsexport.loader import load_quiz
from lmsexport.writers.moodle import gift, moodle_xml
from lmsexport.writers.shared import ExportOptions

# tests/data/literal_tex.json: plain texts that reach Moodle as HTML (in a language of their own;
# in GIFT, beside '->'), a cloze text and its feedback, a Markdown text with a literal "\(" and no
# formula; and one real formula, which must be typeset (else the filter was not running and
# nothing here is shown). The import round trip reads the same quiz back.
LITERAL_TEX = json.loads((DATA / "literal_tex.json").read_text(encoding="utf-8"))
# A formula and a literal delimiter in one text: MathJax typesets the whole field, the literal
# too (the writers' lost-literal-tex).
LITERAL_TEX["questions"].append(
    {"id": "both", "type": "true_false", "stem": {"text": "A formula $z$ and \\\\(w\\\\)", "format": "markdown"}, "answer": True})
FORMULA_SHOWN = "A formula \\(x^2\\) $5"
BOTH_SHOWN = "A formula \\(z\\) and \\(w\\)"
EQUATION = "filter_mathjaxloader_equation"


def _stored_texts(site, question_ids: list[int]) -> list[tuple[str, int]]:
    """Every text Moodle stored for these questions and their cloze sub-questions, with its format."""
    ids = ", ".join(str(int(i)) for i in question_ids)
    answers = f"from {{prefix}}question_answers a join {{prefix}}question q on a.question = q.id where q.id in ({ids}) or q.parent in ({ids})"
    rows = site.query(f"select questiontext, questiontextformat from {{prefix}}question where id in ({ids}) "
                      f"union all select a.answer, a.answerformat {answers} union all select a.feedback, a.feedbackformat {answers}")
    return [(text, int(fmt)) for text, fmt in rows if text]


def _shown(site, texts: list[tuple[str, int]], folder: Path) -> dict:
    listing = folder / "texts.json"
    listing.write_text(json.dumps(texts), encoding="utf-8")
    env = dict(os.environ, MOODLE_HARNESS_DIR=str(site.state), MOODLE_HARNESS_QUIET="1", MOODLE_HARNESS_PGPORT=str(site.port))
    run = subprocess.run(["php", str(Path(__file__).with_name("moodle_filter_probe.php")), site.source, str(listing)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("fmt", ["xml", "gift"])
@pytest.mark.parametrize("version", VERSIONS)
def test_a_literal_tex_delimiter_is_shown_as_written_and_a_formula_typeset(moodle_sites, tmp_path, version, fmt):  # noqa: F811
    source = tmp_path / "literal-tex.json"
    source.write_text(json.dumps(LITERAL_TEX), encoding="utf-8")
    export = (moodle_xml if fmt == "xml" else gift).render(load_quiz(source).quiz, ExportOptions())
    assert not export.failed, [d.message for d in export.diagnostics]
    # The rest is carried exactly: nothing to warn of.
    assert [d.pointer for d in export.diagnostics if d.code == "lost-literal-tex"] == ["/questions/5/stem"]
    target = tmp_path / export.filename
    target.write_bytes(export.data)
    site = moodle_sites(version)
    stored = site.import_file(target, fmt, keep=True)
    assert stored.report["ok"], stored.report["errors"]
    probe = _shown(site, _stored_texts(site, [q["id"] for q in stored.report["questions"]]), tmp_path)
    assert "mathjaxloader" in probe["active"]
    visible = {lxml_html.fragment_fromstring(html, create_parent="div").text_content(): EQUATION in html for html in probe["shown"]}
    assert visible.pop(FORMULA_SHOWN) is True  # a formula is typeset
    assert visible.pop(BOTH_SHOWN) is True  # and so is the literal beside one: the loss said
    literal = {text for text in visible if any(d in text for d in ("\\(", "\\[", "$$"))}
    # Every text written with a literal delimiter, shown with its characters and not typeset.
    expected = {"Écrivez \\(x\\), \\[y\\] ou $$z$$ \\", "a \\(b\\) &#92;", "$$c$$", "\\(x\\) -> y && z", "\\[1\\] -> 2",
                "\\(fb\\) $$", "Markdown \\(x\\) and $$y$$"}
    assert expected <= literal, sorted(literal)
    assert not [text for text in literal if visible[text]], visible


# A category's info, which the question bank's category list shows with format_text and the
# site's filters: the plain description, level, learning path and section instructions the
# Moodle XML writer puts there, each holding a literal delimiter, shown as written.
CATEGORY_TEX = {"id": "category-tex", "title": "Category TeX", "language": "en",
                "description": "Write \\(x\\) or $$y$$", "level": "\\[1\\]", "learning_path": "$$ and \\(",
                "sections": [{"id": "s", "title": "Category TeX section", "questions": ["q"], "instructions": "Type \\(a\\) then $$b$$"}],
                "questions": [{"id": "q", "type": "true_false", "stem": "A formula \\(x^2\\)", "answer": True}]}


@pytest.mark.parametrize("version", VERSIONS)
def test_literal_tex_in_a_category_info_is_shown_as_written(moodle_sites, tmp_path, version):  # noqa: F811
    from importers.test_moodle import _shown_category_description

    source = tmp_path / "category-tex.json"
    source.write_text(json.dumps(CATEGORY_TEX), encoding="utf-8")
    target = tmp_path / "category-tex.xml"
    target.write_bytes(moodle_xml.render(load_quiz(source).quiz, ExportOptions()).data)
    site = moodle_sites(version)
    stored = site.import_file(target, "xml")
    assert stored.report["ok"], stored.report["errors"]
    infos = [info for path, info in stored.categories.items() if path.endswith(("/Category TeX", "/Category TeX section"))]
    assert len(infos) == 2, stored.categories
    shown = [_shown_category_description(site, *info) for info in infos]
    visible = " ".join(lxml_html.fragment_fromstring(html, create_parent="div").text_content() for html in shown)
    for written in ("Write \\(x\\) or $$y$$", "\\[1\\]", "$$ and \\(", "Type \\(a\\) then $$b$$"):
        assert written in visible, visible
    assert not [html for html in shown if EQUATION in html], shown


# A foreign question's $$...$$, which the filter marks and MathJax typesets as a display formula
# (the reader's \[...\]); the same dollars as character references in a field it does not mark.
FOREIGN_DOLLARS = ('<?xml version="1.0"?><quiz>'
                   '<question type="description"><name><text>typeset</text></name><questiontext format="html">'
                   '<text><![CDATA[<p>Solve $$x^2$$ now</p>]]></text></questiontext></question>'
                   '<question type="description"><name><text>literal</text></name><questiontext format="html">'
                   '<text><![CDATA[<p>Keep &#36;&#36;x&#36;&#36;</p>]]></text></questiontext></question></quiz>')


@pytest.mark.parametrize("version", VERSIONS)
def test_a_foreign_double_dollar_formula_is_typeset_where_the_import_reads_one(moodle_sites, tmp_path, version):  # noqa: F811
    from lmsexport.importers import import_data

    target = tmp_path / "foreign.xml"
    target.write_text(FOREIGN_DOLLARS, encoding="utf-8")
    (item,), _ = import_data(target.read_bytes(), "foreign.xml", "moodle")
    read = [question.stem.source for question in item.quiz.questions]
    assert read == ["Solve \\[x^2\\] now", "Keep \\$\\$x\\$\\$"]
    site = moodle_sites(version)
    stored = site.import_file(target, "xml", keep=True)
    assert stored.report["ok"], stored.report["errors"]
    probe = _shown(site, _stored_texts(site, [q["id"] for q in stored.report["questions"]]), tmp_path)
    typeset = {lxml_html.fragment_fromstring(html, create_parent="div").text_content(): EQUATION in html for html in probe["shown"]}
    assert typeset == {"Solve $$x^2$$ now": True, "Keep $$x$$": False}

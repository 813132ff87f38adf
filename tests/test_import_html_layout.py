"""Platform HTML that shows what Markdown's HTML shows imports exactly, and the browser agrees.

TAO and Canvas wrap their blocks in bare <div>s, and Moodle's editors write code as a <pre> of
text alone: neither changes what a browser shows (a div without border or padding lets its
children's margins collapse through it; <pre><code> shows what <pre> shows, and HTML drops a
line break right after <pre>). Headless Chromium renders the platform's HTML and the HTML of the
Markdown the import made, and the two screenshots must be the same picture; a case the import
reports as a loss must look different.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from lmsexport.importers.html import html_to_text
from lmsexport.model import TextFormat
from lmsexport.text import to_html

SAME_LAYOUT = {
    # TAO's package (Unattended Luggage): every block in two bare divs.
    "nested divs": '<div><div><p>Look at the text in the picture.</p></div></div>\n<div><div><p>What does it say?</p></div></div>',
    # The IMS extended text sample: a quotation in a bare div.
    "quotation in a div": "<p>Read this postcard.</p>\n<div>\n<blockquote>\n<p>Here is a postcard of my town.</p>\n</blockquote>\n</div>\n<p>Write Sam a postcard.</p>",
    # Moodle's GIFT test (import_pre_content): code as the text of a <pre>, after a line break.
    "pre of text": "<p>What would running the test method print?</p>\n<pre>\n    public void test() {\n        method1();\n    }\n</pre>",
    "pre after two line breaks": "<pre>\n\nfirst line left empty</pre>",
    # Canvas's true/false sample: an empty paragraph between two (its margins collapse into theirs).
    "empty paragraph": "<p>Generating QTI is \n<strong>super</strong> awesome!</p><p>\n</p><p>oh, and &amp;amp;</p>",
}
# What still differs, and the import says so: a div's text is no paragraph (no margins), and a
# <pre> holding markup is no code block.
OTHER_LAYOUT = {
    "text in a div": "<div>Text in a div</div><p>then a paragraph</p>",
    "pre with markup": "<pre>bold <b>code</b></pre>",
}


@pytest.mark.parametrize("name", SAME_LAYOUT)
def test_blocks_that_show_the_same_import_exactly(name):
    converted = html_to_text(SAME_LAYOUT[name])
    assert converted.exact, converted.losses
    assert converted.text.format is TextFormat.MARKDOWN


@pytest.mark.parametrize("name", OTHER_LAYOUT)
def test_blocks_that_show_otherwise_are_a_loss(name):
    converted = html_to_text(OTHER_LAYOUT[name])
    assert not converted.exact and converted.losses


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("no browser: comparing layouts needs Debian's chromium (apt-get install chromium)")
    return found


def _screenshot(chromium: str, folder: Path, name: str, fragments: list[str]) -> bytes:
    page = folder / f"{name}.html"
    # Each fragment in a box of its own, so that one difference cannot hide behind another.
    body = "".join(f'<section style="border:1px solid #000;margin:4px">{f}</section>' for f in fragments)
    page.write_text(f'<!doctype html><meta charset="utf-8"><body style="margin:0;font:16px serif">{body}</body>', encoding="utf-8")
    shot = folder / f"{name}.png"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                    f"--screenshot={shot}", "--window-size=800,1200", page.as_uri()], capture_output=True, timeout=120, check=True)
    return shot.read_bytes()


def test_the_browser_shows_the_platform_html_and_the_imported_markdown_alike(tmp_path):
    chromium = _chromium()
    sources = list(SAME_LAYOUT.values())
    imported = [to_html(html_to_text(s).text) for s in sources]
    assert _screenshot(chromium, tmp_path, "platform", sources) == _screenshot(chromium, tmp_path, "imported", imported)
    # The comparison can tell: what the import calls a loss looks different.
    others = list(OTHER_LAYOUT.values())
    nearest = [to_html(html_to_text(s).text) for s in others]
    assert _screenshot(chromium, tmp_path, "platform-other", others) != _screenshot(chromium, tmp_path, "imported-other", nearest)

"""Media files and formulas are checked at validation: each bad case is a located error."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import DATA
from lmsexport.cli import app
from lmsexport.loader import load_quiz
from lmsexport.media import sanitise_svg, sniff

BAD = DATA / "media_bad"
GOOD = DATA / "media" / "media_and_math.json"
runner = CliRunner()

CASES = [
    ("missing_file.json", "the media file 'media/nope.png' does not exist"),
    ("path_escape.json", "leaves the quiz's folder ('..' is not allowed)"),
    ("absolute_path.json", "the media path '/etc/hostname' is absolute"),
    ("wrong_type.json", "'media/fake.png' is not of an allowed type by its content"),
    ("symlink_out.json", "'media/outside.png' is a link to a file outside the quiz's folder"),
    ("missing_alt.json", "the image 'media/ring.png' has no alt text"),
    ("bad_latex.json", "the formula '\\frac{a}{' cannot be converted"),
    ("unknown_command.json", "uses \\frca, which is not a known LaTeX command"),
    # A backslash before a character that makes no command: latex2mathml writes a bare backslash.
    ("unknown_symbol.json", "the formula 'a\\0' uses \\0, which is not a known LaTeX command"),
    # LaTeX's macro parameter character, which TeX and MathJax refuse in a formula; '\\#' after a
    # line break ('\\\\#') is one too, while '\\#' is the character.
    ("macro_parameter.json", "the formula 'n\\\\#k' uses '#', which LaTeX keeps for macro parameters; write \\# for the character"),
    ("stray_ampersand.json", "the formula 'a & b' cannot be converted to MathML"),
]


def errors_of(*args: str):
    result = runner.invoke(app, ["validate", *args, "--format", "json"])
    report = json.loads(result.stdout)
    return result.exit_code, [d for d in report["diagnostics"] if d["severity"] == "error"]


@pytest.mark.parametrize("name, phrase", CASES, ids=[c[0] for c in CASES])
def test_bad_media_or_formula_is_a_located_error(name, phrase):
    code, errors = errors_of(str(BAD / name))
    assert code == 1
    [found] = errors
    assert phrase in found["message"]
    assert (found["line"], found["pointer"]) == (10, "/questions/0/stem")


def test_size_limit_can_be_raised():
    code, errors = errors_of(str(BAD / "oversized.json"), "--max-media-size", "0.01")
    assert code == 1 and "is 18.9 KB, over the limit of 10.2 KB (raise it with --max-media-size)" in errors[0]["message"]
    code, errors = errors_of(str(BAD / "oversized.json"), "--max-media-size", "1")
    assert code == 0 and errors == []


def test_good_media_quiz_loads_every_file_once_in_order_of_use():
    result = load_quiz(GOOD)
    assert result.ok, result.diagnostics
    media = result.quiz.media
    assert [m.path for m in media] == ["media/ring.png", "media/schedule.png", "media/bubble.svg", "media/clip.mp3"]
    assert [m.mime for m in media] == ["image/png", "image/png", "image/svg+xml", "audio/mpeg"]


@pytest.mark.parametrize("data, mime", [
    (b"\x89PNG\r\n\x1a\nrest", "image/png"), (b"\xff\xd8\xff\xe0", "image/jpeg"), (b"GIF89a...", "image/gif"),
    (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"), (b"%PDF-1.7", "application/pdf"), (b"ID3\x03", "audio/mpeg"),
    (b"\x00\x00\x00\x18ftypmp42", "video/mp4"), (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"),
    (b"MZ\x90\x00 an executable", None), (b"<html><body>svg</body></html>", None),
])
def test_type_is_judged_by_content(data, mime):
    assert sniff(data) == mime


def test_svg_is_sanitised():
    hostile = b"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
      <script>alert(2)</script>
      <foreignObject><iframe src="https://evil.example"/></foreignObject>
      <image xlink:href="https://tracker.example/pixel.png" width="1" height="1"/>
      <use href="#shape"/>
      <rect id="shape" width="5" height="5" onclick="steal()" style="fill:url(https://evil.example/x)"/>
    </svg>"""
    clean, removed = sanitise_svg(hostile)
    for bad in (b"alert", b"script", b"foreignObject", b"iframe", b"evil.example", b"tracker.example", b"onclick", b"onload"):
        assert bad not in clean
    assert b'href="#shape"' in clean and b'<rect id="shape"' in clean
    assert "<script>" in removed and "onload=" in removed

"""`lmsexport preview` without a browser: the site's files, its safety in the HTML itself, the
platform notes against the writers' own diagnostics, and the command's exit codes and writing.
The pages in a real browser: test_preview_browser.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CONTENT, DATA, ROOT
from lmsexport.cli import app
from lmsexport.formats import FORMATS
from lmsexport.loader import load_quiz
from lmsexport.preview.markup import direction
from lmsexport.preview.platforms import platform_name
from lmsexport.preview.site import build_site
from lmsexport.writers.shared import ExportOptions

runner = CliRunner()
EVERY_TYPE = DATA / "every_type.json"
MEDIA_QUIZ = DATA / "media" / "media_and_math.json"
EXAMPLE = ROOT / "docs" / "example" / "ring-all-reduce.json"


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def site_of(*paths: Path):
    return build_site([load_quiz(p) for p in paths])


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text inside each <script>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict, str]] = []
        self._in_script: dict | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None


def parse(html: bytes) -> Elements:
    parser = Elements()
    parser.feed(html.decode("utf-8"))
    return parser


def test_the_site_has_an_index_a_page_per_quiz_and_the_media_beside():
    site = site_of(EVERY_TYPE, MEDIA_QUIZ)
    assert not site.failed
    assert {"index.html", "every-type.html", "media-and-math.html"} <= set(site.files)
    quiz = load_quiz(MEDIA_QUIZ).quiz
    for media in quiz.media:
        assert site.files[f"media-and-math/{media.path}"] == media.data
    index = site.files["index.html"].decode()
    assert 'href="every-type.html"' in index and 'href="media-and-math.html"' in index
    assert "Matching <b>1</b>" in index and "15.5" in index  # counts by type and points of every-type


def test_the_same_content_gives_the_same_bytes():
    assert site_of(EVERY_TYPE, MEDIA_QUIZ).files == site_of(EVERY_TYPE, MEDIA_QUIZ).files


def test_every_question_is_on_its_page_with_its_language_and_direction():
    page = parse(site_of(EVERY_TYPE).files["every-type.html"])
    quiz = load_quiz(EVERY_TYPE).quiz
    articles = {a["id"]: a for tag, a in page.tags if tag == "article"}
    assert set(articles) == {f"q-{q.id}" for q in quiz.questions}
    for question in quiz.questions:
        assert articles[f"q-{question.id}"]["lang"] == quiz.language_of(question)
    labels = [a for tag, a in page.tags if tag == "label" and a.get("lang") == "fr"]
    assert labels and labels[0]["dir"] == "ltr"  # the option in French says so


@pytest.mark.parametrize("tag, expected", [("ar", "rtl"), ("he-IL", "rtl"), ("fa", "rtl"), ("ur-PK", "rtl"), ("en", "ltr"),
                                            ("wo", "ltr"), ("ff-Adlm", "rtl"), ("az-Arab", "rtl"), ("sd-Deva", "ltr"), ("nl", "ltr")])
def test_direction_follows_the_script_of_the_language(tag, expected):
    assert direction(tag) == expected


def test_only_the_preview_script_can_run(tmp_path):
    quiz = hostile_quiz(tmp_path)
    site = site_of(quiz)
    assert not site.failed, site.diagnostics
    page = parse(site.files["hostile.html"])
    runnable = [text for attrs, text in page.scripts if attrs.get("type") != "application/json"]
    assert len(runnable) == 1 and "lmsexport preview" in runnable[0]  # the page's own self-test
    for tag, attrs in page.tags:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        for name in ("href", "src", "action", "formaction"):
            assert not (attrs.get(name) or "").strip().lower().startswith(("javascript:", "vbscript:", "data:text")), (tag, attrs)
        assert tag not in ("iframe", "object", "embed", "svg", "base", "form") or tag == "form" and "action" not in attrs
    policy = [a["content"] for tag, a in page.tags if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert policy and "default-src 'none'" in policy[0] and "unsafe-inline" not in policy[0]
    svg = site.files["hostile/media/evil.svg"]
    assert b"script" not in svg and b"onload" not in svg


def hostile_quiz(folder: Path) -> Path:
    """A quiz that loads (every attack in it is text the exports escape) but tries to run script
    from every place content reaches the page."""
    (folder / "media").mkdir(exist_ok=True)
    (folder / "media" / "evil.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" onload="window.__pwned=\'svg\'">'
        '<script>window.__pwned="svg script"</script><rect width="20" height="20" fill="#888"/></svg>', encoding="utf-8")
    attack = '<script>window.__pwned="{0}"</script><img src=x onerror="window.__pwned=\'{0} img\'"><svg onload="window.__pwned=\'{0} svg\'"></svg>'
    data = {
        "id": "hostile", "title": attack.format("title"), "language": "en", "text_format": "markdown",
        "description": attack.format("description") + "\n\n<iframe src=\"javascript:window.__pwned='iframe'\"></iframe>",
        "level": attack.format("level"),
        "questions": [
            {"id": "choice", "type": "single_choice", "title": attack.format("question title"),
             "stem": attack.format("stem") + "\n\n![a <b>bold</b> \"quoted\" picture](media/evil.svg \"t\\\" onmouseover=\\\"window.__pwned='t'\")",
             "options": [{"id": "a", "text": attack.format("option"), "correct": True, "feedback": attack.format("option feedback")},
                         {"id": "b", "text": "</label></li></ul><script>window.__pwned='b'</script>"}],
             "feedback": {"correct": attack.format("correct"), "incorrect": "[x](java\tscript:alert(1))"},
             "explanation": attack.format("explanation")},
            {"id": "short", "type": "short_answer", "stem": "Type",
             "answers": [{"text": "</script><script>window.__pwned='key'</script>"}]},
            {"id": "match", "type": "matching", "stem": "Match",
             "pairs": [{"id": "p", "prompt": attack.format("prompt"), "answer": "\"><script>window.__pwned='answer'</script>"},
                       {"id": "q", "prompt": "two", "answer": "</option></select><script>window.__pwned='select'</script>"}]},
            {"id": "essay", "type": "essay", "stem": "Write", "response_template": "</textarea><script>window.__pwned='template'</script>",
             "grader_info": attack.format("grader")},
        ],
    }
    path = folder / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_platform_notes_are_the_writers_own_diagnostics():
    from lmsexport.pipeline import export_quiz

    loaded = load_quiz(EVERY_TYPE)
    quiz = loaded.quiz
    page = site_of(EVERY_TYPE).files["every-type.html"].decode()
    articles = {m.group(1): m.group(0) for m in re.finditer(r'<article [^>]*id="q-([^"]+)".*?</article>', page, re.S)}
    from html import escape
    shown = 0
    for name, fmt in FORMATS.items():
        for diagnostic in export_quiz(quiz, name, ExportOptions(), loaded.source).diagnostics:  # as build reports them
            match = re.match(r"/questions/(\d+)", diagnostic.pointer)
            where = articles[quiz.questions[int(match.group(1))].id] if match else page.split('<ol class="questions"')[0]
            message = diagnostic.message.removeprefix(f"question {quiz.questions[int(match.group(1))].id!r}: ") if match else diagnostic.message
            section = where[where.index('class="platforms"'):] if match else where
            platform = section[section.index(f'<span class="platform-name">{platform_name(name)}</span>'):]
            platform = platform[:platform.index("</ul>")]
            assert escape(message, quote=False) in platform, (name, diagnostic)
            shown += 1
    assert shown >= 20
    # A question a format keeps whole says so, and nothing else.
    truefalse = articles["truefalse"]
    assert truefalse.count("keeps it as written") == len(FORMATS)


def test_a_draft_is_marked_and_no_platform_gets_it():
    page = site_of(EVERY_TYPE).files["every-type.html"].decode()
    draft = re.search(r'<article [^>]*id="q-unfinished".*?</article>', page, re.S).group(0)
    assert "draft" in draft and "no platform receives it" in draft


def test_pages_are_named_after_their_files():
    site = site_of(EVERY_TYPE, DATA / "bad" / "missing_stem.json", EVERY_TYPE)
    assert {"every-type.html", "missing-stem.html", "every-type-2.html"} <= set(site.files)
    assert "already used by" in site.files["every-type-2.html"].decode()  # one quiz id, two files: an error


def test_a_quiz_file_named_index_does_not_take_the_index(tmp_path):
    shutil.copy(EVERY_TYPE, tmp_path / "index.json")
    site = site_of(tmp_path / "index.json")
    assert "index-2.html" in site.files and 'href="index-2.html"' in site.files["index.html"].decode()


def test_a_quiz_that_cannot_load_gets_a_page_of_located_problems():
    bad = DATA / "bad" / "unsafe_javascript_link.json"
    site = site_of(bad, EVERY_TYPE)
    assert site.failed
    page = site.files["unsafe-javascript-link.html"].decode()
    assert re.search(r"unsafe_javascript_link\.json:\d+:\d+: error: the link address", page)
    assert "<a href=\"javascript" not in page
    assert "every-type.html" in site.files  # the others still have their pages


def test_the_command_writes_exports_preview_and_exits_0(tmp_path, monkeypatch):
    shutil.copytree(CONTENT, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    result = invoke("preview")
    assert result.exit_code == 0, result.output
    pages = sorted(p.name for p in (tmp_path / "exports" / "preview").glob("*.html"))
    assert pages == sorted(["index.html"] + [p.stem + ".html" for p in CONTENT.glob("*.json")])
    assert "4 quizzes: 0 errors" in result.stdout
    # The preview is not an export: build --check and --prune leave it alone.
    assert invoke("build").exit_code == 0
    check = invoke("build", "--check")
    assert check.exit_code == 0, check.output
    assert invoke("build", "--prune").exit_code == 0
    assert (tmp_path / "exports" / "preview" / "index.html").is_file()


def test_errors_in_content_are_located_and_exit_1(tmp_path):
    result = invoke("preview", str(DATA / "bad" / "missing_stem.json"), str(EVERY_TYPE), "-o", str(tmp_path / "site"))
    assert result.exit_code == 1
    assert re.search(r"missing_stem\.json:\d+:\d+: error: the required property 'stem' is missing \(at /questions/0\)", result.output)
    assert (tmp_path / "site" / "missing-stem.html").is_file() and (tmp_path / "site" / "every-type.html").is_file()


def test_usage_errors_exit_2(tmp_path):
    shutil.copytree(CONTENT, tmp_path / "content")
    result = invoke("preview", str(tmp_path / "content"), "-o", str(tmp_path / "content" / "site"))
    assert result.exit_code == 2 and "inside the content folder" in result.output
    (tmp_path / "file").write_text("x")
    assert invoke("preview", str(EVERY_TYPE), "-o", str(tmp_path / "file")).exit_code == 2


def test_a_rebuild_removes_only_what_it_wrote(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(DATA / "media", content)
    shutil.copy(EVERY_TYPE, content / "every_type.json")
    site = tmp_path / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine")
    assert invoke("preview", str(content), "-o", str(site)).exit_code == 0
    assert (site / "media-and-math" / "media" / "ring.png").is_file()
    (content / "media_and_math.json").unlink()
    assert invoke("preview", str(content), "-o", str(site)).exit_code == 0
    assert not (site / "media-and-math.html").exists() and not (site / "media-and-math").exists()
    assert (site / "every-type.html").is_file() and (site / "notes.txt").read_text() == "mine"


def test_a_rebuild_deletes_nothing_outside_the_site_whatever_its_list_says(tmp_path):
    site, outside = tmp_path / "site", tmp_path / "outside.txt"
    outside.write_text("keep")
    assert invoke("preview", str(EVERY_TYPE), "-o", str(site)).exit_code == 0
    (site / ".lmsexport-preview").write_text(f"{outside}\n../outside.txt\n", encoding="utf-8")
    assert invoke("preview", str(EVERY_TYPE), "-o", str(site)).exit_code == 0
    assert outside.read_text() == "keep"


def test_open_writes_to_a_temporary_folder_and_opens_the_browser(tmp_path):
    opened = tmp_path / "opened"
    browser = tmp_path / "browser"
    browser.write_text(f"#!/bin/sh\necho \"$1\" > {opened}\n")
    browser.chmod(browser.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "BROWSER": f"{browser} %s", "TMPDIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "lmsexport", "preview", str(EVERY_TYPE), "--open"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    for _ in range(50):  # the browser is started in the background
        if opened.exists():
            break
        time.sleep(0.1)
    url = opened.read_text().strip()
    assert url.startswith("file://") and url.endswith("/index.html")
    folder = Path(url.removeprefix("file://")).parent
    assert folder.parent == tmp_path and (folder / "every-type.html").is_file()


def test_watch_rebuilds_on_change_and_shows_errors_in_place(tmp_path):
    pytest.importorskip("watchfiles", reason="--watch needs watchfiles (pip install 'lmsexport[watch]')")
    content = tmp_path / "content"
    content.mkdir()
    quiz = content / "quiz.json"
    source = json.loads(EVERY_TYPE.read_text(encoding="utf-8"))
    quiz.write_text(json.dumps(source), encoding="utf-8")
    site = tmp_path / "site"
    process = subprocess.Popen([sys.executable, "-m", "lmsexport", "preview", str(content), "-o", str(site), "--watch"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        page = site / "quiz.html"
        assert wait_for(page.is_file)
        time.sleep(0.5)  # the watcher is set up after the first build
        source["title"] = "A new title"
        quiz.write_text(json.dumps(source), encoding="utf-8")
        assert wait_for(lambda: "A new title" in page.read_text(encoding="utf-8"))
        quiz.write_text('{"id": "every-type", "title": ', encoding="utf-8")
        # The error takes the quiz's place: the same page, reloaded, shows it.
        assert wait_for(lambda: "invalid JSON" in page.read_text(encoding="utf-8"))
        assert re.search(r"quiz\.json:\d+:\d+: error: invalid JSON", page.read_text(encoding="utf-8"))
        source["title"] = "Fixed"
        quiz.write_text(json.dumps(source), encoding="utf-8")
        assert wait_for(lambda: "Fixed" in page.read_text(encoding="utf-8"))
    finally:
        process.terminate()
        output = process.communicate(timeout=20)[0]
    assert "watching" in output and "error" in output


def wait_for(condition, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except FileNotFoundError:
            pass
        time.sleep(0.1)
    return False


def test_format_chooses_the_platforms_checked_and_shown(tmp_path):
    ordering = DATA / "ordering.json"
    every = invoke("preview", str(ordering), "-o", str(tmp_path / "all"))
    assert every.exit_code == 1 and "GIFT has no ordering question" in every.output  # the writer's own error
    page = (tmp_path / "all" / "ordering.html").read_text(encoding="utf-8")
    assert "GIFT has no ordering question" in page and "cannot be exported" in page
    some = invoke("preview", str(ordering), "-o", str(tmp_path / "some"), "--format", "qti,canvas,moodle")
    assert some.exit_code == 0, some.output
    page = (tmp_path / "some" / "ordering.html").read_text(encoding="utf-8")
    assert '<span class="platform-name">GIFT</span>' not in page and '<span class="platform-name">Canvas</span>' in page
    assert invoke("preview", str(ordering), "-o", str(tmp_path / "x"), "--format", "pdf").exit_code == 2


def test_a_type_the_preview_does_not_know_shows_its_stem():
    from dataclasses import dataclass, replace

    from lmsexport.loader import LoadResult
    from lmsexport.model import Question

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Hotspot(Question):
        type = "hot_spot"

    result = load_quiz(EVERY_TYPE)
    quiz = result.quiz
    odd = Hotspot(id="spot", stem=quiz.questions[0].stem, location=quiz.questions[0].location)
    site = build_site([LoadResult(result.path, replace(quiz, questions=(odd, *quiz.questions[1:])), ())])
    page = site.files["every-type.html"].decode()
    article = re.search(r'<article [^>]*id="q-spot".*?</article>', page, re.S).group(0)
    assert "Hot spot" in article and "Which rank holds" in article


def test_export_options_change_the_notes_as_they_change_the_exports(tmp_path):
    plain = invoke("preview", str(MEDIA_QUIZ), "-o", str(tmp_path / "a"))
    linked = invoke("preview", str(MEDIA_QUIZ), "-o", str(tmp_path / "b"), "--media-base-url", "https://example.org/quiz/")
    assert plain.exit_code == linked.exit_code == 0
    assert "GIFT cannot carry media files" in (tmp_path / "a" / "media-and-math.html").read_text(encoding="utf-8")
    assert "GIFT cannot carry media files" not in (tmp_path / "b" / "media-and-math.html").read_text(encoding="utf-8")


def test_the_preview_knows_every_question_type():
    from lmsexport.model import QUESTION_TYPES, Description
    from lmsexport.preview.key import key_data
    from lmsexport.preview.student import TYPE_NAMES

    assert set(TYPE_NAMES) == set(QUESTION_TYPES)
    files = (EVERY_TYPE, DATA / "blanks.json", DATA / "ordering.json")
    seen = {q.type: (path, q) for path in files for q in load_quiz(path).quiz.questions if not q.draft}
    assert set(seen) == set(QUESTION_TYPES)  # the fixtures the browser tests answer cover them all
    site = site_of(*files)
    for kind, (path, question) in seen.items():
        page = site.files[path.stem.replace("_", "-") + ".html"].decode()
        article = re.search(rf'<article [^>]*id="q-{question.id}".*?</article>', page, re.S).group(0)
        if isinstance(question, Description):
            assert key_data(question) is None and "<fieldset" not in article
        else:
            assert key_data(question) is not None and "<fieldset" in article and "key-data" in article, kind


@pytest.mark.parametrize("path", sorted(CONTENT.glob("*.json")) + sorted(DATA.glob("*.json")), ids=lambda p: p.stem)
def test_the_notes_are_what_build_reports(path):
    """One sink: each platform's notes are the diagnostics `build` reports for that format (a loss
    of a default the author never wrote, such as an essay's response size, is said by neither)."""
    from lmsexport.pipeline import export_quiz
    from lmsexport.preview.platforms import platform_notes

    result = load_quiz(path)
    if not result.ok:
        pytest.skip("a file with errors has an error page, not notes")
    notes = platform_notes(result.quiz, ExportOptions(), tuple(FORMATS), result.source).by_format()
    for name in FORMATS:
        built = export_quiz(result.quiz, name, ExportOptions(), result.source).diagnostics
        shown = notes.get(name, [])
        assert sorted((d.pointer, d.code, d.message, d.line) for d in shown) == sorted((d.pointer, d.code, d.message, d.line) for d in built), name
    if path.name == "sections.json":  # an essay whose response size the author left at its default
        assert not any("response size" in d.message for d in notes["gift"])
        page = build_site([result]).files["sections.html"].decode()
        assert "response size" not in page

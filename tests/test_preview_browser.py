"""The preview in a real browser: headless Chromium (Debian's package) driven by Playwright.

Questions are answered through the page; the score and feedback shown are compared with what
the content's credits give, computed here from the JSON by the rules the README states. No
script from a hostile quiz may run. Every question type is photographed in each mode (self-test
after "check", student view, without JavaScript) and its layout checked: visible, sized, no
overlap, inside its card, readable contrast. Screenshots go to $LMSEXPORT_SCREENSHOTS if set.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import DATA, ROOT
from lmsexport.commands.preview import write_site
from lmsexport.loader import load_quiz
from lmsexport.preview.site import build_site
from moodle_ordering import moodle_fraction
from test_preview import hostile_quiz

EVERY_TYPE = DATA / "every_type.json"
BLANKS = DATA / "blanks.json"
ORDERING = DATA / "ordering.json"
CONTENT = json.loads(EVERY_TYPE.read_text(encoding="utf-8"))
QUESTIONS = {q["id"]: q for q in CONTENT["questions"]}
BLANK_QUESTIONS = {q["id"]: q for q in json.loads(BLANKS.read_text(encoding="utf-8"))["questions"]}
ORDER_QUESTIONS = {q["id"]: q for q in json.loads(ORDERING.read_text(encoding="utf-8"))["questions"]}
# The switches Chromium needs to run headless in a container without calling home.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
NO_BROWSER = "no browser: the browser tests need Debian's chromium and Playwright's Python package (run `make browser`)"


def _chromium() -> str | None:
    configured = os.environ.get("LMSEXPORT_CHROMIUM")
    for candidate in (configured, shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(NO_BROWSER)
    executable = _chromium()
    if executable is None:
        pytest.skip(NO_BROWSER)
    with sync_playwright() as playwright:
        # launch() gives every run a fresh temporary profile (user-data-dir) of its own.
        instance = playwright.chromium.launch(executable_path=executable, args=ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("preview")
    hostile = hostile_quiz(tmp_path_factory.mktemp("hostile"))
    paths = [EVERY_TYPE, BLANKS, ORDERING, DATA / "sections.json", DATA / "media" / "media_and_math.json", ROOT / "docs" / "example" / "ring-all-reduce.json", hostile,
             DATA / "bad" / "unsafe_javascript_link.json"]
    write_site(folder / "site", build_site([load_quiz(p) for p in paths]).files)
    return folder / "site"


@pytest.fixture(scope="module")
def page(browser, site):
    """One tab for the tests that answer questions: each answer starts with "Start again"."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    tab = context.new_page()
    tab.console_messages = []
    tab.on("console", lambda m: tab.console_messages.append(m.text))
    tab.on("pageerror", lambda e: tab.console_messages.append(f"page error: {e}"))
    tab.goto((site / "every-type.html").as_uri())
    yield tab
    context.close()


# --- what the content says a student scores (README: "Credits are fractions of the question's points")

def _credit(question: dict, option: dict) -> float:
    if "credit" in option:
        return option["credit"]
    if question["type"] == "multiple_response":
        share = 1 / sum(1 for o in question["options"] if o.get("correct"))
        return share if option.get("correct") else -share
    return 1.0 if option.get("correct") else 0.0


def _accepts(answer: dict, x: float) -> bool:
    if "min" in answer:
        return answer["min"] <= x <= answer["max"]
    return abs(x - answer["value"]) <= answer.get("tolerance", 0)


def expected(question: dict, response) -> tuple[float, str, list[str]]:
    """(points scored, outcome, the feedback texts that show) for a response, from the content."""
    shown: list[str] = []
    kind = question["type"]
    if kind in ("single_choice", "multiple_response"):
        chosen = [o for o in question["options"] if o["id"] in response]
        fraction = sum(_credit(question, o) for o in chosen)
        correct = bool(chosen) and {o["id"] for o in chosen} == {o["id"] for o in question["options"] if o.get("correct")}
        shown += [o["feedback"] for o in chosen if "feedback" in o]
    elif kind == "true_false":
        correct = response == question["answer"]
        fraction = float(correct)
        key = "true_feedback" if response else "false_feedback"
        shown += [question[key]] if key in question else []
    elif kind == "short_answer":
        given = response.strip()
        same = (lambda a: a["text"] == given) if question.get("case_sensitive") else (lambda a: a["text"].lower() == given.lower())
        matched = next((a for a in question["answers"] if same(a)), None)
        fraction = matched.get("credit", 1) if matched else 0.0
        correct = any(same(a) and a.get("credit", 1) >= 1 for a in question["answers"])
        shown += [matched["feedback"]] if matched and "feedback" in matched else []
    elif kind == "numerical":
        x = float(response)
        accepting = [a for a in question["answers"] if _accepts(a, x)]
        best = max(accepting, key=lambda a: a.get("credit", 1), default=None)
        fraction = best.get("credit", 1) if best else 0.0
        correct = any(a.get("credit", 1) >= 1 for a in accepting)
        shown += [best["feedback"]] if best and "feedback" in best else []
    elif kind == "matching":
        right = sum(response.get(p["id"]) == p["answer"] for p in question["pairs"])
        fraction = right / len(question["pairs"])
        correct = right == len(question["pairs"])
    fraction = min(1.0, max(0.0, fraction))
    outcome = "correct" if correct else ("partially_correct" if fraction > 0 else "incorrect")
    shown += [question["feedback"][outcome]] if outcome in question.get("feedback", {}) else []
    shown += [question["explanation"]] if "explanation" in question else []
    return fraction * question.get("points", 1), outcome, shown


def answer(page, question_id: str, response) -> None:
    card = page.locator(f"#q-{question_id}")
    kind = QUESTIONS[question_id]["type"]
    card.locator("button.again").click()
    if kind in ("single_choice", "multiple_response"):
        for option in response:
            card.locator(f'input[value="{option}"]').check()
    elif kind == "true_false":
        card.locator(f'input[value="{"true" if response else "false"}"]').check()
    elif kind in ("short_answer", "numerical", "essay"):
        card.locator("input[type=text], textarea").fill(response)
    elif kind == "matching":
        for pair_id, text in response.items():
            card.locator(f'tr[data-pair="{pair_id}"] select').select_option(value=text)
    card.locator("button.check").click()


def _number(x: float) -> str:
    return f"{round(x, 3):g}"


MATCH_RIGHT = {p["id"]: p["answer"] for p in QUESTIONS["match"]["pairs"]}
CASES = [
    ("single", ["c"]), ("single", ["a"]), ("single", ["b"]), ("single", []),
    ("multi", ["a", "c"]), ("multi", ["a", "b"]), ("multi", ["a"]), ("multi", ["a", "b", "d"]), ("multi", ["c", "d"]),
    ("truefalse", False), ("truefalse", True),
    ("short", "nccl"), ("short", "NCCL"), ("short", "Nccl"), ("short", "  NCCL "), ("short", "a=b~c#d{e}f:g\\h"),
    ("number", "16.4"), ("number", "12"), ("number", "13"), ("number", "15.5"),
    ("range", "0.3"), ("range", "0.6"), ("range", "0.25"),
    ("match", MATCH_RIGHT), ("match", {**MATCH_RIGHT, "data": "the vocabulary"}), ("match", {"data": "the layers = stages"}),
]


@pytest.mark.parametrize("question_id, response", CASES, ids=[f"{q}-{r}" for q, r in CASES])
def test_check_shows_the_score_and_feedback_the_content_gives(page, question_id, response):
    question = QUESTIONS[question_id]
    points, outcome, feedback = expected(question, response)
    answer(page, question_id, response)
    card = page.locator(f"#q-{question_id}")
    result = card.locator(".result")
    total = question.get("points", 1)
    label = {"correct": "Correct", "partially_correct": "Partially correct", "incorrect": "Incorrect"}[outcome]
    assert result.inner_text() == f"{label}: {_number(points)} of {_number(total)} point{'' if total == 1 else 's'}"
    assert result.get_attribute("data-outcome") == outcome
    visible = [f.inner_text().strip() for f in card.locator(".feedback").all() if f.is_visible()]
    assert sorted(visible) == sorted(feedback)
    assert not page.console_messages


def test_an_essay_is_not_scored_and_shows_the_general_feedback(page):
    answer(page, "essay", "Stages wait while the pipeline fills.")
    result = page.locator("#q-essay .result").inner_text()
    assert result == f"Not scored automatically: a teacher grades this answer ({QUESTIONS['essay']['points']} points)."
    assert page.locator("#q-essay textarea").input_value() == "Stages wait while the pipeline fills."
    assert page.locator("#q-essay textarea").get_attribute("rows") == str(QUESTIONS["essay"]["lines"])


def test_start_again_clears_answer_score_and_feedback(page):
    answer(page, "single", ["c"])
    page.locator("#q-single button.again").click()
    assert page.locator("#q-single .result").inner_text() == ""
    assert not any(f.is_visible() for f in page.locator("#q-single .feedback").all())
    assert not page.locator("#q-single input:checked").count()


def test_the_keyboard_answers_and_checks(page):
    page.focus("#q-single input[value=a]")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # radio buttons move by arrow keys: now option c
    assert page.locator("#q-single input[value=c]").is_checked()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "check"
    page.keyboard.press("Enter")
    assert page.locator("#q-single .result").get_attribute("data-outcome") == "partially_correct"


def test_every_control_has_a_label(page):
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter(e => (!e.labels || e.labels.length === 0) && !e.getAttribute('aria-label')).map(e => e.outerHTML)""")
    assert unlabelled == []
    headings = page.evaluate("() => [...document.querySelectorAll('h1, h2')].map(h => h.tagName)")
    assert headings[0] == "H1" and headings.count("H2") >= len(QUESTIONS)


def test_student_view_hides_answers_and_platform_notes(page):
    answer(page, "single", ["a"])
    page.locator('.modes button[data-mode="student"]').click()
    assert page.locator('.modes button[data-mode="student"]').get_attribute("aria-pressed") == "true"
    for selector in (".teacher", ".actions", ".result", ".feedback", ".quiz-platforms"):
        assert not any(e.is_visible() for e in page.locator(selector).all()), selector
    assert page.locator("#q-single .stem").is_visible() and page.locator("#q-single input[value=a]").is_visible()
    page.locator('.modes button[data-mode="selftest"]').click()
    assert page.locator("#q-single .check").is_visible()


def test_without_javascript_the_answer_key_reveals_answers_and_feedback(browser, site):
    context = browser.new_context(java_script_enabled=False)
    try:
        tab = context.new_page()
        tab.goto((site / "every-type.html").as_uri())
        assert not tab.locator(".check").first.is_visible()  # nothing to press without a script
        key = tab.locator("#q-single details.key")
        option_c = next(o for o in QUESTIONS["single"]["options"] if o["id"] == "c")
        assert not tab.get_by_text(option_c["feedback"], exact=True).last.is_visible()
        key.locator("summary").click()
        body = key.inner_text()
        for option in QUESTIONS["single"]["options"]:
            assert option.get("feedback", "no feedback") in body
        assert "50%" in body and QUESTIONS["single"]["explanation"] in body
        for text in QUESTIONS["single"]["feedback"].values():
            assert text in body
    finally:
        context.close()


def test_no_script_from_a_hostile_quiz_runs(browser, site):
    for javascript in (True, False):
        context = browser.new_context(java_script_enabled=javascript)
        try:
            tab = context.new_page()
            messages, dialogs = [], []
            tab.on("console", lambda m: messages.append(m.text))
            tab.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            for name in ("hostile.html", "unsafe-javascript-link.html", "index.html"):
                tab.goto((site / name).as_uri())
                tab.wait_for_timeout(200)
                for selector in ("img", "label", ".stem", "summary"):  # what a student would hover or press
                    for element in tab.locator(selector).all()[:10]:
                        if element.is_visible():
                            element.hover()
                if javascript:
                    assert tab.evaluate("window.__pwned") is None
                    assert tab.evaluate("document.documentElement.classList.contains('js')")  # the page's own script did run
                assert tab.locator("script:not([type='application/json'])").count() == 1
            # Even a blocked attempt would be logged by the Content-Security-Policy: there is none.
            assert not [m for m in messages if "Content Security Policy" in m or "page error" in m], messages
            assert dialogs == []
        finally:
            context.close()
    # The attacks are there as text, for the author to see.
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto((site / "hostile.html").as_uri())
        assert '<script>window.__pwned="title"</script>' in tab.locator("h1").inner_text()
        tab.locator("#q-short input").fill("</script><script>window.__pwned='key'</script>")
        tab.locator("#q-short .check").click()
        assert tab.locator("#q-short .result").get_attribute("data-outcome") == "correct"
        assert tab.evaluate("window.__pwned") is None
    finally:
        context.close()


def test_media_and_math_are_shown(browser, site):
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto((site / "media-and-math.html").as_uri())
        tab.wait_for_load_state("load")
        images = tab.evaluate("() => [...document.images].map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0])")
        assert images and all(loaded for _, loaded in images), images
        assert tab.evaluate("() => { const a = document.querySelector('audio'); return a && a.error === null && a.src.endsWith('clip.mp3'); }")
        math = tab.locator("math").first
        box = math.bounding_box()
        assert box and box["width"] > 10 and box["height"] > 5  # MathML laid out natively
    finally:
        context.close()


def test_right_to_left_languages_are_laid_out_right_to_left(browser, tmp_path):
    quiz = tmp_path / "rtl.json"
    quiz.write_text(json.dumps({"id": "rtl", "title": "Languages", "language": "en", "questions": [
        {"id": "arabic", "type": "single_choice", "language": "ar", "stem": "ما هو الجواب الصحيح؟",
         "options": [{"id": "a", "text": "نعم", "correct": True}, {"id": "b", "text": "No", "language": "en"}]}]}), encoding="utf-8")
    write_site(tmp_path / "site", build_site([load_quiz(quiz)]).files)
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto((tmp_path / "site" / "rtl.html").as_uri())
        direction = "e => getComputedStyle(e).direction"
        assert tab.locator("#q-arabic .stem").evaluate(direction) == "rtl"
        assert tab.locator('#q-arabic label[lang="en"]').evaluate(direction) == "ltr"
        assert tab.locator("#q-arabic .check").evaluate(direction) == "ltr"  # the interface stays English
        # In the answer key too: the content keeps its language, the headings are the interface's.
        language = "e => e.closest('[lang]').getAttribute('lang')"
        key = tab.locator("#q-arabic details.key")
        assert key.locator("th").first.evaluate(language) == "en"
        assert key.locator("td", has_text="نعم").locator("span").first.evaluate(language) == "ar"
        assert tab.locator("#q-arabic .platform-list").evaluate(language) == "en"
        stem, card = tab.locator("#q-arabic .stem p").bounding_box(), tab.locator("#q-arabic").bounding_box()
        text_right = tab.locator("#q-arabic .stem p").evaluate(
            "p => { const r = document.createRange(); r.selectNodeContents(p); return r.getBoundingClientRect().right; }")
        assert text_right > card["x"] + card["width"] * 0.8  # the text starts at the right edge
        assert stem["width"] > 0
    finally:
        context.close()


# --- screenshots and layout facts: every type, in each mode

LAYOUT = """(card) => {
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const visible = e => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();
                         return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0; };
  const blocks = [...card.children].filter(e => e.tagName !== 'SCRIPT' && visible(e)).map(e => [e.className || e.tagName, box(e)]);
  const rows = [...card.querySelectorAll('.option, tr[data-pair], .actions button, details')].filter(visible).map(e => [e.className || e.tagName, box(e)]);
  const parse = c => { const m = c.match(/[\\d.]+/g).map(Number); return m.length > 3 ? m : [...m, 1]; };
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const background = e => { for (; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c[3] > 0.5) return c; }
                            return [255, 255, 255, 1]; };
  const texts = [...card.querySelectorAll('*')].filter(e => visible(e) && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
  const contrast = texts.map(e => { const a = lum(parse(getComputedStyle(e).color)), b = lum(background(e));
                                    return [e.tagName + '.' + e.className, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]; });
  const overflow = [...card.querySelectorAll('*')].filter(visible).filter(e => { const r = e.getBoundingClientRect(), c = card.getBoundingClientRect();
                     return e.closest('details:not([open])') === null && (r.left < c.left - 1 || r.right > c.right + 1); }).map(e => e.tagName + '.' + e.className);
  return {card: box(card), blocks, rows, contrast, overflow};
}"""


def _overlaps(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["w"] - 1 and b["x"] < a["x"] + a["w"] - 1 and a["y"] < b["y"] + b["h"] - 1 and b["y"] < a["y"] + a["h"] - 1


def check_layout(card, kind: str = "") -> None:
    facts = card.evaluate(LAYOUT)
    assert facts["card"]["w"] >= 600 and facts["card"]["h"] >= 80, facts["card"]
    names = [name for name, _ in facts["blocks"]]
    # A fill-in-the-blanks stem is inside the answer form, its blanks in the sentence.
    assert "q-head" in names and ("stem" in names or kind == "fill_in_blanks" and "answer" in names), names
    for group in ("blocks", "rows"):
        boxes = facts[group]
        for i, (name_a, a) in enumerate(boxes):
            assert a["w"] > 0 and a["h"] > 0, name_a
            for name_b, b in boxes[i + 1:]:
                assert not _overlaps(a, b), (name_a, a, name_b, b)
    assert facts["overflow"] == [], facts["overflow"]
    assert len(facts["contrast"]) >= 3  # the texts were found, so the check below means something
    low = [(name, round(ratio, 2)) for name, ratio in facts["contrast"] if ratio < 4.5]
    assert low == [], low


def _screenshot(card, name: str, folder: Path) -> None:
    path = folder / f"{name}.png"
    card.screenshot(path=str(path))
    assert path.stat().st_size > 2000  # an image with something in it, not an empty box


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    configured = os.environ.get("LMSEXPORT_SCREENSHOTS")
    folder = Path(configured) if configured else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


SAMPLE = {"single": ["c"], "multi": ["a", "c"], "truefalse": False, "short": "nccl", "number": "16.4", "range": "0.3",
          "match": {**MATCH_RIGHT, "data": "the vocabulary"}, "essay": "Stages wait."}
TYPES = {q["type"]: q["id"] for q in reversed(CONTENT["questions"]) if not q.get("draft")}


ORDER_SAMPLE = "absolute-position"
BLANK_SAMPLE = "ring-all-reduce"
SAMPLE["ordering"] = None
SAMPLE["fill_in_blanks"] = None
PAGES = {**{kind: ("every-type.html", qid) for kind, qid in TYPES.items()},
         "ordering": ("ordering.html", ORDER_SAMPLE), "fill_in_blanks": ("blanks.html", BLANK_SAMPLE)}


def _sample_answer(tab, kind: str, question_id: str) -> None:
    card = tab.locator(f"#q-{question_id}")
    if kind == "ordering":
        card.locator(".order-item").nth(2).locator("button.up").click()
        card.locator("button.check").click()
    elif kind == "fill_in_blanks":
        card.locator('.blank[data-blank="gpus"]').fill("7.5")
        card.locator('.blank[data-blank="library"]').fill("NCCL")
        card.locator('.blank[data-blank="size"]').select_option(value="small")
        card.locator("button.check").click()
    else:
        answer(tab, question_id, SAMPLE[question_id])


@pytest.mark.parametrize("kind", sorted(PAGES))
def test_every_type_looks_right_in_each_mode(browser, site, shots, kind):
    page_name, question_id = PAGES[kind]
    for mode in ("selftest", "student", "nojs"):
        context = browser.new_context(viewport={"width": 1000, "height": 900}, java_script_enabled=mode != "nojs")
        try:
            tab = context.new_page()
            tab.goto((site / page_name).as_uri())
            card = tab.locator(f"#q-{question_id}")
            if mode == "selftest":
                if kind in ("ordering", "fill_in_blanks") or question_id in SAMPLE:
                    _sample_answer(tab, kind, question_id)
                    assert tab.locator(f"#q-{question_id} .result").is_visible()
                for details in card.locator("details").all():
                    details.locator("summary").click()
            elif mode == "student":
                tab.locator('.modes button[data-mode="student"]').click()
                assert not card.locator(".teacher").is_visible()
            else:
                for details in card.locator("details.key").all():
                    details.locator("summary").click()
            if kind == "ordering":
                items = card.locator(".order-item").all()
                assert len(items) >= 3 and all(i.is_visible() for i in items)
                moves = card.locator(".order-moves button").all()
                assert all(b.is_visible() for b in moves) == (mode != "nojs")  # moving needs the script
            elif kind != "description":
                assert card.locator("fieldset").is_visible()
                controls = card.locator("input, select, textarea").all()
                assert controls and all(c.is_visible() for c in controls)
            check_layout(card, kind)
            _screenshot(card, f"{kind}-{mode}", shots)
        finally:
            context.close()


def test_index_lists_every_quiz_and_looks_right(browser, site, shots):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        tab = context.new_page()
        tab.goto((site / "index.html").as_uri())
        links = tab.locator("table.index tbody th a")
        assert links.count() == 8
        links.filter(has_text="Ring all-reduce").click()
        assert tab.locator("h1").inner_text() == "Ring all-reduce"
        tab.go_back()
        table = tab.locator("table.index")
        facts = table.evaluate(LAYOUT)
        assert [r for n, r in facts["contrast"] if r < 4.5] == []
        _screenshot(table, "index", shots)
    finally:
        context.close()


# --- fill in the blanks and ordering

def _blank_credit(blank: dict, given: str) -> float:
    """The best credit among the answers of a blank that accept what was given (README: each blank
    scored on its own; the best matching answer counts)."""
    if blank["type"] == "dropdown":
        option = next((o for o in blank["options"] if o["id"] == given), None)
        return 0.0 if option is None else option.get("credit", 1.0 if option.get("correct") else 0.0)
    if blank["type"] == "numerical":
        matches = [a for a in blank["answers"] if _accepts(a, float(given))]
    else:
        fold = (lambda t: t) if blank.get("case_sensitive") else str.lower
        matches = [a for a in blank["answers"] if fold(a["text"]) == fold(given.strip())]
    return max((a.get("credit", 1) for a in matches), default=0.0)


def expected_blanks(question: dict, response: dict[str, str]) -> tuple[float, str]:
    blanks = question["blanks"]
    if all("points" in b for b in blanks) and "points" not in question:
        worth = [b["points"] for b in blanks]
    else:
        worth = [b.get("points", question.get("points", 1) / len(blanks)) for b in blanks]
    credits = [min(1.0, max(0.0, _blank_credit(b, response.get(b["id"], "")))) if response.get(b["id"]) else 0.0 for b in blanks]
    points = sum(c * w for c, w in zip(credits, worth))
    outcome = "correct" if all(c >= 1 for c in credits) else ("partially_correct" if points > 0 else "incorrect")
    return points, outcome


BLANK_CASES = [
    ("ring-all-reduce", {"gpus": "8", "library": "NCCL", "size": "large"}),
    ("ring-all-reduce", {"gpus": "7.5", "library": "RCCL", "size": "large"}),
    ("ring-all-reduce", {"gpus": "10", "library": "nccl", "size": "small"}),
    ("words-only", {"split": "Layers", "within": "gemm"}),
    ("words-only", {"split": "layer", "within": "GEMM"}),
    ("drop-downs-only", {"stage": "s3", "where": "l2"}),
    ("one-blank", {"micro": "microbatches"}),
]


@pytest.mark.parametrize("question_id, response", BLANK_CASES, ids=[f"{q}-{sorted(r.values())}" for q, r in BLANK_CASES])
def test_blanks_score_blank_by_blank(browser, site, question_id, response):
    question = BLANK_QUESTIONS[question_id]
    points, outcome = expected_blanks(question, response)
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto((site / "blanks.html").as_uri())
        card = tab.locator(f"#q-{question_id}")
        for blank_id, given in response.items():
            field = card.locator(f'.blank[data-blank="{blank_id}"]')
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value=given)
            else:
                field.fill(given)
        card.locator("button.check").click()
        result = card.locator(".result")
        assert result.get_attribute("data-outcome") == outcome
        assert result.get_attribute("data-score") == _number(points)
        # The blanks stand inside the sentence, where their placeholders were.
        assert "[[" not in card.locator(".stem").inner_text()
        assert card.locator(".stem .blank").count() == len(question["blanks"])
    finally:
        context.close()


def arrange(card, order: list[str]) -> None:
    """Put the items in this order with the page's own "move up" buttons."""
    for position, item in enumerate(order):
        while True:
            current = [li.get_attribute("data-item") for li in card.locator(".order-item").all()]
            if current.index(item) == position:
                break
            card.locator(f'.order-item[data-item="{item}"] button.up').click()


ORDER_CASES = [(qid, kind) for qid in ORDER_QUESTIONS for kind in ("right", "reversed", "swapped", "rotated")]


@pytest.mark.parametrize("question_id, arrangement", ORDER_CASES, ids=[f"{q}-{a}" for q, a in ORDER_CASES])
def test_ordering_is_scored_as_moodle_grades_it(browser, site, question_id, arrangement):
    question = ORDER_QUESTIONS[question_id]
    right = [i["id"] for i in question["items"]]
    order = {"right": right, "reversed": right[::-1], "swapped": [right[1], right[0], *right[2:]],
             "rotated": right[1:] + right[:1]}[arrangement]
    grading = question.get("grading", "all_or_nothing")
    points = moodle_fraction(grading, right, order) * question.get("points", 1)
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto((site / "ordering.html").as_uri())
        card = tab.locator(f"#q-{question_id}")
        first = [li.get_attribute("data-item") for li in card.locator(".order-item").all()]
        assert first != right  # students never start from the answer
        arrange(card, order)
        card.locator("button.check").click()
        result = card.locator(".result")
        assert result.get_attribute("data-score") == _number(points), (grading, order)
        assert result.get_attribute("data-outcome") == ("correct" if order == right else ("partially_correct" if points > 0 else "incorrect"))
        card.locator("button.again").click()
        assert [li.get_attribute("data-item") for li in card.locator(".order-item").all()] == first
    finally:
        context.close()


def test_ordering_by_keyboard_keeps_the_focus_on_the_moved_item(browser, site):
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto((site / "ordering.html").as_uri())
        card = tab.locator("#q-absolute-position")
        second = card.locator(".order-item").nth(1).get_attribute("data-item")
        card.locator(".order-item").nth(1).locator("button.up").focus()
        tab.keyboard.press("Enter")
        assert card.locator(".order-item").nth(0).get_attribute("data-item") == second
        assert tab.evaluate("document.activeElement.closest('.order-item').dataset.item") == second
    finally:
        context.close()


def test_sections_stand_with_their_questions_in_their_order(browser, site):
    context = browser.new_context()
    try:
        tab = context.new_page()
        tab.goto((site / "sections.html").as_uri())
        order = tab.evaluate("() => [...document.querySelectorAll('ol.questions > li')].map(li => "
                             "li.querySelector('section, article').id)")
        assert order == ["q-intro", "s-warm-up", "q-w1", "q-w2", "q-w3", "q-w4", "s-pipeline", "q-p2", "q-p1", "q-outro"]
        assert "2 of these 3 questions, drawn at random" in tab.locator("#s-warm-up").inner_text()
        assert tab.locator("#q-w1 h3").count() == 1  # a question of a section is a heading below it
        assert "8 points" in tab.locator(".facts").first.inner_text()  # 2 drawn of 1 point, 2, 3 and 1
        # What a platform makes of a section stands with the section, not with the quiz.
        notes = tab.locator("#s-warm-up details.platforms")
        notes.locator("summary").click()
        assert "question groups have no instructions" in notes.inner_text()
        assert "'warm-up'" not in tab.locator(".quiz-platforms").inner_text()
    finally:
        context.close()


@pytest.mark.parametrize("name", ["every-type.html", "blanks.html", "ordering.html", "index.html"])
def test_a_phone_sized_window_needs_no_sideways_scrolling(browser, site, name):
    context = browser.new_context(viewport={"width": 380, "height": 800})
    try:
        tab = context.new_page()
        tab.goto((site / name).as_uri())
        wide = tab.evaluate("""() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('details:not([open])')
                         && !e.closest('table.index'))
            .map(e => e.tagName + '.' + e.className)""")
        assert wide == []
        # The index's table may scroll within itself, never the page.
        assert tab.evaluate("document.documentElement.scrollWidth") <= 380
    finally:
        context.close()


def test_under_watch_an_open_page_reloads_itself_with_each_build(browser, tmp_path):
    pytest.importorskip("watchfiles", reason="--watch needs watchfiles (pip install 'lmsexport[watch]')")
    import queue
    import re
    import subprocess
    import sys
    import threading

    content = tmp_path / "content"
    content.mkdir()
    quiz = content / "quiz.json"
    source = json.loads((ROOT / "docs" / "example" / "ring-all-reduce.json").read_text(encoding="utf-8"))
    shutil.copytree(ROOT / "docs" / "example" / "media", content / "media")
    quiz.write_text(json.dumps(source), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "lmsexport", "preview", str(content), "-o", str(tmp_path / "site"), "--watch"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    context = browser.new_context()
    try:
        address = None
        while address is None:
            match = re.search(r"serving the preview at (http://127\.0\.0\.1:\d+/)", lines.get(timeout=30))
            address = match and match.group(1)
        tab = context.new_page()
        tab.goto(address + "quiz.html")
        assert tab.locator("h1").inner_text() == source["title"]
        tab.wait_for_timeout(1500)  # the page has read the build's fingerprint
        source["title"] = "Ring all-reduce, edited"
        quiz.write_text(json.dumps(source), encoding="utf-8")
        assert _eventually(lambda: "edited" in tab.locator("h1").inner_text())  # nobody pressed reload
        quiz.write_text('{"id": ', encoding="utf-8")
        assert _eventually(lambda: "invalid JSON" in tab.locator("body").inner_text())
        assert re.search(r"quiz\.json:\d+:\d+: error", tab.locator("ul.problems").inner_text())
        assert tab.evaluate("window.__pwned") is None
    finally:
        context.close()
        process.terminate()
        process.wait(timeout=20)


def _eventually(condition, seconds: float = 30) -> bool:
    """Polled from here: a page's policy forbids the eval that wait_for_function would need."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except Exception:  # the page is between two loads
            pass
        time.sleep(0.2)
    return False


def test_the_real_content_reads_character_for_character(browser, tmp_path):
    """The seed texts in content/ (plain text) as a student reads them on the page: every stem
    and option exactly as written, in Wolof, Dutch and English alike."""
    content = ROOT / "content"
    write_site(tmp_path / "site", build_site([load_quiz(p) for p in sorted(content.glob("*.json"))]).files)
    context = browser.new_context()
    try:
        tab = context.new_page()
        checked = 0
        for path in sorted(content.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            assert data.get("text_format", "plain") == "plain"
            tab.goto((tmp_path / "site" / f"{path.stem}.html").as_uri())
            assert tab.locator("h1").text_content() == data["title"]
            for question in data["questions"]:
                card = tab.locator(f"#q-{question['id']}")
                # Line breaks are <br>, and runs of spaces keep their width as no-break spaces.
                shown = card.locator(".stem").text_content().replace("\u00a0", " ")
                assert shown == question["stem"].strip().replace("\n", "")
                labels = card.locator("label").all()
                for option, label in zip(question.get("options", []), labels):
                    assert label.text_content().replace("\u00a0", " ") == option["text"].strip()
                    checked += 1
        assert checked > 50
    finally:
        context.close()


@pytest.mark.parametrize("page_name", ["every-type.html", "blanks.html", "ordering.html"])
def test_dark_mode_keeps_every_type_readable(browser, site, shots, page_name):
    context = browser.new_context(viewport={"width": 1000, "height": 900}, color_scheme="dark")
    try:
        tab = context.new_page()
        tab.goto((site / page_name).as_uri())
        assert tab.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(238, 241, 245)"  # the dark page
        for kind, (name, question_id) in PAGES.items():
            if name != page_name:
                continue
            _sample_answer(tab, kind, question_id) if kind in ("ordering", "fill_in_blanks") or question_id in SAMPLE else None
            card = tab.locator(f"#q-{question_id}")
            for details in card.locator("details").all():
                details.locator("summary").click()
            check_layout(card, kind)
            _screenshot(card, f"{kind}-dark", shots)
    finally:
        context.close()

"""Every Moodle XML and GIFT export, imported by the real Moodle 4.5 and 5.0, compared with the content.

Each quiz of content/ and of the test quizzes (every type and feature; hostile strings; media and
math) is exported, imported through Moodle's own qformat_xml / qformat_gift on an installed site
(../shared/harness/moodle), and exported again by Moodle itself: that re-export is what Moodle
stored. It is read here with lxml alone, not with lmsexport's readers, and compared with what the
content says, through expectations that do not come from the writers: Moodle's type names and
rules written out, visible text derived from the content's own source (Markdown through
markdown-it directly), and, for the hostile strings, the exact stored strings written by hand.

One import per quiz, format and version (about 0.5 s each); the first use of a version installs
its site (about 1 minute for 4.5, 2 for 5.0) into the harness cache (see conftest.py).
"""

from __future__ import annotations

import base64
import html as html_module
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from decimal import Decimal, localcontext
from pathlib import Path

import pytest
from lxml import etree, html as lxml_html
from markdown_it import MarkdownIt

from importers.conftest import postgres_port
from quizzes import quiz_of
from lmsexport.loader import load_quiz
from lmsexport.model import Choice, Numerical, Quiz, ShortAnswer, SingleChoice, Text, TextFormat
from lmsexport.text.blanks import PLACEHOLDER as PLACEHOLDER_RE
from lmsexport.writers.moodle import gift, moodle_xml
from lmsexport.writers.moodle.moodle_xml.xml import character_data as moodle_character_data
from lmsexport.writers.shared import ExportOptions
from moodle_checks import best_of_case_twins, hostile_quiz

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
QUIZZES = sorted((ROOT / "content").glob("*.json")) + [
    DATA / "every_type.json",
    DATA / "hostile_strings.json",
    DATA / "media" / "media_and_math.json",
    DATA / "ordering.json",
    DATA / "blanks.json",
    DATA / "sections.json",
    DATA / "one_blank.json",
    DATA / "sections_with_drafts.json",
]
# GIFT has no ordering question and one blank per question: its writer refuses these (an error).
GIFT_REFUSES = {"ordering", "blanks"}
VERSIONS = ("4.5", "5.0")
FORMATS = ("xml", "gift")
MEDIA_BASE = "https://media.example.org/quiz/"

# Moodle's name for each type of the content (question/type/*).
QTYPE = {
    "single_choice": "multichoice", "multiple_response": "multichoice", "true_false": "truefalse",
    "short_answer": "shortanswer", "numerical": "numerical", "matching": "match", "essay": "essay",
    "description": "description", "ordering": "ordering", "fill_in_blanks": "multianswer",
}
# Where a Moodle 4.5 course bank and a Moodle 5.0 qbank module file the questions.
CONTEXT = {"4.5": "$course$", "5.0": "$module$"}


# -- the site ------------------------------------------------------------------------------------

@dataclass
class StoredQuestion:
    """One question as Moodle's own exporter writes what Moodle stored."""

    qtype: str
    name: str
    idnumber: str
    category: str
    fields: dict[str, tuple[str, str, dict[str, bytes]]] = field(default_factory=dict)  # tag -> (format, text, files)
    answers: list[dict] = field(default_factory=list)
    subquestions: list[tuple[str, str, str]] = field(default_factory=list)  # (format, text, answer)
    tags: list[str] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)  # penalty, single, shuffleanswers, usecase, ...


@dataclass
class Stored:
    report: dict
    questions: dict[str, StoredQuestion]
    categories: dict[str, tuple[str, str]]  # path -> (info format, info text)


def _field(element) -> tuple[str, str, dict[str, bytes]]:
    if element is None:
        return ("", "", {})
    files = {(f.get("path") or "/").lstrip("/") + f.get("name"): base64.b64decode(f.text or "") for f in element.findall("file")}
    return (element.get("format"), element.findtext("text") or "", files)


SETTINGS = ("penalty", "single", "shuffleanswers", "usecase", "responsefieldlines")


def parse_moodle_export(data: bytes) -> tuple[dict[str, StoredQuestion], dict[str, tuple[str, str]]]:
    root = etree.fromstring(data)
    questions, categories, category = {}, {}, ""
    for element in root.findall("question"):
        kind = element.get("type")
        if kind == "category":
            category = element.findtext("category/text")
            info = element.find("info")
            categories[category] = (info.get("format"), info.findtext("text") or "")
            continue
        stored = StoredQuestion(
            qtype=kind, name=element.findtext("name/text"), idnumber=element.findtext("idnumber") or "",
            category=category,
            # Moodle's exporter writes each tag's display name, which is HTML (question_sort_tags).
            tags=[html_module.unescape(t.findtext("text")) for t in element.findall("tags/tag")],
        )
        for tag in ("questiontext", "generalfeedback", "correctfeedback", "partiallycorrectfeedback",
                    "incorrectfeedback", "graderinfo", "responsetemplate"):
            if element.find(tag) is not None:
                stored.fields[tag] = _field(element.find(tag))
        for name in SETTINGS:
            if element.find(name) is not None:
                stored.settings[name] = element.findtext(name) or ""
        for answer in element.findall("answer"):
            stored.answers.append({
                "fraction": float(answer.get("fraction")) / 100, "format": answer.get("format"),
                "text": answer.findtext("text") or "", "files": _field(answer)[2],
                "feedback": _field(answer.find("feedback")), "tolerance": answer.findtext("tolerance"),
            })
        for sub in element.findall("subquestion"):
            stored.subquestions.append((sub.get("format"), sub.findtext("text") or "", sub.findtext("answer/text") or ""))
        questions[stored.idnumber] = stored
    return questions, categories


class MoodleSite:
    """A Moodle site of the harness; the first import installs it."""

    def __init__(self, harness: Path, cache: Path, version: str):
        self.harness, self.version = harness, version
        self.state = cache / "moodle-harness"
        setup = subprocess.run(["bash", str(harness / "setup.sh"), version, str(cache)], capture_output=True, text=True)
        if setup.returncode != 0:
            pytest.fail(f"extracting Moodle {version} into {cache} failed: {setup.stderr[-2000:]}")
        self.source = setup.stdout.strip()
        self.port = postgres_port(self.state)

    def import_file(self, path: Path, fmt: str, keep: bool = False) -> Stored:
        """`keep`: leave the throw-away course in the site, to read its tables (stored_answers)."""
        with tempfile.TemporaryDirectory() as folder:
            again = Path(folder) / "moodle-export.xml"
            env = dict(os.environ, MOODLE_HARNESS_DIR=str(self.state), MOODLE_HARNESS_QUIET="1", MOODLE_HARNESS_PGPORT=str(self.port))
            run = subprocess.run(["bash", str(self.harness / "moodle-import.sh"), self.source, str(path), fmt, f"--export={again}",
                                  *(["--keep"] if keep else [])],
                                 capture_output=True, text=True, env=env, timeout=900)
            if run.returncode == 2 or not run.stdout.strip():
                pytest.fail(f"the Moodle {self.version} harness failed (exit {run.returncode}): {run.stderr[-3000:]}")
            report = json.loads(run.stdout)
            questions, categories = parse_moodle_export(again.read_bytes()) if again.exists() else ({}, {})
        return Stored(report, questions, categories)

    def query(self, sql: str) -> list[list[str]]:
        """Rows of a query on the site's database (what Moodle stored, beyond its re-export)."""
        config = (Path(self.source) / "config.php").read_text()
        settings = dict(re.findall(r"\$CFG->(dbname|dbuser|prefix)\s*=\s*'([^']*)'", config))
        run = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", settings["dbuser"], "-d", settings["dbname"],
                              "-X", "-A", "-t", "-F", "\x1f", "-R", "\x1e", "-c", sql.replace("{prefix}", settings["prefix"])],
                             capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            pytest.fail(f"reading the Moodle {self.version} database failed: {run.stderr[-2000:]}")
        return [row.strip("\n").split("\x1f") for row in run.stdout.split("\x1e") if row.strip("\n")]

    def stored_answers(self, question_id: int) -> list[tuple[str, float, str]]:
        """(answer, fraction, feedback) of every sub-question of a cloze question: Moodle's
        re-export of a cloze only repeats the text it was given."""
        rows = self.query("select a.answer, a.fraction, a.feedback from {prefix}question q join {prefix}question_answers a on a.question = q.id "
                          f"where q.parent = {int(question_id)} and q.id <> q.parent order by q.id, a.id")
        return [(answer, float(fraction), feedback) for answer, fraction, feedback in rows]

    def subcategories(self, category_id: int) -> list[tuple[str, int]]:
        """(name, number of questions) of each category right below one, empty ones included
        (the harness's report and Moodle's re-export name only the categories holding questions)."""
        rows = self.query("select c.name, (select count(*) from {prefix}question_bank_entries e where e.questioncategoryid = c.id) "
                          f"from {{prefix}}question_categories c where c.parent = {int(category_id)} order by c.id")
        return [(name, int(count)) for name, count in rows]


@pytest.fixture(scope="session")
def moodle_sites(moodle_harness, importer_cache):
    sites: dict[str, MoodleSite] = {}

    def site(version: str) -> MoodleSite:
        if version not in sites:
            sites[version] = MoodleSite(moodle_harness, importer_cache, version)
        return sites[version]

    return site


@pytest.fixture(scope="session")
def imported(moodle_sites, tmp_path_factory):
    """(version, quiz path, format) -> what Moodle stored; each file is exported and imported once."""
    done: dict[tuple, tuple[Quiz, Stored]] = {}
    folder = tmp_path_factory.mktemp("moodle-imports")

    def get(version: str, path: Path, fmt: str, hostile: bool = False) -> tuple[Quiz, Stored]:
        key = (version, path, fmt, hostile)
        if key not in done:
            quiz = load_quiz(path).quiz
            if hostile:
                quiz = hostile_quiz(quiz)
            writer = moodle_xml if fmt == "xml" else gift
            export = writer.render(quiz, ExportOptions(media_base_url=MEDIA_BASE if fmt == "gift" else None))
            assert not export.failed, [d.message for d in export.diagnostics if d.is_error]
            target = folder / f"{version}-{'hostile-' if hostile else ''}{export.filename}"
            target.write_bytes(export.data)
            done[key] = (quiz, moodle_sites(version).import_file(target, fmt))
        return done[key]

    return get


def cases():
    """Every quiz in both formats on both versions, and the all-types quiz with the suite's hostile
    string (GIFT's specials, a blank line, markup, ']]>', emoji, right-to-left text...) in every field."""
    plain = [pytest.param(v, p, f, False, id=f"{v}-{f}-{p.stem}") for v in VERSIONS for f in FORMATS for p in QUIZZES
             if not (f == "gift" and p.stem in GIFT_REFUSES)]
    hostile = [pytest.param(v, DATA / "every_type.json", f, True, id=f"{v}-{f}-every_type-hostile-fields") for v in VERSIONS for f in FORMATS]
    hostile += [pytest.param(v, DATA / "ordering.json", "xml", True, id=f"{v}-xml-ordering-hostile-fields") for v in VERSIONS]
    return plain + hostile


# -- what a student sees, derived from the content without the writers ----------------------------

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
# A formula in the content's source; "$5 and $10" is text (a dollar next to a digit or a space).
_SOURCE_MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$\d])\$(?![\s$])[^$\n]+?(?<![\s$])\$(?!\d)|\\\(.+?\\\)|\\\[.+?\\\]", re.S)
_STORED_MATH = re.compile(r"\\\(.+?\\\)|\\\[.+?\\\]", re.S)
MATH = "\u2329math\u232a"


_BLOCKS = ("br", "p", "div", "li", "ul", "ol", "pre", "blockquote", "table", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6")


def visible_html(markup: str) -> str:
    """The text a browser shows for an HTML fragment, white space collapsed; players show no text."""
    if not markup.strip():
        return ""
    tree = lxml_html.fragment_fromstring(markup, create_parent="div")
    for player in tree.xpath("//audio|//video"):
        tail = player.tail
        player.clear()
        player.tail = tail
    # A browser sets blocks and line breaks apart, whatever the white space between the tags.
    for element in tree.iter(*_BLOCKS):
        element.tail = "\n" + (element.tail or "")
        element.text = "\n" + (element.text or "")
    return " ".join(tree.text_content().split())


def formulas_in_source(text: Text | None) -> list[tuple[str, str]]:
    """(inline or display, LaTeX) of each formula of the content, in order."""
    if text is None or text.format is not TextFormat.MARKDOWN:
        return []
    found = []
    for match in _SOURCE_MATH.finditer(text.source):
        segment = match.group()
        display = segment.startswith(("$$", "\\["))
        inner = segment[2:-2] if segment.startswith(("$$", "\\(", "\\[")) else segment[1:-1]
        found.append(("display" if display else "inline", inner.strip()))
    return found


def formulas_stored(fmt: str, text: str) -> list[tuple[str, str]]:
    """The same of a stored text: MathJax's \\(...\\) and \\[...\\], HTML entities decoded."""
    if fmt == "plain_text":
        return []
    return [("display" if m.group().startswith("\\[") else "inline", html_module.unescape(m.group()[2:-2]).strip())
            for m in _STORED_MATH.finditer(text)]


def shown_stored(fmt: str, text: str) -> str:
    text = _STORED_MATH.sub(MATH, text)
    if fmt == "plain_text":
        return " ".join(text.split())
    return visible_html(text)


def shown_content(text: Text | None) -> str:
    if text is None:
        return ""
    if text.format is TextFormat.PLAIN:
        return " ".join(text.source.split())
    return visible_html(_MARKDOWN.render(_SOURCE_MATH.sub(MATH, text.source)))


def language_of(fmt: str, text: str) -> str | None:
    """The language an HTML text states on the one element wrapping all of it."""
    if fmt == "plain_text" or not text.strip():
        return None
    tree = lxml_html.fragment_fromstring(text, create_parent="div")
    children = list(tree)
    if len(children) == 1 and not (tree.text or "").strip() and not (children[0].tail or "").strip():
        return children[0].get("lang")
    return None


def media_paths(text: Text | None) -> list[str]:
    if text is None or text.format is not TextFormat.MARKDOWN:
        return []
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text.source)


# -- the comparison --------------------------------------------------------------------------------

def cleaned_name(name: str) -> str:
    """Moodle's clean_param(PARAM_TEXT) on a question or category name: HTML tags go, outer spaces
    too (the writers warn about both)."""
    return re.sub(r"<[A-Za-z/!?][^>]*>", "", name).strip()


def category_name(name: str) -> str:
    """A category name as Moodle keeps it: cleaned, and a name that starts or ends with '/' padded
    with a space, since the path's separator would swallow it (assemble_category_path)."""
    name = cleaned_name(name)
    return (" " if name.startswith("/") else "") + name + (" " if name.endswith("/") else "")


def expected_fields(question) -> dict[str, Text | None]:
    feedback = question.feedback
    fields = {"questiontext": question.stem, "generalfeedback": feedback.general}
    if question.type in ("single_choice", "multiple_response", "matching", "ordering"):
        fields.update(correctfeedback=feedback.correct, partiallycorrectfeedback=feedback.partially_correct,
                      incorrectfeedback=feedback.incorrect)
    if question.type == "essay":
        fields["graderinfo"] = question.grader_info
        fields["responsetemplate"] = None if question.response_template is None else Text(question.response_template)
    return fields


def gift_cannot_carry(tag: str, question) -> bool:
    """The fields GIFT has no syntax for (each a warning of the writer)."""
    return tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback", "graderinfo", "responsetemplate") or (
        question.type == "description" and tag == "generalfeedback")


def exact_range(low: float, high: float) -> tuple[Decimal, Decimal]:
    with localcontext() as context:
        context.prec = 1000
        lo, hi = Decimal(repr(low)), Decimal(repr(high))
        return (lo + hi) / 2, (hi - lo) / 2


def check_text(problems: list, where: str, stored: tuple[str, str, dict], text: Text | None, language: str | None,
               fmt: str, media: dict[str, bytes]) -> None:
    stored_format, stored_text, files = stored
    # Plain text is stored as it is, character for character.
    if text is not None and text.format is TextFormat.PLAIN and stored_format == "plain_text" and stored_text != text.source:
        problems.append(f"{where}: Moodle stored {stored_text!r}, the content {text.source!r}")
    if shown_stored(stored_format, stored_text) != shown_content(text):
        problems.append(f"{where}: Moodle shows {shown_stored(stored_format, stored_text)!r}, the content {shown_content(text)!r}")
    if formulas_stored(stored_format, stored_text) != formulas_in_source(text):
        problems.append(f"{where}: formulas {formulas_stored(stored_format, stored_text)}, the content {formulas_in_source(text)}")
    if text is not None and language_of(stored_format, stored_text) != language:
        problems.append(f"{where}: language {language_of(stored_format, stored_text)!r}, the content {language!r}")
    for path in media_paths(text):
        if fmt == "xml":
            if f'src="@@PLUGINFILE@@/{path}"' not in stored_text or files.get(path) != media[path]:
                problems.append(f"{where}: media file {path} not stored with the text")
        elif f'src="{MEDIA_BASE}{path}"' not in stored_text:
            problems.append(f"{where}: media file {path} not linked under the media base URL")


# What qformat_gift puts where a missing word's answers stood, when text follows them.
GIFT_GAP = "_____"


def missing_word(question):
    """A one-blank question as GIFT's missing word form makes it in Moodle (qformat_gift): the
    question of the blank's kind (a drop-down is a single choice of its options), its text with
    the gap shown as BLANK, standing for Moodle's '_____'."""
    blank = question.blanks[0]
    common = dict(id=question.id, title=question.title, points=question.points, language=question.language,
                  feedback=question.feedback, tags=question.tags,
                  stem=Text(PLACEHOLDER_RE.sub(BLANK, question.stem.source), question.stem.format))
    if blank.kind == "short_answer":
        return ShortAnswer(**common, answers=blank.answers, case_sensitive=blank.case_sensitive)
    if blank.kind == "numerical":
        return Numerical(**common, answers=blank.answers)
    choices = tuple(Choice(id=o.id, text=Text(o.text), correct=o.correct, credit=o.credit, feedback=o.feedback) for o in blank.options)
    return SingleChoice(**common, choices=choices, shuffle=blank.shuffle)


def stored_gap(got: StoredQuestion) -> tuple[StoredQuestion, list[str]]:
    """The stored question with Moodle's one gap shown as BLANK (a problem when it is not there once)."""
    fmt, text, files = got.fields["questiontext"]
    if text.count(GIFT_GAP) != 1:
        return got, [f"{got.idnumber} questiontext: {text.count(GIFT_GAP)} gaps '{GIFT_GAP}' in {text!r}, expected one"]
    return replace(got, fields={**got.fields, "questiontext": (fmt, text.replace(GIFT_GAP, BLANK), files)}), []


def compare(quiz: Quiz, stored: Stored, version: str, fmt: str) -> list[str]:
    problems: list[str] = []
    # The files as lmsexport loaded them (SVG cleaned of scripts), which is what must arrive.
    media = {m.path: m.data for m in quiz.media}
    questions = quiz.exported_questions
    if sorted(stored.questions) != sorted(q.id for q in questions):
        return [f"Moodle stored {sorted(stored.questions)}, the content has {sorted(q.id for q in questions)}"]
    reported = {q["idnumber"]: q for q in stored.report["questions"]}
    category = CONTEXT[version] + "/top/" + "/".join(category_name(n).replace("/", "//") for n in (*quiz.category, quiz.title))
    # A section is a subcategory of the quiz's category.
    section_of = {q.id: section.title for section, members in quiz.layout() if section is not None for q in members}
    for question in questions:
        got = stored.questions[question.id]
        where = f"{question.id}"
        if fmt == "gift" and question.type == "fill_in_blanks":
            question = missing_word(question)
            got, gap = stored_gap(got)
            problems += gap
        language = question.language if question.language not in (None, quiz.language) else None
        if reported[question.id]["qtype"] != QTYPE[question.type]:
            problems.append(f"{where}: type {reported[question.id]['qtype']}")
        if got.name != cleaned_name(question.title or question.id):
            problems.append(f"{where}: name {got.name!r}")
        expected_category = category + ("/" + category_name(section_of[question.id]).replace("/", "//") if question.id in section_of else "")
        if got.category != expected_category:
            problems.append(f"{where}: category {got.category!r}, expected {expected_category!r}")
        points = question.points if fmt == "xml" else (0.0 if question.type == "description" else 1.0)
        # The mark as stored (a cloze question's export has no <defaultgrade>: the harness reads it).
        if abs(reported[question.id]["defaultmark"] - points) > 1e-7:
            problems.append(f"{where}: {reported[question.id]['defaultmark']} points, expected {points}")
        tags = list(dict.fromkeys((*quiz.tags, *question.tags)))
        if got.tags != tags:
            problems.append(f"{where}: tags {got.tags}, expected {tags}")
        for tag, text in expected_fields(question).items():
            if fmt == "gift" and gift_cannot_carry(tag, question):
                text = None
            if question.type == "fill_in_blanks" and tag == "questiontext":
                problems += compare_cloze(question, got.fields[tag][1], language)
                continue
            check_text(problems, f"{where} {tag}", got.fields.get(tag, ("", "", {})), text, language, fmt, media)
        if fmt == "xml":
            problems += compare_settings(question, got)
        problems += compare_answers(question, got, language, quiz.language_of(question), fmt, media)
    return problems


# Moodle's penalty for a question that gives none (question/format.php defaultquestion; truefalse 1).
DEFAULT_PENALTY = {"true_false": 1.0, "essay": 0.0, "description": 0.0}


def compare_settings(question, got: StoredQuestion) -> list[str]:
    """What only Moodle XML carries: penalty, single or multiple, shuffling, case, the essay box."""
    expected = {"penalty": question.penalty if question.penalty is not None else DEFAULT_PENALTY.get(question.type, 0.3333333)}
    if question.type in ("single_choice", "multiple_response"):
        expected["single"] = "true" if question.type == "single_choice" else "false"
    if question.type in ("single_choice", "multiple_response", "matching"):
        expected["shuffleanswers"] = "true" if question.shuffle else "false"
    if question.type == "short_answer":
        expected["usecase"] = "1" if question.case_sensitive else "0"
    if question.type == "essay":
        expected["responsefieldlines"] = str(question.lines)
    got_settings = {name: got.settings.get(name) for name in expected}
    if "penalty" in got_settings and got_settings["penalty"] is not None:
        got_settings["penalty"] = round(float(got_settings["penalty"]), 7)
        expected["penalty"] = round(expected["penalty"], 7)
    if got_settings != expected:
        return [f"{question.id}: settings {got_settings}, expected {expected}"]
    return []


def compare_answers(question, got: StoredQuestion, language, question_language: str, fmt: str, media: dict[str, bytes]) -> list[str]:
    """`language`: the one the question's texts state (None: the quiz's); `question_language`: the question's own."""
    problems: list[str] = []
    where = question.id
    answers = got.answers
    if question.type in ("single_choice", "multiple_response"):
        if len(answers) != len(question.choices):
            return [f"{where}: {len(answers)} answers, the content has {len(question.choices)} options"]
        for choice, answer in zip(question.choices, answers):
            own = choice.language if choice.language not in (None, question_language) else language
            if abs(answer["fraction"] - choice.credit) > 1e-6:
                problems.append(f"{where} option {choice.id}: fraction {answer['fraction']}, credit {choice.credit}")
            check_text(problems, f"{where} option {choice.id}", (answer["format"], answer["text"], answer["files"]),
                       choice.text, own, fmt, media)
            check_text(problems, f"{where} option {choice.id} feedback", answer["feedback"], choice.feedback, language, fmt, media)
    elif question.type == "true_false":
        by_text = {a["text"].lower(): a for a in answers}
        for value, feedback in ((True, question.true_feedback), (False, question.false_feedback)):
            answer = by_text[str(value).lower()]
            if answer["fraction"] != (1.0 if value is question.answer else 0.0):
                problems.append(f"{where} {value}: fraction {answer['fraction']}")
            check_text(problems, f"{where} {value} feedback", answer["feedback"], feedback, language, fmt, media)
    elif question.type == "short_answer":
        # Moodle reads '*' as a wildcard and '\*' as a star. GIFT has no case sensitivity: of answers
        # differing only in case, the one of best credit is written.
        written = best_of_case_twins(question.answers) if fmt == "gift" and question.case_sensitive else question.answers
        expected = [(a.text.replace("*", "\\*"), a.credit) for a in written]
        if [(a["text"], a["fraction"]) for a in answers] != expected:
            problems.append(f"{where}: answers {[(a['text'], a['fraction']) for a in answers]}, expected {expected}")
        for content, answer in zip(written, answers):
            check_text(problems, f"{where} answer {content.text!r} feedback", answer["feedback"], content.feedback, language, fmt, media)
    elif question.type == "numerical":
        if len(answers) != len(question.answers):
            return [f"{where}: {len(answers)} answers"]
        for content, answer in zip(question.answers, answers):
            if content.is_range:
                value, tolerance = exact_range(content.minimum, content.maximum)
            else:
                value, tolerance = Decimal(repr(content.value)), Decimal(repr(content.tolerance))
            # Exactly the decimal value: no binary rounding noise such as 0.20000000000000007.
            if (Decimal(answer["text"]), Decimal(answer["tolerance"])) != (value, tolerance) or answer["fraction"] != content.credit:
                problems.append(f"{where}: answer {answer['text']} ± {answer['tolerance']} at {answer['fraction']}, expected {value} ± {tolerance} at {content.credit}")
            check_text(problems, f"{where} answer feedback", answer["feedback"], content.feedback, language, fmt, media)
    elif question.type == "ordering":
        # The right order is the order of the answers; Moodle keeps each one's place as its fraction.
        if [round(a["fraction"] * 100) for a in answers] != list(range(1, len(question.items) + 1)):
            problems.append(f"{where}: places {[a['fraction'] * 100 for a in answers]}")
        for item, answer in zip(question.items, answers):
            check_text(problems, f"{where} item {item.id}", (answer["format"], answer["text"], answer["files"]), item.text, language, fmt, media)
    elif question.type == "matching":
        expected = [(shown_content(p.prompt), p.answer) for p in question.pairs] + [("", d.text) for d in question.distractors]
        stored = [(shown_stored(f, t), a) for f, t, a in got.subquestions]
        if stored != expected:
            problems.append(f"{where}: pairs {stored}, expected {expected}")
        for pair, (f, t, _) in zip(question.pairs, got.subquestions):
            if language_of(f, t) != language:
                problems.append(f"{where} pair {pair.id}: language {language_of(f, t)!r}")
    return problems


# A cloze sub-question, {weight:TYPE:alternatives}, as Moodle's qtype_multianswer writes it back.
_CLOZE = re.compile(r"\{(\d+):([A-Z_]+):(.*?)\}", re.S)
BLANK = "\u25a2"
CLOZE_TYPES = {"short_answer": ("SHORTANSWER", "SHORTANSWER_C"), "numerical": ("NUMERICAL",), "dropdown": ("MULTICHOICE", "MULTICHOICE_S")}


def _split_feedback(alternative: str) -> tuple[str, str]:
    """An alternative's answer ends at the first '#' not preceded by '\\', '&' or '&amp;' (qtype_multianswer)."""
    parts = re.split(r"(?<![\\&])(?<!&amp;)#", alternative, maxsplit=1)
    return (parts[0], parts[1] if len(parts) > 1 else "")


def _moodle_undoes(value: str) -> str:
    """After decoding, Moodle replaces '\\}' and then '\\#' by the character (questiontype.php)."""
    return value.replace("\\}", "}").replace("\\#", "#")


def cloze_alternatives(code: str) -> list[tuple[float, str, str]]:
    """(fraction, answer, feedback) of each '~'-separated alternative; Moodle decodes entities once
    and undoes '\\}' and '\\#'."""
    parts = []
    for alternative in code.split("~"):
        mark = re.match(r"(=|%(-?[0-9.]+)%)?", alternative)
        fraction = 1.0 if mark.group(1) == "=" else float(mark.group(2)) / 100 if mark.group(2) else 0.0
        answer, feedback = _split_feedback(alternative[mark.end():])
        parts.append((fraction, _moodle_undoes(html_module.unescape(answer)), _moodle_undoes(html_module.unescape(feedback))))
    return parts


def compare_cloze(question, stored_text: str, language) -> list[str]:
    """A fill-in-the-blanks question as Moodle's cloze: the text around the blanks, then each blank."""
    where = question.id
    problems = []
    stem = Text(PLACEHOLDER_RE.sub(BLANK, question.stem.source), question.stem.format)
    shown = visible_html(_CLOZE.sub(BLANK, stored_text))
    if shown != shown_content(stem):
        problems.append(f"{where} questiontext: Moodle shows {shown!r}, the content {shown_content(stem)!r}")
    if language_of("html", stored_text) != language:
        problems.append(f"{where} questiontext: language {language_of('html', stored_text)!r}, expected {language!r}")
    blanks = {b.id: b for b in question.blanks}
    codes = _CLOZE.findall(stored_text)
    names = PLACEHOLDER_RE.findall(question.stem.source)
    if len(codes) != len(names):
        return problems + [f"{where}: {len(codes)} sub-questions for {len(names)} blanks"]
    for name, (_, kind, code) in zip(names, codes):
        blank = blanks[name]
        if kind not in CLOZE_TYPES[blank.kind]:
            problems.append(f"{where} blank {name}: {kind}")
        got = cloze_alternatives(code)
        if blank.kind == "short_answer":
            expected = [(a.credit, a.text, shown_content(a.feedback)) for a in blank.answers]
        elif blank.kind == "numerical":
            expected = []
            for a in blank.answers:
                value, tolerance = exact_range(a.minimum, a.maximum) if a.is_range else (Decimal(repr(a.value)), Decimal(repr(a.tolerance)))
                expected.append((a.credit, (value, tolerance), shown_content(a.feedback)))
            got = [(f, tuple(Decimal(x) for x in answer.split(":")), fb) for f, answer, fb in got]
        else:  # a drop-down option is stored as HTML, its feedback too
            expected = [(o.credit, o.text, shown_content(o.feedback)) for o in blank.options]
            got = [(f, visible_html(answer), fb) for f, answer, fb in got]
        got = [(f, a, visible_html(fb)) for f, a, fb in got]
        if [(round(f, 5), a, fb) for f, a, fb in got] != [(round(f, 5), a, fb) for f, a, fb in expected]:
            problems.append(f"{where} blank {name}: Moodle stored {got}, the content {expected}")
    return problems


@pytest.mark.parametrize(("version", "path", "fmt", "hostile"), cases())
def test_moodle_stores_what_the_content_says(imported, version, path, fmt, hostile):
    quiz, stored = imported(version, path, fmt, hostile)
    report = stored.report
    assert report["ok"], report["errors"]
    assert report["moodle"]["release"].startswith(version + ".")
    assert not report["php_warnings"], report["php_warnings"]
    assert report["imported"] == len(quiz.exported_questions)
    problems = compare(quiz, stored, version, fmt)
    assert not problems, "\n".join(problems)


# -- hostile strings, character for character -------------------------------------------------------

RING = "<strong>ring</strong> <em>attention</em>"
# What Moodle must store for tests/data/hostile_strings.json, written out by hand: entities
# separated by single spaces, ']]>', GIFT's specials, Markdown whose tags a space separates, and
# texts in other languages than the quiz's, in every field both formats carry.
HOSTILE_EXACT = {
    "category": "Hostile strings: < > & & ]]> {a} ~b =c #d :e",
    "choice name": "Choice < > & &",
    "choice questiontext": ("plain_text", "Is < > or & & right?"),
    "choice generalfeedback": ("plain_text", "General < > & & ]]> {a} ~b =c #d :e \\f"),
    "choice answer 1": ("plain_text", "<b> <i>"),
    "choice answer 1 feedback": ("plain_text", "Option feedback & & ]]>"),
    "choice answer 2": ("html", RING),
    "choice answer 2 feedback": ("html", "<code>&lt;b&gt;</code> <code>&lt;i&gt;</code> &amp; &amp;"),
    "choice answer 3": ("html", '<span lang="fr">Le &lt; &gt; &amp; &amp; en français</span>'),
    "choice answer 3 feedback": ("plain_text", "Half < >"),
    "choice answer 4": ("plain_text", "{a} ~b =c #d :e \\f"),
    "responses questiontext": ("html", "<p>" + RING + " &amp; &lt;b&gt; &lt;i&gt;</p>"),
    "responses generalfeedback": ("html", "<p>" + RING + "</p>"),
    "responses answer 1": ("plain_text", "< >"),
    "responses answer 1 feedback": ("plain_text", "& &"),
    "responses answer 2": ("plain_text", "& &"),
    "responses answer 3": ("html", '<span lang="nl">&lt;b&gt; &lt;i&gt;</span>'),
    "responses answer 3 feedback": ("plain_text", "Niet < > & &"),
    "truth questiontext": ("plain_text", "True < > & &?"),
    "truth generalfeedback": ("plain_text", "General <b> <i>"),
    "truth answer 1 feedback": ("plain_text", "True feedback < > & &"),
    "truth answer 2 feedback": ("html", RING),
    "short questiontext": ("plain_text", "Type < > & &"),
    "short answer 1": "< > & &",
    "short answer 1 feedback": ("plain_text", "Answer feedback < > & &"),
    "short answer 2": "a <b> <i> \\*star\\*",
    "short answer 2 feedback": ("html", RING),
    "range questiontext": ("plain_text", "A number between 0.1 and 0.3 (< > & &)"),
    # In doubles these are 0.2 ± 0.09999999999999998, 0.44999999999999996 ± 0.25, 1.2000000000000002 ± ...
    "range answer 1": "0.2", "range tolerance 1": "0.1",
    "range answer 2": "0.45", "range tolerance 2": "0.25",
    "range answer 3": "1.2", "range tolerance 3": "0.1",
    "range answer 1 feedback": ("plain_text", "Range feedback < > & &"),
    "pairs questiontext": ("plain_text", "Match < > & &"),
    "pairs generalfeedback": ("plain_text", "General < > & &"),
    "pairs pair 1": ("plain_text", "Prompt < > & &"), "pairs pair 1 answer": "Answer <b> <i>",
    "pairs pair 2": ("html", RING), "pairs pair 2 answer": "& & ]]>",
    "pairs pair 3 answer": "Extra < > & &",
    "essay questiontext": ("plain_text", "Write < > & &"),
    "essay generalfeedback": ("plain_text", "General < > & &"),
    "wolof questiontext": ("html", '<div lang="wo"><p>Ndax &lt; &gt; walla &amp; &amp; baax na?</p></div>'),
    "wolof answer 1": ("html", '<span lang="wo">Waaw &lt; &gt;</span>'),
    "wolof answer 2": ("html", '<span lang="fr">Deedeet &amp; &amp;</span>'),
    "intro questiontext": ("html", "<p>" + RING + " &amp; <code>&lt;b&gt; &lt;i&gt;</code></p>"),
}
# What only Moodle XML carries.
HOSTILE_EXACT_XML = {
    "category info": ("html", '<div lang="en"><p class="quiz-description">Is &lt; &gt; or &amp; &amp; right? &lt;b&gt; &lt;i&gt;</p>\n'
                              '<p class="quiz-level">Level &lt; &gt; &amp; &amp;</p>\n'
                              '<p class="quiz-learning-path">Path &lt;b&gt; &lt;i&gt;</p></div>'),
    "choice correctfeedback": ("plain_text", "Correct < > & &"),
    "choice partiallycorrectfeedback": ("html", "<p>" + RING + "</p>"),
    "choice incorrectfeedback": ("plain_text", "Incorrect <b> <i>"),
    "responses correctfeedback": ("plain_text", "All < > & &"),
    "responses partiallycorrectfeedback": ("plain_text", "Some < > & &"),
    "responses incorrectfeedback": ("plain_text", "None < > & &"),
    "pairs correctfeedback": ("plain_text", "Matched < > & &"),
    "essay graderinfo": ("plain_text", "Grader < > & & ]]>"),
    "essay responsetemplate": ("html", "<p>Template &lt;b&gt; &lt;i&gt; &amp; &amp;</p>"),
}


def stored_strings(stored: Stored) -> dict[str, object]:
    """Every stored string of a quiz under a readable key."""
    flat: dict[str, object] = {}
    for path, info in stored.categories.items():
        if path.count("/") == 4:  # $context$/top/Tests/Hostile & strings/<title>
            flat["category"] = path.rsplit("/", 1)[1]
            flat["category info"] = info
    for qid, question in stored.questions.items():
        flat[f"{qid} name"] = question.name
        for tag, (fmt, text, _) in question.fields.items():
            flat[f"{qid} {tag}"] = (fmt, text)
        for i, answer in enumerate(question.answers, 1):
            plain = question.qtype in ("shortanswer", "numerical")
            flat[f"{qid} answer {i}"] = answer["text"] if plain else (answer["format"], answer["text"])
            flat[f"{qid} answer {i} feedback"] = answer["feedback"][:2]
            if answer["tolerance"] is not None:
                flat[f"{qid} tolerance {i}"] = answer["tolerance"]
        for i, (fmt, text, answer) in enumerate(question.subquestions, 1):
            flat[f"{qid} pair {i}"] = (fmt, text)
            flat[f"{qid} pair {i} answer"] = answer
    return flat


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("version", VERSIONS)
def test_hostile_strings_arrive_character_for_character(imported, version, fmt):
    _, stored = imported(version, DATA / "hostile_strings.json", fmt)
    flat = stored_strings(stored)
    expected = HOSTILE_EXACT | (HOSTILE_EXACT_XML if fmt == "xml" else {})
    wrong = {key: flat.get(key) for key, value in expected.items() if flat.get(key) != value}
    assert not wrong, "\n".join(f"{key}: Moodle stored {got!r}, expected {expected[key]!r}" for key, got in wrong.items())


@pytest.mark.parametrize("version", VERSIONS)
def test_answers_differing_only_in_case_reach_moodle_once_with_the_best_credit(moodle_sites, tmp_path, version):
    """Moodle's GIFT import stores every answer, not case-sensitive, and grades a response by the
    first answer that matches it without case: written both, 'a' (50%) before 'A' (100%) would
    give 'A' half. The writer writes 'A' alone, and Moodle stores it with its feedback."""
    target = tmp_path / "twins.gift.txt"
    target.write_bytes(gift.render(load_quiz(DATA / "case_twins.json").quiz, ExportOptions()).data)
    stored = moodle_sites(version).import_file(target, "gift")
    assert not stored.report["errors"], stored.report["errors"]
    assert {qid: (q.qtype, q.settings.get("usecase")) for qid, q in stored.questions.items()} == {
        "word": ("shortanswer", "0"), "gap": ("shortanswer", "0")}
    answers = {qid: [(a["text"], a["fraction"], a["feedback"][1]) for a in q.answers] for qid, q in stored.questions.items()}
    assert answers == {"word": [("A", 1.0, "upper"), ("B", 1.0, "")], "gap": [("A", 1.0, "")]}


CLOZE_BACKSLASHES = {"id": "cloze-backslashes", "title": "Cloze backslashes", "language": "en", "questions": [
    {"id": "gap", "type": "fill_in_blanks", "stem": "Type [[x]] or pick [[y]]", "blanks": [
        {"id": "x", "type": "short_answer", "answers": [
            {"text": "a\\#b", "feedback": "f\\#g \\\\}"}, {"text": "c\\}d", "credit": 0.5}, {"text": "e\\\\#f", "credit": 0}]},
        {"id": "y", "type": "dropdown", "options": [{"id": "o1", "text": "p\\#q", "correct": True}, {"id": "o2", "text": "r\\}s"}]}]}]}


def test_moodles_cloze_parser_keeps_a_backslash_before_a_hash_or_a_brace(moodle_sites, tmp_path):
    """Moodle decodes a cloze alternative's character references and then undoes '\\#' and '\\}':
    the writer gives a backslash before '#' or '}' one more to take. Moodle's own parser
    (qtype_multianswer_extract_question) on the text written gives each answer and feedback back."""
    from lmsexport.canonical import build_quiz

    quiz = build_quiz(CLOZE_BACKSLASHES, "cloze-backslashes.json")
    data = moodle_xml.render(quiz, ExportOptions()).data
    target = tmp_path / "cloze.xml"
    target.write_bytes(data)
    site = moodle_sites("4.5")
    stored = site.import_file(target, "xml")  # imports cleanly, and leaves the site's database running
    assert not stored.report["errors"], stored.report["errors"]
    text = tmp_path / "questiontext.html"
    text.write_text(etree.fromstring(data).findtext(".//question[@type='cloze']/questiontext/text"), encoding="utf-8")
    env = dict(os.environ, MOODLE_HARNESS_DIR=str(site.state), MOODLE_HARNESS_QUIET="1", MOODLE_HARNESS_PGPORT=str(site.port))
    run = subprocess.run(["php", str(Path(__file__).with_name("moodle_cloze_probe.php")), site.source, str(text)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-2000:]
    shown = json.loads(run.stdout.strip().splitlines()[-1])
    assert shown == [[["a\\#b", 1.0, "f\\#g \\\\}"], ["c\\}d", 0.5, ""], ["e\\\\#f", 0.0, ""]], [["p\\#q", 1.0, ""], ["r\\}s", 0.0, ""]]]


def test_gift_names_and_category_paths_reach_moodle_as_the_import_reads_them(moodle_sites, tmp_path):
    """Placeholders and escapes in names, categories and sections: what Moodle's GIFT import
    stores is what `lmsexport import` reads from the same file (names with their placeholders
    made characters; category paths as written but for '&&092;', a backslash)."""
    from lmsexport.importers import import_data

    data = gift.render(load_quiz(DATA / "gift_names.json").quiz, ExportOptions()).data
    target = tmp_path / "names.gift.txt"
    target.write_bytes(data)
    stored = moodle_sites("4.5").import_file(target, "gift")
    assert not stored.report["errors"], stored.report["errors"]
    (imported,), _ = import_data(data, "names.gift.txt", "gift")
    quiz = imported.quiz
    assert sorted(q["name"] for q in stored.report["questions"]) == sorted(q.title or q.id for q in quiz.questions)
    path = "$course$/top/" + "/".join((*quiz.category, "T \\: &&058; \\ x"))  # the title as the category line gives it
    assert [c["path"] for c in stored.report["categories"]] == [path, path + "/" + quiz.sections[0].title]


def written_and_imported(moodle_sites, folder: Path, version: str, quiz: Quiz, fmt: str):
    """Write the quiz in one Moodle format ("xml" or "gift") and import the file into a site of
    that version, its database left running for queries: the export, the site and the report
    of what Moodle stored."""
    export = (moodle_xml if fmt == "xml" else gift).render(quiz, ExportOptions())
    assert not export.failed, [d.message for d in export.diagnostics if d.is_error]
    target = folder / export.filename
    target.write_bytes(export.data)
    site = moodle_sites(version)
    stored = site.import_file(target, fmt, keep=True)
    assert stored.report["ok"], stored.report["errors"]
    return export, site, stored.report


# Answers and feedback holding a backslash right before '#' or '}', which Moodle's cloze parser
# takes away after decoding ('\\#' -> '#'), and other runs of backslashes around them.
BACKSLASHED = ["a\\#b", "c\\}d", "x\\\\#y", "p\\}\\#q\\", "\\#\\#"]


@pytest.mark.parametrize("version", VERSIONS)
def test_a_backslash_before_a_hash_or_brace_in_a_cloze_answer_is_stored_as_written(moodle_sites, tmp_path, version):
    answers = [{"text": t, "credit": 1 if i == 0 else 0.5, "feedback": f"fb {t}"} for i, t in enumerate(BACKSLASHED)]
    options = [{"id": f"o{i}", "text": t, "correct": i == 0, "feedback": f"fb {t}"} for i, t in enumerate(BACKSLASHED)]
    quiz = quiz_of({"id": "cloze", "type": "fill_in_blanks", "stem": "Type [[typed]] and pick [[picked]].",
                    "blanks": [{"id": "typed", "type": "short_answer", "answers": answers},
                               {"id": "picked", "type": "dropdown", "options": options}]}, id="backslashes", title="Backslashes")
    _, site, report = written_and_imported(moodle_sites, tmp_path, version, quiz, "xml")
    (question,) = report["questions"]
    expected = [(t, 1.0 if i == 0 else 0.5, f"fb {t}") for i, t in enumerate(BACKSLASHED)]
    expected += [(t, 1.0 if i == 0 else 0.0, f"fb {t}") for i, t in enumerate(BACKSLASHED)]
    assert site.stored_answers(question["id"]) == expected


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("version", VERSIONS)
def test_a_section_of_drafts_leaves_no_category_and_the_others_intact(moodle_sites, tmp_path, version, fmt):
    # The quiz's other sections and questions are checked field by field by
    # test_moodle_stores_what_the_content_says (sections_with_drafts.json is one of its quizzes).
    quiz = load_quiz(DATA / "sections_with_drafts.json").quiz
    _, site, report = written_and_imported(moodle_sites, tmp_path, version, quiz, fmt)
    assert report["imported"] == 7  # the ten questions but the three drafts
    path = f"{CONTEXT[version]}/top/Distributed GPU training/Sections and a section of drafts"
    (own,) = [c for c in report["categories"] if c["path"] == path]
    assert own["questions"] == 2  # intro, outro
    # Written out by hand: w4 is a draft, and "Drafted for later" (d1, d2) is no category at all.
    assert site.subcategories(own["id"]) == [("Warm-up", 3), ("Pipeline parallelism", 2)]


@pytest.mark.parametrize("version", VERSIONS)
def test_a_no_break_space_at_an_end_of_a_drop_down_option_is_stored_and_read_back(moodle_sites, tmp_path, version):
    """Moodle's cloze parser keeps an option's white space (it trims nothing): a no-break space
    at either end of a drop-down option is stored as written, and the import reads it back."""
    from lmsexport.importers import import_data

    options = ["x\u00a0", "\u00a0y", "z \u00a0", "w\u00a0\u00a0v"]
    quiz = quiz_of({"id": "cloze", "type": "fill_in_blanks", "stem": "Pick [[picked]].", "blanks": [
        {"id": "picked", "type": "dropdown", "options": [{"id": f"o{i}", "text": t, "correct": i == 0} for i, t in enumerate(options)]}]},
        id="no-break", title="No-break")
    export, site, report = written_and_imported(moodle_sites, tmp_path, version, quiz, "xml")
    (question,) = report["questions"]
    assert [answer for answer, _, _ in site.stored_answers(question["id"])] == options
    (item,), _ = import_data(export.data, "quiz.xml", "moodle")
    assert [o.text for o in item.quiz.questions[0].blanks[0].options] == options


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("version", VERSIONS)
def test_an_option_at_99_9999_percent_is_a_second_right_answer_as_moodle_stores_and_grades_it(moodle_sites, tmp_path, version, fmt):
    """Moodle's import matches a fraction to its grade list within 1e-5: an option at 99.9999%
    is stored at 100% and its question engine grades it right. The import reads it so, and
    validate refuses a wrong option worth that much (tests/test_validate.py)."""
    from lmsexport.importers import import_data

    data = (b'<?xml version="1.0"?><quiz><question type="multichoice"><name><text>near</text></name>'
            b'<questiontext format="html"><text>Pick</text></questiontext><single>true</single>'
            b'<answer fraction="100" format="html"><text>A</text></answer>'
            b'<answer fraction="99.9999" format="html"><text>B</text></answer></question></quiz>')
    if fmt == "gift":
        data = b"::near:: Pick {\n\t=A\n\t~%99.9999%B\n}\n"
    target = tmp_path / ("near.xml" if fmt == "xml" else "near.gift.txt")
    target.write_bytes(data)
    site = moodle_sites(version)
    stored = site.import_file(target, fmt, keep=True)
    assert stored.report["ok"], stored.report["errors"]
    (question,) = stored.report["questions"]
    env = dict(os.environ, MOODLE_HARNESS_DIR=str(site.state), MOODLE_HARNESS_QUIET="1", MOODLE_HARNESS_PGPORT=str(site.port))
    run = subprocess.run(["php", str(Path(__file__).with_name("moodle_grade_probe.php")), site.source, str(question["id"])],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == [["A", 1, "gradedright"], ["B", 1, "gradedright"]]
    (item,), _ = import_data(data, target.name, "moodle" if fmt == "xml" else "gift")
    assert [c.correct for c in item.quiz.questions[0].choices] == [True, True]


# -- the quiz's language -------------------------------------------------------------------------

def _shown_category_description(site: MoodleSite, fmt: str, text: str) -> str:
    """What Moodle's question bank shows of a category's description: format_text of its info
    as qbank_managecategories' category list calls it, run by the site itself."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "info.json"
        source.write_text(json.dumps([text, {"html": 1, "plain_text": 2, "moodle_auto_format": 0, "markdown": 4}[fmt]]))
        env = dict(os.environ, MOODLE_HARNESS_DIR=str(site.state), MOODLE_HARNESS_PGPORT=str(site.port))
        run = subprocess.run(["php", str(Path(__file__).with_name("moodle_format_probe.php")), site.source, str(source)],
                             capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def _without_language(quiz: Quiz, fmt: str) -> bytes:
    """Our file as the writers wrote it before they stated the quiz's language: the category's
    info without its `<div lang>` (and a plain description alone as plain_text), the GIFT header
    without its `// language:` line."""
    data = (moodle_xml if fmt == "xml" else gift).render(quiz, ExportOptions(media_base_url=MEDIA_BASE if fmt == "gift" else None)).data
    if fmt == "gift":
        return data.replace(f"// language: {quiz.language}\n".encode(), b"", 1)
    # Edited as text: a parser would not give the rest of the file back byte for byte.
    opening = f'<info format="html">\n      <text><![CDATA[<div lang="{quiz.language}">'.encode()
    start = data.index(opening)
    end = data.index(b"</div>]]></text>", start)
    inner = data[start + len(opening):end]
    if re.fullmatch(rb'<div class="quiz-description">(.*)</div>', inner, re.S):
        return data[:start] + b'<info format="plain_text">\n      <text>' + moodle_character_data(quiz.description.source).encode() + \
            data[end + len(b"</div>]]>"):]
    middle = b"<![CDATA[" + inner + b"]]>" if inner else b""
    return data[:start] + b'<info format="html">\n      <text>' + middle + data[end + len(b"</div>]]>"):]


# A Wolof quiz with questions and an option in English and Wolof, and the hostile strings' quiz,
# whose info holds a description, level and learning path full of markup characters.
LANGUAGE_QUIZZES = [ROOT / "content/sequence-parallelism-ring-attention.json", DATA / "hostile_strings.json"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("path", LANGUAGE_QUIZZES, ids=lambda p: p.stem)
def test_the_quiz_language_changes_nothing_moodle_stores_of_the_questions(moodle_sites, tmp_path, version, fmt, path):
    """The `<div lang>` around the category's info and GIFT's `// language:` line change nothing of
    what Moodle stores of the questions: the file without them gives the same strings."""
    quiz = load_quiz(path).quiz
    site = moodle_sites(version)
    results = []
    for name, data in (("with", (moodle_xml if fmt == "xml" else gift).render(quiz, ExportOptions(
            media_base_url=MEDIA_BASE if fmt == "gift" else None)).data), ("without", _without_language(quiz, fmt))):
        target = tmp_path / f"{name}.{'xml' if fmt == 'xml' else 'gift.txt'}"
        target.write_bytes(data)
        stored = site.import_file(target, fmt)
        assert stored.report["ok"], stored.report["errors"]
        results.append(stored)
    with_language, without = (stored_strings(r) for r in results)
    with_language.pop("category info", None), without.pop("category info", None)
    assert with_language == without
    assert [q["qtype"] for q in results[0].report["questions"]] == [q["qtype"] for q in results[1].report["questions"]]


@pytest.mark.parametrize("version", VERSIONS)
def test_moodle_keeps_the_quiz_language_and_shows_the_category_description_as_before(moodle_sites, tmp_path, version):
    """Moodle stores the category's info as written, `<div lang>` included, and its question bank
    shows the same text as it showed of the info without it: nothing for a quiz without a
    description, the plain description alone as it showed it as plain text."""

    site = moodle_sites(version)
    plain = quiz_of({"id": "a", "type": "true_false", "stem": "Waar?", "answer": True}, id="plain", title="Plain", language="nl",
                    description="Twee  spaties, <b> & een\nregel")
    bare = quiz_of({"id": "a", "type": "true_false", "stem": "Waar?", "answer": True}, id="bare", title="Bare", language="wo")
    for quiz in (plain, bare, load_quiz(ROOT / "content/model-pipeline-parallelism.json").quiz):
        ours = tmp_path / f"{quiz.id}.xml"
        ours.write_bytes(moodle_xml.render(quiz, ExportOptions()).data)
        written = etree.fromstring(ours.read_bytes()).find("question[@type='category']/info")
        stored = site.import_file(ours, "xml")
        (info,) = [v for k, v in stored.categories.items() if k.endswith("/" + quiz.title)]
        assert info == (written.get("format"), written.findtext("text")), "Moodle changed the info"
        assert language_of(*info) == quiz.language
        before = etree.fromstring(_without_language(quiz, "xml")).find("question[@type='category']/info")
        shown = _shown_category_description(site, *info)
        shown_before = _shown_category_description(site, before.get("format"), before.findtext("text") or "")
        assert visible_html(shown) == visible_html(shown_before)
        if quiz is plain:  # the line break and both spaces shown, as Moodle showed the plain text
            text = [lxml_html.fragment_fromstring(h, create_parent="div").text_content().replace("\xa0", " ") for h in (shown, shown_before)]
            assert text[0] == text[1] == "Twee  spaties, <b> & een\nregel"


@pytest.mark.parametrize("version", VERSIONS)
def test_the_import_keeps_the_multilang_version_moodles_own_filter_shows(moodle_sites, version):
    """filter_multilang run by the site for a reader of each case's language, in the syntax the
    case is in (the old `<lang>` one as a site reads it before tool_multilangupgrade; spans alone
    as every site reads them since), against the version the import keeps."""
    from test_import_languages import FILTER_MULTILANG_CASES, OLD_SYNTAX_CASES
    from lmsexport.importers import multilang

    site = moodle_sites(version)
    needs_no_parent = [c for c in FILTER_MULTILANG_CASES if c[1] != "fr-CA" or "fr_ca" in c[0]]
    cases = [(text, language, "new") for text, language, _ in needs_no_parent]
    cases += [(text, language, "old" if "<lang" in text.lower() else "new") for text, language, _ in OLD_SYNTAX_CASES]
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "cases.json"
        source.write_text(json.dumps([(text, language.lower().replace("-", "_"), syntax) for text, language, syntax in cases]))
        env = dict(os.environ, MOODLE_HARNESS_DIR=str(site.state), MOODLE_HARNESS_PGPORT=str(site.port))
        run = subprocess.run(["php", str(Path(__file__).with_name("moodle_multilang_probe.php")), site.source, str(source)],
                             capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    shown = json.loads(run.stdout)
    assert len(shown) == len(cases) > 10
    assert [multilang.select(text, language)[0] for text, language, _ in cases] == shown

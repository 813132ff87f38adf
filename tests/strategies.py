"""Hypothesis strategies: arbitrary valid quizzes, in the schema's own vocabulary, with hostile
text, numbers, credits, ids and metadata; and invalid documents, one defect each.

`hostile_cases` names the hostile features a generated document has; `tests/strategy_stats.py`
prints how often each is generated and a test fails when one never is.
"""

from __future__ import annotations

import copy
import json
import re

from hypothesis import strategies as st

from lmsexport.checks.blank import is_blank
from lmsexport.model import Text, TextFormat
from lmsexport.text import formula_problems

import construct_strategies as constructs

# Pieces that break naive writers: GIFT's specials, XML's, CDATA's end, quotes, emoji,
# combining marks, right-to-left text, Wolof and Dutch letters, entities next to spaces,
# blank lines and every kind of line break, Markdown markup, formulas and media.
HOSTILE = [
    "~", "=", "#", "{", "}", ":", "\\", "]]>", "&", "<", ">", "<script>alert(1)</script>", '"', "'",
    "🚀", "👩🏽‍💻", "e\u0301", "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627", "ñ", "ë", "à", "ŋ",
    "%50%", "->", "####", "//", "$CATEGORY:", "[html]", "::", "\t", "&amp;", "&#x41;", "@@PLUGINFILE@@",
    "*", "_", "`", "|", "-", "1.", " ", "& <", "< >", "<b> <i>", "&amp; &lt;", "a  b", "\n\n", "\r\n", "\r",
    "**ring** *attention*", "$x^2$", "\\(a+b\\)", "&&058;", "\u00a0",
]
# Media files that tests copy beside a generated quiz (tests/data/media/media).
MEDIA = ["![a ring of four GPUs](media/ring.png)", "![a bubble](media/bubble.svg)", "![a short clip](media/clip.mp3)"]
SEPARATORS = [" ", "", "\n", "\n\n", "\r\n", "\r\n\r\n", "\r", "  "]

_letters = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp", "Co", "Cn")), min_size=1, max_size=12)
_fragment = st.one_of(st.sampled_from(HOSTILE), _letters)
_line_fragment = st.one_of(st.sampled_from([h for h in HOSTILE if "\n" not in h and "\r" not in h]), _letters)


@st.composite
def hostile_text(draw, min_words: int = 1, max_words: int = 8, newlines: bool = True) -> str:
    """Text with at least one visible character and hostile fragments; may span lines."""
    words = draw(st.lists(_fragment if newlines else _line_fragment, min_size=min_words, max_size=max_words))
    separator = draw(st.sampled_from(SEPARATORS if newlines else [" ", "", "  "]))
    text = separator.join(words)
    if not text.strip():
        text = "x" + text
    return text


def single_line(max_words: int = 6):
    return hostile_text(max_words=max_words, newlines=False)


@st.composite
def rich(draw, markdown_allowed: bool = True, media: bool = True):
    text = draw(hostile_text())
    markdown = markdown_allowed and draw(st.booleans())
    if markdown and media and draw(st.integers(0, 5)) == 0:
        text = draw(st.sampled_from(MEDIA)) + draw(st.sampled_from([" ", "\n\n"])) + text
    if formula_problems(Text(text, TextFormat.MARKDOWN)):  # a formula MathML cannot carry is invalid
        text = text.replace("$", "S").replace("\\", "/")
    if is_blank(Text(text, TextFormat.MARKDOWN)):  # as Markdown, markup alone ("#", "- ") shows nothing: invalid
        text = "x" + text
    if markdown:
        return {"text": text, "format": "markdown"}
    return text


@st.composite
def maybe(draw, strategy):
    return draw(strategy) if draw(st.booleans()) else None


def _drop_none(d: dict) -> dict:
    return {k: v for k, v in d.items() if v is not None}


LANGUAGES = ["en", "wo", "nl", "fr", "ar", "he", "pt-BR"]
# Identifiers that exports also use for their own parts (QTI's variables and feedback, Canvas's
# feedback idents, file names in a package), in both cases.
RESERVED_IDS = ["RESPONSE", "SCORE", "MAXSCORE", "FEEDBACK", "general_feedback", "general_fb", "correct_fb",
                "general_incorrect_fb", "test", "items", "imsmanifest", "media", "option_a_feedback", "TF", "true",
                "false", "Response", "score", "x" * 64]
# Credits Moodle accepts exactly, in the splits multiple response allows (the correct ones add up to 1).
CREDIT_SPLITS = {1: [[1.0]], 2: [[0.5, 0.5], [0.7, 0.3], [0.6, 0.4]], 3: [[0.5, 0.25, 0.25], [0.5, 0.3, 0.2], [1 / 3] * 3],
                 4: [[0.25] * 4, [0.4, 0.3, 0.2, 0.1]], 5: [[0.2] * 5]}
WRONG_CREDITS = [0.0, -0.1, -0.25, -1 / 3, -0.5, -1.0]
PARTIAL_CREDITS = [0.5, 0.25, 0.0, 0.9, 0.1, -0.5, -1.0]
EXTREME_NUMBERS = [0.0, -0.0, 1e-300, 5e-324, 1.7976931348623157e308, -1.7976931348623157e308, 1e15 + 0.3, 0.1 + 0.2,
                   1 / 3, 123456.789012345, -98765.4321, 2 ** 53 + 1.0, 1e21]


def _other_case(identifier: str, how: int) -> str:
    return (identifier.upper(), identifier.swapcase(), identifier.capitalize())[how]


def _ids(draw, prefix: str, n: int) -> list[str]:
    """n ids unique ignoring case (the loader refuses two that differ only by case); some reserved
    words, some colliding with another id's prefix, some case-colliding: in another case than a
    reserved word ("IMSMANIFEST", "Test") or than the same place's id in a sibling question ("O1"
    beside another question's "o1"), which a case-insensitive platform or file system would merge."""
    pool = [f"{prefix}{i}" for i in range(n)]
    ids: list[str] = []
    for i in range(n):
        pick = draw(st.integers(0, 7))
        if pick < 2:
            candidate = draw(st.sampled_from(RESERVED_IDS))
        elif pick == 2:
            candidate = _other_case(draw(st.sampled_from([pool[i], *RESERVED_IDS])), draw(st.integers(0, 2)))
        else:
            candidate = pool[i]
        if candidate.lower() in {x.lower() for x in ids}:
            candidate = pool[i]
        if candidate.lower() in {x.lower() for x in ids}:
            candidate = f"{prefix}{i}_{len(ids)}"
        ids.append(candidate)
    return ids


def _number(draw) -> float:
    return draw(st.one_of(st.sampled_from(EXTREME_NUMBERS), st.floats(-1e300, 1e300, allow_nan=False),
                          st.floats(-1e6, 1e6, allow_nan=False), st.integers(-10**6, 10**6)))


@st.composite
def choice_question(draw, qid: str, multiple: bool):
    n = draw(st.integers(min_value=2, max_value=5))
    correct = sorted(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n if multiple else 1, unique=True)))
    explicit = multiple and draw(st.booleans())
    split = draw(st.sampled_from(CREDIT_SPLITS[len(correct)])) if explicit else None
    options = []
    for i, option_id in enumerate(_ids(draw, "o", n)):
        option = _drop_none({
            "id": option_id, "text": draw(rich()), "feedback": draw(maybe(rich())),
            "pinned": True if draw(st.integers(0, 5)) == 0 else None,
            "language": draw(st.sampled_from(LANGUAGES)) if draw(st.integers(0, 4)) == 0 else None,
        })
        if i in correct:
            option["correct"] = True
            if explicit:
                option["credit"] = split[correct.index(i)]
        elif explicit:
            option["credit"] = draw(st.sampled_from(WRONG_CREDITS))
        elif not multiple and draw(st.booleans()):
            option["credit"] = draw(st.sampled_from(PARTIAL_CREDITS))
        options.append(option)
    return {"type": "multiple_response" if multiple else "single_choice", "options": options,
            "shuffle": draw(st.booleans())}


@st.composite
def numerical_answers(draw):
    answers = []
    for i in range(draw(st.integers(1, 3))):
        credit = None if i == 0 else draw(st.sampled_from([0.5, 0.25, 0.1]))
        if draw(st.booleans()):
            tolerance = draw(st.one_of(st.sampled_from([0, 0.5, 2, 1e-9, 0.001, 1234.5678]), st.floats(0, 1e6)))
            answers.append(_drop_none({"value": _number(draw), "tolerance": tolerance, "credit": credit,
                                       "feedback": draw(maybe(rich()))}))
        else:
            low = _number(draw)
            width = draw(st.one_of(st.sampled_from([0, 0.1, 1e-7, 50]), st.floats(0, 1e6)))
            high = low + width
            if high in (float("inf"), float("-inf")):
                low, high = -width, width
            answers.append(_drop_none({"min": low, "max": high, "credit": credit, "feedback": draw(maybe(rich()))}))
    return answers


def _tags(draw):
    return draw(st.lists(single_line(3).map(lambda t: t.replace(",", ";")), max_size=3, unique=True)) or None


KINDS = ["single_choice", "multiple_response", "true_false", "short_answer", "numerical", "matching", "essay", "description"]
NEW_KINDS = ["ordering", "fill_in_blanks"]


@st.composite
def question(draw, qid: str, kinds: tuple[str, ...] = (*KINDS, *NEW_KINDS), markdown: bool = False):
    """A question of one of `kinds`; `markdown`: the quiz's texts are Markdown by default."""
    kind = draw(st.sampled_from(kinds))
    common = _drop_none({
        "id": qid, "stem": draw(rich()), "title": draw(maybe(single_line())),
        "points": draw(st.sampled_from([1, 2, 0.5, 3, 0.1, 12.345678, 1e6, 0])) if kind != "description" else None,
        "penalty": draw(st.sampled_from([0, 0.1, 0.25, 0.3333333, 0.5, 1])) if kind != "description" and draw(st.booleans()) else None,
        "explanation": draw(maybe(rich())),
        "language": draw(st.sampled_from(LANGUAGES)) if draw(st.integers(0, 3)) == 0 else None,
        "tags": _tags(draw) if draw(st.integers(0, 2)) == 0 else None,
    })
    if kind in ("single_choice", "multiple_response", "short_answer", "numerical", "matching", *NEW_KINDS) and draw(st.booleans()):
        common["feedback"] = _drop_none({"correct": draw(maybe(rich())), "incorrect": draw(maybe(rich())),
                                         "partially_correct": draw(maybe(rich()))})
    if kind in ("single_choice", "multiple_response"):
        body = draw(choice_question(qid, kind == "multiple_response"))
    elif kind == "true_false":
        body = _drop_none({"answer": draw(st.booleans()), "true_feedback": draw(maybe(rich())), "false_feedback": draw(maybe(rich()))})
    elif kind == "short_answer":
        texts = draw(st.lists(single_line(3), min_size=1, max_size=3, unique_by=lambda t: t.casefold()))
        answers = [_drop_none({"text": t, "credit": None if i == 0 else draw(st.sampled_from([0.5, 0.25, 0.1])), "feedback": draw(maybe(rich()))}) for i, t in enumerate(texts)]
        body = {"answers": answers, "case_sensitive": draw(st.booleans())}
    elif kind == "numerical":
        body = {"answers": draw(numerical_answers())}
    elif kind == "matching":
        n = draw(st.integers(2, 4))
        prompts = draw(st.lists(rich(), min_size=n, max_size=n, unique_by=lambda t: t if isinstance(t, str) else t["text"]))
        answers = draw(st.lists(single_line(3), min_size=n + 1, max_size=n + 1, unique=True))
        ids = _ids(draw, "p", n + 1)
        body = {"pairs": [{"id": ids[i], "prompt": prompts[i], "answer": answers[i]} for i in range(n)]}
        if draw(st.booleans()):
            body["distractors"] = [{"id": ids[n], "text": answers[n]}]
    elif kind == "essay":
        body = _drop_none({"grader_info": draw(maybe(rich())), "response_template": draw(maybe(single_line()))})
    elif kind == "ordering":
        body = draw(constructs.ordering_body())
    elif kind == "fill_in_blanks":
        stem = common["stem"]  # its format is kept, its text holds the blanks
        body = draw(constructs.fill_in_blanks_body(markdown=isinstance(stem, dict) or markdown))
        if "points" in body or "points" in body["blanks"][0]:
            common.pop("points", None)  # the blanks' points say it (and the question's, when given, is their sum)
        common["stem"] = {**stem, "text": body.pop("stem")} if isinstance(stem, dict) else body.pop("stem")
    else:
        body = {}
    return {**common, "type": kind, **body}


def ordering_question(qid: str = "q"):
    return question(qid, kinds=("ordering",))


def fill_in_blanks_question(qid: str = "q", markdown: bool = False):
    return question(qid, kinds=("fill_in_blanks",), markdown=markdown)


# A '/' is a separator in Moodle's category paths: the quiz title becomes the last category.
_SLASHED_TITLES = ["a/b", "/lead", "trail/", "a//b", "/"]


@st.composite
def quiz(draw, max_questions: int = 6, new_types: bool = True, include: tuple[str, ...] = ()):
    """A valid quiz; with `new_types`, ordering and fill-in-the-blanks questions and sections too;
    `include`: types it holds at least one question of, each placed anywhere in the quiz."""
    n = draw(st.integers(1, max_questions))
    ids = _ids(draw, "q", n)
    text_format = draw(st.sampled_from(["plain", "markdown"]))
    kinds = (*KINDS, *NEW_KINDS) if new_types else tuple(KINDS)
    questions = [draw(question(qid, kinds=kinds, markdown=text_format == "markdown")) for qid in ids]
    for kind in include:
        where = draw(st.integers(0, len(questions)))
        questions.insert(where, draw(question(f"{kind}-{len(questions)}", kinds=(kind,), markdown=text_format == "markdown")))
    n = len(questions)
    drafts = draw(st.lists(st.booleans(), min_size=n, max_size=n)) if n > 1 and draw(st.booleans()) else [False] * n
    drafts[draw(st.integers(0, n - 1))] = False  # at least one question is exported
    for q, draft in zip(questions, drafts):
        if draft:
            q["draft"] = True
    layout = draw(constructs.sections(questions)) if new_types else None
    title = draw(single_line())
    if draw(st.integers(0, 3)) == 0:
        title = draw(st.sampled_from(_SLASHED_TITLES)) + " " + title
    # Outer white space in a category name is a known loss (Moodle trims it; the writers warn).
    category = draw(st.lists(single_line(3).map(lambda t: t.replace("/", "|").strip() or "x"), min_size=0, max_size=3)) or ["Generated", "Hostile"]
    return _drop_none({
        "id": "generated-quiz",
        "title": title,
        "description": draw(maybe(rich())),
        "language": draw(st.sampled_from(LANGUAGES)),
        "level": draw(maybe(single_line(3))),
        "difficulty": draw(maybe(st.sampled_from(["easy", "medium", "hard"]))),
        "category": category,
        "tags": _tags(draw) if draw(st.integers(0, 2)) == 0 else None,
        "text_format": text_format,
        "questions": questions,
        "sections": layout,
    })


# --- invalid documents: a valid quiz with one defect the schema forbids --------------------------

def _first(data: dict, kind: str | None = None) -> dict | None:
    return next((q for q in data["questions"] if kind is None or q["type"] == kind), None)


def _dropdown(data: dict) -> dict:
    """The first drop-down blank (the first question with blanks may have none: a generated one)."""
    return next(b for q in data["questions"] if q["type"] == "fill_in_blanks" for b in q["blanks"] if b["type"] == "dropdown")


def _corruptions(data: dict) -> list[tuple[str, callable]]:
    """(name, change) pairs that apply to this quiz; each change makes it invalid."""
    found = [
        ("quiz without id", lambda d: d.pop("id")),
        ("quiz without title", lambda d: d.pop("title")),
        ("quiz without questions", lambda d: d.pop("questions")),
        ("quiz id not a slug", lambda d: d.update(id="Not A Slug")),
        ("quiz id too long", lambda d: d.update(id="x" * 81)),
        ("unknown quiz property", lambda d: d.update(colour="red")),
        ("empty title", lambda d: d.update(title="")),
        ("language not a string", lambda d: d.update(language=12)),
        ("category holding a slash", lambda d: d.update(category=["a/b"])),
        ("duplicate tags", lambda d: d.update(tags=["t", "t"])),
        ("tag holding a comma", lambda d: d.update(tags=["a,b"])),
        ("unknown difficulty", lambda d: d.update(difficulty="trivial")),
        ("unknown text format", lambda d: d.update(text_format="rst")),
        ("unknown question type", lambda d: _first(d).update(type="cloze")),
        ("question without stem", lambda d: _first(d).pop("stem")),
        ("question id not an identifier", lambda d: _first(d).update(id="1 bad")),
        ("negative points", lambda d: _first(d).update(points=-1)),
        ("points as a string", lambda d: _first(d).update(points="1")),
        ("penalty above 1", lambda d: _first(d).update(penalty=1.5)),
        ("unknown question property", lambda d: _first(d).update(hint="x")),
        ("empty stem", lambda d: _first(d).update(stem="")),
        ("text of unknown format", lambda d: _first(d).update(stem={"text": "x", "format": "rst"})),
        ("text object without text", lambda d: _first(d).update(stem={"format": "markdown"})),
        ("draft not a boolean", lambda d: _first(d).update(draft="yes")),
    ]
    if _first(data, "single_choice") or _first(data, "multiple_response"):
        choice = lambda d: _first(d, "single_choice") or _first(d, "multiple_response")  # noqa: E731
        found += [("credit above 1", lambda d: choice(d)["options"][0].update(credit=1.5)),
                  ("credit below -1", lambda d: choice(d)["options"][0].update(credit=-2)),
                  ("option without text", lambda d: choice(d)["options"][0].pop("text"))]
    if _first(data, "numerical"):
        found += [("value and range together", lambda d: _first(d, "numerical")["answers"][0].update(value=1, min=0, max=2)),
                  ("negative tolerance", lambda d: _first(d, "numerical")["answers"].__setitem__(0, {"value": 1, "tolerance": -1}))]
    if _first(data, "true_false"):
        found.append(("true/false answer not a boolean", lambda d: _first(d, "true_false").update(answer="yes")))
    if _first(data, "ordering"):
        ordering = lambda d: _first(d, "ordering")  # noqa: E731
        found += [("unknown grading", lambda d: ordering(d).update(grading="by_hand")),
                  ("unknown layout", lambda d: ordering(d).update(layout="diagonal")),
                  ("ordering of one item", lambda d: ordering(d).update(items=ordering(d)["items"][:1])),
                  ("ordering item without text", lambda d: ordering(d)["items"][0].pop("text"))]
    if _first(data, "fill_in_blanks"):
        blanks = lambda d: _first(d, "fill_in_blanks")["blanks"]  # noqa: E731
        found += [("blank of unknown type", lambda d: blanks(d)[0].update(type="essay")),
                  ("question without blanks", lambda d: _first(d, "fill_in_blanks").update(blanks=[])),
                  ("blank id not an identifier", lambda d: blanks(d)[0].update(id="1 b")),
                  ("negative blank points", lambda d: blanks(d)[0].update(points=-1)),
                  ("drop-down of one option", lambda d: _dropdown(d).update(options=_dropdown(d)["options"][:1]))]
    if data.get("sections"):
        found += [("section without questions", lambda d: d["sections"][0].update(questions=[])),
                  ("draw of none", lambda d: d["sections"][0].update(pick=0)),
                  ("section without title", lambda d: d["sections"][0].pop("title")),
                  ("same question twice in a section", lambda d: d["sections"][0].update(questions=["a", "a"]))]
    return found


# Questions every defect can be made in, added to the generated ones.
_DEFECT_TARGETS = [
    {"id": "target-choice", "type": "single_choice", "stem": "s", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]},
    {"id": "target-number", "type": "numerical", "stem": "s", "answers": [{"value": 1}]},
    {"id": "target-true-false", "type": "true_false", "stem": "s", "answer": True},
    {"id": "target-ordering", "type": "ordering", "stem": "s", "items": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}]},
    {"id": "target-blanks", "type": "fill_in_blanks", "stem": "[[d]]", "blanks": [
        {"id": "d", "type": "dropdown", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B"}]}]},
]
_DEFECT_SECTION = {"id": "target-section", "title": "S", "questions": ["target-choice"]}
DEFECTS = [name for name, _ in _corruptions({"questions": _DEFECT_TARGETS, "sections": [_DEFECT_SECTION]})]


@st.composite
def invalid_quiz(draw, defect: str | None = None):
    """A generated quiz with one defect the schema forbids (`defect`, or any), and that defect's name."""
    data = copy.deepcopy(draw(quiz(max_questions=3)))
    if draw(st.booleans()):
        data["questions"] = copy.deepcopy(_DEFECT_TARGETS) + data["questions"]
    else:
        data["questions"] += copy.deepcopy(_DEFECT_TARGETS)
    # The target section first: no generated section may hold its question as well.
    kept = [s for s in data.get("sections") or [] if "target-choice" not in s["questions"]]
    data["sections"] = [copy.deepcopy(_DEFECT_SECTION), *kept]
    name = defect or draw(st.sampled_from(DEFECTS))
    dict(_corruptions(data))[name](data)
    return name, data


# --- what is hostile in a document ------------------------------------------------------------

HOSTILE_CASES = [
    "blank line", "CRLF", "lone CR", "double space", "entities next to spaces", "CDATA end", "GIFT special",
    "Markdown text", "formula", "media", "number beyond 1e6", "number with more than 3 decimals",
    "explicit multiple-response credits", "unequal credits", "negative credit", "partial single-choice credit",
    "question tags", "quiz tags", "draft", "penalty", "category path", "title with a slash", "reserved id",
    "'->' in a text", "'->' in a short answer", "Moodle placeholder", "other language", "zero points",
    "case-colliding ids", *constructs.CONSTRUCT_CASES,
]
_RESERVED_FOLDED = {r.lower() for r in RESERVED_IDS}
_DECIMALS = re.compile(r"\.\d{4,}")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _numbers(value, key=""):
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _numbers(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _numbers(v, key)


def _all_ids(value):
    """Every id in a document: the quiz's, its questions', options', pairs', items', blanks', sections'."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            yield value["id"]
        for v in value.values():
            yield from _all_ids(v)
    elif isinstance(value, list):
        for v in value:
            yield from _all_ids(v)


def case_colliding(ids) -> bool:
    """Two different ids that are the same ignoring case, or an id that is a reserved word
    (an export's own part) in another case."""
    distinct = set(ids)
    return len({i.lower() for i in distinct}) < len(distinct) or any(
        i.lower() in _RESERVED_FOLDED and i not in RESERVED_IDS for i in distinct)


def hostile_cases(data: dict) -> set[str]:
    """The names (from HOSTILE_CASES) of the hostile features a quiz document has."""
    found = constructs.construct_cases(data)
    if case_colliding(_all_ids(data)):
        found.add("case-colliding ids")
    text = "\x00".join(_strings(data))
    checks = {
        "blank line": "\n\n" in text.replace("\r\n", "\n").replace("\r", "\n"), "CRLF": "\r\n" in text,
        "lone CR": re.search("\r(?!\n)", text) is not None, "double space": "  " in text,
        "entities next to spaces": re.search(r"[&<>] [&<>]", text) is not None, "CDATA end": "]]>" in text,
        "GIFT special": re.search(r"[~=#{}:]", text) is not None, "'->' in a text": "->" in text,
        "formula": "$x^2$" in text or "\\(a+b\\)" in text, "media": "](media/" in text,
        "Moodle placeholder": "&&058;" in text, "title with a slash": "/" in data.get("title", ""),
        "category path": bool(data.get("category")), "quiz tags": bool(data.get("tags")),
    }
    found |= {name for name, present in checks.items() if present}
    questions = [q for q in data.get("questions", []) if isinstance(q, dict)]
    for q in questions:
        if any(isinstance(t, dict) and t.get("format") == "markdown" for t in _texts(q)) or data.get("text_format") == "markdown":
            found.add("Markdown text")
        if q.get("tags"):
            found.add("question tags")
        if q.get("draft") is True:
            found.add("draft")
        if "penalty" in q:
            found.add("penalty")
        if q.get("points") == 0:
            found.add("zero points")
        if q.get("language") or any(isinstance(o, dict) and o.get("language") for o in q.get("options", [])):
            found.add("other language")
        ids = [q.get("id")] + [o.get("id") for o in q.get("options", []) + q.get("pairs", []) + q.get("distractors", []) if isinstance(o, dict)]
        if any(i in RESERVED_IDS for i in ids):
            found.add("reserved id")
        options = [o for o in q.get("options", []) if isinstance(o, dict)]
        credits = [o["credit"] for o in options if "credit" in o]
        if q.get("type") == "multiple_response" and any(o.get("correct") and "credit" in o for o in options):
            found.add("explicit multiple-response credits")
            if len({o["credit"] for o in options if o.get("correct")}) > 1:
                found.add("unequal credits")
        if q.get("type") == "single_choice" and any(not o.get("correct") and o.get("credit", 0) != 0 for o in options):
            found.add("partial single-choice credit")
        if any(isinstance(c, (int, float)) and c < 0 for c in credits):
            found.add("negative credit")
        if q.get("type") == "short_answer" and any("->" in a.get("text", "") for a in q.get("answers", [])):
            found.add("'->' in a short answer")
        if q.get("type") == "numerical":
            for _key, number in _numbers(q.get("answers", [])):
                if abs(number) > 1e6:
                    found.add("number beyond 1e6")
                if _DECIMALS.search(repr(float(number))) and "e" not in repr(float(number)):
                    found.add("number with more than 3 decimals")
    return found


def _texts(question: dict):
    for key in ("stem", "explanation"):
        if key in question:
            yield question[key]
    for option in question.get("options", []):
        if isinstance(option, dict):
            yield option.get("text")


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False)


# --- known hostile documents, run as explicit examples by every property ---------------------------

def _pinned_quiz(qid: str, questions: list[dict], **extra) -> dict:
    return {"id": qid, "title": extra.pop("title", qid), "language": "en", "text_format": extra.pop("text_format", "plain"),
            "questions": questions, **extra}


PINNED = [
    # '->' and Moodle's placeholders: refused in a GIFT short answer, carried everywhere else.
    _pinned_quiz("pinned-arrows", [
        {"id": "q0", "type": "short_answer", "stem": "a -> b", "answers": [{"text": "x -> y"}]},
        {"id": "q1", "type": "single_choice", "stem": "p -> q &&058;", "explanation": "-> &&092;",
         "options": [{"id": "a", "text": "->", "correct": True, "feedback": "a -> b"}, {"id": "b", "text": "<-"}]},
        {"id": "q2", "type": "matching", "stem": "Match ->", "pairs": [
            {"id": "p0", "prompt": "left -> right", "answer": "one"}, {"id": "p1", "prompt": "two", "answer": "a -> b"}]},
    ]),
    # Blank lines, every line break, entities between spaces, CDATA's end, Markdown beside them.
    _pinned_quiz("pinned-breaks", [
        {"id": "q0", "type": "single_choice", "stem": "Is < > or & & right?\r\n\r\nsecond ]]> para\rthird  line",
         "explanation": {"text": "**ring** *attention* &amp; &lt;\r\n\r\np2 <b> <i>", "format": "markdown"},
         "options": [{"id": "a", "text": "& <", "correct": True, "feedback": "<b> <i>\n\nnext"},
                     {"id": "b", "text": {"text": "a &amp; &lt; b", "format": "markdown"}},
                     {"id": "c", "text": "~\n\n\u00a0"}, {"id": "d", "text": "\u00a0\r\n\r\n~"}]},
        {"id": "q1", "type": "essay", "stem": "one\n\n\n\ntwo\n  indented", "response_template": "a  b & <"},
    ]),
    # Numbers at the ends of a double, below any rounding, and sums that are not what they look.
    _pinned_quiz("pinned-numbers", [
        {"id": "q0", "type": "numerical", "stem": "How much?", "points": 12.345678, "answers": [
            {"value": 1.7976931348623157e308, "tolerance": 0},
            {"min": -1e300, "max": 1e300, "credit": 0.5},
            {"value": 0.1 + 0.2, "tolerance": 1e-9, "credit": 0.25},
            {"value": 5e-324, "tolerance": 1234.5678, "credit": 0.1}]},
        {"id": "q1", "type": "numerical", "stem": "And?", "points": 0, "answers": [{"min": 123456.789012345, "max": 123456.789012346}]},
    ]),
    # Explicit, unequal and negative credits.
    _pinned_quiz("pinned-credits", [
        {"id": "q0", "type": "multiple_response", "stem": "Which?", "options": [
            {"id": "a", "text": "A", "correct": True, "credit": 0.7}, {"id": "b", "text": "B", "correct": True, "credit": 0.3},
            {"id": "c", "text": "C", "credit": -1 / 3}, {"id": "d", "text": "D", "credit": -1}]},
        {"id": "q1", "type": "single_choice", "stem": "One?", "options": [
            {"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "credit": 0.9}, {"id": "c", "text": "C", "credit": -0.5}]},
        {"id": "q2", "type": "short_answer", "stem": "Name?", "answers": [{"text": "full"}, {"text": "half", "credit": 0.5}]},
    ]),
    # Ids an export also uses for its own parts.
    _pinned_quiz("pinned-ids", [
        {"id": "RESPONSE", "type": "single_choice", "stem": "s", "options": [
            {"id": "general_fb", "text": "A", "correct": True, "feedback": "f"}, {"id": "correct_fb", "text": "B", "feedback": "g"},
            {"id": "FEEDBACK", "text": "C"}, {"id": "option_a_feedback", "text": "D"}, {"id": "a", "text": "E", "feedback": "h"}]},
        {"id": "SCORE", "type": "matching", "stem": "m", "pairs": [
            {"id": "RESPONSE", "prompt": "p", "answer": "x"}, {"id": "MAXSCORE", "prompt": "q", "answer": "y"}],
         "distractors": [{"id": "general_feedback", "text": "z"}]},
        {"id": "test", "type": "true_false", "stem": "t", "answer": False, "true_feedback": "no", "false_feedback": "yes"},
        {"id": "items", "type": "description", "stem": "d"},
    ]),
    # Ids that differ only by case across scopes (the options of two questions, an option and a
    # question, a section and a question), and export parts' names in another case: a
    # case-insensitive platform or file system would merge them.
    _pinned_quiz("pinned-case-ids", [
        {"id": "IMSMANIFEST", "type": "single_choice", "stem": "s", "options": [
            {"id": "A", "text": "A", "correct": True, "feedback": "f"}, {"id": "b", "text": "B", "feedback": "g"},
            {"id": "q1", "text": "C"}]},
        {"id": "Q1", "type": "multiple_response", "stem": "m", "options": [
            {"id": "a", "text": "a", "correct": True}, {"id": "B", "text": "b", "correct": True}, {"id": "Response", "text": "c"}]},
        {"id": "Test", "type": "matching", "stem": "m", "pairs": [
            {"id": "A", "prompt": "p", "answer": "x"}, {"id": "b", "prompt": "q", "answer": "y"}]},
        {"id": "Items", "type": "true_false", "stem": "t", "answer": True},
        {"id": "MEDIA", "type": "short_answer", "stem": "s", "answers": [{"text": "Ab"}]},
    ], sections=[{"id": "q1", "title": "S", "questions": ["Q1", "Test"]}, {"id": "imsmanifest", "title": "T", "questions": ["IMSMANIFEST"]}]),
    # Metadata: tags, a draft, penalties, media files, a title that Moodle's category path must escape.
    _pinned_quiz("pinned-metadata", [
        {"id": "q0", "type": "single_choice", "penalty": 0.25, "tags": ["t ~=#{}: ]] &", "שלום"],
         "stem": {"text": "![a ring of four GPUs](media/ring.png)\n\nWhich?", "format": "markdown"},
         "options": [{"id": "a", "text": {"text": "![a short clip](media/clip.mp3)", "format": "markdown"}, "correct": True},
                     {"id": "b", "text": "other"}]},
        {"id": "q1", "type": "essay", "stem": "draft", "draft": True},
        {"id": "q2", "type": "true_false", "stem": "t", "answer": True, "penalty": 1},
    ], title="a/b/ trail/", category=["x | y", "Top"], tags=["quiz ~tag", "x/y"], level="Niveau <b>2</b> & ]]>",
       difficulty="hard"),
    *constructs.PINNED,
]
PINNED_INVALID = [
    ("quiz id not a slug", {**PINNED[0], "id": "Not A Slug"}),
    ("credit above 1", _pinned_quiz("pinned-bad-credit", [
        {"id": "q0", "type": "single_choice", "stem": "s", "options": [
            {"id": "a", "text": "A", "correct": True, "credit": 1.5}, {"id": "b", "text": "B"}]}])),
]

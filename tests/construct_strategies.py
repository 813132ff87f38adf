"""Hypothesis strategies for the ordering and fill-in-the-blanks questions and for sections, in
the schema's own vocabulary, with what breaks their writers: Moodle's cloze specials in answers
and options, GIFT's specials, '[[' that is not a placeholder, placeholders in another order than
the blanks, every grading, blank kind and way of giving points, draws and drafts in sections.

`tests/strategies.py` puts them into every generated quiz (`quiz(new_types=False)` leaves them
out); `construct_cases` names the hostile features of one question or section for the statistics.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from lmsexport.model import Text, TextFormat
from lmsexport.text import MathStyle, RenderStyle, to_html

GRADINGS = ["all_or_nothing", "absolute_position", "relative_next_exclude_last", "relative_next_include_last",
            "relative_one_previous_and_next", "relative_all_previous_and_next", "longest_ordered_subset",
            "longest_contiguous_subset"]
# What ends, escapes or decodes inside a Moodle cloze sub-question ('}' '#' '~' end an answer, '\\'
# '&' '&amp;' before them do not, entities are decoded, '*' is a wildcard), GIFT's specials, and
# what a drop-down or a Canvas blank could mistake for markup.
CLOZE_SPECIALS = ["}", "#", "~", "/", '"', "\\"]
ANSWER_HOSTILE = [*CLOZE_SPECIALS, "\\}", "\\#", "\\~", "\\\\", "&", "&amp;", "&#126;", "&#125;", "&lt;b&gt;", "%50%",
                  "%", "=", ":", "*", "\\*", "{1:SHORTANSWER:=x}", "{", "R&", "x\\", "&~", "<b>", "->", "[html]",
                  "$CATEGORY:", "]]>", "'", "[", "]", "|", "🚀", "e\u0301", "\u05e9\u05dc\u05d5\u05dd", "ñ"]
# '[[' and ']]' that are no placeholder: a name that is not an identifier, a bracket short, spaces.
NOT_PLACEHOLDERS = ["[[", "]]", "[[ b ]]", "[[1]]", "[[]]", "[[b0]", "[b0]]", "[[-x]]", "[ [b0] ]", "\\[[", "[x]"]
# The specials alone as often as the rest together: each is then in some answer of most runs.
_answer_piece = st.deferred(lambda: st.one_of(st.sampled_from([*CLOZE_SPECIALS, "*", "&", "R&", "x\\"]), st.sampled_from(ANSWER_HOSTILE), base._letters))
_MATHML = RenderStyle(math=MathStyle.MATHML)
# How a test reads a placeholder: the README's `[[name]]`, a name being an identifier.
PLACEHOLDER = re.compile(r"\[\[([A-Za-z][A-Za-z0-9_-]*)\]\]")


@st.composite
def answer_text(draw) -> str:
    """One line with cloze and GIFT specials, sometimes one special alone or at the end."""
    pieces = draw(st.lists(_answer_piece, min_size=1, max_size=4))
    text = draw(st.sampled_from(["", " "])).join(pieces)
    return text if text.strip() else "x" + text


def _key(text: str, case_sensitive: bool = False) -> str:
    text = text.strip()
    return text if case_sensitive else text.casefold()


# --- ordering -----------------------------------------------------------------------------------

@st.composite
def ordering_body(draw) -> dict:
    n = draw(st.integers(2, 6))
    texts = draw(st.lists(base.rich(), min_size=n, max_size=n,
                          unique_by=lambda t: (t if isinstance(t, str) else t["text"]).strip()))
    ids = base._ids(draw, "i", n)
    body = {"items": [{"id": i, "text": t} for i, t in zip(ids, texts)]}
    if draw(st.integers(0, 4)) > 0:  # else Moodle's default, all or nothing
        body["grading"] = draw(st.sampled_from(GRADINGS))
    layout = draw(st.sampled_from([None, "vertical", "horizontal"]))
    if layout is not None:
        body["layout"] = layout
    return body


# --- fill in the blanks ---------------------------------------------------------------------------

@st.composite
def short_answer_blank(draw, blank_id: str) -> dict:
    case_sensitive = draw(st.booleans())
    texts = draw(st.lists(answer_text(), min_size=1, max_size=3, unique_by=lambda t: _key(t, case_sensitive)))
    if case_sensitive and draw(st.integers(0, 2)) == 0 and texts[0].swapcase() != texts[0]:
        texts.append(texts[0].swapcase())  # the same answer in another case: a different answer here
        if len({_key(t, True) for t in texts}) < len(texts):
            texts.pop()
    full = draw(st.integers(0, len(texts) - 1))
    answers = []
    for i, text in enumerate(texts):
        answer = {"text": text}
        if i != full:
            answer["credit"] = draw(st.sampled_from([0, 0.5, 0.25, 0.1, 0.9, 1]))
        answer.update(base._drop_none({"feedback": draw(base.maybe(base.rich()))}))
        answers.append(answer)
    blank = {"id": blank_id, "type": "short_answer", "answers": answers}
    if case_sensitive or draw(st.booleans()):
        blank["case_sensitive"] = case_sensitive
    return blank


@st.composite
def numerical_blank(draw, blank_id: str) -> dict:
    return {"id": blank_id, "type": "numerical", "answers": draw(base.numerical_answers())}


@st.composite
def dropdown_blank(draw, blank_id: str) -> dict:
    n = draw(st.integers(2, 5))
    texts = draw(st.lists(answer_text(), min_size=n, max_size=n, unique_by=lambda t: t.strip()))
    right = draw(st.integers(0, n - 1))
    options = []
    for i, (option_id, text) in enumerate(zip(base._ids(draw, "o", n), texts)):
        option = {"id": option_id, "text": text}
        if i == right:
            option["correct"] = True
        else:
            credit = draw(st.sampled_from([None, 0, 0.5, 0.25, 0.9, 0.1]))
            if credit is not None:
                option["credit"] = credit
        option.update(base._drop_none({"feedback": draw(base.maybe(base.rich()))}))
        options.append(option)
    blank = {"id": blank_id, "type": "dropdown", "options": options}
    shuffle = draw(st.sampled_from([None, True, False]))
    if shuffle is not None:
        blank["shuffle"] = shuffle
    return blank


BLANK_KINDS = {"short_answer": short_answer_blank, "numerical": numerical_blank, "dropdown": dropdown_blank}


def shown_placeholders(stem: str, markdown: bool) -> list[str]:
    """The placeholders a rendered stem still shows outside code, links and formulas: a generated
    stem is rebuilt until it is the placeholders written (the content would be invalid otherwise)."""
    if not markdown:
        return PLACEHOLDER.findall(stem)
    html = to_html(Text(stem, TextFormat.MARKDOWN), _MATHML)
    return PLACEHOLDER.findall(re.sub(r"<(code|pre|a|math)\b.*?</\1>", "", html, flags=re.DOTALL))


@st.composite
def blank_stem(draw, names: list[str], markdown: bool) -> str:
    """Hostile text around each placeholder, with '[[' that is none of them, on several lines."""
    pieces = []
    for name in names:
        pieces.append(draw(base.hostile_text(min_words=0, max_words=3)) if draw(st.booleans()) else "")
        if draw(st.integers(0, 3)) == 0:
            pieces.append(draw(st.sampled_from(NOT_PLACEHOLDERS)))
        pieces.append(f"[[{name}]]")
    pieces.append(draw(base.hostile_text(min_words=0, max_words=3)) if draw(st.booleans()) else "")
    separator = draw(st.sampled_from([" ", "", "\n", "\r\n", "\n\n", "\r\n\r\n"]))
    stem = separator.join(pieces)
    if PLACEHOLDER.findall(stem) != names or shown_placeholders(stem, markdown) != names:
        # The pieces made a placeholder of their own, or hid one in code, a link or a formula.
        plain = [p if PLACEHOLDER.fullmatch(p) else re.sub(r"[\[\]`$\\<>(]", "|", p) for p in pieces]
        stem = separator.join(plain)
    if not stem.replace("[", "").strip():
        stem = "x " + stem
    return stem


@st.composite
def fill_in_blanks_body(draw, markdown: bool) -> dict:
    """The blanks and the stem; `points` of its own when every blank gives points."""
    n = draw(st.sampled_from([1, 2, 2, 3, 4]))
    ids = base._ids(draw, "b", n)
    mode = draw(st.sampled_from(["mixed", "mixed", "short_answer", "numerical", "dropdown"]))
    if mode == "mixed":
        kinds = list(draw(st.permutations(list(BLANK_KINDS))))[:2] + [draw(st.sampled_from(list(BLANK_KINDS))) for _ in range(n - 2)]
        kinds = kinds[:n]
    else:
        kinds = [mode] * n
    blanks = [draw(BLANK_KINDS[kind](blank_id)) for kind, blank_id in zip(kinds, ids)]
    body = {"blanks": blanks}
    if draw(st.booleans()):
        for blank in blanks:
            blank["points"] = draw(st.sampled_from([1, 2, 0.5, 3, 0, 1.5, 0.25]))
        total = sum(b["points"] for b in blanks)
        if draw(st.booleans()):
            body["points"] = total
    order = draw(st.permutations(ids)) if draw(st.booleans()) else ids
    body["stem"] = draw(blank_stem(list(order), markdown))
    return body


# --- sections --------------------------------------------------------------------------------------

def effective_points(question: dict) -> float:
    if "points" in question:
        return question["points"]
    if question["type"] == "fill_in_blanks" and all("points" in b for b in question["blanks"]):
        return sum(b["points"] for b in question["blanks"])
    return 0 if question["type"] == "description" else 1


def _make_worth(question: dict, points: float) -> None:
    if question["type"] == "fill_in_blanks":
        for blank in question["blanks"]:
            blank.pop("points", None)  # shared: the question's points alone say what it is worth
    question["points"] = points


@st.composite
def sections(draw, questions: list[dict]) -> list[dict] | None:
    """Sections over some of `questions` (changed in place: a draw makes its questions worth the
    same), each question in one section at most, in an order of their own."""
    count = draw(st.integers(0, 3))
    if count == 0:
        return None
    ids = [q["id"] for q in questions]
    free = list(draw(st.permutations(ids)))
    found = []
    for section_id in base._ids(draw, "s", count):
        if not free:
            break
        size = draw(st.integers(1, len(free)))
        members, free = free[:size], free[size:]
        section = {"id": section_id, "title": draw(base.single_line()), "questions": members}
        if draw(st.booleans()):
            section["instructions"] = draw(base.rich(media=False))
        if draw(st.booleans()):
            section["shuffle"] = draw(st.booleans())
        by_id = {q["id"]: q for q in questions}
        drawn = [by_id[m] for m in members if not by_id[m].get("draft")]
        if drawn and all(q["type"] != "description" for q in drawn) and draw(st.integers(0, 2)) > 0:
            points = effective_points(drawn[0])
            for q in drawn[1:]:
                if effective_points(q) != points:
                    _make_worth(q, points)
            section["pick"] = draw(st.integers(1, len(drawn)))
        found.append(section)
    return found


# --- what is hostile in them ------------------------------------------------------------------------

CONSTRUCT_CASES = [
    *(f"ordering graded {g}" for g in GRADINGS), "ordering by default grading", "horizontal ordering",
    "Markdown ordering item", "media in an ordering item",
    "short-answer blank", "numerical blank", "drop-down blank", "mixed blank kinds", "every blank a drop-down",
    "every blank typed", "one blank", "case-sensitive blank", "answers differing by case", "partial blank credit",
    "numerical blank range", "numerical blank tolerance", "partial drop-down credit", "points per blank",
    "points shared by the blanks", "placeholders out of the blanks' order",
    *(f"cloze special {c!r} in an answer or option" for c in CLOZE_SPECIALS), "'*' in a blank answer",
    "answer ending in '&' or '\\'", "GIFT special in an answer or option", "'[[' outside a placeholder",
    "CRLF in a blanks text", "blank line in a blanks text", "Markdown blanks text",
    "section", "several sections", "section instructions", "section draw", "section shuffle",
    "draft in a section", "draw of every question", "question outside any section",
]


def construct_cases(data: dict) -> set[str]:
    """The names (from CONSTRUCT_CASES) of the hostile features of a quiz's new constructs."""
    found: set[str] = set()
    questions = [q for q in data.get("questions", []) if isinstance(q, dict)]
    markdown_quiz = data.get("text_format") == "markdown"
    for q in questions:
        if q.get("type") == "ordering":
            found.add(f"ordering graded {q['grading']}" if "grading" in q else "ordering by default grading")
            if q.get("layout") == "horizontal":
                found.add("horizontal ordering")
            texts = [i.get("text") for i in q.get("items", []) if isinstance(i, dict)]
            if any(isinstance(t, dict) and t.get("format") == "markdown" for t in texts) or markdown_quiz:
                found.add("Markdown ordering item")
            if any(isinstance(t, dict) and "](media/" in t.get("text", "") for t in texts):
                found.add("media in an ordering item")
        elif q.get("type") == "fill_in_blanks":
            found |= _blank_cases(q, markdown_quiz)
    listed = [s for s in data.get("sections") or [] if isinstance(s, dict)]
    if listed:
        found.add("section")
    if len(listed) > 1:
        found.add("several sections")
    drafts = {q.get("id") for q in questions if q.get("draft")}
    members = set()
    for s in listed:
        members |= set(s.get("questions", []))
        found |= {name for name, present in [
            ("section instructions", "instructions" in s), ("section draw", "pick" in s), ("section shuffle", s.get("shuffle") is True),
            ("draft in a section", bool(drafts & set(s.get("questions", [])))),
            ("draw of every question", s.get("pick") == len(set(s.get("questions", [])) - drafts))] if present}
    if listed and any(q.get("id") not in members for q in questions):
        found.add("question outside any section")
    return found


def _blank_cases(q: dict, markdown_quiz: bool) -> set[str]:
    found = set()
    blanks = [b for b in q.get("blanks", []) if isinstance(b, dict)]
    kinds = {b.get("type") for b in blanks}
    found |= {name for name, kind in [("short-answer blank", "short_answer"), ("numerical blank", "numerical"),
                                       ("drop-down blank", "dropdown")] if kind in kinds}
    if len(kinds) > 1:
        found.add("mixed blank kinds")
    if kinds == {"dropdown"} and len(blanks) > 1:
        found.add("every blank a drop-down")
    if kinds and "dropdown" not in kinds and len(blanks) > 1:
        found.add("every blank typed")
    if len(blanks) == 1:
        found.add("one blank")
    if blanks and all("points" in b for b in blanks):
        found.add("points per blank")
    elif blanks:
        found.add("points shared by the blanks")
    stem = q.get("stem")
    stem_text = stem.get("text", "") if isinstance(stem, dict) else stem if isinstance(stem, str) else ""
    if (isinstance(stem, dict) and stem.get("format") == "markdown") or (markdown_quiz and isinstance(stem, str)):
        found.add("Markdown blanks text")
    if PLACEHOLDER.findall(stem_text) != [b.get("id") for b in blanks] and len(blanks) > 1:
        found.add("placeholders out of the blanks' order")
    if "[[" in PLACEHOLDER.sub("", stem_text) or "]]" in PLACEHOLDER.sub("", stem_text):
        found.add("'[[' outside a placeholder")
    if "\r\n" in stem_text:
        found.add("CRLF in a blanks text")
    if "\n\n" in stem_text.replace("\r\n", "\n"):
        found.add("blank line in a blanks text")
    answers = []
    for b in blanks:
        if b.get("type") == "short_answer":
            answers += [a.get("text", "") for a in b.get("answers", [])]
            if b.get("case_sensitive"):
                found.add("case-sensitive blank")
                if len({a.get("text", "").casefold() for a in b.get("answers", [])}) < len(b.get("answers", [])):
                    found.add("answers differing by case")
            if any(a.get("credit", 1) not in (0, 1) for a in b.get("answers", [])):
                found.add("partial blank credit")
        elif b.get("type") == "numerical":
            if any("min" in a for a in b.get("answers", [])):
                found.add("numerical blank range")
            if any(a.get("tolerance", 0) for a in b.get("answers", [])):
                found.add("numerical blank tolerance")
        elif b.get("type") == "dropdown":
            answers += [o.get("text", "") for o in b.get("options", [])]
            if any(not o.get("correct") and o.get("credit", 0) > 0 for o in b.get("options", [])):
                found.add("partial drop-down credit")
    for special in CLOZE_SPECIALS:
        if any(special in a for a in answers):
            found.add(f"cloze special {special!r} in an answer or option")
    if any("*" in a for b in blanks if b.get("type") == "short_answer" for a in (x.get("text", "") for x in b.get("answers", []))):
        found.add("'*' in a blank answer")
    if any(a.rstrip().endswith(("&", "\\")) for a in answers):
        found.add("answer ending in '&' or '\\'")
    if any(re.search(r"[~=#{}:]", a) for a in answers):
        found.add("GIFT special in an answer or option")
    return found


# --- known hostile documents of the new constructs, run as explicit examples by every property -------

def _quiz(qid: str, questions: list[dict], **extra) -> dict:
    return {"id": qid, "title": qid, "language": "en", "text_format": extra.pop("text_format", "plain"), "questions": questions, **extra}


def _words(*texts: str, case_sensitive: bool = False, **extra) -> dict:
    answers = [{"text": t} if i == 0 else {"text": t, "credit": 0.5} for i, t in enumerate(texts)]
    return {"type": "short_answer", "answers": answers, "case_sensitive": case_sensitive, **extra}


def _menu(*texts: str, **extra) -> dict:
    return {"type": "dropdown", "options": [{"id": f"o{i}", "text": t, **({"correct": True} if i == 0 else {})} for i, t in enumerate(texts)], **extra}


PINNED = [
    # Every character Moodle's cloze parser ends, escapes or decodes, in answers, options and feedback.
    _quiz("pinned-cloze-specials", [
        {"id": "q0", "type": "fill_in_blanks", "stem": "One [[b0]], two [[b1]];\r\n\r\nthree [[b2]] and [[b3]] [[b4]].",
         "blanks": [
             {"id": "b0", **_words("a}b", "a#b", "a~b")},
             {"id": "b1", **_words("a/b", 'say "hi"', "a\\b", "x\\")},
             {"id": "b2", **_words("R&", "a*b", "&amp;", "&#126;")},
             {"id": "b3", **_menu("}", "#", "~", "<b>", "a & b", '"q"', "\\")},
             {"id": "b4", **_words("{1:SHORTANSWER:=x}", "%50%", "=c~d", "a\\~b")}]},
        {"id": "q1", "type": "fill_in_blanks", "stem": "Case: [[Ab]] and [[n]] and [[menu]]", "blanks": [
            {"id": "Ab", **_words("Ab", "ab", case_sensitive=True)},
            {"id": "n", "type": "numerical", "answers": [{"value": 2.5, "tolerance": 0.1, "feedback": "#~}"}, {"min": 1e-9, "max": 3, "credit": 0.25}]},
            {"id": "menu", "type": "dropdown", "shuffle": False, "options": [
                {"id": "a", "text": "right } #", "correct": True, "feedback": "yes ~ } # \\"},
                {"id": "b", "text": "half ~", "credit": 0.5, "feedback": "half"}, {"id": "c", "text": "none &"}]}]},
    ]),
    # '[[' that is no placeholder, placeholders in another order than the blanks, points per blank.
    _quiz("pinned-blank-brackets", [
        {"id": "q0", "type": "fill_in_blanks", "stem": {"text": "[[ b ]] [[1]] [[]] [[b0] then [[second]]\n\n**then** [[first]] ]]", "format": "markdown"},
         "blanks": [{"id": "first", "points": 2, **_words("x")}, {"id": "second", "points": 0.5, **_menu("y", "z")}]},
        {"id": "q1", "type": "fill_in_blanks", "stem": "Only [[one]] GIFT ~ = # { } : blank", "points": 3, "blanks": [{"id": "one", **_words("a ~ b", "c = d")}]},
        {"id": "q2", "type": "fill_in_blanks", "stem": "Pick [[pick]]", "blanks": [{"id": "pick", **_menu("{x}", "~y", "=z")}]},
        {"id": "q3", "type": "fill_in_blanks", "stem": "Count [[count]]", "blanks": [
            {"id": "count", "type": "numerical", "answers": [{"value": -0.0}, {"min": -1e300, "max": 1e300, "credit": 0.1}]}]},
    ]),
    # Every grading, both layouts, Markdown and media in items, more items than QTI grades by pairs.
    _quiz("pinned-ordering", [
        *({"id": f"q{i}", "type": "ordering", "stem": "Order ~ {them}", "grading": grading, "layout": "horizontal" if i % 2 else "vertical",
           "items": [{"id": "a", "text": "first ~ # }"}, {"id": "b", "text": {"text": "**second** & <", "format": "markdown"}},
                     {"id": "c", "text": "third\r\n\r\nline"}, {"id": "RESPONSE", "text": "-> fourth"}]}
          for i, grading in enumerate(GRADINGS)),
        {"id": "many", "type": "ordering", "stem": "Nine", "grading": "relative_all_previous_and_next", "points": 2,
         "items": [{"id": f"i{i}", "text": {"text": "![a bubble](media/bubble.svg) step" if i == 0 else f"step {i}", "format": "markdown"}}
                   for i in range(9)]},
    ]),
    # Several sections: draws (of every question, of one), shuffles, drafts inside, instructions.
    _quiz("pinned-sections", [
        {"id": "intro", "type": "description", "stem": "Read ~ this"},
        {"id": "w1", "type": "true_false", "stem": "A?", "answer": True, "points": 2},
        {"id": "w2", "type": "fill_in_blanks", "stem": "[[x]] and [[y]]", "blanks": [{"id": "x", "points": 1, **_words("x")}, {"id": "y", "points": 1, **_words("y")}]},
        {"id": "w3", "type": "ordering", "stem": "Order", "points": 2, "items": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}]},
        {"id": "w4", "type": "essay", "stem": "Draft", "draft": True, "points": 5},
        {"id": "p1", "type": "short_answer", "stem": "P1?", "answers": [{"text": "p"}]},
        {"id": "p2", "type": "numerical", "stem": "P2?", "answers": [{"value": 2}]},
        {"id": "outro", "type": "true_false", "stem": "Done?", "answer": False},
    ], sections=[
        {"id": "warm-up", "title": "Warm-up ~ {#}", "instructions": "Answer quickly:\r\n\r\ntwo ]]> & <", "pick": 2, "shuffle": True,
         "questions": ["w3", "w1", "w4", "w2"]},
        {"id": "all", "title": "All", "pick": 2, "questions": ["p2", "p1"]},
        {"id": "RESPONSE", "title": "Last", "shuffle": False, "instructions": {"text": "**Bold** $x^2$", "format": "markdown"}, "questions": ["outro"]},
    ]),
]


# Last: tests/strategies.py imports this module for CONSTRUCT_CASES and PINNED, and this one uses its text,
# numbers and ids only when a strategy runs, so either may be imported first.
import strategies as base  # noqa: E402

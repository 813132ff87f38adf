"""Hypothesis strategies: arbitrary valid quizzes, in the schema's own vocabulary, with hostile text."""

from __future__ import annotations

from hypothesis import strategies as st

from lmsexport.checks.blank import is_blank
from lmsexport.model import Text, TextFormat
from lmsexport.text import formula_problems

# Pieces that break naive writers: GIFT's specials, XML's, CDATA's end, quotes, emoji,
# combining marks, right-to-left text, Wolof and Dutch letters.
HOSTILE = [
    "~", "=", "#", "{", "}", ":", "\\", "]]>", "&", "<", ">", "<script>alert(1)</script>", '"', "'",
    "🚀", "👩🏽‍💻", "e\u0301", "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627", "ñ", "ë", "à", "ŋ",
    "%50%", "->", "####", "//", "$CATEGORY:", "[html]", "::", "\t", "&amp;", "&#x41;", "@@PLUGINFILE@@",
    "*", "_", "`", "|", "-", "1.", " ",
]

_letters = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp", "Co", "Cn")), min_size=1, max_size=12)
_fragment = st.one_of(st.sampled_from(HOSTILE), _letters)


@st.composite
def hostile_text(draw, min_words: int = 1, max_words: int = 8, newlines: bool = True) -> str:
    """Text with at least one visible character and hostile fragments; may span lines."""
    words = draw(st.lists(_fragment, min_size=min_words, max_size=max_words))
    separator = draw(st.sampled_from([" ", "", "\n"] if newlines else [" ", ""]))
    text = separator.join(words)
    if not text.strip():
        text = "x" + text
    return text


def single_line(max_words: int = 6):
    return hostile_text(max_words=max_words, newlines=False)


@st.composite
def rich(draw, markdown_allowed: bool = True):
    text = draw(hostile_text())
    if formula_problems(Text(text, TextFormat.MARKDOWN)):  # a formula MathML cannot carry is invalid
        text = text.replace("$", "S").replace("\\", "/")
    if is_blank(Text(text, TextFormat.MARKDOWN)):  # as Markdown, markup alone ("#", "- ") shows nothing: invalid
        text = "x" + text
    if markdown_allowed and draw(st.booleans()):
        return {"text": text, "format": "markdown"}
    return text


@st.composite
def maybe(draw, strategy):
    return draw(strategy) if draw(st.booleans()) else None


def _drop_none(d: dict) -> dict:
    return {k: v for k, v in d.items() if v is not None}


LANGUAGES = ["en", "wo", "nl", "fr", "ar", "he", "pt-BR"]
GRADES = [1.0, 0.5, 0.25, 0.2, 0.1, 0.0, 1 / 3]


@st.composite
def choice_question(draw, qid: str, multiple: bool):
    n = draw(st.integers(min_value=2, max_value=5))
    correct = set(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n if multiple else 1, unique=True)))
    options = []
    for i in range(n):
        option = _drop_none({
            "id": f"o{i}", "text": draw(rich()), "feedback": draw(maybe(rich())),
            "pinned": True if draw(st.integers(0, 5)) == 0 else None,
            "language": draw(st.sampled_from(LANGUAGES)) if draw(st.integers(0, 4)) == 0 else None,
        })
        if i in correct:
            option["correct"] = True
        elif not multiple and draw(st.booleans()):
            option["credit"] = draw(st.sampled_from([0.5, 0.25, 0.0]))
        options.append(option)
    return {"type": "multiple_response" if multiple else "single_choice", "options": options,
            "shuffle": draw(st.booleans())}


@st.composite
def question(draw, qid: str):
    kind = draw(st.sampled_from(["single_choice", "multiple_response", "true_false", "short_answer", "numerical", "matching", "essay", "description"]))
    common = _drop_none({
        "id": qid, "stem": draw(rich()), "title": draw(maybe(single_line())),
        "points": draw(st.sampled_from([1, 2, 0.5, 3])) if kind != "description" else None,
        "explanation": draw(maybe(rich())),
        "language": draw(st.sampled_from(LANGUAGES)) if draw(st.integers(0, 3)) == 0 else None,
    })
    if kind in ("single_choice", "multiple_response", "short_answer", "numerical", "matching") and draw(st.booleans()):
        common["feedback"] = _drop_none({"correct": draw(maybe(rich())), "incorrect": draw(maybe(rich())),
                                         "partially_correct": draw(maybe(rich()))})
    if kind in ("single_choice", "multiple_response"):
        body = draw(choice_question(qid, kind == "multiple_response"))
    elif kind == "true_false":
        body = _drop_none({"answer": draw(st.booleans()), "true_feedback": draw(maybe(rich())), "false_feedback": draw(maybe(rich()))})
    elif kind == "short_answer":
        texts = draw(st.lists(single_line(3), min_size=1, max_size=3, unique_by=lambda t: t.casefold()))
        answers = [_drop_none({"text": t, "credit": None if i == 0 else draw(st.sampled_from([0.5, 0.25])), "feedback": draw(maybe(rich()))}) for i, t in enumerate(texts)]
        body = {"answers": answers, "case_sensitive": draw(st.booleans())}
    elif kind == "numerical":
        answers = []
        for i in range(draw(st.integers(1, 2))):
            credit = None if i == 0 else 0.5
            if draw(st.booleans()):
                value = draw(st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: round(x, 3)))
                answers.append(_drop_none({"value": value, "tolerance": draw(st.sampled_from([0, 0.5, 2])), "credit": credit, "feedback": draw(maybe(rich()))}))
            else:
                low = draw(st.integers(-1000, 1000))
                answers.append(_drop_none({"min": low, "max": low + draw(st.integers(0, 50)), "credit": credit, "feedback": draw(maybe(rich()))}))
        body = {"answers": answers}
    elif kind == "matching":
        n = draw(st.integers(2, 4))
        prompts = draw(st.lists(rich(), min_size=n, max_size=n, unique_by=lambda t: t if isinstance(t, str) else t["text"]))
        answers = draw(st.lists(single_line(3), min_size=n + 1, max_size=n + 1, unique=True))
        body = {"pairs": [{"id": f"p{i}", "prompt": prompts[i], "answer": answers[i]} for i in range(n)]}
        if draw(st.booleans()):
            body["distractors"] = [{"id": "d0", "text": answers[n]}]
    elif kind == "essay":
        body = _drop_none({"grader_info": draw(maybe(rich())), "response_template": draw(maybe(single_line()))})
    else:
        body = {}
    return {**common, "type": kind, **body}


@st.composite
def quiz(draw, max_questions: int = 6):
    n = draw(st.integers(1, max_questions))
    return _drop_none({
        "id": "generated-quiz",
        "title": draw(single_line()),
        "description": draw(maybe(rich())),
        "language": draw(st.sampled_from(LANGUAGES)),
        "level": draw(maybe(single_line(3))),
        "category": ["Generated", "Hostile"],
        "text_format": draw(st.sampled_from(["plain", "markdown"])),
        "questions": [draw(question(f"q{i}")) for i in range(n)],
    })

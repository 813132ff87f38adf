"""Moodle's embedded answers (cloze, qtype_multianswer) and select missing words (gapselect) as
fill in the blanks.

The cloze text is parsed the way question/type/multianswer/questiontype.php does it
(qtype_multianswer_extract_question and its regexes, translated to Python's `re`, whose
look-behinds must be split into one per width): the leftmost `{weight:TYPE:alternatives}` is taken,
replaced in the text by `{#n}`, and the search starts again; each alternative is `=` or `%n%`, an
answer ending at the first `~`, `#` or `}` not preceded by `\\`, `&` or `&amp;`, and `#feedback`
ending at the first `~` or `}` not preceded by `\\`. Answers and feedback are then HTML-decoded and
only `\\}` and `\\#` are undone, as Moodle stores them (`\\~` keeps its backslash). Numerical
answers are kept as written when they are numbers.

Blanks are named `b1`, `b2`... in the order Moodle numbers its sub-questions (the order they stand
in the text), so the same file always gives the same names. The content's blank ids do not ride in
Moodle XML: an export of ours imports back under these names and exports to the same bytes.
"""

from __future__ import annotations

import html.entities
import re
from dataclasses import dataclass, field

from ...model import AcceptedAnswer, Blank, DropdownBlank, DropdownOption, NumericalBlank, NumericAnswer, ShortAnswerBlank, Text, TextFormat
from ...text.blanks import PLACEHOLDER

_FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
_ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
_FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
_ALTERNATIVE = f"({_FRACTION})?({_ANSWER})(#({_FEEDBACK}))?"
# Groups of _ALTERNATIVE as Moodle numbers them: 1 fraction, 2 percentage, 3 answer, 5 feedback.
_TYPES = ("NUMERICAL|NM|MULTICHOICE|MC|MULTICHOICE_V|MCV|MULTICHOICE_H|MCH|SHORTANSWER|SA|MW|SHORTANSWER_C|SAC|MWC|"
          "MULTICHOICE_S|MCS|MULTICHOICE_VS|MCVS|MULTICHOICE_HS|MCHS|MULTIRESPONSE|MR|MULTIRESPONSE_H|MRH|MULTIRESPONSE_S|MRS|"
          "MULTIRESPONSE_HS|MRHS")
_ALTERNATIVE_UNGROUPED = r"(?:=|%-?[0-9]+(?:[.,][0-9]*)?%)?" + f"(?:{_ANSWER})(?:#(?:{_FEEDBACK}))?"
# ANSWER_REGEX: 1 weight, 2 type name, 3 the alternatives.
_SUB_QUESTION = re.compile(r"\{([0-9]*):(" + _TYPES + "):(" + _ALTERNATIVE_UNGROUPED + "(?:~" + _ALTERNATIVE_UNGROUPED + r")*)\}", re.S)
_ONE_ALTERNATIVE = re.compile("~?" + _ALTERNATIVE, re.S)
_NUMBER = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)"
# NUMERICAL_ALTERNATIVE_REGEX: group 1 the value, 6 the tolerance (without its sign, as Moodle takes it).
_NUMERICAL = re.compile(f"^({_NUMBER})(:{_NUMBER})?$", re.S)
_MARKER = re.compile(r"\{#([0-9]+)\}")
_ENTITY = re.compile(r"&(?:#([0-9]+)|#[xX]([0-9A-Fa-f]+)|([A-Za-z][A-Za-z0-9]*));")

# The kind of each type name, and how Moodle shows a multichoice one (qtype_multianswer's names).
_KINDS = {
    **dict.fromkeys(("NUMERICAL", "NM"), ("numerical", None, False)),
    **dict.fromkeys(("SHORTANSWER", "SA", "MW"), ("short_answer", False, False)),
    **dict.fromkeys(("SHORTANSWER_C", "SAC", "MWC"), ("short_answer", True, False)),
    **dict.fromkeys(("MULTICHOICE", "MC"), ("dropdown", "dropdown", False)),
    **dict.fromkeys(("MULTICHOICE_S", "MCS"), ("dropdown", "dropdown", True)),
    **dict.fromkeys(("MULTICHOICE_V", "MCV"), ("dropdown", "vertical", False)),
    **dict.fromkeys(("MULTICHOICE_VS", "MCVS"), ("dropdown", "vertical", True)),
    **dict.fromkeys(("MULTICHOICE_H", "MCH"), ("dropdown", "horizontal", False)),
    **dict.fromkeys(("MULTICHOICE_HS", "MCHS"), ("dropdown", "horizontal", True)),
}


class ClozeError(ValueError):
    """A cloze question Moodle refuses, or one the content format cannot hold."""


def html_entity_decode(value: str) -> str:
    """PHP's html_entity_decode(ENT_QUOTES, 'UTF-8'): HTML 4.01's named entities and numeric
    references with their ';' (Python's html.unescape also reads `&amp` without one)."""

    def decode(found: re.Match) -> str:
        decimal, hexadecimal, name = found.groups()
        if name is not None:
            code = html.entities.name2codepoint.get(name)
            return chr(code) if code is not None else found.group()
        code = int(decimal) if decimal is not None else int(hexadecimal, 16)
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else found.group()

    return _ENTITY.sub(decode, value)


def _moodle_text(raw: str) -> str:
    """An answer or feedback as Moodle stores it."""
    return html_entity_decode(raw).replace("\\}", "}").replace("\\#", "#")


@dataclass
class Alternative:
    fraction: float
    answer: str  # as Moodle stores it (a numerical answer as written)
    feedback: str | None  # HTML
    number: tuple[str, str] | None = None  # (value, tolerance) of a numerical answer


@dataclass
class SubQuestion:
    weight: int
    type_name: str
    alternatives: list[Alternative] = field(default_factory=list)


def extract(text: str) -> tuple[str, list[SubQuestion]]:
    """qtype_multianswer_extract_question: the text with `{#n}` where each sub-question stood, and
    the sub-questions in order (n = 1, 2...)."""
    questions: list[SubQuestion] = []
    while True:
        found = _SUB_QUESTION.search(text)
        if found is None:
            break
        weight = int(found.group(1)) if found.group(1) != "" else 1
        sub = SubQuestion(weight, found.group(2))
        remaining = found.group(3)
        while True:
            alternative = _ONE_ALTERNATIVE.search(remaining)
            if alternative is None:
                break
            if alternative.group(1) == "=":
                fraction = 1.0
            elif alternative.group(2):
                fraction = 0.01 * float(alternative.group(2).replace(",", "."))
            else:
                fraction = 0.0
            feedback = None if alternative.group(4) is None else _moodle_text(alternative.group(5))
            raw = alternative.group(3)
            number = _NUMERICAL.match(raw) if _KINDS.get(sub.type_name, ("",))[0] == "numerical" else None
            if number is not None:
                sub.alternatives.append(Alternative(fraction, raw, feedback, (number.group(1), number.group(6) or "0")))
            else:
                sub.alternatives.append(Alternative(fraction, _moodle_text(raw), feedback))
            remaining = remaining.split(alternative.group(), 1)[1]  # PHP's explode(..., 2)
        questions.append(sub)
        text = text.replace(found.group(), "{#" + str(len(questions)) + "}", 1)
    return text, questions


def _validate(sub: SubQuestion, position: int) -> None:
    """qtype_multianswer_validate_question, with Moodle's messages."""
    answers = [a for a in sub.alternatives if a.answer.strip(" \t\n\r\0\x0b") != ""]
    kind = _KINDS.get(sub.type_name, ("multiresponse",))[0]
    where = f"sub-question {position} ({sub.type_name})"
    if kind == "numerical":
        for answer in answers:
            if answer.number is None and answer.answer.strip() != "*":
                raise ClozeError(f"{where}: the answer {answer.answer!r} is not a number, which Moodle refuses (\"The answer must be a number\")")
    if kind in ("dropdown", "multiresponse") and len(answers) < 2:
        raise ClozeError(f"{where}: Moodle refuses a multiple choice sub-question with fewer than 2 answers")
    if not answers:
        raise ClozeError(f"{where}: Moodle refuses a sub-question with no answer")
    full = any(a.fraction == 1 for a in answers) or (kind == "multiresponse" and any(a.fraction > 0 for a in answers))
    if not full:
        raise ClozeError(f"{where}: no answer is worth 100%, which Moodle refuses (\"One of the answers should have a score of 100%\")")


@dataclass
class Cloze:
    stem: str  # with [[b1]]... where the sub-questions stood
    blanks: tuple[Blank, ...]
    points: float
    losses: list[str]


def _feedback(source: str | None) -> Text | None:
    return None if source is None or source.strip() == "" else Text(source, TextFormat.HTML)


def _plain_choice(source: str) -> tuple[str, str | None]:
    """A multichoice answer (HTML in Moodle) as a drop-down's plain text, and what was lost."""
    from ..html import _as_plain

    # A drop-down shows its options as they are: a no-break space (one ending the option too) is
    # the option's own, not how the writers keep a run of spaces in HTML.
    plain = _as_plain(source, keep_no_break=True)
    if plain is not None and "\n" not in plain:
        return plain, None
    import lxml.html

    try:
        text = lxml.html.fragment_fromstring(source, create_parent="div").text_content()
    except Exception:  # unparsable markup: keep the characters
        text = source
    return " ".join(text.split()), f"the formatting of the option {source[:40]!r} (a drop-down shows plain text)"


def _blank(sub: SubQuestion, position: int, losses: list[str]) -> Blank:
    name = f"b{position}"
    kind, detail, shuffle = _KINDS.get(sub.type_name, ("multiresponse", None, False))
    where = f"blank {name} ({sub.type_name})"
    for alternative in sub.alternatives:
        kept = re.findall(r"\\[~/\"\\]", alternative.answer)
        if kept and alternative.number is None:
            losses.append(f"{where}: Moodle keeps the backslash of {', '.join(dict.fromkeys(kept))} in the answer {alternative.answer!r} "
                          "(it undoes only \\} and \\#), so a student must type it too")
    if kind == "numerical":
        answers = []
        for alternative in sub.alternatives:
            if alternative.number is None:  # '*': what any other number gets
                if alternative.fraction or alternative.feedback:
                    losses.append(f"{where}: the answer '*' (any other number) and its feedback have no counterpart: left out")
                continue
            value, tolerance = alternative.number
            if "," in value or "," in tolerance:
                raise ClozeError(f"{where}: the number {alternative.answer!r} has a decimal comma, which Moodle reads as another number "
                                 "(3,5 as 35): write it with a point")
            answers.append(NumericAnswer(value=float(value), tolerance=abs(float(tolerance)), credit=alternative.fraction,
                                         feedback=_feedback(alternative.feedback)))
        return NumericalBlank(id=name, answers=tuple(answers))
    if kind == "short_answer":
        answers = []
        for alternative in sub.alternatives:
            text = alternative.answer
            if text == "*":
                if alternative.fraction or alternative.feedback:
                    losses.append(f"{where}: the answer '*' (any other answer) and its feedback have no counterpart: left out")
                continue
            if re.search(r"(?<!\\)\*", text):
                losses.append(f"{where}: '*' in the answer {text!r} is Moodle's wildcard; the content has none, so it is a literal star")
            answers.append(AcceptedAnswer(text=text.replace("\\*", "*"), credit=alternative.fraction, feedback=_feedback(alternative.feedback)))
        return ShortAnswerBlank(id=name, answers=tuple(answers), case_sensitive=bool(detail))
    if kind == "dropdown":
        if detail != "dropdown":
            losses.append(f"{where}: Moodle shows this blank as {detail} radio buttons; the content's blank is a drop-down")
        options = []
        for index, alternative in enumerate(sub.alternatives):
            text, lost = _plain_choice(alternative.answer)
            if lost:
                losses.append(f"{where}: {lost}")
            options.append(DropdownOption(id=chr(ord("a") + index) if index < 26 else f"o{index + 1}", text=text,
                                          correct=alternative.fraction == 1, credit=alternative.fraction,
                                          feedback=_feedback(alternative.feedback)))
        return DropdownBlank(id=name, options=tuple(options), shuffle=shuffle)
    raise ClozeError(f"{where}: a sub-question where several answers can be chosen has no counterpart in the content's fill in the blanks")


def _with_points(blanks: list[Blank], weights: list[int]) -> tuple[tuple[Blank, ...], float]:
    """Moodle's mark is the sum of the weights; equal weights are the question's points shared."""
    import dataclasses

    if len(set(weights)) == 1:
        return tuple(blanks), float(sum(weights))
    return tuple(dataclasses.replace(b, points=float(w)) for b, w in zip(blanks, weights)), float(sum(weights))


def read_cloze(text: str) -> Cloze:
    """The fill in the blanks question a cloze text is; ClozeError with the reason when Moodle
    refuses it or the content cannot hold it."""
    if PLACEHOLDER.search(text):
        raise ClozeError(f"the text holds {PLACEHOLDER.search(text).group()!r}, which the content format would read as a blank")
    marked, subs = extract(text)
    if not subs:
        raise ClozeError("the text holds no embedded answer, which Moodle refuses (\"The question text must include at least one embedded answer\")")
    for position, sub in enumerate(subs, 1):
        _validate(sub, position)
    losses: list[str] = []
    blanks = [_blank(sub, position, losses) for position, sub in enumerate(subs, 1)]
    stem = _MARKER.sub(lambda m: f"[[b{m.group(1)}]]" if 1 <= int(m.group(1)) <= len(subs) else m.group(), marked)
    # The writers protect a '{' of the text as '&#123;' so that it cannot start a sub-question;
    # both show a '{'.
    stem = stem.replace("&#123;", "{")
    found, points = _with_points(blanks, [s.weight for s in subs])
    return Cloze(stem, found, points, losses)


def read_gapselect(text: str, choices: list[tuple[str, str]], shuffle: bool) -> tuple[str, tuple[Blank, ...]]:
    """qtype_gapselect: gap [[n]] is answered by the n-th choice (text, group) and lists every
    choice of that group, in file order. ClozeError when a gap has no choice."""
    if PLACEHOLDER.search(text):
        raise ClozeError(f"the text holds {PLACEHOLDER.search(text).group()!r}, which the content format would read as a blank")
    gaps = re.findall(r"\[\[([0-9]+)\]\]", text)
    if not gaps:
        raise ClozeError("the text holds no gap [[n]]")
    blanks = []
    for gap in dict.fromkeys(gaps):
        number = int(gap)
        if not 1 <= number <= len(choices):
            raise ClozeError(f"the gap [[{gap}]] has no choice (the question has {len(choices)}): Moodle imports it broken")
        answer, group = choices[number - 1]
        options = [(index, choice) for index, (choice, g) in enumerate(choices, 1) if g == group]
        blanks.append(DropdownBlank(id=f"b{gap}", shuffle=shuffle, options=tuple(
            DropdownOption(id=f"c{index}", text=choice, correct=index == number, credit=1.0 if index == number else 0.0)
            for index, choice in options)))
    return re.sub(r"\[\[([0-9]+)\]\]", r"[[b\1]]", text), tuple(blanks)

"""Fill in the blanks as Moodle's cloze question (qtype_multianswer): each blank becomes an
embedded sub-question `{weight:TYPE:alternatives}` inside the question text.

Facts from question/type/multianswer/questiontype.php and probes through Moodle 4.5 and 5.0:
- an alternative's answer ends at the first '~', '#' or '}' not preceded by '\\', '&' or
  '&amp;'; its feedback at the first '~' or '}' not preceded by '\\'. Moodle then decodes HTML
  entities and undoes only '\\}' and '\\#' (str_replace, left to right). So every '}', '#', '~'
  and '\\' is written as a numeric character reference, '&' as '&#38;' (an answer ending in
  '&amp;' would swallow the '~' after it), and '<', '>', '"' as entities; a backslash the text
  has right before '#' or '}' is written twice, since Moodle takes one away: '\\#' is stored
  '\\#' (probed on 4.5 and 5.0, tests/importers/test_moodle.py);
- MULTICHOICE alternatives are stored as HTML, so their escaped HTML is encoded once more;
- fractions are '=' or '%n%' with any n: cloze does not check Moodle's grade list;
- the question's mark is the sum of the sub-questions' weights, which must be whole numbers
  (`[0-9]*`); <defaultgrade> and the combined feedback are not read;
- a '{' in the rest of the text that looks like a sub-question would become one, so the text's
  own braces are written as '&#123;'.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from math import gcd, lcm
from html import escape as html_escape

from ....model import Blank, DropdownBlank, NumericalBlank, NumericAnswer, ShortAnswerBlank, Text
from ...xml import number
from ..common import range_as_value_and_tolerance

_CODES = {"&": "&#38;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "}": "&#125;", "#": "&#35;", "~": "&#126;", "\\": "&#92;"}
_ENCODE = str.maketrans(_CODES)
# A backslash before '#' or '}': Moodle's '\#' -> '#' and '\}' -> '}' take the added one away.
_BACKSLASH_MOODLE_UNDOES = re.compile(r"\\(?=[#}])")


def encode(value: str) -> str:
    """A string as Moodle's cloze parser gives it back exactly."""
    return _BACKSLASH_MOODLE_UNDOES.sub(r"\\\\", value).translate(_ENCODE)


def protect_braces(html: str) -> str:
    """The text around the blanks, with its own '{' unable to start a sub-question."""
    return html.replace("{", "&#123;")


def percent(credit: float) -> str:
    if credit == 1:
        return "="
    text = f"{credit * 100:.5f}".rstrip("0").rstrip(".")
    return f"%{text if text not in ('', '-0') else '0'}%"


def weights(points: tuple[float, ...]) -> list[int]:
    """Whole-number weights in the proportions of the blanks' points: the points themselves when
    they are whole, else the smallest whole numbers in the same proportions."""
    if all(p == round(p) for p in points):
        return [round(p) for p in points]
    shares = [Fraction(p).limit_denominator(1000) for p in points]
    scale = lcm(*(s.denominator for s in shares))
    whole = [int(s * scale) for s in shares]
    divisor = gcd(*whole)
    return [w // divisor for w in whole] if divisor > 1 else whole


def _feedback(feedback: Text | None, render) -> str:
    return "" if feedback is None else "#" + encode(render(feedback))


def _numeric(answer: NumericAnswer) -> str:
    if answer.value is not None:
        return f"{number(answer.value)}:{number(answer.tolerance)}"
    # A range is the value at its middle with half its width as the tolerance, in the decimals
    # the author wrote: [0.1, 0.3] is 0.2 ± 0.1, not 0.2 ± 0.09999999999999999; written as the
    # other Moodle numbers are, so that the value read back is written the same.
    centre, tolerance, _ = range_as_value_and_tolerance(answer.minimum, answer.maximum)
    return f"{centre}:{tolerance}"


def sub_question(blank: Blank, weight: int, render: Callable[[Text], str]) -> str:
    """`render(text)` gives the inline HTML of a feedback text."""
    kind, alternatives = SUB_QUESTIONS[type(blank)](blank, render)
    return "{" + f"{weight}:{kind}:" + "~".join(alternatives) + "}"


def _short_answer(blank: ShortAnswerBlank, render) -> tuple[str, list[str]]:
    # '*' is a wildcard in short answers; '\\*' a literal star (compare_string_with_wildcard).
    alternatives = [percent(a.credit) + encode(a.text).replace("*", "\\*") + _feedback(a.feedback, render) for a in blank.answers]
    return ("SHORTANSWER_C" if blank.case_sensitive else "SHORTANSWER"), alternatives


def _numerical(blank: NumericalBlank, render) -> tuple[str, list[str]]:
    return "NUMERICAL", [percent(a.credit) + _numeric(a) + _feedback(a.feedback, render) for a in blank.answers]


def _dropdown(blank: DropdownBlank, render) -> tuple[str, list[str]]:
    alternatives = [percent(o.credit) + encode(html_escape(o.text, quote=False)) + _feedback(o.feedback, render) for o in blank.options]
    return ("MULTICHOICE_S" if blank.shuffle else "MULTICHOICE"), alternatives


# The sub-question of each blank kind, keyed by the model's class (tests/test_type_coverage.py
# fails for a kind left out).
SUB_QUESTIONS: dict[type[Blank], Callable[..., tuple[str, list[str]]]] = {
    ShortAnswerBlank: _short_answer,
    NumericalBlank: _numerical,
    DropdownBlank: _dropdown,
}

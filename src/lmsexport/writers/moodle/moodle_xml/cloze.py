"""Fill in the blanks as Moodle's cloze question (qtype_multianswer): each blank becomes an
embedded sub-question `{weight:TYPE:alternatives}` inside the question text.

Facts from question/type/multianswer/questiontype.php and probes through Moodle 4.5 and 5.0:
- an alternative's answer ends at the first '~', '#' or '}' not preceded by '\\', '&' or
  '&amp;'; its feedback at the first '~' or '}' not preceded by '\\'. Moodle then decodes HTML
  entities and undoes only '\\}' and '\\#'. So every '}', '#', '~' and '\\' is written as a
  numeric character reference, '&' as '&#38;' (an answer ending in '&amp;' would swallow the
  '~' after it), and '<', '>', '"' as entities;
- MULTICHOICE alternatives are stored as HTML, so their escaped HTML is encoded once more;
- fractions are '=' or '%n%' with any n: cloze does not check Moodle's grade list;
- the question's mark is the sum of the sub-questions' weights, which must be whole numbers
  (`[0-9]*`); <defaultgrade> and the combined feedback are not read;
- a '{' in the rest of the text that looks like a sub-question would become one, so the text's
  own braces are written as '&#123;'.
"""

from __future__ import annotations

from decimal import Context, Decimal
from fractions import Fraction
from math import gcd, lcm
from html import escape as html_escape

from ....model import DropdownBlank, NumericalBlank, NumericAnswer, ShortAnswerBlank, Text
from ...xml import number

_EXACT = Context(prec=800, Emax=999_999, Emin=-999_999)  # the sum of any two doubles, exactly
_CODES = {"&": "&#38;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "}": "&#125;", "#": "&#35;", "~": "&#126;", "\\": "&#92;"}
_ENCODE = str.maketrans(_CODES)


def encode(value: str) -> str:
    """A string as Moodle's cloze parser gives it back exactly."""
    return value.translate(_ENCODE)


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
    # the author wrote: [0.1, 0.3] is 0.2 ± 0.1, not 0.2 ± 0.09999999999999999.
    # Exact: with the default 28 digits [1e-139, 0.1] would become 0.05 ± 0.05, from 0.
    low, high = Decimal(repr(answer.minimum)), Decimal(repr(answer.maximum))
    middle = _EXACT.divide(_EXACT.add(low, high), 2)
    half = _EXACT.divide(_EXACT.subtract(high, low), 2)
    return f"{_decimal(middle)}:{_decimal(half)}"


def _decimal(value: Decimal) -> str:
    text = format(value.normalize(_EXACT), "f")
    return "0" if text in ("-0", "") else text


def sub_question(blank, weight: int, render) -> str:
    """`render(text)` gives the inline HTML of a feedback text."""
    if isinstance(blank, ShortAnswerBlank):
        kind = "SHORTANSWER_C" if blank.case_sensitive else "SHORTANSWER"
        # '*' is a wildcard in short answers; '\\*' a literal star (compare_string_with_wildcard).
        alternatives = [percent(a.credit) + encode(a.text).replace("*", "\\*") + _feedback(a.feedback, render) for a in blank.answers]
    elif isinstance(blank, NumericalBlank):
        kind = "NUMERICAL"
        alternatives = [percent(a.credit) + _numeric(a) + _feedback(a.feedback, render) for a in blank.answers]
    else:
        assert isinstance(blank, DropdownBlank)
        kind = "MULTICHOICE_S" if blank.shuffle else "MULTICHOICE"
        alternatives = [percent(o.credit) + encode(html_escape(o.text, quote=False)) + _feedback(o.feedback, render) for o in blank.options]
    return "{" + f"{weight}:{kind}:" + "~".join(alternatives) + "}"

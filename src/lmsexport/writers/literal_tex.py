"""TeX delimiters that a Markdown text shows as text but a platform's MathJax would typeset.

Markdown writes a literal `\\(` as `\\\\(` (or `&#92;(`, or in code); its HTML then holds `\\(`
beside the formulas, which MathJax (Canvas's, and Moodle's in a field holding a formula) cannot
tell from them. Code is left out: MathJax skips <code> and <pre>.
"""

from __future__ import annotations

import re

from ..model import Text, TextFormat
from ..text import to_html
from ..text.markdown import formulas
from ..text.math import to_tex

_CODE = re.compile(r"<(code|pre)\b.*?</\1>", re.S)
_MARKDOWN = TextFormat.MARKDOWN  # read once: an Enum member read off its class is slow on Python 3.11


def literal_tex(text: Text | None, delimiters: re.Pattern, with_formula: bool = False) -> str | None:
    """The first TeX that `delimiters` find in a Markdown text's HTML outside its formulas and
    code (None when there is none); `with_formula`: only in a text that has a formula."""
    if text is None or text.format is not _MARKDOWN:
        return None
    source = text.source
    # A literal delimiter is escaped (\\\\( \\$), a character reference or in code (indented too),
    # or a pair of dollars Markdown takes for no formula where MathJax finds one (`$$$$`: nothing between).
    if ("\\\\" not in source and "\\$" not in source and "&#" not in source and "`" not in source and "    " not in source
            and "$$" not in source):
        return None
    # Every formula's delimiter holds a dollar or a backslash: a text with neither has no formula,
    # and is not parsed to find none. The formulas are looked for only when they are needed.
    may_hold_formulas = "$" in source or "\\" in source
    if with_formula and not (may_hold_formulas and formulas(source)):
        return None
    html = to_html(text)
    if delimiters.search(html) is None:
        return None
    for latex, display in formulas(source) if may_hold_formulas else ():
        html = html.replace(to_tex(latex, display), "", 1)
    literal = delimiters.search(_CODE.sub("", html))
    return literal.group() if literal else None

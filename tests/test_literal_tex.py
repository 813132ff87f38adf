"""literal_tex looks for formulas only where it needs them: the same answer as looking first,
over generated Markdown of every mark it reads (escaped delimiters, references, code, formulas)."""

from __future__ import annotations

from hypothesis import example, given, settings, strategies as st

from lmsexport.model import Text, TextFormat
from lmsexport.text import to_html
from lmsexport.text.markdown import formulas
from lmsexport.text.math import to_tex
from lmsexport.writers.canvas.losses import _TEX
from lmsexport.writers.literal_tex import _CODE, literal_tex
from lmsexport.writers.moodle.common import _FORMULA


def _looking_first(text: Text, delimiters, with_formula: bool) -> str | None:
    """literal_tex as it was written before: the formulas found first, for every text it reads
    (a text holding `$$` among them)."""
    source = text.source
    if ("\\\\" not in source and "\\$" not in source and "&#" not in source and "`" not in source and "    " not in source
            and "$$" not in source):
        return None
    found = formulas(source)
    if with_formula and not found:
        return None
    html = to_html(text)
    if delimiters.search(html) is None:
        return None
    for latex, display in found:
        html = html.replace(to_tex(latex, display), "", 1)
    literal = delimiters.search(_CODE.sub("", html))
    return literal.group() if literal else None


PIECES = ("word", " ", "\n", "\n\n", "    ", "`", "``", "```\n", "&#92;(", "&#92;[", "&#36;&#36;", "&#x5C;(", "\\\\(", "\\\\)", "\\\\[",
          "\\\\]", "\\$", "$$", "$x^2$", "$$y$$", "\\(a\\)", "\\[b\\]", "\\(", "\\)", "\\[", "\\]", "$", "- ", "1. ", "> ", "*e*",
          "[l](http://x.org/\\()", "<b>", "&amp;", "\\")


@settings(max_examples=300)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join), st.booleans())
@example("$x^2$$$$$", True)  # four dollars beside a formula: no formula to Markdown, an empty one to MathJax
def test_the_same_as_looking_for_formulas_first(source, with_formula):
    text = Text(source, TextFormat.MARKDOWN)
    for delimiters in (_FORMULA, _TEX):
        assert literal_tex(text, delimiters, with_formula) == _looking_first(text, delimiters, with_formula)


def test_formulas_are_looked_for_only_where_one_could_be(monkeypatch):
    import lmsexport.writers.literal_tex as module

    asked: list[str] = []
    monkeypatch.setattr(module, "formulas", lambda source: asked.append(source) or formulas(source))
    code = Text("`code`, &#92;(x&#92;) and four    spaces", TextFormat.MARKDOWN)
    assert literal_tex(code, _FORMULA, with_formula=True) is None  # no dollar, no backslash: no formula
    assert literal_tex(Text("`code` only", TextFormat.MARKDOWN), _TEX) is None  # its HTML holds no delimiter
    assert asked == []
    assert literal_tex(code, _TEX) == "\\(x\\)"  # the references show TeX Canvas typesets
    with_formula = Text("$x$ and \\\\(y\\\\)", TextFormat.MARKDOWN)
    assert literal_tex(with_formula, _FORMULA, with_formula=True) == "\\(y\\)"
    assert asked == [with_formula.source, with_formula.source]

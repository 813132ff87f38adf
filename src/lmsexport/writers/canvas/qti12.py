"""Small builders for the QTI 1.2 elements Canvas's exporter writes (lib/cc/qti/qti_items.rb)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..xml import attribute
from .xml import INDENT, Lines

NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = f"{NS} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"

_HTML = ' texttype="text/html"'

# Canvas keeps, beside each HTML text, a plain twin made by its clear_html (html_helper.rb): tags
# out, numeric character references decoded, named ones deleted. With the named references of
# escaped text written as numeric ones, "a &amp; b" gives "a & b" instead of "a  b" (and an
# option "& &" no text at all), and the HTML means the same.
#
# The references are rewritten after "&" is escaped, as they read then ("&amp;" is "&amp;amp;"),
# into their numeric forms escaped the same way: every "&" left is an escaped one and every
# reference starts with one, so this gives what rewriting first and escaping after gives, with
# one replace of "&" fewer and none of the escape's search (tests/test_canvas_escape.py).
NUMERIC = (("&amp;amp;", "&amp;#38;"), ("&amp;lt;", "&amp;#60;"), ("&amp;gt;", "&amp;#62;"), ("&amp;quot;", "&amp;#34;"))


def html_text(html: str) -> str:
    """HTML as the escaped character data of a mattext, its references numeric: the characters
    writers/xml.py's `text` escapes, escaped the same way. Each replace runs only where its
    character is: the test stops at the first one, a replace would scan the whole string."""
    if "&" in html:
        html = html.replace("&", "&amp;")
        for named, numeric in NUMERIC:
            html = html.replace(named, numeric)
    if "<" in html:
        html = html.replace("<", "&lt;")
    if ">" in html:
        html = html.replace(">", "&gt;")
    if "\r" in html:
        html = html.replace("\r", "&#13;")
    return html


def html_material(lines: Lines, html: str) -> None:
    """Canvas reads HTML as escaped markup inside mattext texttype="text/html"."""
    escaped_material(lines, html_text(html))


def escaped_material(lines: Lines, data: str) -> None:
    """The material of HTML already escaped by `html_text`."""
    # One string for the three lines: this runs for every stem, option and feedback.
    outer, inner = INDENT[lines.depth], INDENT[lines.depth + 1]
    lines.parts.append(f"{outer}<material>\n{inner}<mattext{_HTML}>{data}</mattext>\n{outer}</material>\n")


def plain_material(lines: Lines, text: str) -> None:
    """A matching question's right-hand side: Canvas keeps only plain text there."""
    lines.open("material")
    lines.leaf("mattext", "", text)
    lines.close("material")


def respcondition(lines: Lines, cont: str | None = "No") -> None:
    """Opens respcondition and its conditionvar; `end_condition` closes what follows them."""
    lines.open("respcondition", f' continue="{cont}"' if cont else "")
    lines.open("conditionvar")


def end_conditionvar(lines: Lines) -> None:
    lines.close("conditionvar")


def end_condition(lines: Lines) -> None:
    lines.close("respcondition")


def varequal(lines: Lines, respident: str, value: str) -> None:
    lines.leaf("varequal", f' respident="{attribute(respident)}"', value)


def other(lines: Lines, cont: str, feedback: str | None = None) -> None:
    # One string for the whole condition: every item has one or two of these.
    d = lines.depth
    shown = f'{INDENT[d + 1]}<displayfeedback feedbacktype="Response" linkrefid="{feedback}"/>\n' if feedback else ""
    lines.parts.append(
        f'{INDENT[d]}<respcondition continue="{cont}">\n{INDENT[d + 1]}<conditionvar>\n{INDENT[d + 2]}<other/>\n'
        f"{INDENT[d + 1]}</conditionvar>\n{shown}{INDENT[d]}</respcondition>\n"
    )


# Stands for a value in a frame: no XML holds it (loading refuses it) and escaping leaves it.
SLOT = "\x00"


def frame(build: Callable[[Lines], None], depth: int) -> tuple[str, ...]:
    """The lines `build` writes at `depth`, cut at each SLOT: the constant text around the values
    of lines written for many options, made once by the same builders as the lines themselves."""
    lines = Lines(depth)
    build(lines)
    return tuple("".join(lines.parts).split(SLOT))


@lru_cache(maxsize=None)
def feedback_condition_frame(depth: int, respident: str) -> tuple[str, str, str]:
    """The condition showing the feedback V_fb when the response is V, scoring nothing
    (continue="Yes"), at `depth`: the text before V, between V and V_fb, and after, so that it
    reads `before + V + between + V + after`. V is one of the writer's own idents (a number), put
    in as it is: nothing to escape."""
    def build(lines: Lines) -> None:
        respcondition(lines, "Yes")
        varequal(lines, respident, SLOT)
        end_conditionvar(lines)
        show_feedback(lines, f"{SLOT}_fb")
        end_condition(lines)

    before, between, after = frame(build, depth)
    return before, between, after


def set_score(lines: Lines, value: str, action: str = "Set") -> None:
    lines.leaf("setvar", f' action="{action}" varname="SCORE"', value)


def show_feedback(lines: Lines, ident: str) -> None:
    lines.parts.append(f'{INDENT[lines.depth]}<displayfeedback feedbacktype="Response" linkrefid="{ident}"/>\n')


# An itemfeedback is a child of the item, at depth 4: all but its ident and text is the same.
_FEEDBACK_OPEN = f'{INDENT[4]}<itemfeedback ident="'
_FEEDBACK_MATERIAL = f'">\n{INDENT[5]}<flow_mat>\n{INDENT[6]}<material>\n{INDENT[7]}<mattext{_HTML}>'
_FEEDBACK_CLOSE = f"</mattext>\n{INDENT[6]}</material>\n{INDENT[5]}</flow_mat>\n{INDENT[4]}</itemfeedback>\n"


def itemfeedback(ident: str, data: str) -> str:
    """The itemfeedback element of HTML already escaped by `html_text`. The idents are the
    writer's own (general_fb, <number>_fb): nothing to escape."""
    return f"{_FEEDBACK_OPEN}{ident}{_FEEDBACK_MATERIAL}{data}{_FEEDBACK_CLOSE}"

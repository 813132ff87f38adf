"""Small builders for the QTI 1.2 elements Canvas's exporter writes (lib/cc/qti/qti_items.rb)."""

from __future__ import annotations

from ..xml import attribute, text
from .xml import INDENT, Lines

NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = f"{NS} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"

_HTML = ' texttype="text/html"'

# Canvas keeps, beside each HTML text, a plain twin made by its clear_html (html_helper.rb): tags
# out, numeric character references decoded, named ones deleted. With the named references of
# escaped text written as numeric ones, "a &amp; b" gives "a & b" instead of "a  b" (and an
# option "& &" no text at all), and the HTML means the same.
_NUMERIC = {"&amp;": "&#38;", "&lt;": "&#60;", "&gt;": "&#62;", "&quot;": "&#34;"}


def html_text(html: str) -> str:
    """HTML as the escaped character data of a mattext, its references numeric."""
    if "&" in html:
        for named, numeric in _NUMERIC.items():
            html = html.replace(named, numeric)
    return text(html)


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


def feedback_condition(lines: Lines, respident: str, value: str, feedback: str) -> None:
    """Shows `feedback` when the response is `value`, scoring nothing (continue="Yes"). The
    response and the value are the writer's own idents (response1, numbers): nothing to escape."""
    d = lines.depth
    lines.parts.append(
        f'{INDENT[d]}<respcondition continue="Yes">\n{INDENT[d + 1]}<conditionvar>\n'
        f'{INDENT[d + 2]}<varequal respident="{respident}">{value}</varequal>\n'
        f'{INDENT[d + 1]}</conditionvar>\n{INDENT[d + 1]}<displayfeedback feedbacktype="Response" linkrefid="{feedback}"/>\n'
        f"{INDENT[d]}</respcondition>\n"
    )


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

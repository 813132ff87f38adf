"""Small builders for the QTI 1.2 elements Canvas's exporter writes (lib/cc/qti/qti_items.rb)."""

from __future__ import annotations

from .xml import INDENT, Lines, attribute, text

NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = f"{NS} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"

_HTML = ' texttype="text/html"'


def html_material(lines: Lines, html: str) -> None:
    """Canvas reads HTML as escaped markup inside mattext texttype="text/html"."""
    # One string for the three lines: this runs for every stem, option and feedback.
    outer, inner = INDENT[lines.depth], INDENT[lines.depth + 1]
    lines.parts.append(f"{outer}<material>\n{inner}<mattext{_HTML}>{text(html)}</mattext>\n{outer}</material>\n")


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
    respcondition(lines, cont)
    lines.leaf("other")
    end_conditionvar(lines)
    if feedback:
        show_feedback(lines, feedback)
    end_condition(lines)


def set_score(lines: Lines, value: str, action: str = "Set") -> None:
    lines.leaf("setvar", f' action="{action}" varname="SCORE"', value)


def show_feedback(lines: Lines, ident: str) -> None:
    lines.leaf("displayfeedback", f' feedbacktype="Response" linkrefid="{attribute(ident)}"')


def itemfeedback(lines: Lines, ident: str, html: str) -> None:
    lines.open("itemfeedback", f' ident="{attribute(ident)}"')
    lines.open("flow_mat")
    html_material(lines, html)
    lines.close("flow_mat")
    lines.close("itemfeedback")

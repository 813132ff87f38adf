"""MathML back to LaTeX, for the formulas QTI packages carry.

The LaTeX is checked by converting it forward again (the converter the QTI writer uses): when
both MathML trees are the same, the formula is exact; otherwise the nearest LaTeX is kept and the
caller reports a loss.
"""

from __future__ import annotations

from functools import lru_cache

from lxml import etree

from ..text.math import FormulaError, to_mathml

_SIMPLE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=()[]<>/|.,;:!?'*")


@lru_cache(maxsize=1)
def _commands() -> dict[str, str]:
    """Unicode character -> the LaTeX command latex2mathml turns into it (the shortest one)."""
    from latex2mathml.symbols_parser import SYMBOLS

    reverse: dict[str, str] = {}
    for command, code in SYMBOLS.items():
        if not command.startswith("\\") or not command[1:].isalpha():
            continue
        try:
            character = chr(int(code, 16))
        except (ValueError, TypeError):
            continue
        if character not in reverse or len(command) < len(reverse[character]):
            reverse[character] = command
    return reverse


def _local(element: etree._Element) -> str:
    if not isinstance(element.tag, str):
        return ""
    name = etree.QName(element).localname
    return "math" if name == "mathml_math" else name  # the QTI reader's marker for a MathML root


def _token(text: str) -> str:
    out = []
    for character in text:
        if character in _SIMPLE:
            out.append(character)
        elif character in "{}#%&_$":
            out.append("\\" + character)
        elif character == "\u00a0":
            out.append("\\ ")
        elif character in _commands():
            out.append(_commands()[character] + " ")
        else:
            out.append(character)
    return "".join(out).rstrip() if len(text) == 1 else "".join(out)


def _argument(element: etree._Element) -> str:
    inner = _latex(element)
    return inner if _local(element) in ("mi", "mn", "mo") and len(inner) == 1 else "{" + inner + "}"


def _latex(element: etree._Element) -> str:
    tag = _local(element)
    children = [c for c in element if isinstance(c.tag, str)]
    if tag in ("math", "mrow", "mstyle", "semantics"):
        if tag == "semantics":
            children = children[:1]
        return " ".join(_latex(c) for c in children)
    text = "".join(element.itertext())
    if tag in ("mi", "mn", "mo"):
        if tag in ("mi", "mo") and len(text) > 1 and text.isalpha():
            return "\\" + text if tag == "mi" else "\\operatorname{" + text + "}"
        return _token(text)
    if tag == "mtext":
        return "\\text{" + text.replace("\u00a0", " ") + "}"
    if tag == "msup" and len(children) == 2:
        return _latex(children[0]) + "^" + _argument(children[1])
    if tag == "msub" and len(children) == 2:
        return _latex(children[0]) + "_" + _argument(children[1])
    if tag == "msubsup" and len(children) == 3:
        return _latex(children[0]) + "_" + _argument(children[1]) + "^" + _argument(children[2])
    if tag == "munder" and len(children) == 2:
        return _latex(children[0]) + "_" + _argument(children[1])
    if tag == "mover" and len(children) == 2:
        return _latex(children[0]) + "^" + _argument(children[1])
    if tag == "munderover" and len(children) == 3:
        return _latex(children[0]) + "_" + _argument(children[1]) + "^" + _argument(children[2])
    if tag == "mfrac" and len(children) == 2:
        return "\\frac" + _argument(children[0]) + _argument(children[1])
    if tag == "msqrt":
        return "\\sqrt{" + " ".join(_latex(c) for c in children) + "}"
    if tag == "mroot" and len(children) == 2:
        return "\\sqrt[" + _latex(children[1]) + "]{" + _latex(children[0]) + "}"
    if tag == "mspace":
        return {"0.167em": "\\,", "0.222em": "\\:", "0.278em": "\\;", "1em": "\\quad", "2em": "\\qquad",
                "negativethinmathspace": "\\!"}.get(element.get("width", ""), "\\ ")
    return _token(text)


def _shape(element: etree._Element):
    return (_local(element), tuple(sorted((k, v) for k, v in element.attrib.items() if not k.startswith("{"))),
            (element.text or "").strip(), tuple(_shape(c) for c in element if isinstance(c.tag, str)))


def formula_source(element: etree._Element) -> tuple[str, bool, bool]:
    """(LaTeX, display, exact) of a MathML <math> element."""
    display = element.get("display") == "block"
    annotation = next((a for a in element.iter() if _local(a) == "annotation" and (a.get("encoding") or "").lower() in ("application/x-tex", "latex", "tex")), None)
    candidates = []
    if annotation is not None and (annotation.text or "").strip():
        candidates.append(annotation.text.strip())
    candidates.append(" ".join(_latex(element).split()))
    wanted = _shape(element)
    for latex in candidates:
        try:
            produced = etree.fromstring(to_mathml(latex, display))
        except (FormulaError, etree.XMLSyntaxError):
            continue
        if _shape(produced) == wanted:
            return latex, display, True
    return candidates[0], display, False

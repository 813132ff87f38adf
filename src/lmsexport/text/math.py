"""LaTeX formulas: to MathML for QTI, or kept as TeX between \\( \\) and \\[ \\] for MathJax.

latex2mathml turns an unknown command into a plain identifier instead of failing, which would
export a formula that reads '\\frca' to students; such output is treated as a failure here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

_UNKNOWN_COMMAND = re.compile(r"<m[io][^>]*>(\\[A-Za-z]+)</m[io]>")
# A backslash before a character that makes no command it knows (\0, \(, \') comes out as a bare
# backslash identifier (with \[ and \] beside it): no LaTeX either, and MathJax refuses it too.
_UNKNOWN_SYMBOL = re.compile(r"<m[io][^>]*>\\[\[\]]?</m[io]>")
_CONTROL_SYMBOL = re.compile(r"\\(?:\\|([^A-Za-z]))")
# A '#' not escaped by a backslash: LaTeX's macro parameter character, which TeX and MathJax refuse
# in a formula ("You can't use 'macro parameter character #' in math mode"); latex2mathml writes it
# as an identifier, which reads back as \#.
_PARAMETER = re.compile(r"(?<!\\)(?:\\\\)*#")


@lru_cache(maxsize=256)
def _symbol_known(character: str) -> bool:
    from latex2mathml.converter import convert

    try:
        return _UNKNOWN_SYMBOL.search(convert("\\" + character)) is None
    except Exception:  # a symbol latex2mathml fails on is no command it knows either
        return False


def _unknown_symbol(latex: str) -> str:
    """The first control symbol of a formula that latex2mathml writes as a bare backslash."""
    for found in _CONTROL_SYMBOL.finditer(latex):
        if found.group(1) is not None and not _symbol_known(found.group(1)):
            return found.group()
    return "\\"


class FormulaError(ValueError):
    pass


@lru_cache(maxsize=16384)
def to_mathml(latex: str, display: bool) -> str:
    """MathML for a formula, or FormulaError saying why it cannot be converted."""
    if not latex.strip():
        raise FormulaError("the formula is empty")
    # Imported at the first formula: latex2mathml's import (its symbol table, and the standard
    # library's HTTP and SSL modules it pulls in) costs more than a whole validation of a small
    # quiz, and most banks hold no formula.
    from latex2mathml.converter import convert
    from lxml import etree

    if "#" in latex and _PARAMETER.search(latex):
        raise FormulaError(f"the formula '{latex}' uses '#', which LaTeX keeps for macro parameters; write \\# for the character")
    try:
        mathml = convert(latex, display="block" if display else "inline")
    except Exception as problem:  # latex2mathml raises many kinds, some with no message
        detail = str(problem) or type(problem).__name__
        raise FormulaError(f"the formula '{latex}' cannot be converted ({detail})") from None
    unknown = _UNKNOWN_COMMAND.search(mathml)
    if unknown:
        raise FormulaError(f"the formula '{latex}' uses {unknown.group(1)}, which is not a known LaTeX command")
    if "\\" in mathml and _UNKNOWN_SYMBOL.search(mathml):
        raise FormulaError(f"the formula '{latex}' uses {_unknown_symbol(latex)}, which is not a known LaTeX command")
    try:
        etree.fromstring(mathml)
    except etree.XMLSyntaxError:
        # latex2mathml passes a stray '&' (LaTeX's column separator) through unescaped.
        raise FormulaError(f"the formula '{latex}' cannot be converted to MathML (a '&' outside an array or matrix?)") from None
    return mathml


def to_tex(latex: str, display: bool) -> str:
    """The formula between MathJax's default delimiters, HTML-escaped."""
    return ("\\[" if display else "\\(") + escape(latex, quote=False) + ("\\]" if display else "\\)")

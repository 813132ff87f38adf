"""What a reader sees of a text, worked out without lmsexport's own rendering.

`shown` turns HTML into the text a browser shows (HTML's white space rules); `plain_shown` says
what a plain text must show (as typed); `markdown_shown` renders Markdown with markdown-it-py
directly (CommonMark, tables, the math delimiters of the content format) and shows that. Tests
compare what a platform stores, passed through `shown`, with these: a writer that renders wrongly
cannot also make the expectation wrong, since none of this calls lmsexport.
"""

from __future__ import annotations

import re
from html import escape

import lxml.html
from lxml import etree
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.texmath import texmath_plugin

_BLOCKS = {"p", "div", "li", "ul", "ol", "table", "tr", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "hr"}
_MEDIA = {"img", "audio", "video"}
_PARAGRAPH, _BREAK = "\x01", "\x02"


def _local(tag) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _walk(element, parts: list[str]) -> None:
    name = _local(element.tag)
    if name == "math":  # typeset by the platform: which formula it is, is checked elsewhere
        parts.append("[formula]")
        return
    if name in _MEDIA:  # an image shows its picture, a player its controls: named by their alt text
        parts.append("[" + (element.get("alt") or "".join(element.itertext())).strip() + "]")
        return
    if name in _BLOCKS:
        parts.append(_PARAGRAPH)
    if name == "br":
        parts.append(_BREAK)
    parts.append(element.text or "")
    for child in element:
        _walk(child, parts)
        parts.append(child.tail or "")
    if name in _BLOCKS:
        parts.append(_PARAGRAPH)


def shown_of_element(element) -> str:
    """The text a browser shows for an element's content: runs of white space are one space and
    vanish at line ends, <br> breaks a line, blocks are set off by a blank line, a no-break space
    is a space."""
    parts: list[str] = [element.text or ""]
    for child in element:
        _walk(child, parts)
        parts.append(child.tail or "")
    text = re.sub(r"[ \t\n\r\f]+", " ", "".join(parts))  # collapsible white space; not U+00A0
    text = re.sub(f" *([{_PARAGRAPH}{_BREAK}]) *", r"\1", text)
    text = re.sub(f"{_PARAGRAPH}+", _PARAGRAPH, text).strip(_PARAGRAPH + " ")
    text = re.sub(f"{_BREAK}*{_PARAGRAPH}{_BREAK}*", _PARAGRAPH, text)  # a break at a block's edge shows nothing
    text = text.replace(_PARAGRAPH, "\n\n").replace(_BREAK, "\n").replace("\u00a0", " ")
    # Spaces ending a line cannot be seen, nor lines of spaces alone before or after the text
    # (a paragraph of one no-break space).
    text = "\n".join(line.rstrip(" ") for line in text.split("\n")).strip(" \n")
    return _one_blank_line(text)


def _one_blank_line(text: str) -> str:
    """Several blank lines in a row read as one: a paragraph break in HTML shows no more."""
    return re.sub(r"\n{3,}", "\n\n", text)


def shown(html: str) -> str:
    return shown_of_element(lxml.html.fragment_fromstring(html, create_parent="div"))


def plain_shown(source: str) -> str:
    """A plain text as typed: each line break a line, blank lines a new paragraph, spaces kept
    (but those ending a line, which nobody can see)."""
    text = source.replace("\r\n", "\n").replace("\r", "\n")
    paragraphs = [p.strip("\n") for p in re.split(r"\n{2,}", text) if p.strip()]
    lines = "\n\n".join(paragraphs).split("\n")
    lines = [line.replace("\u00a0", " ").rstrip(" \t") for line in lines]  # a no-break space shows as a space
    return _one_blank_line("\n".join(lines).strip(" \t"))


def _reference_markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False, double_inline=True)
    texmath_plugin(md, delimiters="brackets")

    def display_brackets(state, silent):  # the content format's \[...\] inside a sentence
        if not state.src.startswith("\\[", state.pos):
            return False
        end = state.src.find("\\]", state.pos + 2)
        if end < 0:
            return False
        if not silent:
            state.push("math_inline_double", "math", 0).content = state.src[state.pos + 2:end]
        state.pos = end + 2
        return True

    md.inline.ruler.before("escape", "display_brackets", display_brackets)
    tex = {"math_inline": ("\\(", "\\)"), "math_inline_double": ("\\[", "\\]"), "math_block": ("\\[", "\\]"),
           "math_block_label": ("\\[", "\\]")}
    def formula(self, tokens, idx, options, env, o="", c=""):
        if env.get("math") == "mathml":
            return "<math></math>"
        return f"<span>{o}{escape(tokens[idx].content.strip(), quote=False)}{c}</span>"

    for token_type, (opening, closing) in tex.items():
        md.add_render_rule(token_type, lambda self, tokens, idx, options, env, o=opening, c=closing:
                           formula(self, tokens, idx, options, env, o, c))
    return md


_MARKDOWN = _reference_markdown()


def markdown_shown(source: str, math: str = "tex") -> str:
    """What a Markdown text shows, formulas as the TeX a MathJax filter reads (or, with
    math="mathml", as a typeset formula)."""
    return shown(_MARKDOWN.render(source, {"math": math}) or "<p></p>")


def loose_around_tabs(text: str, source: str) -> str:
    """HTML collapses the white space around a tab: for a source holding one, runs of spaces are
    not compared (the literal tables check spaces exactly)."""
    return re.sub(r"[ \t]+", " ", text) if "\t" in source else text


def expected_shown(text, math: str = "tex") -> str:
    """What a content text (a lmsexport.model.Text) must show."""
    return plain_shown(text.source) if text.format.value == "plain" else markdown_shown(text.source, math)


def shows(html: str, text) -> bool:
    """Whether HTML a writer produced shows what the content's text says."""
    return loose_around_tabs(shown(html), text.source) == loose_around_tabs(expected_shown(text), text.source)

"""The Markdown parser (CommonMark, tables, math) and how its tokens become XHTML."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from pathlib import PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import unquote

from .math import FormulaError, to_mathml, to_tex
from .simple import simple_links
from .style import MathStyle, RenderStyle

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

AUDIO = {".mp3": "audio/mpeg"}
VIDEO = {".mp4": "video/mp4"}
DOCUMENT = {".pdf": "application/pdf"}


def _parser() -> MarkdownIt:
    # markdown-it-py and its plugins load with the first text that needs the parser: most texts
    # take the fast paths of simple.py, a bank may hold none that needs it, and loading them
    # costs some 15 ms of every run.
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.texmath import texmath_plugin

    # Raw HTML is off: whatever HTML an author types is shown as text and never run.
    md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": True, "breaks": False}).enable("table")
    # "$5 and $10" must stay text: no digits or spaces next to a single dollar.
    dollarmath_plugin(md, allow_labels=False, allow_space=False, allow_digits=False, double_inline=True)
    texmath_plugin(md, delimiters="brackets")
    # texmath reads \[...\] only as a block of its own; inside a sentence CommonMark would take
    # "\[" for an escaped bracket and the formula would quietly become text.
    md.inline.ruler.before("escape", "math_display_brackets", _display_brackets)
    return md


def _display_brackets(state, silent: bool) -> bool:
    if not state.src.startswith("\\[", state.pos):
        return False
    end = state.src.find("\\]", state.pos + 2)
    if end < 0:
        return False
    if not silent:
        token = state.push("math_inline_double", "math", 0)
        token.content = state.src[state.pos + 2:end]
        token.markup = "\\["
    state.pos = end + 2
    return True


def _formula(latex: str, display: bool, style: RenderStyle) -> str:
    if style.math is MathStyle.MATHML:
        try:
            return to_mathml(latex, display)
        except FormulaError:
            pass  # validation reports it with its place; nothing is exported then
    return to_tex(latex, display)


def _math_inline(self, tokens, idx, options, env):
    return _formula(tokens[idx].content, False, env["style"])


def _math_display_inline(self, tokens, idx, options, env):
    return _formula(tokens[idx].content, True, env["style"])


def _math_block(self, tokens, idx, options, env):
    return "<p>" + _formula(tokens[idx].content.strip(), True, env["style"]) + "</p>\n"


def _image(self, tokens, idx, options, env):
    token = tokens[idx]
    source = str(token.attrs.get("src", ""))
    alt = escape(self.renderInlineAsText(token.children or [], options, env), quote=True)
    style: RenderStyle = env["style"]
    # markdown-it percent-encodes addresses ("a b.png" -> "a%20b.png"); writers get the file's path.
    url = escape(style.media_url(unquote(source)) if style.media_url and is_local(source) else source, quote=True)
    suffix = PurePosixPath(source.split("?")[0]).suffix.lower()
    if suffix in AUDIO:
        return f'<audio controls="controls" src="{url}">{alt}</audio>'
    if suffix in VIDEO:
        return f'<video controls="controls" src="{url}">{alt}</video>'
    if suffix in DOCUMENT:
        return f'<a href="{url}">{alt}</a>'
    title = token.attrs.get("title")
    title_attribute = f' title="{escape(str(title), quote=True)}"' if title else ""
    return f'<img src="{url}" alt="{alt}"{title_attribute} />'


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    """The parser that renders, made on first use."""
    md = _parser()
    md.add_render_rule("math_inline", _math_inline)
    md.add_render_rule("math_inline_double", _math_display_inline)
    md.add_render_rule("math_block", _math_block)
    md.add_render_rule("image", _image)
    return md


@lru_cache(maxsize=1)
def _collector() -> MarkdownIt:
    """The same syntax, but accepting every address, so that checks see the ones rendering would drop."""
    md = _parser()
    md.validateLink = lambda url: True
    return md


def prepare() -> None:
    """Make both parsers now (for processes about to be forked, which then share them)."""
    _renderer()
    _collector()


def is_local(address: str) -> bool:
    """A relative path: a file that ships with the quiz (not a URL, not a fragment)."""
    return bool(address) and ":" not in address.split("/")[0] and not address.startswith(("/", "#", "//"))


def render(source: str, style: RenderStyle) -> str:
    # "&#13;" becomes a raw carriage return, which XML parsers and GIFT turn into a line feed
    # anyway; in HTML both are the same white space, so every format gets the line feed.
    return _renderer().render(source, {"style": style}).strip().replace("\r\n", "\n").replace("\r", "\n")


@lru_cache(maxsize=16384)
def _inventory(source: str) -> tuple[tuple[tuple[str, str, str], ...], tuple[tuple[str, bool], ...]]:
    """What checks and writers ask about a text: its links and images, its formulas."""
    links = simple_links(source)
    if links is not None:  # no image and no formula: its links are all, as the parser finds them
        return tuple(("link", address, "") for address in links), ()
    return _parsed_inventory(source)


def _parsed_inventory(source: str) -> tuple[tuple[tuple[str, str, str], ...], tuple[tuple[str, bool], ...]]:
    found, maths = [], []
    for token in _collector().parse(source):
        if token.type == "math_block":
            maths.append((token.content.strip(), True))
        for child in token.children or ():
            if child.type == "link_open":
                found.append(("link", str(child.attrs.get("href", "")), ""))
            elif child.type == "image":
                found.append(("image", str(child.attrs.get("src", "")), "".join(c.content for c in child.children or ())))
            elif child.type in ("math_inline", "math_inline_double"):
                maths.append((child.content, child.type == "math_inline_double"))
    return tuple(found), tuple(maths)


def references(source: str) -> tuple[tuple[str, str, str], ...]:
    """(kind, address, alt text) of every link and image (or other media) in a Markdown text."""
    return _inventory(source)[0]


def formulas(source: str) -> tuple[tuple[str, bool], ...]:
    """(latex, display) of every formula in a Markdown text."""
    return _inventory(source)[1]


def images(source: str):
    """(address, alt text) of every image (or other media) in a Markdown text."""
    return [(address, alt) for kind, address, alt in references(source) if kind == "image"]

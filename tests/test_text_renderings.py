"""The memoised renderings of lmsexport.text: each equals the rendering made afresh, each kind
(plain block, plain inline, Markdown block, Markdown inline, styled Markdown) keeps its own
table, and the HTML escape's shortcut equals the full escape. The bench bank's generated texts
all take the fast path and come out as markdown-it-py makes them."""

from __future__ import annotations

import importlib.util
import random
from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from lmsexport import text
from lmsexport.model import Text, TextFormat
from lmsexport.text import DEFAULT_STYLE, MathStyle, RenderStyle, simple
from lmsexport.text.markdown import render

MATHML = RenderStyle(math=MathStyle.MATHML)
MEDIA = RenderStyle(media_url=lambda path: "https://cdn.example/" + path)

# Sources that render differently as each kind: spaces, line breaks, marks, formulas, an image.
SOURCES = st.one_of(
    st.text(alphabet=st.sampled_from(list("ab é<>&\"'*`$![]()\\\n\r ")), max_size=24),
    st.sampled_from(["a *b*", "x  y", "$x$", "\\(y\\)", "\\[z\\]", "![i](p.png)", "a\n\nb", "- a\n- b", " lead", "<b>", "R&D",
                     "", " ", "\n", "one\r\ntwo", "**x**"]),
)


def _fresh(kind: str, source: str, style: RenderStyle = DEFAULT_STYLE) -> str:
    """The rendering of one kind, made without any table."""
    if kind == "plain block":
        return text._plain_to_html(source)
    if kind == "plain inline":
        return text._plain_to_inline_html(source)
    block = simple.simple_html(source)
    if block is None:
        block = render(source, style)
    return text._unwrapped(block) if kind == "markdown inline" else block


def _rendered(kind: str, source: str, style: RenderStyle = DEFAULT_STYLE) -> str:
    if kind == "plain block":
        return text.plain_to_html(source)
    if kind == "plain inline":
        return text.plain_to_inline_html(source)
    rich = Text(source, TextFormat.MARKDOWN)
    return text.to_inline_html(rich, style) if kind == "markdown inline" else text.to_html(rich, style)


KINDS = ["plain block", "plain inline", "markdown block", "markdown inline"]


@settings(max_examples=1500, deadline=None)
@given(SOURCES, st.sampled_from([DEFAULT_STYLE, MATHML, MEDIA]))
def test_a_memoised_rendering_is_the_rendering_made_afresh_for_every_kind_and_style(source, style):
    text.forget_renderings()
    for _ in range(2):  # the first time rendered and kept, the second read from the table
        for kind in KINDS:
            kind_style = style if kind.startswith("markdown") else DEFAULT_STYLE
            assert _rendered(kind, source, kind_style) == _fresh(kind, source, kind_style), (kind, source, style)


@settings(max_examples=800, deadline=None)
@given(SOURCES)
def test_kinds_never_share_an_entry(source):
    """One source rendered as every kind in turn: each kind's answer is its own, whichever came
    first, and each kind's table holds its own entry."""
    for order in (KINDS, KINDS[::-1]):
        text.forget_renderings()
        for kind in order:
            assert _rendered(kind, source) == _fresh(kind, source), (kind, source)
        assert text._PLAIN_BLOCK[source] == _fresh("plain block", source)
        assert text._PLAIN_INLINE[source] == _fresh("plain inline", source)
        assert text._MARKDOWN_BLOCK[source] == _fresh("markdown block", source)
        assert text._MARKDOWN_INLINE[source] == _fresh("markdown inline", source)


def test_a_style_keys_only_the_texts_whose_style_matters():
    text.forget_renderings()
    formula, words = Text("$x^2$", TextFormat.MARKDOWN), Text("no formula", TextFormat.MARKDOWN)
    tex, mathml = text.to_html(formula), text.to_html(formula, MATHML)
    assert tex != mathml and "<math" in mathml
    assert text._STYLED_MARKDOWN == {("$x^2$", MATHML): mathml}
    assert text._MARKDOWN_BLOCK == {"$x^2$": tex}
    assert text.to_html(words, MATHML) == text.to_html(words) == "<p>no formula</p>"
    assert "no formula" in text._MARKDOWN_BLOCK and len(text._STYLED_MARKDOWN) == 1
    assert text.to_inline_html(formula, MATHML) == mathml[3:-4] and text.to_inline_html(formula) == tex[3:-4]
    text.forget_renderings()
    assert not any(text._TABLES)


def test_a_full_table_is_emptied_before_it_takes_more(monkeypatch):
    text.forget_renderings()
    monkeypatch.setattr(text, "_RENDERED_LIMIT", 2)
    for source in ["a", "b", "c"]:
        text.plain_to_html(source)
    assert text._PLAIN_BLOCK == {"c": "<p>c</p>"}
    assert text.plain_to_html("a") == "<p>a</p>"
    text.forget_renderings()


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.text(max_size=30), st.text(alphabet=st.sampled_from(list("ab&<>\"' é;#")), max_size=30)))
def test_the_escape_shortcut_is_the_full_escape(value):
    assert text._escape(value) == escape(value, quote=False)


def test_the_escape_shortcut_returns_a_text_without_those_characters_itself():
    value = "".join(["plain words", " \"quoted\" 'single'"])
    assert text._escape(value) is value
    assert text._escape("a < b & c > d") == "a &lt; b &amp; c &gt; d"


_spec = importlib.util.spec_from_file_location("bench_generate", ROOT / "bench" / "generate.py")
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)


@pytest.mark.parametrize("language", generate.LANGUAGES)
def test_the_bench_writers_markdown_renders_as_markdown_it_renders_it(language):
    """Thousands of texts as the bench's Markdown quizzes hold them, with each of the strings
    that formats must escape in many of them: the fast path takes nearly all (all but lines that
    hold a link beside a mark it reads as text) and each comes out as the parser makes it."""
    rng = random.Random(language)
    writer = generate._Writer(rng, language, markdown=True)
    makers = [lambda: writer.words(1, 12), lambda: writer.sentence(3, 20), writer.stem, writer.paragraphs]
    sources = [rng.choice(makers)() for _ in range(1500)]
    sources += [writer.words(2, 8) + " " + hostile + " " + writer.sentence(1, 4) for hostile in generate.HOSTILE for _ in range(40)]
    fast_ones = 0
    for source in sources:
        fast = simple.simple_html(source)
        if fast is not None:
            fast_ones += 1
            assert fast == render(source, DEFAULT_STYLE).strip(), source
    assert fast_ones >= 0.95 * len(sources)
    for hostile in generate.HOSTILE:
        source = f"{rng.choice(generate.WORDS[language]).title()} {hostile} **{rng.choice(generate.WORDS[language])}**"
        assert simple.simple_html(source) == render(source, DEFAULT_STYLE).strip(), source


def _markdown_texts(quiz: dict):
    """Every string of a quiz that is Markdown: all of a Markdown quiz, the Markdown fields of another."""
    def walk(value, markdown: bool):
        if isinstance(value, dict):
            if value.get("format") == "markdown" and isinstance(value.get("text"), str):
                yield value["text"]
            for item in value.values():
                yield from walk(item, markdown)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item, markdown)
        elif isinstance(value, str) and markdown:
            yield value
    yield from walk(quiz, quiz.get("text_format") == "markdown")


def test_every_markdown_text_of_the_bench_bank_takes_the_fast_path():
    """The 2,000-question mixed bank of the bench (`bench/generate.py`'s defaults) needs no parser."""
    sources = {source for quiz in generate.mixed_bank(1, 2000, 2) for source in _markdown_texts(quiz)}
    assert len(sources) > 1000
    for source in sources:
        assert simple.simple_html(source) == render(source, DEFAULT_STYLE).strip(), source


@pytest.mark.parametrize("source", ["<p>a</p>", "plain & <b>", ""])
def test_html_text_is_passed_as_written_as_block_and_inline(source):
    text.forget_renderings()
    html = Text(source, TextFormat.HTML)
    assert text.to_html(html) == text.to_inline_html(html, MATHML) == source
    assert not any(text._TABLES)

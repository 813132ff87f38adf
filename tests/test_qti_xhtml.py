"""Rendered text checked without a parse: the quick path must decide exactly as the parse does."""

from __future__ import annotations

import random

import pytest

from lmsexport.writers.qti import xhtml

# Markup the quick path takes, and markup it must leave to the parser: nesting QTI refuses,
# broken markup, entities XML does not define, `]]>`, attributes. (No character XML cannot hold:
# loading refuses them, so no rendered text holds one.)
SAMPLES = [
    "",
    "plain é 😀 \u202eRTL\u202c e\u0301",
    "<p>a &amp; b &lt; c &gt; d &quot;e&quot;</p>",
    "<p><strong>bold</strong> <em>em</em> <code>x &lt; y</code><br />\nnext</p>\n<p>two</p>",
    '<p><a href="https://example.org/?a=1&amp;b=&quot;2&quot;">link <em>in</em></a></p>',
    "<p><p>nested</p></p>",
    "<em><p>block in inline</p></em>",
    '<a href="x"><a href="y">link in link</a></a>',
    "<p><em>unclosed</p>",
    "<p>crossed <em>a <strong>b</em> c</strong></p>",
    "</p>",
    "<p>a &nbsp; b</p>",
    "<p>a &#13; b</p>",
    "<p>a & b</p>",
    "a ]]> b",
    "a > b",
    '<code class="language-python">x</code>',
    '<a href="x" title="t">titled</a>',
    '<img src="a.png" alt="" />',
    "<br/>",
    "</br>",
    "<ul><li>item</li></ul>",
    "<!-- comment -->text",
]
PIECES = [
    "<p>", "</p>", "<em>", "</em>", "<strong>", "</strong>", "<code>", "</code>", '<a href="u?a=1&amp;b">', "</a>",
    "<br />", "<br/>", "</br>", "text", " ", "\n", "&amp;", "&lt;", "&quot;", "&apos;", "&nbsp;", "&", ">", "]]>",
    "ë😀", "<pre>", "</pre>", '<a href="">', '<a href="x" title="t">',
]


def _same(html: str) -> None:
    quick, parsed = xhtml.fragment.__wrapped__(html), xhtml._parsed(html)
    assert (quick.markup, quick.lost, quick.errors) == (parsed.markup, parsed.lost, parsed.errors), html


@pytest.mark.parametrize("html", SAMPLES)
def test_the_quick_path_decides_as_the_parse_does(html):
    _same(html)


def test_random_markup_is_decided_as_the_parse_decides():
    rng = random.Random(11)
    for _ in range(3000):
        _same("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6))))


@pytest.mark.parametrize("html", SAMPLES[:5])
def test_what_markdown_writes_for_plain_paragraphs_needs_no_parse(html, monkeypatch):
    def no_parse(_html):
        raise AssertionError("parsed")

    monkeypatch.setattr(xhtml, "_parsed", no_parse)
    assert xhtml.fragment.__wrapped__(html).markup == html


@pytest.mark.parametrize("html", SAMPLES[5:])
def test_anything_else_is_parsed(html, monkeypatch):
    seen = []
    monkeypatch.setattr(xhtml, "_parsed", lambda h: seen.append(h) or xhtml.Fragment(h, (), ()))
    xhtml.fragment.__wrapped__(html)
    assert seen == [html]


def _flat_agrees(html: str) -> None:
    """Markup `is_flat` passes is what the parse keeps as it is, with nothing lost or refused."""
    if xhtml.is_flat(html):
        parsed = xhtml._parsed(html)
        assert (parsed.markup, parsed.lost, parsed.errors) == (html, (), ()), html


@pytest.mark.parametrize("html", SAMPLES)
def test_flat_markup_is_what_the_parse_keeps(html):
    _flat_agrees(html)


def test_random_flat_markup_is_what_the_parse_keeps():
    rng = random.Random(12)
    passed = 0
    for _ in range(5000):
        html = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 7)))
        _flat_agrees(html)
        passed += xhtml.is_flat(html)
    assert passed > 200  # the pattern is reached, not only refused


def test_what_the_markdown_fast_paths_write_is_flat():
    for html in ["<p>a <strong>b</strong> <em>c</em> <code>d</code> &quot;e&quot;</p>\n<p>f</p>", 'x <a href="https://e.org/a?b=1">y</a> z',
                 "<p>one</p>", "words only", "a<br />\nb"]:
        assert xhtml.is_flat(html), html
    for html in ["<p><em>a</p></em>", "<p>a</p><ul><li>b</li></ul>", "<em><strong>a</strong></em>", "<p>a &nbsp;</p>", "<p><p>a</p></p>", "<p>a"]:
        assert not xhtml.is_flat(html), html

"""Text rendering: Markdown as CommonMark with math and media, plain text exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmsexport.model import Text, TextFormat
from lmsexport.text import DEFAULT_STYLE, MathStyle, RenderStyle, to_html, to_inline_html
from lmsexport.text import _SIMPLE_MARKDOWN
from lmsexport.text.markdown import render

WORDS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=40)
# Mostly ordinary sentence characters, with the punctuation Markdown cares about in some places.
SENTENCES = st.one_of(
    st.text(alphabet=st.sampled_from(list("aZé ñ9 .,;?'\"()/%#-+=:@{}1.)\t\u00a0\u2003ŋ🚀")), max_size=30),
    # with the marks that are text inside a line, entities, and what stands in for them
    st.lists(st.sampled_from(["a", "Zé", " ", ".", "&", ">", "~", "~~", "~~~", "&amp;", "&#38;", "&#x26;", "&copy;", "&foo;",
                              "&#", "&x", "&9;", "R&D", "a > b", "50% ~ half", "*", "**", "`", "\ue000", "\ue003", ":", "\t",
                              "\\", "C:\\path\\to", "\\*", "\\(x\\)", "\\[", "\\9", "\\ ", "\\é", "\\\\"]),
             max_size=10).map("".join),
    # "<" and "]" among words: tags (text, since raw HTML is off), autolinks and what looks like
    # one, CDATA ends, brackets with and without an opener, next to emphasis and other marks
    st.lists(st.sampled_from(["a", "Zé", " ", ".", "<", "]", "[", ">", "<b>", "</b>", "<i>", "]]>", "<script>alert(1)</script>",
                              "<https://e.org>", "<http://a.b/c?d=1>", "<a@b.c>", "<x:y>", "<x: y>", "<a b@c>", "< b", "a<b",
                              "<:", "@>", "<<", ">>", "<>", "[]", "][", "]]", "[[x]]", "](", "](https://e.org)", "&", "&lt;",
                              "*", "**", "`", "_", ":", "@", "\\", "\\<", "\\]", "\ue004", "\ue005", "🚀", "\t"]),
             max_size=12).map("".join))
# Words with emphasis, strong emphasis and code marks in every arrangement.
SPANS = st.lists(st.sampled_from(["a", "bc", " ", "*", "**", "`", ".", ",", "?", "!", ":", "-", "é", "🚀", '"', "'", "_", "1.",
                                  "<", "]", "<b>"]),
                 max_size=14).map("".join)
# Links among words: link texts and addresses of every kind, marks inside and around them.
_LINK_TEXT = st.text(alphabet=st.sampled_from(list("ab é🚀\"'()*_`!:{}[]<&~|$\\")), max_size=8)
_PATH = st.sampled_from(["/", "a", "Z_~.-", "?q=1", "#f"])
_ODD = st.sampled_from(["&", "%20", "%zz", "(", ")", '"', "'", " ", "<", ">", "*", "`", "[", "]", "\\", ":", "@", "!", "$", "+", ",", ";", "é", ""])
# Addresses with one character of any kind among those an address keeps as they are.
_ADDRESS = st.tuples(
    st.sampled_from(["https://", "https://", "http://", "HTTPS://", "ftp://", "javascript:", "", "//", "mailto:"]),
    st.one_of(st.text(alphabet=st.sampled_from(list("az09.-")), min_size=1, max_size=6),
              st.text(alphabet=st.sampled_from(list("aZ0.-_é%")), max_size=8)),
    st.lists(_PATH, max_size=2).map("".join), _ODD, st.lists(_PATH, max_size=2).map("".join),
).map("".join)
_LINK = st.builds(lambda words, address, end: f"[{words}]({address}{end}",
                  st.one_of(st.sampled_from(["a", "b c", "é 🚀", 'q"t', "x (y)"]), _LINK_TEXT),
                  st.one_of(st.sampled_from(["https://ex.org", "http://a.b/c_d~e-f.g?h=1#i", "https://ex.org/"]), _ADDRESS),
                  st.sampled_from([")", ")", ")", ' "t")', " )", "))", ""]))
_AROUND = st.text(alphabet=st.sampled_from(list("ab é🚀.,?'\"()&>~<]")), max_size=10)
LINKS = st.one_of(
    st.lists(st.one_of(_LINK, _AROUND), max_size=5).map("".join),
    st.lists(st.one_of(_LINK, SENTENCES, st.sampled_from(["!", "*", "`", "**", "[", "]", " ", "_"])), max_size=5).map("".join),
)
# Paragraphs of the above, apart by blank lines (or by lines that only look blank).
PARAGRAPHS = st.lists(st.one_of(SENTENCES, SPANS, LINKS), min_size=2, max_size=4).flatmap(
    lambda parts: st.lists(st.sampled_from(["\n\n", "\n\n\n", " \n\n", "\n \n", "\n", "\n\n\t"]),
                           min_size=len(parts) - 1, max_size=len(parts) - 1).map(
        lambda gaps: parts[0] + "".join(gap + part for gap, part in zip(gaps, parts[1:]))))

# Blocks of paragraphs, "- " lists and fenced code, with what would make each something else
# (an item that starts a block of its own, a fence that does not close or closes otherwise, two
# lists one blank line apart, a line that continues a block).
_ITEM = st.one_of(SENTENCES, SPANS, LINKS, st.sampled_from(["- x", "* y", "+ z", "1. a", "", " b", "c ", "# h", "> q", "```", "---", "[ ] t"]))
_LIST = st.lists(_ITEM, min_size=1, max_size=4).map(lambda items: "\n".join("- " + item for item in items))
_CODE_LINE = st.one_of(st.text(alphabet=st.sampled_from(list("a <>&\"'`~\t*-_[]()$é🚀\\")), max_size=12),
                       st.sampled_from(["```", "````", "  ```", "    ```", "```py", " ``` ", "", "~~~", "- x", "&amp;"]))
_FENCE = st.builds(lambda info, lines, closing: f"```{info}\n" + "".join(line + "\n" for line in lines) + closing,
                   st.sampled_from(["", "", "py", "c++", "x-y_1", " py", "py x", "`", "é", "~", "a&b", "\\"]),
                   st.lists(_CODE_LINE, max_size=4), st.sampled_from(["```", "```", "```", "````", "``` ", ""]))
BLOCKS = st.lists(st.one_of(SENTENCES, SPANS, LINKS, _LIST, _LIST, _FENCE, _FENCE,
                            st.sampled_from(["---", "***", "- - -", "  - x", "1. a", "para\ncontinued", "x\n- y"])),
                  min_size=1, max_size=5).flatmap(
    lambda parts: st.lists(st.sampled_from(["\n\n", "\n\n", "\n\n", "\n", "\n\n\n", "\n \n"]),
                           min_size=len(parts) - 1, max_size=len(parts) - 1).map(
        lambda gaps: parts[0] + "".join(gap + part for gap, part in zip(gaps, parts[1:]))))


@settings(max_examples=7000, deadline=None)
@given(st.one_of(WORDS, SENTENCES, SPANS, PARAGRAPHS, BLOCKS))
def test_the_fast_paths_render_what_markdown_it_renders(source):
    """A text that skips the parser must come out exactly as the parser would make it."""
    assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE).strip()


@settings(max_examples=4000, deadline=None)
@given(LINKS)
def test_links_render_without_the_parser_as_markdown_it_renders_them(source):
    assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE).strip()


@settings(max_examples=3000, deadline=None)
@given(st.one_of(LINKS, PARAGRAPHS, SPANS, BLOCKS))
def test_the_links_of_a_text_are_found_without_the_parser_as_with_it(source):
    """What the checks read (links, images, formulas) is what the parser finds, fast path or not."""
    from lmsexport.text import markdown

    assert markdown._inventory.__wrapped__(source) == markdown._parsed_inventory(source)


# Lines rich in "<" and "]" (the marks the fast path reads as text when no tag, autolink or link
# can start there), with emphasis and the other marks it reads as text, alone, as paragraphs and
# as list items.
_ANGLE_WORDS = st.lists(st.sampled_from(["a", "bc", "é", " ", " ", "<", "<", "]", "]", "[", ">", "&", "~", "\\", ":", "@", ".",
                                         "*", "**", "`", "<b>", "</b>", "]]>", "<a:b>", "<x@y>", "<https://e.org/>", "<a b:c>"]),
                        max_size=16).map("".join)
# Words and the two marks apart by spaces, as sentences have them, so that most lines do take the
# fast path.
_ANGLE_TEXT = st.lists(st.sampled_from(["a", "bc", "é🚀", "<", "<", "]", "]", "<b>not", "bold</b>", "]]>", "<i>", "a<b", "x]", "&",
                                        ">", "~", "?", "**x**", "*y*", "`z`", "<a:b>", "[", '"', "<x", "]y"]),
                       min_size=1, max_size=12).map(" ".join)
_ANGLE_WORDS = st.one_of(_ANGLE_WORDS, _ANGLE_TEXT, _ANGLE_TEXT)
ANGLES = st.one_of(_ANGLE_WORDS, st.lists(_ANGLE_WORDS, min_size=2, max_size=3).map("\n\n".join),
                   st.lists(_ANGLE_WORDS, min_size=1, max_size=3).map(lambda items: "\n".join("- " + item for item in items)))


@settings(max_examples=5000, deadline=None)
@given(ANGLES)
def test_angle_and_closing_brackets_render_without_the_parser_as_markdown_it_renders_them(source):
    assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE).strip()
    from lmsexport.text import markdown

    assert markdown._inventory.__wrapped__(source) == markdown._parsed_inventory(source)


def test_angle_and_closing_brackets_take_the_fast_path_unless_a_link_can_start():
    from lmsexport.text import simple

    for source in ["]]> and <script>alert(1)</script> here", "<b>not bold</b> & <i> **word**", "a < b and c > d", "x]", "]",
                   "<", "< a", "Is 3 < 4?", "- <b>item</b>\n- ]]>", "a <b> *c*", "<b>x</b>\n\nnext ] para"]:
        assert simple.simple_html(source) is not None, source
        assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE)
    for source in ["<https://e.org>", "see <a@b.c>", "<x:y>", "[a] ] b <c>", "[x]: https://e.org\n\n]", "a \\< b", "<\ue004", "] \ue005"]:
        assert simple.simple_html(source) is None, source


def test_the_span_fast_path_is_taken():
    from lmsexport.text import _SIMPLE_INLINE

    for source in ["Which **two** are *collective* operations?", "Use `allreduce` here.", "**Bold** start and end *em*"]:
        assert _SIMPLE_INLINE.fullmatch(source), source
        assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE)


def test_links_and_paragraphs_take_the_fast_path():
    from lmsexport.text import simple as text

    for source in ["See [the guide](https://example.org/guide) first.", "[x](http://a.b/c?d=1#e) and [y](https://c.d)",
                   "One.\n\nTwo **words**.\n\nThree [l](https://e.org)."]:
        assert all(text._simple_paragraph(p) is not None for p in source.split("\n\n")), source
        assert text.simple_html(source) == render(source, DEFAULT_STYLE), source  # the text as a whole, too
        assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE)
    for source in ["[x](javascript:alert(1))", "[x](https://e.org/a b)", "[x](<https://e.org>)", "![i](https://e.org/i.png)",
                   "[*x*](https://e.org)", "[x](https://e.org \"t\")", "a\n\n\nb"]:
        assert any(text._simple_paragraph(p) is None for p in source.split("\n\n")), source


@settings(max_examples=3000, deadline=None)
@given(BLOCKS)
def test_lists_and_fenced_code_render_without_the_parser_as_markdown_it_renders_them(source):
    assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE).strip()


def test_lists_and_fenced_code_take_the_fast_path():
    from lmsexport.text import simple

    for source in ["Which holds?\n\n- one *two*\n- [three](https://e.org/x)\n\n```py\nx = a < b & \"c\"  # **not bold**\n\n```",
                   "- a\n- b\n\nAfter.", "```\n- not a list\n```\n\n- a list",
                   "R&D \"quoted\" 'single' 50% ~ half, a > b **bold** in C:\\path\\to", "- x & y\n- z ~", "- a list\n- alone"]:
        assert simple.simple_html(source) is not None, source
        assert to_html(Text(source, TextFormat.MARKDOWN)) == render(source, DEFAULT_STYLE)
    for source in ["a &amp; b", "&#38;", "a \\*b", "x \\(y\\)", "C:\\", "> quote", "~~~", "- > q", "[a](https://e.org/~x) & b", "- a\n\n- b", "- a\nlazy", "```\nunclosed", "```\n````\n```", "- - -", "a\n- b", "- a\n  - b", "```\nx\n```\nnext"]:
        assert simple.simple_html(source) is None, source
    # a link inside code is text, not a link the checks should see
    assert simple.simple_links("```\n[x](https://e.org)\n```") is None


def test_the_fast_path_is_taken_for_ordinary_sentences():
    for source in ["Which GPU holds the full model?", "Dëgër Niveau", "Elke GPU heeft een kopie van het hele model", "It's 12 bytes, \"roughly\""]:
        assert _SIMPLE_MARKDOWN.fullmatch(source), source
    for source in ["1. a list", "- item", "# title", "a *b*", "x\ny", "    code", "a $x$ b", "<b>", "a & b", "[l](u)"]:
        assert not _SIMPLE_MARKDOWN.fullmatch(source), source


def test_markdown_features():
    html = to_html(Text("**bold** _em_ `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |", TextFormat.MARKDOWN))
    for part in ("<strong>bold</strong>", "<em>em</em>", "<code>code</code>", "<li>one</li>", "<table>", "<td>1</td>"):
        assert part in html


def test_raw_html_in_markdown_is_shown_as_text():
    html = to_html(Text('<script>alert(1)</script> <img src=x onerror="steal()">', TextFormat.MARKDOWN))
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_plain_text_is_escaped_exactly_with_its_line_breaks():
    assert to_html(Text("a < b & c > d\nnext\n\nnew paragraph", TextFormat.PLAIN)) == "<p>a &lt; b &amp; c &gt; d<br/>next</p><p>new paragraph</p>"
    assert to_inline_html(Text("x\ry", TextFormat.PLAIN)) == "x<br/>y"


def test_math_as_tex_or_mathml_and_money_stays_text():
    text = Text("Costs $5 and $10; memory is $16\\Psi$ bytes.", TextFormat.MARKDOWN)
    assert to_html(text) == "<p>Costs $5 and $10; memory is \\(16\\Psi\\) bytes.</p>"
    mathml = to_html(text, RenderStyle(MathStyle.MATHML))
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in mathml and "$5 and $10" in mathml


def test_media_addresses_are_mapped_by_the_style():
    text = Text("![A ring](media/ring.png) ![Sound](media/clip.mp3) ![Web](https://example.org/x.png)", TextFormat.MARKDOWN)
    html = to_html(text, RenderStyle(media_url=lambda path: "@@PLUGINFILE@@/" + path))
    assert '<img src="@@PLUGINFILE@@/media/ring.png" alt="A ring" />' in html
    assert '<audio controls="controls" src="@@PLUGINFILE@@/media/clip.mp3">Sound</audio>' in html
    assert '<img src="https://example.org/x.png" alt="Web" />' in html


def test_display_math_in_brackets_inside_a_sentence_is_a_formula():
    text = Text("The softmax is \\[\\sigma(z)_i = e^{z_i}\\] for each i; broken: \\[\\frca{a}{b}\\]", TextFormat.MARKDOWN)
    assert "is \\[\\sigma(z)_i = e^{z_i}\\] for" in to_html(text)
    assert to_html(text, RenderStyle(MathStyle.MATHML)).count('display="block"') == 1  # the broken one stays TeX
    from lmsexport.text import formula_problems
    assert formula_problems(text) == ["the formula '\\frca{a}{b}' uses \\frca, which is not a known LaTeX command"]


def test_plain_text_keeps_its_spaces_in_html():
    from lmsexport.text import plain_to_html, plain_to_inline_html

    assert plain_to_html("Align:\n  a    b") == "<p>Align:<br/>\u00a0\u00a0a \u00a0\u00a0\u00a0b</p>"
    assert plain_to_inline_html("x  =  1") == "x \u00a0= \u00a01"
    assert plain_to_inline_html("one space each") == "one space each"


def test_formula_problems_are_those_of_markdown_texts_alone():
    from lmsexport.text import formula_problems, media_references

    broken = "the formula '\\frca{a}{b}' uses \\frca, which is not a known LaTeX command"
    assert formula_problems(Text("Both marks: $\\frca{a}{b}$", TextFormat.MARKDOWN)) == [broken]
    assert formula_problems(Text("Plain: $\\frca{a}{b}$", TextFormat.PLAIN)) == []  # plain text has no formulas
    assert formula_problems(None) == [] and media_references(None) == []


def test_a_list_or_fenced_code_holding_a_nul_or_a_lone_cr_renders_as_commonmark_says():
    """CommonMark replaces U+0000 with U+FFFD and takes a lone carriage return for a line ending:
    the shortcut that renders lists and fenced code without the parser must leave such texts to it."""
    from lmsexport.text.simple import simple_html

    table = [
        ("- a\0b\n- c", "<ul>\n<li>a\ufffdb</li>\n<li>c</li>\n</ul>"),
        ("```\na\0\n```", "<pre><code>a\ufffd\n</code></pre>"),
        ("```\na\rb\n```", "<pre><code>a\nb\n</code></pre>"),
        ("- a\rb\n- c", "<ul>\n<li>a\nb</li>\n<li>c</li>\n</ul>"),
    ]
    for source, html in table:
        assert to_html(Text(source, TextFormat.MARKDOWN)) == html
        assert simple_html(source) in (None, html), source


# CommonMark's HTML, written out. Fenced code: its markup characters as references, a fence
# indented by up to three spaces closing the block (so the text after it is a paragraph and the
# last fence opens a block that runs to the end), one indented by a tab kept as code. Lists and
# paragraphs: a list ending with a line end, a paragraph of two lines straight before a list, a
# list and a paragraph a blank line apart.
COMMONMARK_BLOCKS = [
    ('```\nif a > b and c < d & "e"\n```', "<pre><code>if a &gt; b and c &lt; d &amp; &quot;e&quot;\n</code></pre>"),
    ("```\na\n  ```\nb\n```", "<pre><code>a\n</code></pre>\n<p>b</p>\n<pre><code></code></pre>"),
    ("```\na\n\t```\n```", "<pre><code>a\n\t```\n</code></pre>"),
    ("- a\n- b\n", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"),
    ("x\n*a*\n- b c", "<p>x\n<em>a</em></p>\n<ul>\n<li>b c</li>\n</ul>"),
    ("- b c\n\ny z\n", "<ul>\n<li>b c</li>\n</ul>\n<p>y z</p>"),
]


@pytest.mark.parametrize("source, html", COMMONMARK_BLOCKS)
def test_fenced_code_lists_and_paragraphs_render_as_commonmark_says_shortcut_or_not(source, html):
    from lmsexport.text.simple import simple_html

    assert to_html(Text(source, TextFormat.MARKDOWN)) == html
    assert simple_html(source) in (None, html), source


def test_a_formula_with_no_command_is_checked_too():
    """A formula need not hold a backslash to be broken: a superscript with nothing to raise
    cannot be converted (latex2mathml's own error is what validate says)."""
    from lmsexport.text import formula_problems

    assert formula_problems(Text("Square it: $x^$", TextFormat.MARKDOWN)) == [
        "the formula 'x^' cannot be converted (MissingSuperScriptOrSubscriptError)"]
    assert formula_problems(Text("Display: $$x_$$ and fine: $x^2$", TextFormat.MARKDOWN)) == [
        "the formula 'x_' cannot be converted (MissingSuperScriptOrSubscriptError)"]


def test_plain_text_as_html_a_literal_table():
    """What each plain text becomes in the HTML of every writer, written out by hand: quotes stay
    as they are (text content needs no &quot;), a lone carriage return is a line break as CRLF
    and LF are, and a blank text is no paragraph at all."""
    table = [
        ('say "hi" & \'bye\'', '<p>say "hi" &amp; \'bye\'</p>'),
        ("a\rb", "<p>a<br/>b</p>"),
        ("a\r\rb", "<p>a</p><p>b</p>"),
        ("a\r\nb", "<p>a<br/>b</p>"),
        ("   ", ""),
        (" \n \n", ""),
        (" a", "<p>\u00a0a</p>"),  # HTML drops a line's leading spaces: each is kept as a no-break space
        ("a\n b", "<p>a<br/>\u00a0b</p>"),
        ("a  b", "<p>a \u00a0b</p>"),  # and collapses a run of them
        (" a\n\nb", "<p>\u00a0a</p><p>b</p>"),
        ('X "q"\n\nX', '<p>X "q"</p><p>X</p>'),
    ]
    assert [(source, to_html(Text(source, TextFormat.PLAIN))) for source, _ in table] == table
    assert to_inline_html(Text('"q" \'r\'', TextFormat.PLAIN)) == '"q" \'r\''
    assert to_inline_html(Text("a\r\nb\rc", TextFormat.PLAIN)) == "a<br/>b<br/>c"


def test_the_media_a_text_shows_beside_its_links_and_emphasis():
    """Images in a text that only the parser reads (emphasis, an image) are found, each once, in
    order; links to the web are no media."""
    from lmsexport.text import media_references

    text = Text("*See* ![plan](media/plan%20b.png) and [the site](https://example.org/x) and ![again](media/plan%20b.png) "
                "![ring](media/ring.svg)", TextFormat.MARKDOWN)
    assert media_references(text) == ["media/plan b.png", "media/ring.svg"]
    assert media_references(Text("[the site](https://example.org/y) only", TextFormat.MARKDOWN)) == []


def test_markdown_the_fast_path_declines_a_literal_table():
    """Markdown texts next to the fast path's edges, with CommonMark's rendering written out by
    hand: a mark left after the spans (`*a*b`, `` `a`b ``) is the parser's to read, and quotation
    marks become &quot; in words, spans, link texts and around links alike."""
    table = [
        ("*a*b", "<p><em>a</em>b</p>"),
        ("`a`b", "<p><code>a</code>b</p>"),
        ("a *b*c", "<p>a <em>b</em>c</p>"),
        ('It\'s "roughly" 12', "<p>It's &quot;roughly&quot; 12</p>"),
        ('Use **"x"** here', "<p>Use <strong>&quot;x&quot;</strong> here</p>"),
        ('[a "q"](https://e.org) "b"', '<p><a href="https://e.org">a &quot;q&quot;</a> &quot;b&quot;</p>'),
    ]
    assert [(source, to_html(Text(source, TextFormat.MARKDOWN))) for source, _ in table] == table


def test_the_links_of_a_simple_text_in_order():
    from lmsexport.text.simple import simple_links

    assert simple_links("See [the guide](https://example.org/guide) and [x](http://a.b/c?d=1#e).") == [
        "https://example.org/guide", "http://a.b/c?d=1#e"]
    assert simple_links("No link at all.") == []
    assert simple_links("- a list") is None


def test_a_media_style_maps_an_image_by_reference_and_leaves_other_texts_as_they_are():
    """The style is dropped only for a text with no formula, link or image: an image by
    reference (`[r]: media/ring.png`, no `](` in it) keeps it."""
    style = RenderStyle(media_url=lambda path: "@@PLUGINFILE@@/" + path)
    by_reference = Text("![A ring][r]\n\n[r]: media/ring.png", TextFormat.MARKDOWN)
    assert to_html(by_reference, style) == '<p><img src="@@PLUGINFILE@@/media/ring.png" alt="A ring" /></p>'
    assert to_html(by_reference) == '<p><img src="media/ring.png" alt="A ring" /></p>'
    for source, html in [("- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"), ("> *q*", "<blockquote>\n<p><em>q</em></p>\n</blockquote>")]:
        assert to_html(Text(source, TextFormat.MARKDOWN), style) == html
        assert to_html(Text(source, TextFormat.MARKDOWN), RenderStyle(MathStyle.MATHML)) == html


def _writer_styles():
    from lmsexport.writers.canvas.media import STYLE as CANVAS_STYLE
    from lmsexport.writers.moodle.common import PLUGINFILE_STYLE
    from lmsexport.writers.moodle.gift.questions import media_link
    from lmsexport.writers.qti.context import ITEM_STYLE

    return [ITEM_STYLE, CANVAS_STYLE, PLUGINFILE_STYLE, RenderStyle(media_url=media_link("https://e.org/m")), RenderStyle(MathStyle.MATHML)]


# Texts with what a style could change (formulas, images) and what only looks like it could.
STYLED = st.lists(st.one_of(SENTENCES, LINKS, st.sampled_from([
    "$x$", "$$y$$", "\\(z\\)", "\\[w\\]", "C:\\path\\to", "\\*", "\\\\", "\\", "![i](media/a.png)", "![i][r]", "[r]: media/a.png",
    "![i](https://e.org/a.png)", "[l](media/a.pdf)", "](", "]:", "!", "[", "\n\n", "\n\n- ", "\n\n```\n", "[r]", "![r]"])), max_size=6).map("".join)


@settings(max_examples=2000, deadline=None)
@given(STYLED)
def test_a_text_without_formula_or_image_renders_alike_in_every_writer_style(source):
    """The premise of rendering such a text once for all four writers (`_markdown_to_html`)."""
    if "$" in source or "![" in source or "\\(" in source or "\\[" in source:
        return
    default = render(source, DEFAULT_STYLE)
    for style in _writer_styles():
        assert render(source, style) == default, style


def test_a_windows_path_or_an_escape_is_rendered_once_for_every_writer(monkeypatch):
    from lmsexport import text
    from lmsexport.text import markdown

    calls = []
    monkeypatch.setattr(markdown, "render", lambda source, style: calls.append(style) or "<p>x</p>")
    text._render_markdown.cache_clear()
    text.forget_renderings()
    try:
        for source in ["Open C:\\path\\to and - not \\*bold\\*", "See [the guide](https://e.org/g) and [notes][n].\n\n[n]: https://e.org/n"]:
            calls.clear()
            for style in _writer_styles():
                to_html(Text(source, TextFormat.MARKDOWN), style)
            assert calls == [DEFAULT_STYLE], source
    finally:
        text._render_markdown.cache_clear()
        text.forget_renderings()

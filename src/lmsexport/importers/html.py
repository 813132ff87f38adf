"""Platform HTML to content text: plain text or Markdown when it shows exactly the same, else the
nearest Markdown with the HTML features it could not hold named.

Canonical content has no HTML format on purpose (raw HTML never reaches a platform through
lmsexport), so HTML from a platform is stored as:
1. plain text, when rendering that plain text gives the same HTML (a `<p>` with text and `<br/>`);
2. Markdown, when rendering the Markdown gives the same HTML, byte for byte or once both are
   normalised (tag synonyms such as `<b>`/`<strong>`, attribute order, collapsible white space,
   the `dir="ltr"` and `text-align: left` that Moodle's editors add everywhere);
3. otherwise the nearest Markdown: the text, paragraphs, lists, emphasis, code, links, images and
   formulas are kept; what Markdown cannot say (colours, fonts, underline, classes, spans with a
   style, iframes, forms) is dropped and named, so the importer can warn where it happened.
Scripts, styles, event handlers and addresses with `javascript:`, `vbscript:`, `file:` or a
non-image `data:` scheme never get through: they are dropped and named as losses too.

Formulas (`\\(...\\)`, `\\[...\\]`) are kept as Markdown math; media addresses are expected to be
rewritten to local paths by the caller before conversion.
"""

from __future__ import annotations

import copy
import html as html_module
import re
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

from ..model import Text, TextFormat
from ..text import plain_to_html, plain_to_inline_html, to_html, to_inline_html

_BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "table", "hr",
           "thead", "tbody", "tr", "td", "th", "dl", "dt", "dd", "figure", "section", "article", "center"}
_DANGEROUS = {"script", "style", "iframe", "object", "embed", "form", "input", "button", "select", "textarea",
              "link", "meta", "base", "frame", "frameset", "applet", "noscript", "template", "svg"}
_SYNONYMS = {"b": "strong", "i": "em"}
_UNSAFE_SCHEME = re.compile(r"^\s*(javascript|vbscript|file|data):", re.I)
_SAFE_DATA = re.compile(r"^\s*data:image/(png|jpeg|gif|webp);", re.I)
_TRIVIAL_STYLE = re.compile(r"^\s*(text-align\s*:\s*(left|start)\s*;?\s*)?$", re.I)


@dataclass
class Converted:
    text: Text | None
    exact: bool = True  # shows the same as the HTML did
    losses: list[str] = field(default_factory=list)


def _renderings(text: Text) -> tuple[str, ...]:
    if text.format is TextFormat.PLAIN:
        return plain_to_html(text.source), plain_to_inline_html(text.source)
    return to_html(text), to_inline_html(text)


def _fragment(source: str) -> etree._Element:
    return lxml.html.fragment_fromstring(source, create_parent="div")


def _collapse(value: str) -> str:
    return re.sub(r"[ \t\n\r\f]+", " ", value)


def _holds_only_blocks(element) -> bool:
    """Block elements and white space, nothing else (no text of its own)."""
    if (element.text or "").strip() or not len(element):
        return False
    return all((not isinstance(c.tag, str) or _SYNONYMS.get(c.tag, c.tag) in _BLOCKS) and not (c.tail or "").strip() for c in element)


def _whole_pre(element) -> bool:
    """The only content of a <pre>: <pre><code>x</code></pre> shows what <pre>x</pre> shows."""
    parent = element.getparent()
    return (parent is not None and parent.tag == "pre" and len(parent) == 1 and not (parent.text or "").strip()
            and not (element.tail or "").strip())


def normalised(source: str) -> str:
    """A canonical form of an HTML fragment for comparing what two fragments show."""
    try:
        root = _fragment(source)
    except (etree.ParserError, ValueError):
        return _collapse(source).strip()
    parts: list[str] = []

    def attributes(element) -> str:
        kept = []
        for name, value in sorted(element.attrib.items()):
            if (name == "dir" and value == "ltr") or (name == "style" and _TRIVIAL_STYLE.match(value)):
                continue
            if name in ("class",) and not value.startswith("language-"):
                continue
            kept.append(f' {name}="{_collapse(value).strip()}"')
        return "".join(kept)

    def walk(element, top: bool) -> None:
        if element.text:
            parts.append(_collapse(element.text))
        for child in element:
            if not isinstance(child.tag, str):
                if child.tail:
                    parts.append(_collapse(child.tail))
                continue
            tag = _SYNONYMS.get(child.tag, child.tag)
            if tag in _BLOCKS:
                parts.append("\n")
            kept = attributes(child)
            # Shows nothing of its own: a bare span; a bare div holding only blocks (with no border
            # or padding, its children's margins collapse through it); the code of a code block.
            bare = not kept and (tag == "span" or (tag == "div" and _holds_only_blocks(child)) or (tag == "code" and _whole_pre(child)))
            if not bare:
                parts.append(f"<{tag}{kept}>")
            walk(child, False)
            if not bare:
                parts.append(f"</{tag}>")
            if tag in _BLOCKS:
                parts.append("\n")
            if child.tail:
                parts.append(_collapse(child.tail))

    walk(root, True)
    result = "".join(parts)
    # White space next to a block boundary shows nothing.
    result = re.sub(r" *\n[ \n]*", "\n", result).strip()
    result = re.sub(r"(<(?:p|li|h\d|td|th|div|pre)(?: [^>]*)?>) +", r"\1", result)
    result = re.sub(r" +(</(?:p|li|h\d|td|th|div|pre)>)", r"\1", result)
    blocks = [line.strip() for line in result.split("\n") if line.strip()]
    # Loose inline content at the top level shows as a paragraph would.
    blocks = [b if b.startswith("<") and re.match(r"</?(\w+)", b).group(1) in _BLOCKS else f"<p>{b}</p>" for b in blocks]
    # An empty element shows nothing (a table's empty cell does): an empty block leaves no line either.
    kept = (re.sub(r"<(\w+)></\1>", lambda m: "" if m.group(1) not in ("td", "th") else m.group(0), b) for b in blocks)
    return "\n".join(b for b in kept if b)


# ---------------------------------------------------------------- plain text


def _as_plain(source: str, keep_no_break: bool = False) -> str | None:
    """The plain text whose rendering is this HTML, if the HTML is only paragraphs of text and <br/>."""
    space = "\u00a0" if keep_no_break else " "
    if "<" not in source:
        return html_module.unescape(source).replace("\u00a0", space)
    pieces = re.fullmatch(r"(?:<p>(?:[^<]|<br\s*/?>)*</p>)+", source)
    if pieces is None:
        if re.fullmatch(r"(?:[^<]|<br\s*/?>)*", source):  # inline: text and line breaks
            return html_module.unescape(re.sub(r"<br\s*/?>", "\n", source)).replace("\u00a0", space)
        return None
    paragraphs = re.findall(r"<p>((?:[^<]|<br\s*/?>)*)</p>", source)
    return "\n\n".join(html_module.unescape(re.sub(r"<br\s*/?>", "\n", p)) for p in paragraphs).replace("\u00a0", space)


# ---------------------------------------------------------------- Markdown


_ESCAPE_ALWAYS = re.compile(r"([\\`*_$|])")
_BRACKETS = re.compile(r"(\[)(?=[^\]]*\][(\[:])")
_ENTITY_LIKE = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_TAG_LIKE = re.compile(r"<(?=[A-Za-z/!?])")
_LINE_START = re.compile(r"(?m)^([ \t]*)([#>+=\-]|~~~|\d+(?=[.)]))")
_MATH = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)


_STRONG = re.compile(r"[\\`*_\[\]$|<>&#!~=+\-{}()]")

# A backslash that a reader marks as the text's own (QTI, whose formulas are MathML, turned into
# \( \) before the conversion): a "\(" beside it is text, not a formula. Private use, so that
# no text holds it; it is a backslash again in every text the conversion gives.
LITERAL_BACKSLASH = "\ue05c"


def _escape_words(text: str, strong: bool = False) -> str:
    if strong:
        # Character references show exactly their character wherever they stand.
        return _STRONG.sub(lambda m: f"&#{ord(m.group())};", text).replace(LITERAL_BACKSLASH, "&#92;")
    text = _ESCAPE_ALWAYS.sub(r"\\\1", text).replace(LITERAL_BACKSLASH, "\\\\")
    # A backslash before a space is literal in Markdown, and markdown-it renders the two together,
    # so that a space ending a line stays (after an escaped backslash it is trimmed): bare, then.
    text = text.replace("\\\\ \n", "\\ \n")
    text = _BRACKETS.sub("&#91;", text)  # only a '[' that could open a link; '\\[' would open a formula
    text = _ENTITY_LIKE.sub(r"\\&", text)
    return _TAG_LIKE.sub(r"\\<", text)


def _escape_text(text: str, strong: bool = False) -> str:
    """Text as Markdown that shows exactly it; `\\(...\\)` and `\\[...\\]` stay formulas."""
    out, last = [], 0
    for found in _MATH.finditer(text):
        out.append(_escape_words(text[last:found.start()], strong))
        out.append(found.group().replace("\n", "\x00"))  # line starts inside a formula are not Markdown's
        last = found.end()
    out.append(_escape_words(text[last:], strong))
    return "".join(out)


def _line_starts(markdown: str) -> str:
    def fix(match: re.Match) -> str:
        lead, mark = match.group(1), match.group(2)
        if mark.isdigit():
            return lead + mark + "\\"  # the '.' or ')' after it is escaped by the next character
        return lead + "\\" + mark
    escaped = _LINE_START.sub(fix, markdown)
    return re.sub(r"(?m)^(\s*\d+)\\([.)])", r"\1\\\2", escaped)


def _safe_address(address: str, image: bool) -> bool:
    if _UNSAFE_SCHEME.match(address):
        return bool(image and _SAFE_DATA.match(address))
    return True


def _destination(address: str) -> str:
    if re.search(r"[\s()<>]", address):
        return "<" + address.replace("<", "%3C").replace(">", "%3E") + ">"
    return address


def _title(value: str | None) -> str:
    if not value:
        return ""
    return ' "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Markdown:
    """One conversion. `strong`: escape with character references (a second candidate, for text
    that ordinary escaping changes); `keep_empty`: an empty paragraph stays one (a paragraph of a
    no-break space, which Markdown renders as an empty <p>). Both belong to the conversion, so
    that conversions in several threads cannot change each other's output."""

    def __init__(self, strong: bool = False, keep_empty: bool = False) -> None:
        self.losses: list[str] = []
        self.strong = strong
        self.keep_empty = keep_empty

    def escape(self, text: str) -> str:
        return _escape_text(text, self.strong)

    def lose(self, what: str) -> None:
        if what not in self.losses:
            self.losses.append(what)

    def check_attributes(self, element, allowed: tuple[str, ...]) -> None:
        for name, value in element.attrib.items():
            if name in allowed or (name == "dir" and value == "ltr") or (name == "style" and _TRIVIAL_STYLE.match(value)):
                continue
            if name.startswith("on"):
                self.lose(f"the event handler {name} of <{element.tag}> (removed)")
            elif name == "class":
                continue  # a class means nothing without the platform's style sheet
            else:
                self.lose(f'{name}="{value[:40]}" on <{element.tag}>')

    # Inline content: returns Markdown without block structure.
    def inline(self, element, include_text: bool = True) -> str:
        out = []
        if include_text and element.text:
            out.append(self.escape(_soft(element.text)))
        for child in element:
            out.append(self.inline_element(child))
            tail = child.tail
            if tail and isinstance(child.tag, str) and child.tag.lower() == "br":
                tail = tail.lstrip(" \t\n\r")  # white space at the start of a line shows nothing
            if tail:
                out.append(self.escape(_soft(tail)))
        return "".join(out)

    def inline_element(self, child) -> str:
        if not isinstance(child.tag, str):
            return ""  # comments, processing instructions
        tag = child.tag.lower()
        if tag in _DANGEROUS:
            self.lose(f"<{tag}> (removed)")
            return ""
        if tag in ("strong", "b", "em", "i"):
            self.check_attributes(child, ())
            inner = self.inline(child)
            mark = "**" if tag in ("strong", "b") else "*"
            if not inner.strip():
                return inner
            return mark + inner + mark
        if tag == "code":
            self.check_attributes(child, ())
            code = child.text_content()
            fence = "`"
            while fence in code:
                fence += "`"
            # CommonMark strips one space from each end of a code span, unless it is only spaces.
            pad = " " if code.strip(" ") and (code.startswith(("`", " ")) or code.endswith(("`", " "))) else ""
            return fence + pad + code + pad + fence
        if tag == "br":
            return "\\\n"
        if tag == "a":
            href = child.get("href", "")
            self.check_attributes(child, ("href", "title"))
            inner = self.inline(child)
            if not href or not _safe_address(href, False):
                if href:
                    self.lose(f"the link address {href[:40]!r} (removed: unsafe scheme)")
                return inner
            return f"[{inner}]({_destination(href)}{_title(child.get('title'))})"
        if tag in ("img", "audio", "video"):
            src = child.get("src", "")
            self.check_attributes(child, ("src", "alt", "title", "controls", "width", "height"))
            for size in ("width", "height"):
                if child.get(size):
                    self.lose(f"the {size} of an image")
            if not src or not _safe_address(src, True):
                self.lose(f"an image with the address {src[:40]!r} (removed)")
                return ""
            alt = child.get("alt") if tag == "img" else child.text_content()
            return f"![{self.escape(alt or '')}]({_destination(src)}{_title(child.get('title'))})"
        if tag == "span":
            if child.get("lang"):
                self.lose(f'the language lang="{child.get("lang")}" of a part of a text')
            self.check_attributes(child, ("lang",))
            return self.inline(child)
        if tag in _BLOCKS:
            return self.blocks(child).replace("\n\n", "\\\n")
        self.lose(f"<{tag}>")
        return self.inline(child)

    # Block content.
    def blocks(self, element) -> str:
        """The element's children as Markdown blocks separated by blank lines."""
        result: list[str] = []
        run: list = []  # inline nodes between blocks

        def flush() -> None:
            if not run:
                return
            holder = etree.Element("span")
            first = run[0]
            if isinstance(first, str):
                holder.text = first
                items = run[1:]
            else:
                items = run
            for node in items:
                if isinstance(node, str):
                    if len(holder):
                        holder[-1].tail = (holder[-1].tail or "") + node
                    else:
                        holder.text = (holder.text or "") + node
                else:
                    holder.append(node)
            markdown = self.inline(holder).strip(" \t\n")
            if markdown:
                result.append(_line_starts(markdown))
            run.clear()

        if element.text and element.text.strip():
            run.append(element.text)
        for child in list(element):
            tail = child.tail
            if isinstance(child.tag, str) and child.tag.lower() in _BLOCKS:
                flush()
                block = self.block(child)
                if block and result and child.tag.lower() in ("ul", "ol") and result[-1][:1] == block[:1] == "-":
                    block = "*" + block[1:].replace("\n- ", "\n* ")  # another bullet starts another list
                if block:
                    result.append(block)
            else:
                node = copy.copy(child)
                node.tail = None
                run.append(node)
            if tail and (tail.strip() or run):
                run.append(tail)
        flush()
        return "\n\n".join(result)

    def block(self, element) -> str:
        tag = element.tag.lower()
        if tag == "p" or tag == "div":
            self.check_attributes(element, ("lang",) if tag == "div" else ())
            if tag == "div" and element.get("lang"):
                self.lose(f'the language lang="{element.get("lang")}" of a part of a text')
            if tag == "div" and any(isinstance(c.tag, str) and c.tag.lower() in _BLOCKS for c in element):
                return self.blocks(element)
            inner = _line_starts(self.inline(element).strip(" \t\n"))
            if not inner and tag == "p" and self.keep_empty:
                return "\u00a0"
            return inner
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.check_attributes(element, ())
            inner = self.inline(element).strip()
            if "\n" in inner and tag in ("h1", "h2"):  # a heading over several lines: the underlined form
                return _line_starts(inner) + "\n" + ("=" if tag == "h1" else "-") * 3
            return "#" * int(tag[1]) + " " + inner.replace("\\\n", " ").replace("\n", " ")
        if tag == "hr":
            return "---"
        if tag in ("ul", "ol"):
            self.check_attributes(element, ("start",))
            start = int(element.get("start", "1")) if (element.get("start") or "1").isdigit() else 1
            items = []
            for index, item in enumerate(c for c in element if isinstance(c.tag, str)):
                if item.tag.lower() != "li":
                    self.lose(f"<{item.tag}> inside a list")
                marker = "-" if tag == "ul" else f"{start + index}."
                body = self.blocks(item) if any(isinstance(c.tag, str) and c.tag.lower() in _BLOCKS for c in item) \
                    else _line_starts(self.inline(item).strip(" \t\n"))
                pad = " " * (len(marker) + 1)
                lines = body.split("\n")
                items.append(marker + (" " + lines[0] if lines[0] else "") + "".join("\n" + (pad + line if line else "") for line in lines[1:]))
            loose = any(len([c for c in item if isinstance(c.tag, str) and c.tag == "p"]) for item in element)
            return ("\n\n" if loose else "\n").join(items)
        if tag == "blockquote":
            self.check_attributes(element, ())
            body = self.blocks(element)
            return "\n".join("> " + line if line else ">" for line in body.split("\n"))
        if tag == "pre":
            self.check_attributes(element, ())
            code_element = element.find("code")
            info = ""
            if code_element is not None and len(element) == 1 and not (element.text or "").strip():
                language = code_element.get("class", "")
                info = language[len("language-"):] if language.startswith("language-") else ""
                code = code_element.text_content()
            elif len(element):  # markup inside the block, which a code block cannot hold
                self.lose("a <pre> block without <code>")
                code = element.text_content()
            else:  # text alone shows as it does inside <code>, but for a line break right after <pre>, which HTML drops
                code = element.text_content()
                code = code[1:] if code.startswith("\n") else code
            fence = "```"
            while fence in code:
                fence += "`"
            return fence + info + "\n" + code + ("" if code.endswith("\n") or not code else "\n") + fence
        if tag == "table":
            return self.table(element)
        self.lose(f"<{tag}>")
        return self.blocks(element)

    def table(self, element) -> str:
        rows = element.findall(".//tr")
        if not rows:
            return ""
        self.check_attributes(element, ())
        cells = []
        for row in rows:
            cells.append([self.inline(cell).strip().replace("|", "\\|").replace("\\\n", " ") for cell in row if isinstance(cell.tag, str)])
            for cell in row:
                if isinstance(cell.tag, str):
                    self.check_attributes(cell, ("style",) if re.fullmatch(r"text-align:\s*(left|right|center);?", cell.get("style", "")) else ())
        width = max(len(r) for r in cells)
        aligns = []
        for cell in rows[0]:
            if not isinstance(cell.tag, str):
                continue
            style = cell.get("style", "")
            found = re.search(r"text-align:\s*(left|right|center)", style)
            aligns.append({"left": ":--", "right": "--:", "center": ":-:"}[found.group(1)] if found else "---")
        aligns += ["---"] * (width - len(aligns))
        lines = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in cells]
        return "\n".join([lines[0], "| " + " | ".join(aligns) + " |", *lines[1:]])


def _soft(text: str) -> str:
    """A line break inside HTML text is white space; in Markdown one soft break is too, but a blank
    line would end the paragraph."""
    # One space after a backslash stays: Markdown can keep it (see _escape_words).
    return re.sub(r"(\\ )?[ \t]*\n[ \t\n]*", lambda m: (m.group(1) or "") + "\n", text) if "\n" in text else text


def _markdown(source: str, strong: bool = False, keep_empty: bool = False) -> tuple[str, list[str]]:
    converter = _Markdown(strong, keep_empty)
    root = _fragment(source)
    # A marked backslash left in code, an address or a title is written as it is there.
    return converter.blocks(root).replace("\x00", "\n").replace(LITERAL_BACKSLASH, "\\"), converter.losses


def html_to_text(source: str, quotes_lost: bool = False, quotes_as_entities: bool = False) -> Converted:
    """The content text that shows what this platform HTML shows (see the module's rules).
    Markdown that renders to exactly this HTML comes first, since the Moodle and GIFT writers
    send Markdown as HTML but plain text as plain text; then plain text that does."""
    if not source.strip():
        return Converted(None)
    # Converted from the marked source (see LITERAL_BACKSLASH), compared with the source as shown.
    marked, source = source, source.replace(LITERAL_BACKSLASH, "\\")
    plain = _as_plain(marked)
    plain_candidates = []
    if plain is not None and plain.strip() and not _MATH.search(plain):  # formulas are typeset in HTML only
        # Plain text's spaces become no-break spaces in HTML; one the author typed stays one.
        raw = _as_plain(marked, keep_no_break=True) if "\u00a0" in source or "&nbsp;" in source or "&#160;" in source else None
        for value in (plain, raw):
            if value and value.strip(" \t\n\r\x0b\x0c"):
                plain_candidates.append(Text(value.strip(" \t\n\r\x0b\x0c").replace(LITERAL_BACKSLASH, "\\"), TextFormat.PLAIN))
    plain_candidate = plain_candidates[0] if plain_candidates else None
    try:
        markdown, losses = _markdown(marked)
    except (etree.ParserError, ValueError) as problem:
        text = plain_candidate or Text(lxml.html.fromstring(f"<div>{source}</div>").text_content().strip() or "(no text)", TextFormat.PLAIN)
        return Converted(text, False, [f"unreadable HTML ({problem})"])
    candidate = Text(markdown, TextFormat.MARKDOWN) if markdown.strip() else None

    def shows(text: Text, loose: bool = False) -> bool:
        renderings = _renderings(text)
        # Serialised XML cannot say whether a quote was written &quot;: the QTI reader's source
        # has plain quotes wherever the package had either.
        return source in (r.replace("&quot;", '"') for r in renderings) if loose else source in renderings

    if quotes_lost and quotes_as_entities and '"' in source and candidate is not None and shows(candidate, True):
        return Converted(candidate)  # the package wrote its quotes as Markdown rendering does
    for loose in (False, True) if quotes_lost else (False,):
        if candidate is not None and (not loose or quotes_as_entities) and shows(candidate, loose):
            return Converted(candidate)
        for plain_text in plain_candidates:
            if shows(plain_text, loose):
                return Converted(plain_text)
        if candidate is not None and loose and shows(candidate, loose):
            return Converted(candidate)
    bare = re.fullmatch(r"(?:<p>)?([^<]*)(?:</p>)?", source)
    if bare and plain is not None:  # a paragraph with white space at its end, which Markdown keeps
        core = plain.strip(" \t\n\r")
        lead, trail = plain[: len(plain) - len(plain.lstrip(" \t\n\r"))], plain[len(plain.rstrip(" \t\n\r")):]
        # White space Markdown would trim, written as character references (as an author may have).
        kept_space = "".join(f"&#{ord(c)};" for c in lead) + _escape_text(core) + "".join(f"&#{ord(c)};" for c in trail)
        referenced = _STRONG.sub(lambda m: f"&#{ord(m.group())};", plain).replace(LITERAL_BACKSLASH, "&#92;")
        for escaped_plain in (_escape_text(plain), referenced, kept_space):
            kept = Text(_line_starts(escaped_plain), TextFormat.MARKDOWN)
            if escaped_plain.strip() and shows(kept):
                return Converted(kept)
    if candidate is not None:
        escaped = Text(_markdown(marked, strong=True)[0], TextFormat.MARKDOWN)
        if shows(escaped):
            return Converted(escaped)
        if "<p></p>" in source:  # an empty paragraph the Markdown left out
            for strong in (False, True):
                kept = Text(_markdown(marked, strong=strong, keep_empty=True)[0], TextFormat.MARKDOWN)
                if shows(kept):
                    return Converted(kept)
    if candidate is None:
        return Converted(None, not losses, losses)
    target = normalised(source)
    if any(normalised(r) == target for r in _renderings(candidate)):
        return Converted(candidate)
    if not losses:
        losses = ["HTML whose exact layout Markdown cannot reproduce"]
    return Converted(candidate, False, losses)

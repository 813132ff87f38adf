"""Moodle's multi-language texts, of which Moodle shows one version per reader. The content holds
one language per text, so an import keeps the version in the quiz's language and says which it
left out. Three syntaxes, each read by the rules of the filter that shows it:

- `<span lang="fr" class="multilang">...</span>` side by side (filter_multilang,
  filter/multilang/classes/text_filter.php): the version in the reader's language, else its
  parent language's, else English (every language's last parent there), else the first.
- The same filter's old syntax, `<lang lang="fr">...</lang>` side by side (runs may mix in
  `<span lang>`; Moodle reads it while a site has not run tool_multilangupgrade, which turns
  such runs into the spans above): the same choice. A run of `<span lang>` holding no `<lang>`
  element is left alone, as Moodle today reads it: a text stating the language of its parts.
- `{mlang fr}...{mlang}` of the multilang2 plugin (iarenaza/moodle-filter_multilang2,
  classes/text_filter.php): each block stands alone; the blocks whose languages (a comma list,
  any case, `-` or `_`) name the reader's language or its parent show, the others vanish; when
  none of a text's blocks does, its `{mlang other}` blocks show instead, else none.

The PHP patterns have no /u flag: `\\s` and the letters are ASCII (re.ASCII here)."""

from __future__ import annotations

import re

from ..checks.languages import language_is_valid

# Moodle's own search: two or more spans in a row, each with a lang and class="multilang" in either order.
_SPAN = r'<span(?:\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>.*?</span>'
_BLOCK = re.compile(rf"({_SPAN})(\s*{_SPAN})+", re.I | re.S | re.A)
# The old syntax's search (used while $CFG->filter_multilang_converted is unset).
_OLD = r'<(?:lang|span) lang="[a-zA-Z0-9_-]*".*?>.*?</(?:lang|span)>'
_OLD_BLOCK = re.compile(rf"({_OLD})(\s*{_OLD})+", re.I | re.S | re.A)
_LANG_ELEMENT = re.compile(r"<lang\s", re.I | re.A)
# How process_match splits a block into versions, in both syntaxes.
_PART = re.compile(r'<(?:lang|span)[^>]+lang="([a-zA-Z0-9_-]+)"[^>]*>(.*?)</(?:lang|span)>', re.I | re.S | re.A)
_MLANG = re.compile(r"\{\s*mlang\s+([a-z0-9_-]+(?:\s*,\s*[a-z0-9_-]+\s*)*)\s*\}(.*?)\{\s*mlang\s*\}", re.I | re.S | re.A)


def bcp47(moodle_language: str) -> str:
    """Moodle's language codes ('pt_br', 'en_us', 'de_du') as language tags ('pt-BR', 'en-US', 'de'),
    or the bare language when the rest is no region."""
    parts = re.split(r"[-_]", moodle_language.strip().lower())
    if len(parts) > 1 and len(parts[1]) == 2 and language_is_valid(f"{parts[0]}-{parts[1].upper()}"):
        return f"{parts[0]}-{parts[1].upper()}"
    return parts[0]


def has_versions(source: str) -> bool:
    """Whether a text may hold a multi-language construct of any syntax (a quick test)."""
    lowered = source.lower()
    return "multilang" in lowered or "<lang" in lowered or "mlang" in lowered


def _languages(block: str) -> list[tuple[str, str]]:
    return [(bcp47(language), text) for language, text in _PART.findall(block)]


def _old_blocks(html: str) -> list[re.Match]:
    return [found for found in _OLD_BLOCK.finditer(html) if _LANG_ELEMENT.search(found.group())]


def _mlang_languages(found: re.Match) -> list[str]:
    # replace_callback: lower case, '-' as '_', spaces (only) removed, then split at commas.
    return found.group(1).lower().replace("-", "_").replace(" ", "").split(",")


def block_languages(html: str) -> list[list[str]]:
    """The languages of each multi-language construct of a text, as language tags: one list per
    block of spans or `<lang>` elements, one list for all the `{mlang}` blocks of the text
    (`other` left out), which are versions of one text only together."""
    found = [[language for language, _ in _languages(block.group())] for block in _BLOCK.finditer(html)]
    found += [[language for language, _ in _languages(block.group())] for block in _old_blocks(_BLOCK.sub("", html))]
    mlang = [bcp47(language) for block in _MLANG.finditer(html) for language in _mlang_languages(block) if language != "other"]
    if mlang:
        found.append(list(dict.fromkeys(mlang)))
    return found


def first_languages(html: str) -> list[str]:
    """The first language of each multi-language block of a text: what Moodle shows by default."""
    return [languages[0] for languages in block_languages(html) if languages]


def _versions(count: int) -> str:
    return "version" if count == 1 else "versions"


def _choose_span(language: str | None, syntax: str, said: list[str]):
    def choose(found: re.Match) -> str:
        parts = _languages(found.group())
        if not parts:
            return found.group()  # a malformed block: Moodle leaves it as it is
        base = (language or "").split("-")[0]
        kept = (next((p for p in parts if p[0] == language), None)
                or next((p for p in parts if base and p[0].split("-")[0] == base), None)
                or next((p for p in parts if language and p[0] == "en"), None)  # every language's last parent
                or parts[0])
        others = [p[0] for p in parts if p is not kept]
        said.append(f"a Moodle multi-language text{syntax}: its {kept[0]!r} version is kept, "
                    f"its {', '.join(repr(o) for o in others)} {_versions(len(others))} left out")
        return kept[1]

    return choose


def _select_mlang(html: str, language: str | None, said: list[str]) -> str:
    blocks = list(_MLANG.finditer(html))
    if not blocks:
        return html
    if language is None:  # no quiz language: the first one the text names stands for the reader's
        named = [code for block in blocks for code in _mlang_languages(block) if code != "other"]
        target = named[0] if named else "other"
    else:
        target = language.lower().replace("-", "_")
    readers = {target, target.split("_")[0]}  # the language and its parent
    shown = [block for block in blocks if readers & set(_mlang_languages(block))]
    kept = target
    if not shown:  # Moodle's second pass: the blocks for 'other'
        shown = [block for block in blocks if "other" in _mlang_languages(block)]
        kept = "other" if shown else None
    left = list(dict.fromkeys(", ".join(bcp47(c) if c != "other" else c for c in _mlang_languages(b))
                              for b in blocks if b not in shown))
    label = "a multi-language text of the multilang2 filter ({mlang})"
    if kept is None:
        said.append(f"{label}: none of its versions is in {bcp47(target)!r} nor 'other', so Moodle shows none: "
                    f"its {', '.join(repr(x) for x in left)} {_versions(len(left))} left out")
    elif left:
        kept_label = "other" if kept == "other" else bcp47(kept)
        said.append(f"{label}: its {kept_label!r} version is kept, its {', '.join(repr(x) for x in left)} {_versions(len(left))} left out")
    spans = {block.span() for block in shown}
    return _MLANG.sub(lambda found: found.group(2) if found.span() in spans else "", html)


def select(html: str, language: str | None) -> tuple[str, list[str]]:
    """The text with each multi-language construct replaced by its version in `language` (by each
    syntax's own rule; without a language, what Moodle shows first), and a description of each
    choice that left text out."""
    said: list[str] = []
    html = _BLOCK.sub(_choose_span(language, "", said), html)
    old = _choose_span(language, " (the old <lang> syntax)", said)
    html = _OLD_BLOCK.sub(lambda found: old(found) if _LANG_ELEMENT.search(found.group()) else found.group(), html)
    html = _select_mlang(html, language, said)
    return html, said

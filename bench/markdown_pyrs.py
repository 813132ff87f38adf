#!/usr/bin/env python3
"""Would markdown-it-pyrs (markdown-it in Rust) render our Markdown exactly as markdown-it-py?

    .venv/bin/pip install markdown-it-pyrs && .venv/bin/python bench/markdown_pyrs.py

Generates texts from fragments of Markdown syntax, CommonMark edge cases, HTML, entities and
non-ASCII text (without math, images or backslashes, which need our own plugins and rules and
so always stay with markdown-it-py), renders each with both, and counts texts rendered
differently and texts on which the Rust library panics (its panic also prints a backtrace on
standard error, which Python cannot silence), for all texts and for a restricted subset.
"""

from __future__ import annotations

import argparse
import random
import re
import time

import markdown_it_pyrs

from lmsexport.text import markdown
from lmsexport.text.style import DEFAULT_STYLE

RULES = ["blockquote", "code", "fence", "heading", "hr", "lheading", "list", "paragraph", "reference", "autolink",
         "backticks", "emphasis", "entity", "escape", "image", "link", "newline", "table"]  # commonmark + table, no raw HTML
FRAGMENTS = ["a", "word", "*", "**", "_", "__", "`", "``", "[", "]", "(", ")", "<", ">", "&", "&amp;", "&#10;", "&#x41;",
             "&copy;", "&nope;", "#", "# ", "## ", "> ", "- ", "* ", "+ ", "1. ", "2) ", "|", "-|-", "---", "\n", "\n\n",
             "  \n", "    ", "\t", '"', "'", "http://x.org", "<http://x.org>", "[l](http://a.b)", "[l](javascript:x)",
             "[r]: http://x\n", "[r]", "~", "~~~\n", "```\n", "é", "😀", "ß", "\u00a0", "\u2003", "=", "==", "<b>", "</b>",
             "<!-- c -->", "<div>", "x_y_z", "**a**", "*a*", " ", "a > b", "| a | b |\n|---|---|\n| 1 | 2 |\n", "\u0301",
             "\r\n", "\r"]
NEEDS_OUR_RULES = re.compile(r"[$\\]|!\[")
# The narrowest subset tried: no code spans or fences, tables, numeric entities, block quotes, non-ASCII.
RESTRICTED = re.compile(r"(?m)[`~|]|&#|^[^A-Za-z0-9\n]*>|[^\x00-\x7f]")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--texts", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rust = markdown_it_pyrs.MarkdownIt("zero").enable_many(RULES)
    rng = random.Random(args.seed)
    results = {"all": [0, 0, 0, 0.0, 0.0], "restricted": [0, 0, 0, 0.0, 0.0]}  # texts, different, panics, py s, rs s
    for _ in range(args.texts):
        text = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 25)))
        if NEEDS_OUR_RULES.search(text):
            continue
        start = time.perf_counter()
        ours = markdown.render(text, DEFAULT_STYLE)
        py_time = time.perf_counter() - start
        start = time.perf_counter()
        try:
            theirs = rust.render(text, xhtml=True).strip().replace("\r\n", "\n").replace("\r", "\n")
            panicked = False
        except BaseException:  # pyo3's PanicException derives from BaseException
            theirs, panicked = None, True
        rs_time = time.perf_counter() - start
        for name in ("all", "restricted") if not RESTRICTED.search(text) else ("all",):
            row = results[name]
            row[0] += 1
            row[1] += theirs is not None and theirs != ours
            row[2] += panicked
            row[3] += py_time
            row[4] += rs_time
    for name, (texts, different, panics, py, rs) in results.items():
        print(f"{name}: {texts} texts, {different} rendered differently ({different / max(texts, 1):.1%}), "
              f"{panics} panics ({panics / max(texts, 1):.1%}); markdown-it-py {py:.2f} s, markdown-it-pyrs {rs:.2f} s")


if __name__ == "__main__":
    main()

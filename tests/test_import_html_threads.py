"""Platform HTML conversion holds no state outside one conversion: imports in several threads
give what each would give alone."""

from __future__ import annotations

import sys
import threading

from lmsexport.importers.html import _Markdown, _markdown, html_to_text

# Plain escaping writes '\\*'; the strong candidate writes character references ('&#42;').
SOURCE = "<p>a *b* [c](d) 5 &lt; 6</p>"


def test_escaping_style_belongs_to_the_conversion():
    strong, plain = _Markdown(strong=True), _Markdown()
    assert strong.escape("*") == "&#42;" and plain.escape("*") == "\\*"


def test_conversions_in_threads_do_not_change_each_other():
    alone = {flag: _markdown(SOURCE, strong=flag)[0] for flag in (False, True)}
    assert alone[False] != alone[True]
    expected_text = html_to_text(SOURCE).text
    wrong: list[str] = []

    def work(flag: bool) -> None:
        for _ in range(300):
            if _markdown(SOURCE, strong=flag)[0] != alone[flag]:
                wrong.append(f"strong={flag}")
            if html_to_text(SOURCE).text != expected_text:
                wrong.append("html_to_text")

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work, args=(i % 2 == 0,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not wrong, wrong[:5]

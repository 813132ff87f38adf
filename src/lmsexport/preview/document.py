"""The frame every page of the preview shares: its inline style and script, the policy that
lets nothing else run or load, the bar at the top and the footer."""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from importlib import resources

from .markup import number, plain


@lru_cache(maxsize=None)
def asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii") + "'"


def document(title: str, body: str) -> str:
    """A whole page. Every page carries the script: the self-test, and the reload under --watch."""
    style, script = asset("preview.css"), asset("preview.js")
    # Only this page's own style and script may run: anything else, had it slipped into the
    # content, is refused by the browser. No request may leave the machine.
    policy = (f"default-src 'none'; style-src {_hash(style)}; script-src {_hash(script)}; "
              "img-src 'self' file: data:; media-src 'self' file:; connect-src 'self'; form-action 'none'; base-uri 'none'")
    return ("<!DOCTYPE html>\n"
            '<html lang="en" dir="ltr"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
            '<meta name="generator" content="lmsexport preview">'
            f"<title>{plain(title)}</title><style>{style}</style></head>"
            f'<body><a class="skip" href="#main">Skip to the content</a>{body}<script>{script}</script></body></html>\n')


def header(with_modes: bool) -> str:
    modes = ('<div class="modes js-only" role="group" aria-label="View">'
             '<button type="button" data-mode="selftest" aria-pressed="true">Self-test</button>'
             '<button type="button" data-mode="student" aria-pressed="false">Student view</button></div>') if with_modes else ""
    return f'<header class="bar"><a class="home" href="index.html">lmsexport preview</a>{modes}</header>'


FOOTER = '<footer class="foot"><p>Written by lmsexport. Nothing on this page comes from the network.</p></footer>'


def points(value: float) -> str:
    return f"{number(value)} point" + ("" if value == 1 else "s")

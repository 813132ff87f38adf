"""Language tags: the tags judged without langcodes are all tags langcodes accepts."""

from __future__ import annotations

import string
import subprocess
import sys

import langcodes
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from lmsexport.checks import languages
from lmsexport.checks.languages import language_is_valid, plainly_valid


def test_every_language_with_every_region_is_valid_for_langcodes():
    pairs = [f"{language}-{region}" for language in languages._LANGUAGES for region in languages._REGIONS]
    assert len(pairs) > 50_000
    assert [tag for tag in (*languages._LANGUAGES, *pairs) if not langcodes.tag_is_valid(tag)] == []
    assert all(plainly_valid(tag) for tag in ("en", "wo", "nl", "pt-BR", "fr-SN"))


def test_the_tables_hold_every_two_letter_subtag_langcodes_knows():
    """So that a common tag never pays for the import (a newer langcodes may know more)."""
    two = [a + b for a in string.ascii_lowercase for b in string.ascii_lowercase]
    assert {t for t in two if langcodes.tag_is_valid(t)} <= languages._LANGUAGES
    assert {t.upper() for t in two if langcodes.tag_is_valid("en-" + t.upper())} <= languages._REGIONS


tags = st.one_of(
    st.text(st.sampled_from(string.ascii_letters + string.digits + "-_"), max_size=12),
    st.builds(lambda a, b: f"{a}-{b}", st.sampled_from(sorted(languages._LANGUAGES)), st.text(string.ascii_letters + string.digits, max_size=4)),
)


@settings(max_examples=500, deadline=None)
@given(tags)
def test_the_fast_path_never_accepts_what_langcodes_refuses(tag):
    if plainly_valid(tag):
        assert langcodes.tag_is_valid(tag)
    assert language_is_valid(tag) == langcodes.tag_is_valid(tag)


def test_a_quiz_in_a_common_language_is_checked_without_importing_langcodes():
    code = ("import sys; from pathlib import Path; from lmsexport.loader import load_quiz; "
            f"r = load_quiz(Path({str(DATA / 'every_type.json')!r})); assert r.ok, r.diagnostics; "
            "print('langcodes' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"

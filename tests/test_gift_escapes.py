"""The one table of GIFT's escapes (text/gift_escapes.py), which the GIFT writer and reader both
read, is Moodle's own: the arrays of escapedchar_pre and escapedchar_post in Moodle 4.5's
question/format/gift/format.php, read from the source in ../shared/harness."""

from __future__ import annotations

import re
import tarfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmsexport.importers.gift.reader import _post, _pre
from lmsexport.text.gift_escapes import BACKSLASH, ESCAPES, PLACEHOLDER
from lmsexport.writers.moodle.gift import escape as writer_escape

MEMBER = "./question/format/gift/format.php"


@pytest.fixture(scope="module")
def format_php(shared_dir) -> str:
    source = shared_dir / "harness" / "moodle" / "moodle-4.5.6-src.tar.xz"
    if not source.is_file():
        pytest.skip(f"{source} is missing: Moodle's GIFT importer cannot be read")
    with tarfile.open(source) as archive:
        return archive.extractfile(MEMBER).read().decode("utf-8")


def _php_strings(array: str) -> list[str]:
    """The double-quoted strings of a PHP array(...), decoded as PHP decodes them ('\\\\' and '\\n')."""
    return [re.sub(r"\\(\\|n)", lambda m: "\\" if m.group(1) == "\\" else "\n", s) for s in re.findall(r'"((?:[^"\\]|\\.)*)"', array)]


def _array(php: str, function: str, variable: str) -> list[str]:
    body = re.search(rf"function {function}\(.*?\n    }}", php, re.S).group()
    return _php_strings(re.search(rf"\${variable}\s*=\s*array\((.*?)\);", body, re.S).group(1))


def test_the_table_is_moodles(format_php):
    assert [e for e, _, _ in ESCAPES] == _array(format_php, "escapedchar_pre", "escapedcharacters")
    assert [p for _, p, _ in ESCAPES] == _array(format_php, "escapedchar_pre", "placeholders")
    assert [p for _, p, _ in ESCAPES] == _array(format_php, "escapedchar_post", "placeholders")
    assert [c for _, _, c in ESCAPES] == _array(format_php, "escapedchar_post", "characters")
    escaped, placeholder, character = BACKSLASH
    assert f'str_replace("\\\\\\\\", "{placeholder}", $string)' in format_php and escaped == "\\\\"
    assert f'str_replace("{placeholder}", "\\\\", $string)' in format_php and character == "\\"


def test_the_writer_and_the_reader_read_the_table():
    assert writer_escape.PLACEHOLDER is PLACEHOLDER
    for escaped, placeholder, character in ESCAPES:
        assert _post(_pre(f"a{escaped}b")) == f"a{character}b"
        assert PLACEHOLDER.fullmatch(placeholder) and not writer_escape.plain_survives(f"a{placeholder}b")
    assert _post(_pre("a\\\\:b")) == "a\\:b"  # an escaped backslash, then a plain colon


def test_the_gift_writer_escapes_each_special_character_and_line_break_as_moodle_reads_them():
    """Written out by hand from Moodle's escapedchar_pre: a backslash doubled, each of ~ = # { } :
    after a backslash, every line break (CRLF, CR or LF: Moodle drops carriage returns) as \\n."""
    from lmsexport.writers.moodle.gift.escape import escape

    table = [("plain words", "plain words"), ("a\r\nb\rc\nd", "a\\nb\\nc\\nd"), ("x\ry", "x\\ny"),
             ("\\ ~ = # { } :", "\\\\ \\~ \\= \\# \\{ \\} \\:")]
    assert [(source, escape(source)) for source, _ in table] == table


def test_a_plain_text_survives_gift_unless_it_holds_a_placeholder_or_an_arrow():
    from lmsexport.writers.moodle.gift.escape import plain_survives

    assert [plain_survives(s) for s in ("a && b", "a &&058; b", "x -> y", "&&")] == [True, False, False, True]


def test_a_name_is_written_as_moodle_reads_its_placeholders_and_a_category_path_keeps_its_backslashes():
    """Written out by hand: Moodle turns a placeholder in a name into its character (`&&058;` is
    read as ':'), so such a name is written as it will be read, escaped; `&&` that starts no
    placeholder stays. A $CATEGORY path is read through escapedchar_pre alone: each backslash is
    doubled, `&&092;` is written as the backslash Moodle makes of it, other placeholders stay, a
    line break (any) becomes a space."""
    from lmsexport.writers.moodle.gift.escape import category, name

    names = [("plain name", "plain name"), ("a: b", "a\\: b"), ("x && y", "x && y"), ("a &&058; b", "a \\: b"),
             ("a &&092;b", "a \\\\b"), ("&&&092;058;", "&\\\\058;")]
    assert [(source, name(source)) for source, _ in names] == names
    paths = [("a/b", "a/b"), ("C\\#&&035;", "C\\\\#&&035;"), ("a&&092;b", "a\\\\b"), ("line\nbreak", "line break"),
             ("cr\rlf\r\nx", "cr lf x")]
    assert [(source, category(source)) for source, _ in paths] == paths


# Texts made mostly of GIFT's special characters, Moodle's placeholders and arrows, and anything else.
_GIFTISH = st.lists(st.sampled_from([*"ab \\~=#{}:\n\r-&[]é🚀", "->", "&&", *(p for _, p, _ in (*ESCAPES, BACKSLASH))])
                    | st.characters(), max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(source=_GIFTISH)
def test_escape_tells_a_text_without_special_characters_from_one_with_them(source):
    """The fast test of `escape` (no special character: the text as it is) against every replace done."""
    from lmsexport.writers.moodle.gift.escape import escape, line_breaks

    every_replace = (line_breaks(source).replace("\\", "\\\\").replace("~", "\\~").replace("=", "\\=").replace("#", "\\#")
                     .replace("{", "\\{").replace("}", "\\}").replace(":", "\\:").replace("\n", "\\n"))
    assert escape(source) == every_replace


@settings(max_examples=300, deadline=None)
@given(source=_GIFTISH, inline=st.booleans(), language=st.sampled_from([None, "en", "nl"]))
def test_the_block_writers_plain_text_is_what_escape_rich_writes(source, inline, language):
    """BlockWriter.rich's fast path for plain text in the quiz's language against escape.rich."""
    from quizzes import quiz_of
    from lmsexport.model import Text
    from lmsexport.writers.moodle.gift.questions import BlockWriter
    from lmsexport.writers.reporter import Reporter
    from lmsexport.writers.shared import ExportOptions

    writer = BlockWriter(Reporter(quiz_of(), "gift", ExportOptions()))
    writer.lang = None if language in (None, "en") else language
    assert writer.rich(Text(source), inline) == writer_escape.rich(Text(source), inline, writer.lang)


@pytest.mark.parametrize("special, escaped", [("\\", "\\\\"), ("~", "\\~"), ("=", "\\="), ("#", "\\#"), ("{", "\\{"), ("}", "\\}"),
                                              (":", "\\:"), ("\n", "\\n"), ("\r", "\\n")])
def test_each_special_character_alone_is_escaped(special, escaped):
    """Each of the characters `escape` tests for, alone in a text, is escaped (written out by hand)."""
    assert writer_escape.escape(f"a{special}b") == f"a{escaped}b"

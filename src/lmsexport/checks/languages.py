"""Language tags must be registered BCP 47 tags, not only well formed ones."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..diagnostics import Diagnostic, error

# The two-letter language subtags (ISO 639-1) and two-letter region subtags that langcodes
# accepts, as it accepts any language of the one with any region of the other
# (tests/test_languages.py proves both for every pair). A tag made of them alone, the tags
# nearly every quiz uses ('en', 'wo', 'pt-BR'), is judged here; any other by langcodes, imported
# only then: its registry tables take longer to import than a small quiz takes to check.
_LANGUAGES = frozenset("""
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy
    da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu
    hy hz ia id ie ig ii ik in io is it iu iw ja ji jv jw ka kg ki kj kk kl km kn ko kr ks ku kv
    kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mo mr ms mt my na nb nd ne ng nl nn no nr
    nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq
    sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi
    yo za zh zu
""".split())
_REGIONS = frozenset("""
    AA AC AD AE AF AG AI AL AM AN AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN
    BO BQ BR BS BT BU BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CP CR CS CT CU CV CW CX CY
    CZ DD DE DG DJ DK DM DO DY DZ EA EC EE EG EH ER ES ET EU EZ FI FJ FK FM FO FQ FR FX GA GB GD
    GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU HV IC ID IE IL IM IN IO IQ
    IR IS IT JE JM JO JP JT KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA
    MC MD ME MF MG MH MI MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NH NI NL
    NO NP NQ NR NT NU NZ OM PA PC PE PF PG PH PK PL PM PN PR PS PT PU PW PY PZ QA QM QN QO QP QQ
    QR QS QT QU QV QW QX QY QZ RE RH RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS
    ST SU SV SX SY SZ TA TC TD TF TG TH TJ TK TL TM TN TO TP TR TT TV TW TZ UA UG UK UM UN US UY
    UZ VA VC VD VE VG VI VN VU WF WK WS XA XB XC XD XE XF XG XH XI XJ XK XL XM XN XO XP XQ XR XS
    XT XU XV XW XX XY XZ YD YE YT YU ZA ZM ZR ZW ZZ
""".split())


def plainly_valid(tag: str) -> bool:
    """A language alone ('wo') or with a region ('pt-BR'), both of the tables above."""
    return tag in _LANGUAGES or (len(tag) == 5 and tag[2] == "-" and tag[:2] in _LANGUAGES and tag[3:] in _REGIONS)


@lru_cache(maxsize=1024)
def language_is_valid(tag: str) -> bool:
    if plainly_valid(tag):
        return True
    import langcodes

    return langcodes.tag_is_valid(tag)


def not_registered(tag: str) -> str:
    """What is said of a tag that language_is_valid refuses, in the content and on the command line."""
    return f"{tag!r} is not a registered language tag (BCP 47: for example 'en', 'wo', 'nl' or 'pt-BR')"


def language_errors(tag: str | None, file: str, pointer: str) -> Iterator[Diagnostic]:
    if tag is not None and not language_is_valid(tag):
        yield error(not_registered(tag), file, pointer, code="language")

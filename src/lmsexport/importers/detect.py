"""Which format a file is in, judged by its content (the extension only breaks ties)."""

from __future__ import annotations

import re

from ..readers import READERS
from .safety import InputError, Package, is_zip

_XML_START = re.compile(rb"^(\xef\xbb\xbf)?\s*<")
_CLOZE = re.compile(r"\{\d*:(SHORTANSWER|SA|MW|NUMERICAL|NM|MULTICHOICE|MC|MULTIRESPONSE|MR)(_[A-Z]+|[A-Z]*):")
_GIFT_MARK = re.compile(r"(^|\n)\s*(::|\$CATEGORY:|//)|\{[^{}]*[~=#}]|\{\s*\}")


def detect(data: bytes, name: str) -> str:
    """The name of the registered reader (readers.READERS) for the file; InputError when it is
    none of them."""
    if is_zip(data):
        return package_format(Package(data))
    if _XML_START.match(data[:1024]):
        head = data[:4096]
        if re.search(rb"<quiz[\s>]|^(\xef\xbb\xbf)?\s*(<\?xml[^>]*>\s*)?<question[\s>]", head):
            return _reader("moodle")
        if re.search(rb"<questestinterop[\s>]", head):
            return _reader("canvas")
        if re.search(rb"imsqti_v2p|<assessmentItem[\s>]|<assessmentTest[\s>]|<manifest[\s>]", head):
            return _reader("qti")
        raise InputError("an XML file that is neither Moodle XML (<quiz>), QTI 1.2 (<questestinterop>) nor QTI 2.1 (<assessmentItem>, <manifest>)")
    if data.startswith(b"PK"):
        raise InputError("a damaged zip (its first bytes say zip, but it cannot be read)")
    try:
        text = data[:65536].decode("utf-8", errors="strict" if len(data) <= 65536 else "ignore")
    except UnicodeDecodeError:
        text = data[:65536].decode("latin-1")
    if _CLOZE.search(text) and not name.lower().endswith((".gift", ".gift.txt")):
        raise InputError("Moodle embedded answers (cloze) text: not a format lmsexport imports (export the questions as Moodle XML)")
    if _GIFT_MARK.search(text) or name.lower().endswith((".gift", ".gift.txt")):
        return _reader("gift")
    raise InputError("the format cannot be recognised (not Moodle XML, GIFT, a QTI 2.1 package or a Canvas export): name it with --format")


def package_format(package: Package) -> str:
    """A Canvas export (QTI 1.2 with Canvas's metadata) or a QTI 2.1 package."""
    names = package.names()
    if not package.has("imsmanifest.xml"):
        xml = [n for n in names if n.endswith(".xml")]
        if any(re.search(rb"<questestinterop[\s>]", package.read(n)[:4096]) for n in xml[:50]):
            return _reader("canvas")
        if any(re.search(rb"<assessmentItem[\s>]", package.read(n)[:4096]) for n in xml[:50]):
            return _reader("qti")
        raise InputError("a zip with no imsmanifest.xml and no QTI file: not a QTI or Canvas package")
    manifest = package.read("imsmanifest.xml")
    if re.search(rb"imsqti_item_xmlv2p|imsqti_test_xmlv2p|imsqti_v2p", manifest):
        return _reader("qti")
    if re.search(rb"imsqti_xmlv1p2|imscc_xmlv1p1/learning-application-resource|associatedcontent/imscc", manifest) or \
            any(re.search(rb"<questestinterop[\s>]", package.read(n)[:4096]) for n in names if n.endswith(".xml") and n != "imsmanifest.xml"):
        return _reader("canvas")
    raise InputError("a package whose manifest lists neither QTI 2.1 items nor QTI 1.2 assessments")


def _reader(name: str) -> str:
    # Detection answers only formats a reader is registered for (a KeyError names one that is not).
    return READERS[name].name

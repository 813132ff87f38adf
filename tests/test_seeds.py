"""Our first users' quizzes: every string of the seed texts survives, character for character,
into content/ and into every committed export.

The seeds in ../shared/seeds are page captures; the strings that are the quiz's own (title,
description, level, learning path, questions, options, the Dutch explanation) are read from
them by their layout and looked for in each export, after undoing only that format's escaping.
"""

from __future__ import annotations

import html
import json
import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from conftest import CONTENT, ROOT

SEED_FILES = {
    "000_d62374f2dc6ac826.txt": "model-pipeline-parallelism",
    "001_07399f04b819ad32.txt": "optimizer-offload-cpu-nvme",
    "002_3ae4f90b1a366ba0.txt": "ai-hardware-software-stack",
    "003_d5b4e4360a907a54.txt": "sequence-parallelism-ring-attention",
}
LEARNING_PATH_LABEL = "Yooni njiit yu jëm ci"


def seed_strings(path: Path) -> tuple[list[str], list[str]]:
    """(strings of exported fields, strings of draft questions) of one seed text."""
    lines = path.read_text(encoding="utf-8").split("\n")
    strings: list[str] = []
    drafts: list[str] = []
    if " · " in lines[0]:  # the Wolof layout: "kind · level", title, description, learning path
        strings += [lines[0].split(" · ")[1], lines[2], lines[4], lines[6][len(LEARNING_PATH_LABEL):]]
        strings += [m.group(1) for line in lines if (m := re.match(r"^  \d+\. (.*)$", line))]
        strings += [m.group(1) for line in lines if (m := re.match(r"^    • (.*)$", line))]
        return strings, drafts
    # The Dutch layout: title, one question with lettered options and an explained answer, then
    # a list of further questions without options.
    strings += [lines[3], lines[5]]
    strings += [m.group(1) for line in lines if (m := re.match(r"^  \d\. [ABC](.*)$", line))]
    answer = next(i for i, line in enumerate(lines) if line.startswith("Antwoord: "))
    strings.append(lines[answer + 2])
    more = lines.index("Meer vragen over " + lines[3])
    drafts += [m.group(1) for line in lines[more:] if (m := re.match(r"^  \d\. (.*)$", line))]
    return strings, drafts


@pytest.fixture(scope="module", params=sorted(SEED_FILES), ids=lambda name: SEED_FILES[name])
def seed(request, shared_dir):
    strings, drafts = seed_strings(shared_dir / "seeds" / request.param)
    assert len(strings) >= 6  # the Dutch seed: title, question, three options, explanation
    return SEED_FILES[request.param], strings, drafts


def xml_text(data: bytes) -> str:
    """Every text and attribute value of an XML document, with HTML inside text unescaped too."""
    root = etree.fromstring(data)
    parts = list(root.itertext()) + [value for element in root.iter() for value in element.attrib.values()]
    joined = "\n".join(parts)
    return joined + "\n" + html.unescape(joined)


def zip_text(path: Path) -> str:
    with zipfile.ZipFile(path) as archive:
        return "\n".join(xml_text(archive.read(n)) for n in archive.namelist() if n.endswith(".xml"))


def gift_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    unescaped = re.sub(r"\\([~=#{}:\\])", r"\1", text)
    return unescaped + "\n" + html.unescape(unescaped)


def test_content_keeps_every_seed_string(seed):
    quiz_id, strings, drafts = seed
    content = json.loads((CONTENT / f"{quiz_id}.json").read_text(encoding="utf-8"))
    values = json.dumps(content, ensure_ascii=False)
    for string in strings + drafts:
        assert json.dumps(string, ensure_ascii=False) in values, string
    draft_stems = [q["stem"] for q in content["questions"] if q.get("draft")]
    assert draft_stems == drafts
    assert all(not q["options"] for q in content["questions"] if q.get("draft")), "options were invented for a draft"


@pytest.mark.parametrize("export, reader", [
    ("qti/{}.zip", zip_text), ("canvas/{}.zip", zip_text),
    ("moodle/{}.xml", lambda p: xml_text(p.read_bytes())), ("gift/{}.gift.txt", gift_text),
])
def test_every_export_keeps_every_seed_string(seed, export, reader):
    quiz_id, strings, drafts = seed
    text = reader(ROOT / "exports" / export.format(quiz_id))
    missing = [s for s in strings if s not in text]
    assert not missing, f"{export.format(quiz_id)} lost: {missing}"
    assert not [d for d in drafts if d in text], "a draft was exported"

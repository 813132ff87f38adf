"""The quiz's own data in the QTI manifest (IMS MD 1.2 LOM): every value verbatim, valid, readable by TAO."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import CONTENT, DATA
from quizzes import loaded
from lxml import etree
from qti_support import NS
from packages import entries

from lmsexport.model import Source, Text, TrueFalse
from lmsexport.writers import qti
from lmsexport.writers.shared import ExportOptions

CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
MD_NS = "http://www.imsglobal.org/xsd/imsmd_v1p2"
LANG = "{http://www.w3.org/XML/1998/namespace}lang"
HOSTILE = "Dëgër <script>alert(1)</script> & ]]> \"quoted\" 'single' 🚀 נעם e\u0301 {~=#:} \\ tab\there\nline\r\nend  "


def _manifest(quiz) -> bytes:
    result = qti.render(quiz, ExportOptions())
    assert not result.failed, result.diagnostics
    return entries(result.data)["imsmanifest.xml"]


def tao_values(manifest: bytes) -> dict[str | None, list[tuple[tuple[str, ...], str, str | None]]]:
    """The manifest read as TAO's ImsManifestMetadataExtractor reads it: only prefixed elements
    whose prefix <manifest> declares count, an element with at most one child node is a leaf, and
    a value is (path of local names, text, xml:lang of a langstring) per resource identifier."""
    root = etree.fromstring(manifest)
    prefixes = {p: uri for p, uri in root.nsmap.items() if p not in (None, "xsi")}
    found: dict[str | None, list] = {}

    def walk(node, path, resource):
        for child in node.iterchildren(tag=etree.Element):
            if etree.QName(child).localname == "resource" and child.prefix is None:
                resource = child.get("identifier")
            step = path + ((etree.QName(child).localname,) if child.prefix in prefixes else ())
            child_nodes = len(child) + (child.text is not None) + sum(c.tail is not None for c in child)
            if child_nodes > 1:
                walk(child, step, resource)
            elif child.prefix in prefixes:
                language = child.get(LANG) if etree.QName(child).localname == "langstring" else None
                found.setdefault(resource, []).append((step, "".join(child.itertext()), language))

    walk(root, (), None)
    return found


def expected(quiz) -> list[tuple[tuple[str, ...], str, str | None]]:
    """Where each piece of the quiz's data must be, as TAO paths."""
    lang = quiz.language
    ls = "langstring"
    values = [(("lom", "general", "title", ls), quiz.title, lang), (("lom", "general", "language"), quiz.language, None)]
    if quiz.description is not None:
        values.append((("lom", "general", "description", ls), quiz.description.source, lang))
    values += [(("lom", "general", "keyword", ls), tag, lang) for tag in quiz.tags]

    def vocabulary(path: tuple[str, ...], value: str) -> list:
        return [((*path, "source", ls), "LOMv1.0", "x-none"), ((*path, "value", ls), value, "x-none")]

    if quiz.difficulty is not None:
        values += vocabulary(("lom", "educational", "difficulty"), {"easy": "easy", "medium": "medium", "hard": "difficult"}[quiz.difficulty])
    if quiz.level is not None:
        values.append((("lom", "educational", "description", ls), quiz.level, lang))
    source = quiz.source
    if source is not None and source.license is not None:
        values.append((("lom", "rights", "description", ls), source.license, "x-none"))
    if quiz.learning_path is not None:
        values += vocabulary(("lom", "relation", "kind"), "ispartof")
        values.append((("lom", "relation", "resource", "description", ls), quiz.learning_path, lang))
    if source is not None and (source.name is not None or source.url is not None):
        values += vocabulary(("lom", "relation", "kind"), "isbasedon")
    if source is not None and source.name is not None:
        values.append((("lom", "relation", "resource", "description", ls), source.name, lang))
    if source is not None and source.url is not None:
        values.append((("lom", "relation", "resource", "catalogentry", "catalog"), "URI", None))
        values.append((("lom", "relation", "resource", "catalogentry", "entry", ls), source.url, "x-none"))
    if quiz.category:
        values += vocabulary(("lom", "classification", "purpose"), "discipline")
        values += [(("lom", "classification", "taxonpath", "taxon", "entry", ls), name, lang) for name in quiz.category]
    return values


QUIZZES = [CONTENT / "model-pipeline-parallelism.json", CONTENT / "ai-hardware-software-stack.json", DATA / "every_type.json"]


@pytest.mark.parametrize("path", QUIZZES, ids=lambda p: p.stem)
def test_the_quiz_data_is_in_the_package_and_test_metadata_verbatim(path, schemas):
    quiz = loaded(path)
    manifest = _manifest(quiz)
    assert schemas["manifest"].validate(etree.fromstring(manifest)), schemas["manifest"].error_log
    values = tao_values(manifest)
    # The package's own metadata (no resource) and the test's carry the same data.
    for owner in (None, f"test.{quiz.id}"):
        got = values[owner]
        for value in expected(quiz):
            assert value in got, (owner, value)
        # Nothing else: each value is where a reader looks for it, and only there.
        assert sorted(got) == sorted(expected(quiz)), owner


def test_the_wolof_quiz_keeps_its_own_words():
    quiz = loaded(CONTENT / "model-pipeline-parallelism.json")
    text = _manifest(quiz).decode("utf-8")
    for value in ("Dëgër Niveau", "Model ak paralelismu tuyo", "Distributed GPU training", "difficult"):
        assert f">{value}</imsmd:langstring>" in text


@pytest.mark.parametrize("difficulty,vocabulary", [("easy", "easy"), ("medium", "medium"), ("hard", "difficult")])
def test_difficulty_uses_the_lom_vocabulary(difficulty, vocabulary):
    quiz = replace(loaded(DATA / "every_type.json"), difficulty=difficulty)
    root = etree.fromstring(_manifest(quiz))
    md = f"{{{MD_NS}}}"
    found = root.find(f"{CP}metadata/{md}lom/{md}educational/{md}difficulty")
    assert found.findtext(f"{md}source/{md}langstring") == "LOMv1.0"
    assert found.findtext(f"{md}value/{md}langstring") == vocabulary


def test_hostile_metadata_survives_character_for_character(schemas):
    quiz = replace(
        loaded(DATA / "every_type.json"),
        level=HOSTILE,
        learning_path=HOSTILE + "path",
        category=(HOSTILE, "second"),
        tags=("a&b", "<c>"),
        source=Source(name=HOSTILE + "name", url="https://example.org/?a=1&b=\"2\"", license="CC-BY-SA-4.0 <&>"),
    )
    manifest = _manifest(quiz)
    assert schemas["manifest"].validate(etree.fromstring(manifest)), schemas["manifest"].error_log
    got = tao_values(manifest)[None]
    for value in expected(quiz):
        assert value in got, value


def test_a_quiz_with_no_extra_data_has_only_the_general_part(schemas):
    quiz = replace(loaded(DATA / "every_type.json"), level=None, difficulty=None, learning_path=None, category=(), source=None, tags=())
    manifest = _manifest(quiz)
    assert schemas["manifest"].validate(etree.fromstring(manifest))
    md = f"{{{MD_NS}}}"
    lom = etree.fromstring(manifest).find(f"{CP}metadata/{md}lom")
    assert [etree.QName(e).localname for e in lom] == ["general"]


def test_a_source_with_only_a_licence_has_no_relation(schemas):
    quiz = replace(loaded(DATA / "every_type.json"), source=Source(license="CC0-1.0"), learning_path=None)
    manifest = _manifest(quiz)
    assert schemas["manifest"].validate(etree.fromstring(manifest))
    paths = {p for p, _, _ in tao_values(manifest)[None]}
    assert ("lom", "rights", "description", "langstring") in paths
    assert not any("relation" in p for p in paths)


def test_items_carry_the_quiz_tags_then_their_own():
    quiz = loaded(DATA / "every_type.json")
    values = tao_values(_manifest(quiz))
    question = next(q for q in quiz.exported_questions if q.tags)
    keywords = [v for p, v, _ in values[question.id] if p == ("lom", "general", "keyword", "langstring")]
    assert keywords == list(dict.fromkeys((*quiz.tags, *question.tags)))
    assert quiz.tags and question.tags


def test_the_manifest_is_laid_out_as_tao_needs():
    """TAO only descends into an element with more than one child node: the metadata stays indented."""
    manifest = _manifest(loaded(DATA / "every_type.json"))
    root = etree.fromstring(manifest)
    assert etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True) == manifest
    assert root.nsmap["imsmd"] == MD_NS


def test_strings_in_item_attributes_keep_line_breaks_and_tabs():
    quiz = loaded(DATA / "every_type.json")
    title = "a\nb\tc\r\"<&>' 🚀"
    question = TrueFalse(id="tf", title=title, stem=Text("x\r\ny"), answer=True)
    result = qti.render(replace(quiz, questions=(question,)), ExportOptions())
    files = entries(result.data)
    assert etree.fromstring(files["tf.xml"]).get("title") == title
    test = etree.fromstring(files["imsmanifest.xml"])
    md = f"{{{MD_NS}}}"
    assert test.find(f"{CP}resources/{CP}resource[@identifier='tf']").findtext(f"{CP}metadata/{md}lom/{md}general/{md}title/{md}langstring") == title
    assert etree.fromstring(files["tf.xml"]).find(f"{NS}itemBody/{NS}div/{NS}p") is not None

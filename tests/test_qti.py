"""The QTI 2.1 package: official XSDs, manifest and test structure, Canvas conventions, exact texts."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from conftest import CONTENT, DATA
from lxml import etree
from qti_support import NS, is_item
from packages import entries
from shown_text import expected_shown, loose_around_tabs, shown_of_element

from lmsexport.loader import load_quiz
from lmsexport.model import Description, Text, TextFormat, TrueFalse
from lmsexport.writers import qti
from lmsexport.writers.shared import ZIP_TIMESTAMP, ExportOptions

CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
MD = "{http://www.imsglobal.org/xsd/imsmd_v1p2}"
LANG = "{http://www.w3.org/XML/1998/namespace}lang"
QUIZ_FILES = sorted(CONTENT.glob("*.json")) + [DATA / "every_type.json"]


def export(path: Path, options: ExportOptions = ExportOptions()):
    quiz = load_quiz(path).quiz
    return quiz, qti.render(quiz, options)


@pytest.fixture(scope="module", params=QUIZ_FILES, ids=lambda p: p.stem)
def package(request):
    quiz, result = export(request.param)
    assert not result.failed, result.diagnostics
    files = entries(result.data)
    return quiz, result, files, {name: etree.fromstring(data) for name, data in files.items()}


def test_every_file_validates_against_the_official_schemas(package, schemas):
    _, _, _, docs = package
    for name, doc in docs.items():
        checks = ["manifest"] if name == "imsmanifest.xml" else ["qti 2.1", "qti 2.1.2"]
        for check in checks:
            schema = schemas[check]
            assert schema.validate(doc), f"{name} against {check}: {schema.error_log}"


def test_the_schemas_do_reject_an_invalid_item(package, schemas):
    _, _, _, docs = package
    item = next(doc for name, doc in docs.items() if is_item(name))
    item.find(f"{NS}itemBody").set("style", "color:red")
    assert not schemas["qti 2.1"].validate(item) and not schemas["qti 2.1.2"].validate(item)


def test_the_manifest_lists_every_file_and_the_test_in_content_order(package):
    quiz, result, files, docs = package
    assert result.filename == f"{quiz.id}.zip"
    manifest = docs["imsmanifest.xml"]
    assert manifest.findtext(f"{CP}metadata/{CP}schema") == "QTIv2.1 Package"
    assert manifest.findtext(f"{CP}metadata/{CP}schemaversion")
    general = manifest.find(f"{CP}metadata/{MD}lom/{MD}general")
    assert general.findtext(f"{MD}title/{MD}langstring") == quiz.title
    assert general.findtext(f"{MD}language") == quiz.language
    if quiz.description is not None:
        assert general.findtext(f"{MD}description/{MD}langstring") == quiz.description.source
    # Canvas lets interactionType override its own type guessing, which breaks text entry: only
    # an item without interaction (a description) names its Canvas type.
    marked = {r.get("identifier"): r.findtext(f"{CP}metadata/{{http://www.imsglobal.org/xsd/imsqti_v2p1}}interactionType")
              for r in manifest.iter(f"{CP}resource")}
    descriptions = {q.id for q in quiz.exported_questions if isinstance(q, Description)}
    assert {k: v for k, v in marked.items() if v is not None} == dict.fromkeys(descriptions, "text_only_question")

    resources = manifest.findall(f"{CP}resources/{CP}resource")
    listed = [f.get("href") for r in resources for f in r.findall(f"{CP}file")]
    assert sorted(listed) == sorted(n for n in files if n != "imsmanifest.xml")
    tests = [r for r in resources if r.get("type") == "imsqti_test_xmlv2p1"]
    items = [r for r in resources if r.get("type") == "imsqti_item_xmlv2p1"]
    assert len(tests) == 1 and len(items) == len(resources) - 1
    exported = quiz.exported_questions
    assert [r.get("identifier") for r in items] == [q.id for q in exported]
    assert [d.get("identifierref") for d in tests[0].findall(f"{CP}dependency")] == [q.id for q in exported]

    test = docs[tests[0].get("href")]
    parts = test.findall(f"{NS}testPart")
    sections = test.findall(f"{NS}testPart/{NS}assessmentSection")
    assert len(parts) == 1 and len(sections) == 1
    refs = sections[0].findall(f"{NS}assessmentItemRef")
    assert [r.get("identifier") for r in refs] == [q.id for q in exported]
    for ref, resource, question in zip(refs, items, exported):
        item = docs[ref.get("href")]
        # Canvas pairs a test's references with items by identifier, and takes points from <weight>.
        assert item.get("identifier") == ref.get("identifier") == resource.get("identifier")
        assert resource.get("href") == ref.get("href")
        assert float(ref.find(f"{NS}weight").get("value")) == question.points
        title = question.title if question.title is not None else question.id
        assert item.get("title") == title
        assert resource.findtext(f"{CP}metadata/{MD}lom/{MD}general/{MD}title/{MD}langstring") == title
        assert item.get(LANG) == quiz.language_of(question)
        for name in ("SCORE", "MAXSCORE"):
            declared = item.find(f"{NS}outcomeDeclaration[@identifier='{name}']")
            assert declared is not None
        assert float(item.findtext(f"{NS}outcomeDeclaration[@identifier='MAXSCORE']/{NS}defaultValue/{NS}value")) == question.points


def test_drafts_are_left_out():
    quiz, result = export(DATA / "every_type.json")
    names = entries(result.data)
    drafts = [q.id for q in quiz.questions if q.draft]
    assert drafts and not any(f"{d}.xml" in names for d in drafts)
    assert len([n for n in names if is_item(n)]) == len(quiz.exported_questions)


def test_two_exports_are_byte_identical_with_fixed_timestamps():
    first = export(DATA / "every_type.json")[1].data
    second = export(DATA / "every_type.json")[1].data
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert all(i.date_time == ZIP_TIMESTAMP for i in infos)


def _plain(element) -> str:
    """The text of rendered plain text: paragraphs joined by a blank line, <br/> as a newline."""
    paragraphs = []
    for p in element.iter(f"{NS}p"):
        parts = [p.text or ""]
        for child in p:
            assert child.tag == f"{NS}br"
            parts.append("\n" + (child.tail or ""))
        paragraphs.append("".join(parts))
    return "\n\n".join(paragraphs)


def _expected_plain(source: str) -> str:
    paragraphs = [p.strip("\n") for p in source.replace("\r\n", "\n").split("\n\n") if p.strip()]
    return "\n\n".join(paragraphs)


def _same_markup(element, text: Text) -> None:
    """Rendered Markdown shows what markdown-it-py, used directly, says it shows."""
    assert all(etree.QName(e).namespace == "http://www.imsglobal.org/xsd/imsqti_v2p1" for e in element.iter() if isinstance(e.tag, str) and etree.QName(e).localname != "math")
    assert loose_around_tabs(shown_of_element(element), text.source) == loose_around_tabs(expected_shown(text, math="mathml"), text.source)


def _check_block(element, text: Text) -> None:
    if text.format is TextFormat.PLAIN:
        assert _plain(element) == _expected_plain(text.source)
    else:
        _same_markup(element, text)


def _outcome_wrapper(modal):
    """Outcome feedback is one <div class="feedback">: an attribute Canvas keeps (see feedback.py)."""
    assert len(modal) == 1 and modal[0].tag == f"{NS}div" and modal[0].get("class") == "feedback"
    copy = etree.fromstring(etree.tostring(modal[0]))
    del copy.attrib["class"]
    return copy


def _check_answer_block(modal, text: Text) -> None:
    """Per-answer feedback is div > div.feedback, its paragraphs written as divs."""
    assert len(modal) == 1 and len(modal[0]) == 1 and modal[0][0].get("class") == "feedback"
    copy = etree.fromstring(etree.tostring(modal[0][0]))
    del copy.attrib["class"]
    assert not list(copy.iter(f"{NS}p"))
    for element in copy.iter(f"{NS}div"):
        if element is not copy and element.getparent() is not None:
            element.tag = f"{NS}p"  # back to paragraphs, to compare with the text
    _check_block(copy, text)


def test_texts_arrive_verbatim(package):
    quiz, _, _, docs = package
    for question in quiz.exported_questions:
        item = docs[f"{question.id}.xml"]
        body = item.find(f"{NS}itemBody")
        _check_block(body[0], question.stem)
        assert body[0].tag == f"{NS}div"
        modal = {m.get("identifier"): m for m in item.findall(f"{NS}modalFeedback")}
        if question.feedback.general is not None:
            _check_block(_outcome_wrapper(modal["general_feedback"]), question.feedback.general)
        for name, text in (("correct", question.feedback.correct), ("incorrect", question.feedback.incorrect), ("partial", question.feedback.partially_correct)):
            if text is not None:
                _check_block(_outcome_wrapper(modal[f"{name}_feedback"]), text)
        choices = {c.get("identifier"): c for c in item.iter(f"{NS}simpleChoice")}
        for choice in getattr(question, "choices", ()):
            element = choices[choice.id]
            if choice.text.format is TextFormat.PLAIN:
                assert (element.text or "") + "".join("\n" + (b.tail or "") for b in element) == choice.text.source
            if choice.feedback is not None:
                _check_answer_block(modal[f"option_{choice.id}_feedback"], choice.feedback)


def test_the_seed_texts_are_found_verbatim_in_the_files():
    for path in sorted(CONTENT.glob("*.json")):
        quiz, result = export(path)
        files = entries(result.data)
        for question in quiz.exported_questions:
            item = files[f"{question.id}.xml"].decode("utf-8")
            escape = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")  # noqa: E731
            assert escape(question.stem.source) in item
            if question.feedback.general is not None:
                assert escape(question.feedback.general.source) in item
            for choice in question.choices:
                assert escape(choice.text.source) in item


def test_every_type_maps_to_its_interaction():
    quiz, result = export(DATA / "every_type.json")
    docs = {n: etree.fromstring(d) for n, d in entries(result.data).items()}
    kinds = {}
    for question in quiz.exported_questions:
        body = docs[f"{question.id}.xml"].find(f"{NS}itemBody")
        kinds[question.type] = {etree.QName(e).localname for e in body.iter() if etree.QName(e).localname.endswith("Interaction")}
        if question.type in ("short_answer", "numerical"):
            blank = body.find(f".//{NS}textEntryInteraction")
            # Canvas only keeps a blank that sits in a top-level <p> of itemBody.
            assert blank.getparent().tag == f"{NS}p" and blank.getparent().getparent() is body
    assert kinds == {
        "single_choice": {"choiceInteraction"},
        "multiple_response": {"choiceInteraction"},
        "true_false": {"choiceInteraction"},
        "short_answer": {"textEntryInteraction"},
        "numerical": {"textEntryInteraction"},
        "matching": {"matchInteraction"},
        "essay": {"extendedTextInteraction"},
        "description": set(),
    }
    single = docs["single.xml"].find(f".//{NS}choiceInteraction")
    assert single.get("maxChoices") == "1" and single.get("shuffle") == "true"
    assert [c.get("fixed") for c in single.iter(f"{NS}simpleChoice")] == [None, None, None, "true"]
    assert [c.get(LANG) for c in single.iter(f"{NS}simpleChoice")] == [None, None, None, "fr"]
    multi = docs["multi.xml"].find(f".//{NS}choiceInteraction")
    assert multi.get("maxChoices") == "0" and multi.get("shuffle") == "false"
    tf = docs["truefalse.xml"].find(f".//{NS}choiceInteraction")
    assert tf.get("maxChoices") == "1"
    essay = docs["essay.xml"]
    assert essay.find(f".//{NS}extendedTextInteraction").get("expectedLines") == "8"
    assert essay.find(f".//{NS}extendedTextInteraction").get("placeholderText") == "A bubble appears because"
    assert essay.findtext(f".//{NS}rubricBlock[@view='scorer']//{NS}p") == "Mentions idle stages at fill and drain."
    essay_question = next(q for q in quiz.questions if q.id == "essay")
    assert essay.find(f"{NS}responseProcessing") is None and essay_question.points == 5
    match = docs["match.xml"]
    targets = [c.text for c in match.findall(f".//{NS}simpleMatchSet")[1]]
    assert targets == ["the batch", "a layer's matrices", "the layers = stages", "the vocabulary"]


# Canvas's get_feedback classifies a modalFeedback by its identifier alone, in this order.
def _canvas_kind(identifier: str) -> str | None:
    if re.search(r"wrong|incorrect|(_IC$)", identifier, re.I):
        return "incorrect"
    if re.search(r"correct|(_C$)", identifier, re.I):
        return "correct"
    if re.search(r"solution", identifier, re.I):
        return "solution"
    if re.search(r"general_|_all", identifier, re.I):
        return "general"
    return None


def test_feedback_identifiers_say_what_they_are_to_canvas():
    quiz, result = export(DATA / "every_type.json")
    seen = {}
    for name, data in entries(result.data).items():
        for modal in etree.fromstring(data).iter(f"{NS}modalFeedback"):
            seen[modal.get("identifier")] = _canvas_kind(modal.get("identifier"))
    assert seen.pop("correct_feedback") == "correct"
    assert seen.pop("incorrect_feedback") == "incorrect"
    assert seen.pop("general_feedback") == "general"
    assert seen.pop("partial_feedback") is None  # Canvas has no partial feedback: it must not overwrite another
    assert seen and all(kind is None for kind in seen.values()), seen


def test_option_feedback_ids_avoid_canvas_keywords():
    assert qti.feedback.option_feedback_id("c", 2) == "option_c_feedback"
    assert qti.feedback.option_feedback_id("all", 3) == "option_4_feedback"
    assert qti.feedback.option_feedback_id("correct", 0) == "option_1_feedback"


def test_true_false_labels_are_english_and_say_so():
    quiz, result = export(CONTENT / "model-pipeline-parallelism.json")
    assert quiz.language != "en"
    tf = TrueFalse(id="tf", stem=Text("Dëgg la?"), answer=False)
    from dataclasses import replace

    result = qti.render(replace(quiz, questions=(tf,)), ExportOptions())
    item = etree.fromstring(entries(result.data)["tf.xml"])
    choices = list(item.iter(f"{NS}simpleChoice"))
    assert [(c.get("identifier"), c.text, c.get(LANG)) for c in choices] == [("true", "True", "en"), ("false", "False", "en")]
    assert item.get(LANG) == quiz.language


def test_the_canvas_type_of_a_description_stays_valid_where_the_qti_schema_is_known(shared_dir, tmp_path):
    """CP metadata takes elements of other namespaces laxly: even a validator that knows the QTI
    namespace finds no declaration of a global interactionType there, so the manifest stays valid."""
    xsd = shared_dir / "xsd"
    driver = tmp_path / "driver.xsd"
    imports = {
        "http://www.w3.org/XML/1998/namespace": xsd / "w3" / "xml.xsd",
        "http://www.imsglobal.org/xsd/imscp_v1p1": xsd / "imscp_v1p1.xsd",
        "http://www.imsglobal.org/xsd/imsmd_v1p2": xsd / "imsmd_v1p2p4.xsd",
        "http://www.imsglobal.org/xsd/imsqti_v2p1": xsd / "qtiv2p1" / "imsqti_v2p1.xsd",
    }
    driver.write_text(
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:driver">'
        + "".join(f'<xs:import namespace="{ns}" schemaLocation="{path.as_uri()}"/>' for ns, path in imports.items())
        + "</xs:schema>"
    )
    schema = etree.XMLSchema(etree.parse(str(driver), etree.XMLParser(no_network=True)))
    manifest = etree.fromstring(entries(export(DATA / "every_type.json")[1].data)["imsmanifest.xml"])
    assert b"text_only_question" in etree.tostring(manifest)
    assert schema.validate(manifest), schema.error_log


def test_two_questions_of_one_identifier_are_refused_by_the_check_as_by_the_writer():
    """The loader refuses a repeated id first; a model built otherwise meets the same error from
    the QTI check as from the writer, at the second question's id."""
    from quizzes import quiz_of
    from lmsexport.writers.qti.check import check

    quiz = quiz_of({"id": "a", "type": "essay", "stem": "E"}, {"id": "a", "type": "essay", "stem": "F"})
    expected = [("q.json", "/questions/1/id", "qti", "the identifier 'a' is used by another question")]
    assert [(d.file, d.pointer, d.code, d.message) for d in check(quiz, ExportOptions()) if d.is_error] == expected
    export = qti.render(quiz, ExportOptions())
    assert export.data is None
    assert [(d.file, d.pointer, d.code, d.message) for d in export.diagnostics if d.is_error] == expected


def test_the_check_finds_html_qti_cannot_hold_in_every_kind_of_text_at_its_place():
    """HTML texts (as an import gives them) are checked by rendering them, block and inline
    alike, in questions and in section instructions; plain texts beside them are not a problem."""
    from quizzes import quiz_of
    from lmsexport.writers.qti.check import check

    font = {"text": '<p>a <font color="red">b</font></p>', "format": "html"}
    quiz = quiz_of({"id": "c", "type": "single_choice", "stem": font, "explanation": "plain & <text>", "options": [
        {"id": "a", "text": {"text": '<font size="2">A</font>', "format": "html"}, "correct": True}, {"id": "b", "text": "B"}]},
        sections=[{"id": "s", "title": "S", "questions": ["c"], "instructions": font}])
    message = "cannot be written as valid QTI: <font> has no equivalent in QTI"
    assert sorted((d.pointer, d.code, d.message) for d in check(quiz, ExportOptions()) if d.is_error) == [
        ("/questions/0/options/0/text", "qti", message), ("/questions/0/stem", "qti", message),
        ("/sections/0/instructions", "qti", message)]
    assert qti.render(quiz, ExportOptions()).data is None


def test_the_check_finds_html_qti_cannot_hold_in_each_blanks_feedback_at_its_place():
    """The feedback of every blank's answers and options, of each blank kind, is checked at its
    own place, as the writer renders it."""
    from quizzes import quiz_of
    from lmsexport.writers.qti.check import check

    font = {"text": '<font color="red">no</font>', "format": "html"}
    quiz = quiz_of({"id": "b", "type": "fill_in_blanks", "stem": "[[s]] [[n]] [[d]]", "blanks": [
        {"id": "s", "type": "short_answer", "answers": [{"text": "x"}, {"text": "y", "credit": 0.5, "feedback": font}]},
        {"id": "n", "type": "numerical", "answers": [{"value": 1, "feedback": font}]},
        {"id": "d", "type": "dropdown", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "feedback": font}]},
    ]})
    message = "cannot be written as valid QTI: <font> has no equivalent in QTI"
    expected = [("/questions/0/blanks/0/answers/1/feedback", "qti", message), ("/questions/0/blanks/1/answers/0/feedback", "qti", message),
                ("/questions/0/blanks/2/options/1/feedback", "qti", message)]
    assert sorted((d.pointer, d.code, d.message) for d in check(quiz, ExportOptions()) if d.is_error) == expected
    export = qti.render(quiz, ExportOptions())
    assert export.data is None
    assert sorted((d.pointer, d.code, d.message) for d in export.diagnostics if d.is_error) == expected


def test_the_check_finds_html_qti_cannot_hold_in_each_answers_feedback_and_each_prompt_at_its_place():
    """Per-answer feedback of every scored type and the prompts and items of matching and
    ordering, each at its own place (a numerical question's answers are shown in order of credit,
    each still at its own index)."""
    from quizzes import quiz_of
    from lmsexport.writers.qti.check import check

    font = {"text": '<font color="red">no</font>', "format": "html"}
    quiz = quiz_of(
        {"id": "t", "type": "true_false", "stem": "T", "answer": True, "true_feedback": font, "false_feedback": font},
        {"id": "s", "type": "short_answer", "stem": "S", "answers": [{"text": "a"}, {"text": "b", "credit": 0.5, "feedback": font}]},
        {"id": "n", "type": "numerical", "stem": "N", "answers": [{"value": 1, "credit": 0.5}, {"value": 2, "feedback": font},
                                                                 {"value": 3, "credit": 0.25, "feedback": font}]},
        {"id": "m", "type": "matching", "stem": "M", "pairs": [{"id": "a", "prompt": "a", "answer": "1"}, {"id": "b", "prompt": font, "answer": "2"}]},
        {"id": "o", "type": "ordering", "stem": "O", "items": [{"id": "a", "text": "A"}, {"id": "b", "text": font}]})
    message = "cannot be written as valid QTI: <font> has no equivalent in QTI"
    expected = [(f"/questions/{where}", "qti", message) for where in (
        "0/false_feedback", "0/true_feedback", "1/answers/1/feedback", "2/answers/1/feedback", "2/answers/2/feedback",
        "3/pairs/1/prompt", "4/items/1/text")]
    assert sorted((d.pointer, d.code, d.message) for d in check(quiz, ExportOptions()) if d.is_error) == expected
    assert sorted((d.pointer, d.code, d.message) for d in qti.render(quiz, ExportOptions()).diagnostics if d.is_error) == expected


def test_the_check_refuses_items_prompts_and_options_of_one_identifier_at_their_list():
    """A model built otherwise than by loading (the API, an importer) may repeat an id; QTI needs
    each choice, item and prompt to have its own identifier."""
    from quizzes import quiz_of
    from lmsexport.writers.qti.check import check

    quiz = quiz_of(
        {"id": "o", "type": "ordering", "stem": "O", "items": [{"id": "a", "text": "A"}, {"id": "a", "text": "B"}]},
        {"id": "m", "type": "matching", "stem": "M", "pairs": [{"id": "a", "prompt": "P", "answer": "1"}, {"id": "a", "prompt": "Q", "answer": "2"}]},
        {"id": "c", "type": "single_choice", "stem": "C", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "a", "text": "B"}]})
    expected = [("/questions/0/items", "qti", "two items have the same identifier"),
                ("/questions/1/pairs", "qti", "two prompts or answers have the same identifier"),
                ("/questions/2/options", "qti", "two options have the same identifier")]
    assert sorted((d.pointer, d.code, d.message) for d in check(quiz, ExportOptions()) if d.is_error) == expected
    export = qti.render(quiz, ExportOptions())
    assert export.data is None
    assert sorted((d.pointer, d.code, d.message) for d in export.diagnostics if d.is_error) == expected


def test_the_check_finds_html_qti_cannot_hold_in_an_options_feedback_at_its_place():
    from quizzes import quiz_of
    from lmsexport.writers.qti.check import check

    font = {"text": '<font color="red">no</font>', "format": "html"}
    quiz = quiz_of({"id": "c", "type": "multiple_response", "stem": "C", "options": [
        {"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "B", "feedback": font}]})
    expected = [("/questions/0/options/1/feedback", "qti", "cannot be written as valid QTI: <font> has no equivalent in QTI")]
    assert [(d.pointer, d.code, d.message) for d in check(quiz, ExportOptions()) if d.is_error] == expected
    assert [(d.pointer, d.code, d.message) for d in qti.render(quiz, ExportOptions()).diagnostics if d.is_error] == expected


def test_the_check_says_what_an_item_loses_or_cannot_hold_at_each_place():
    """An unscored question's outcome feedback is never shown (a loss each); a scored question's
    outcome feedback, explanation and stem, and an essay's grader information, are checked where
    they stand; a penalty has no place in QTI."""
    from quizzes import quiz_of
    from lmsexport.writers.qti.check import check

    font = {"text": '<font color="red">no</font>', "format": "html"}
    quiz = quiz_of(
        {"id": "e", "type": "essay", "stem": "E", "feedback": {"correct": "C", "partially_correct": "P", "incorrect": "I"}, "grader_info": font},
        {"id": "s", "type": "short_answer", "stem": font, "penalty": 0.5, "explanation": font, "answers": [{"text": "a"}],
         "feedback": {"correct": font, "partially_correct": font, "incorrect": font}})
    never = "this question has no right answer, so its {} feedback is never shown; it is left out"
    refused = "cannot be written as valid QTI: <font> has no equivalent in QTI"
    expected = sorted([
        ("/questions/0/feedback/correct", "qti-loss", never.format("correct")),
        ("/questions/0/feedback/incorrect", "qti-loss", never.format("incorrect")),
        ("/questions/0/feedback/partially_correct", "qti-loss", never.format("partially_correct")),
        ("/questions/0/grader_info", "qti", refused),
        ("/questions/1/explanation", "qti", refused),
        ("/questions/1/feedback/correct", "qti", refused),
        ("/questions/1/feedback/incorrect", "qti", refused),
        ("/questions/1/feedback/partially_correct", "qti", refused),
        ("/questions/1/penalty", "lost-penalty", "no penalty for another try: the penalty is left out"),
        ("/questions/1/stem", "qti", refused)])

    def said(diagnostics):
        return sorted((d.pointer, d.code, d.message) for d in diagnostics if d.code in ("qti", "qti-loss", "lost-penalty"))

    assert said(check(quiz, ExportOptions())) == expected
    assert said(qti.render(quiz, ExportOptions()).diagnostics) == expected


def test_the_answer_feedback_row_applies_exactly_where_an_answer_or_option_of_any_question_has_feedback():
    """The row's test looks only at the types that have accepted answers or drop-down options:
    it agrees with looking at every question's answers and every blank's."""
    from lmsexport.writers.qti.platform_losses import FEATURES

    def any_answer_with_feedback(question) -> bool:
        answers = list(getattr(question, "answers", ()))
        for blank in getattr(question, "blanks", ()):
            answers += getattr(blank, "answers", ()) or getattr(blank, "options", ())
        return any(a.feedback is not None for a in answers)

    seen = set()
    for path in [*sorted(CONTENT.glob("*.json")), *sorted(DATA.glob("*.json"))]:
        quiz = load_quiz(path).quiz
        for question in quiz.questions if quiz is not None else ():
            expected = any_answer_with_feedback(question)
            assert FEATURES["answer_feedback"](question, quiz) is expected, (path.name, question.id)
            seen.add((question.type, expected))
    assert {("short_answer", True), ("numerical", True), ("fill_in_blanks", True), ("single_choice", False)} <= seen

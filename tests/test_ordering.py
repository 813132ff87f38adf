"""Ordering questions: validation, and QTI 2.1 scored as Moodle grades the same order."""

from __future__ import annotations

import itertools

import pytest
from conftest import DATA
from lxml import etree
from moodle_ordering import moodle_fraction
from qti_engine import NS, Item
from qti_support import assessment_items
from packages import canvas_assessment, entries
from quizzes import loaded

from lmsexport.loader import load_quiz
from lmsexport.model import Ordering
from lmsexport.writers import qti
from lmsexport.writers.shared import ExportOptions

QUIZ = DATA / "ordering.json"


def _quiz():
    return loaded(QUIZ)


def test_moodle_oracle_matches_moodles_documented_examples():
    # Hand-worked with Moodle's rules for the right order A B C D and the answer B A C D.
    correct, answer = list("ABCD"), list("BACD")
    expected = {
        "all_or_nothing": 0,
        "absolute_position": 2 / 4,  # C and D in place
        "relative_next_exclude_last": 1 / 3,  # only C -> D
        "relative_next_include_last": 2 / 4,  # C -> D, and D last
        # Neighbours (none counts): A has B before and C after (right: none, B); B has none and A
        # (right: A, C); C has A and D (right: B, D); D has C and none (right: C, none): 3 of 8.
        "relative_one_previous_and_next": 3 / 8,
        "relative_all_previous_and_next": 10 / 12,  # every pair but (A, B) in order, each counted twice
        "longest_ordered_subset": 3 / 4,  # A C D
        # B C D: Moodle's "contiguous" is of the right positions (1, 2, 3), not of the places in
        # the answer, so A between B and C does not break it.
        "longest_contiguous_subset": 3 / 4,
    }
    for grading, fraction in expected.items():
        assert moodle_fraction(grading, correct, answer) == pytest.approx(fraction), grading


def test_every_order_scores_in_qti_as_moodle_grades_it(schemas):
    quiz = _quiz()
    result = qti.render(quiz, ExportOptions())
    items = assessment_items(result.data)
    for question in quiz.questions:
        assert isinstance(question, Ordering)
        root = items[question.id]
        schemas["qti 2.1"].assertValid(root)
        schemas["qti 2.1.2"].assertValid(root)
        item = Item(root)
        ids = [i.id for i in question.items]
        grading = question.grading.value
        if grading.startswith("longest"):
            grading = "all_or_nothing"  # QTI cannot express it: scored all or nothing, with a warning
        for answer in itertools.permutations(ids):
            score = item.run({"RESPONSE": tuple(answer)})["SCORE"]
            assert score == pytest.approx(question.points * moodle_fraction(grading, ids, list(answer))), (question.id, answer)
        assert item.run({"RESPONSE": None})["SCORE"] == 0


def test_qti_warns_where_it_cannot_grade_as_the_content_says():
    result = qti.render(_quiz(), ExportOptions())
    lost = sorted(d.pointer for d in result.diagnostics if d.code == "qti-ordering-grading")
    assert lost == ["/questions/6/grading", "/questions/7/grading"]
    assert all("all or nothing" in d.message for d in result.diagnostics if d.code == "qti-ordering-grading")


def test_qti_shows_items_as_written_shuffled_in_the_layout_asked():
    items = assessment_items(qti.render(_quiz(), ExportOptions()).data)
    interaction = items["next-exclude-last"].find(f".//{NS}orderInteraction")
    assert interaction.get("shuffle") == "true" and interaction.get("orientation") == "horizontal"
    texts = ["".join(c.itertext()) for c in interaction.findall(f"{NS}simpleChoice")]
    assert texts == ["Stage 1", "Stage 2", "Stage 3", "Stage 4"]
    strong = items["all-or-nothing"].find(f".//{NS}orderInteraction/{NS}simpleChoice/{NS}strong")
    assert strong is not None and strong.text == "All-reduce"


@pytest.mark.parametrize(
    "items, message, pointer",
    [
        ([{"id": "a", "text": "A"}], "at least 2", "/questions/0/items"),
        ([{"id": "a", "text": "A"}, {"id": "A", "text": "B"}], "only by case", "/questions/0/items/1/id"),
        ([{"id": "a", "text": "Same"}, {"id": "b", "text": "Same"}], "could not tell them apart", "/questions/0/items/1/text"),
        ([{"id": "a", "text": "A"}, {"id": "b", "text": "   "}], "white space", "/questions/0/items/1/text"),
    ],
)
def test_bad_ordering_questions_are_located_errors(tmp_path, items, message, pointer):
    import json

    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"id": "bad", "title": "Bad", "language": "en", "questions": [
        {"id": "q", "type": "ordering", "stem": "Order them.", "items": items}]}))
    result = load_quiz(path)
    errors = [d for d in result.diagnostics if d.is_error]
    assert any(message in d.message and d.pointer == pointer and d.line for d in errors), errors


def test_moodle_xml_asks_for_every_item_in_the_grading_written():
    from lmsexport.writers.moodle import moodle_xml

    result = moodle_xml.render(_quiz(), ExportOptions())
    assert not result.failed, result.diagnostics
    questions = [q for q in etree.fromstring(result.data).iter("question") if q.get("type") == "ordering"]
    assert [q.findtext("idnumber") for q in questions] == [q.id for q in _quiz().questions]
    expected_gradings = ["ALL_OR_NOTHING", "ABSOLUTE_POSITION", "RELATIVE_NEXT_EXCLUDE_LAST", "RELATIVE_NEXT_INCLUDE_LAST",
                         "RELATIVE_ONE_PREVIOUS_AND_NEXT", "RELATIVE_ALL_PREVIOUS_AND_NEXT", "LONGEST_ORDERED_SUBSET",
                         "LONGEST_CONTIGUOUS_SUBSET"]
    assert [q.findtext("gradingtype") for q in questions] == expected_gradings
    for q in questions:
        # Without ALL Moodle shows a random 6 items; without a shownumcorrect value the import fails.
        assert q.findtext("selecttype") == "ALL" and q.findtext("shownumcorrect") == "1"
    assert [q.findtext("layouttype") for q in questions][:3] == ["VERTICAL", "VERTICAL", "HORIZONTAL"]
    first = questions[0]
    assert [a.findtext("text") for a in first.findall("answer")] == [
        "Forward pass", "Backward pass", "<strong>All-reduce</strong> of the gradients", "Optimizer step"]
    assert first.findtext("defaultgrade") == "2"


def test_canvas_matches_each_item_to_its_place_without_giving_the_order_away():
    from lmsexport.writers import canvas

    result = canvas.render(_quiz(), ExportOptions())
    assert not result.failed
    codes = [d.code for d in result.diagnostics]
    assert codes.count("canvas-ordering") == 8  # said for every ordering question
    files = entries(result.data)
    root = etree.fromstring(files[canvas_assessment(files)])
    ns = {"q": root.nsmap[None]}
    item = root.find(".//q:item[@title='all-or-nothing']", ns)
    kind = item.xpath(".//q:qtimetadatafield[q:fieldlabel='question_type']/q:fieldentry/text()", namespaces=ns)
    assert kind == ["matching_question"]
    lids = item.findall(".//q:response_lid", ns)
    prompts = ["".join(etree.fromstring("<x>" + l.findtext("q:material/q:mattext", namespaces=ns) + "</x>").itertext()) for l in lids]
    right = ["Forward pass", "Backward pass", "All-reduce of the gradients", "Optimizer step"]
    assert sorted(prompts) == sorted(right) and prompts != right
    places = [l.findtext("q:material/q:mattext", namespaces=ns) for l in lids[0].findall(".//q:response_label", ns)]
    assert places == ["1", "2", "3", "4"]
    # Each prompt's right label is the place of its item.
    label_text = {l.get("ident"): l.findtext("q:material/q:mattext", namespaces=ns) for l in lids[0].findall(".//q:response_label", ns)}
    for condition in item.findall(".//q:respcondition", ns):
        equal = condition.find(".//q:varequal", ns)
        if equal is None or condition.find("q:setvar", ns) is None:
            continue
        lid = next(l for l in lids if l.get("ident") == equal.get("respident"))
        prompt = "".join(etree.fromstring("<x>" + lid.findtext("q:material/q:mattext", namespaces=ns) + "</x>").itertext())
        assert label_text[equal.text] == str(right.index(prompt) + 1)


def test_gift_refuses_ordering_where_it_stands():
    from lmsexport.writers.moodle import gift

    result = gift.render(_quiz(), ExportOptions())
    errors = [d for d in result.diagnostics if d.is_error]
    assert result.data is None and len(errors) == 8
    assert all("no ordering question" in d.message and d.pointer.startswith("/questions/") for d in errors)

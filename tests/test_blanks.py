"""Fill in the blanks: validation, and QTI 2.1 scored blank by blank for every response."""

from __future__ import annotations

import itertools
import json

import pytest
from conftest import DATA
from lxml import etree
from qti_engine import NS, Item
from qti_support import assessment_items
from packages import canvas_assessment, entries
from quizzes import loaded

from lmsexport.loader import load_quiz
from lmsexport.writers import qti
from lmsexport.writers.shared import ExportOptions

QUIZ = DATA / "blanks.json"


def _quiz():
    return loaded(QUIZ)


# What each blank of the test quiz earns, as a fraction of its points, read off the content by
# hand: (response, fraction, feedback ids shown). None is a blank left empty.
EXPECTED = {
    "ring-all-reduce": {
        "gpus": [(8.0, 1, {"blank_1_answer_1_feedback"}), (7.0, 0.5, set()), (9.0, 0.5, set()), (8.5, 0.5, set()),
                 (6.99, 0, set()), (None, 0, set())],
        "library": [("NCCL", 1, {"blank_2_answer_1_feedback"}), ("nccl", 1, {"blank_2_answer_1_feedback"}),
                    ("RCCL", 0.5, {"blank_2_answer_2_feedback"}), ("MPI", 0, set()), (None, 0, set())],
        "size": [("large", 1, {"blank_3_option_1_feedback"}), ("small", 0, {"blank_3_option_2_feedback"}), (None, 0, set())],
    },
    "words-only": {
        "split": [("layers", 1, set()), ("Layer", 1, set()), ("stages", 0, set()), (None, 0, set())],
        "within": [("GEMM", 1, set()), ("gemm", 0, set()), ("matrix multiplication", 1, set()), (None, 0, set())],
    },
    "drop-downs-only": {
        "stage": [("s3", 1, set()), ("s1", 0, set()), ("s2", 0, set()), (None, 0, set())],
        "where": [("cpu", 1, set()), ("l2", 0, set()), (None, 0, set())],
    },
    "one-blank": {"micro": [("micro-batches", 1, set()), ("microbatches", 1, set()), ("batches", 0, set()), (None, 0, set())]},
}
WORTH = {"ring-all-reduce": {"gpus": 1, "library": 1, "size": 1}, "words-only": {"split": 1, "within": 2},
         "drop-downs-only": {"stage": 1, "where": 1}, "one-blank": {"micro": 1}}


def test_every_combination_of_answers_scores_blank_by_blank(schemas):
    quiz = _quiz()
    items = assessment_items(qti.render(quiz, ExportOptions()).data)
    for question in quiz.questions:
        root = items[question.id]
        schemas["qti 2.1"].assertValid(root)
        schemas["qti 2.1.2"].assertValid(root)
        item = Item(root)
        blanks = EXPECTED[question.id]
        names = list(blanks)
        for combination in itertools.product(*(blanks[n] for n in names)):
            responses = {f"RESPONSE_{n}": r for n, (r, _, _) in zip(names, combination)}
            values = item.run(responses)
            expected = sum(WORTH[question.id][n] * fraction for n, (_, fraction, _) in zip(names, combination))
            assert values["SCORE"] == pytest.approx(expected), (question.id, responses)
            feedback = set(values.get("FEEDBACK") or ()) - {"general_feedback"}
            assert feedback == set().union(*(shown for _, _, shown in combination)), (question.id, responses)


def test_each_interaction_stands_where_its_placeholder_stood():
    items = assessment_items(qti.render(_quiz(), ExportOptions()).data)
    paragraph = items["ring-all-reduce"].find(f"{NS}itemBody/{NS}div/{NS}p")
    kinds = [etree.QName(child).localname for child in paragraph]
    assert kinds == ["textEntryInteraction", "textEntryInteraction", "strong", "inlineChoiceInteraction"]
    assert paragraph.text == "A ring all-reduce over "
    assert paragraph[0].tail == " GPUs splits each tensor into as many chunks; the collective library most used on NVIDIA GPUs is "
    assert [c.text for c in paragraph[3]] == ["large", "small"]
    assert "[[" not in etree.tostring(items["ring-all-reduce"], encoding="unicode")
    stage = items["drop-downs-only"].find(f".//{NS}inlineChoiceInteraction")
    assert stage.get("shuffle") == "false"
    where = items["drop-downs-only"].findall(f".//{NS}inlineChoiceInteraction")[1]
    assert [c.text for c in where] == ["CPU memory or NVMe & disk", "the GPU's L2 cache"]


def _errors(tmp_path, question: dict) -> list:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"id": "bad", "title": "Bad", "language": "en", "text_format": "markdown",
                                "questions": [{"id": "q", "type": "fill_in_blanks", **question}]}))
    return [d for d in load_quiz(path).diagnostics if d.is_error]


WORD = {"id": "w", "type": "short_answer", "answers": [{"text": "ring"}]}


@pytest.mark.parametrize(
    "question, message, pointer",
    [
        ({"stem": "No blank here.", "blanks": [WORD]}, "not in the text", "/questions/0/blanks/0/id"),
        ({"stem": "[[w]] and [[x]]", "blanks": [WORD]}, "no blank is named 'x'", "/questions/0/stem"),
        ({"stem": "[[w]] and [[w]]", "blanks": [WORD]}, "stands 2 times", "/questions/0/stem"),
        ({"stem": "In code: `[[w]]`", "blanks": [WORD]}, "inside code, a link or a formula", "/questions/0/stem"),
        ({"stem": "A [link [[w]]](https://example.org)", "blanks": [WORD]}, "inside code, a link or a formula", "/questions/0/stem"),
        ({"stem": "Math $x = [[w]]$ here", "blanks": [WORD]}, "inside code, a link or a formula", "/questions/0/stem"),
        ({"stem": "[[w]] [[v]]", "blanks": [WORD, {**WORD, "id": "v", "points": 2}]}, "every blank or to none", "/questions/0/blanks/0"),
        ({"stem": "[[w]] [[v]]", "points": 5, "blanks": [{**WORD, "points": 1}, {**WORD, "id": "v", "points": 2}]}, "add up to 3", "/questions/0/points"),
        ({"stem": "[[w]]", "blanks": [{"id": "w", "type": "short_answer", "answers": [{"text": "a", "credit": 0.5}]}]}, "full credit", "/questions/0/blanks/0/answers"),
        ({"stem": "[[d]]", "blanks": [{"id": "d", "type": "dropdown", "options": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}]}]},
         "exactly one correct option", "/questions/0/blanks/0/options"),
        ({"stem": "[[d]]", "blanks": [{"id": "d", "type": "dropdown", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "b", "text": "two\nlines"}]}]},
         "line break", "/questions/0/blanks/0/options/1/text"),
        ({"stem": "[[d]]", "blanks": [{"id": "d", "type": "dropdown", "options": [{"id": "a", "text": "A", "correct": True}, {"id": "A", "text": "B"}]}]},
         "only by case", "/questions/0/blanks/0/options/1/id"),
        ({"stem": "[[n]]", "blanks": [{"id": "n", "type": "numerical", "answers": [{"min": 3, "max": 1}]}]}, "range is empty", "/questions/0/blanks/0/answers/0"),
    ],
)
def test_bad_blanks_are_located_errors(tmp_path, question, message, pointer):
    errors = _errors(tmp_path, question)
    assert any(message in d.message and d.pointer == pointer and d.line for d in errors), errors


def test_points_are_the_blanks_sum_or_shared_equally():
    quiz = _quiz()
    by_id = {q.id: q for q in quiz.questions}
    assert by_id["words-only"].points == 3 and by_id["words-only"].blank_points == (1, 2)
    assert by_id["ring-all-reduce"].blank_points == (1, 1, 1)
    assert by_id["one-blank"].points == 1


def _moodle_questions(quiz) -> dict[str, etree._Element]:
    from lmsexport.writers.moodle import moodle_xml

    result = moodle_xml.render(quiz, ExportOptions())
    assert not result.failed, result.diagnostics
    return {q.findtext("idnumber"): q for q in etree.fromstring(result.data).iter("question") if q.get("type") == "cloze"}


def test_moodle_cloze_embeds_each_blank_where_it_stands():
    questions = _moodle_questions(_quiz())
    assert questions["ring-all-reduce"].findtext("questiontext/text") == (
        "<p>A ring all-reduce over {1:NUMERICAL:=8:0#One chunk per GPU.~%50%8:1} GPUs splits each tensor into as many chunks; "
        "the collective library most used on NVIDIA GPUs is {1:SHORTANSWER:=NCCL#Yes: NVIDIA's collective library.~%50%RCCL#That is AMD's port.}, "
        "and its <strong>ring</strong> algorithm suits {1:MULTICHOICE_S:=large#Bandwidth-bound: the ring uses every link.~%0%small#Small messages "
        "are latency-bound: a tree does better.} messages.</p>")
    # Weights are the blanks' points; a case-sensitive blank is SHORTANSWER_C.
    assert "{2:SHORTANSWER_C:=matrix multiplication~=GEMM}" in questions["words-only"].findtext("questiontext/text")
    # Drop-down options are HTML in Moodle: the '&' is encoded once for HTML, once for the cloze parser.
    assert "=CPU memory or NVMe &#38;amp; disk~" in questions["drop-downs-only"].findtext("questiontext/text")
    assert "{1:MULTICHOICE:%0%1~%0%2~=3}" in questions["drop-downs-only"].findtext("questiontext/text")


def test_cloze_characters_are_written_so_moodle_gives_them_back():
    from lmsexport.writers.moodle.moodle_xml.cloze import encode, protect_braces

    # Moodle ends an answer at '~', '#' or '}' unless '\\', '&' or '&amp;' stands before it, then
    # decodes entities: numeric references for each of them survive (importers-new-types.md).
    assert encode("a}b#c~d\\e&f<g>h\"i") == "a&#125;b&#35;c&#126;d&#92;e&#38;f&lt;g&gt;h&quot;i"
    assert encode("R&") == "R&#38;"  # '&amp;' before the next '~' would swallow it
    assert protect_braces("<p>{1:SA:=x}</p>") == "<p>&#123;1:SA:=x}</p>"


def test_a_cloze_whose_points_are_not_whole_says_what_moodle_gives(tmp_path):
    from lmsexport.writers.moodle import moodle_xml

    path = tmp_path / "q.json"
    path.write_text(json.dumps({"id": "q", "title": "Q", "language": "en", "questions": [
        {"id": "thirds", "type": "fill_in_blanks", "stem": "[[a]] [[b]] [[c]]", "points": 1,
         "blanks": [{"id": n, "type": "short_answer", "answers": [{"text": n}]} for n in "abc"]}]}))
    result = moodle_xml.render(load_quiz(path).quiz, ExportOptions())
    warning = next(d for d in result.diagnostics if d.code == "moodle-cloze-points")
    assert "weights 1, 1, 1, it is worth 3 in Moodle, not 1" in warning.message
    assert b"{1:SHORTANSWER:=a}" in result.data


def test_gift_writes_one_blank_as_missing_word_and_refuses_more(tmp_path):
    from lmsexport.writers.moodle import gift

    result = gift.render(_quiz(), ExportOptions())
    refused = sorted(d.pointer for d in result.diagnostics if d.is_error)
    assert refused == ["/questions/0/blanks", "/questions/1/blanks", "/questions/2/blanks"] and result.data is None
    path = tmp_path / "one.json"
    data = json.loads(QUIZ.read_text())
    data["questions"] = [q for q in data["questions"] if q["id"] == "one-blank"]
    path.write_text(json.dumps(data))
    text = gift.render(load_quiz(path).quiz, ExportOptions()).data.decode()
    assert "::one-blank::[html]<p>The bubble of a pipeline shrinks as the number of {\n\t=%100%micro-batches\n\t=%100%microbatches\n} grows.</p>" in text


def test_canvas_names_blanks_in_the_text_and_picks_the_type_by_their_kinds():
    from lmsexport.writers import canvas

    result = canvas.render(_quiz(), ExportOptions())
    files = entries(result.data)
    root = etree.fromstring(files[canvas_assessment(files)])
    ns = {"q": root.nsmap[None]}
    kinds = {item.get("title"): item.xpath(".//q:qtimetadatafield[q:fieldlabel='question_type']/q:fieldentry/text()", namespaces=ns)[0]
             for item in root.iterfind(".//q:item", ns)}
    assert kinds == {"ring-all-reduce": "fill_in_multiple_blanks_question", "words-only": "fill_in_multiple_blanks_question",
                     "drop-downs-only": "multiple_dropdowns_question", "one-blank": "fill_in_multiple_blanks_question"}
    item = root.find(".//q:item[@title='ring-all-reduce']", ns)
    assert "over [gpus] GPUs" in item.findtext("q:presentation/q:material/q:mattext", namespaces=ns)
    lids = {lid.get("ident"): [l.findtext("q:material/q:mattext", namespaces=ns) for l in lid.iterfind(".//q:response_label", ns)]
            for lid in item.iterfind(".//q:response_lid", ns)}
    # Every label of a typed blank is a right answer in Canvas: only full-credit answers are listed.
    assert lids == {"response_gpus": ["8"], "response_library": ["NCCL"], "response_size": ["large"]}
    codes = [d.code for d in result.diagnostics]
    assert "canvas-blanks" in codes and "canvas-number" in codes and "lost-case" in codes

"""Fill in the blanks: validation, and QTI 2.1 scored blank by blank for every response."""

from __future__ import annotations

import io
import itertools
import json
import zipfile

import pytest
from conftest import DATA
from lxml import etree
from qti_engine import NS, Item

from lmsexport.loader import load_quiz
from lmsexport.writers import qti
from lmsexport.writers.shared import ExportOptions

QUIZ = DATA / "blanks.json"


def _quiz():
    result = load_quiz(QUIZ)
    assert result.ok, result.diagnostics
    return result.quiz


def _items(data: bytes) -> dict[str, etree._Element]:
    found = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.endswith(".xml"):
                root = etree.fromstring(archive.read(name))
                if root.tag == NS + "assessmentItem":
                    found[root.get("identifier")] = root
    return found


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
    items = _items(qti.render(quiz, ExportOptions()).data)
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
    items = _items(qti.render(_quiz(), ExportOptions()).data)
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

"""Packages scored back: every response a student can give scores as the content says, and shows
the feedback the content holds. Items run through a small QTI response-processing engine."""

from __future__ import annotations

import itertools

import pytest
from conftest import CONTENT, DATA
from packages import entries
from quizzes import quiz_of
from lxml import etree
from qti_engine import NS, Item

from lmsexport.loader import load_quiz
from lmsexport.model import Matching, MultipleResponse, Numerical, ShortAnswer, SingleChoice, TrueFalse
from lmsexport.writers import qti
from lmsexport.writers.qti.names import choice_identifier
from lmsexport.writers.shared import ExportOptions


def items_of(quiz) -> dict[str, Item]:
    result = qti.render(quiz, ExportOptions())
    assert not result.failed, result.diagnostics
    files = entries(result.data)
    return {q.id: Item(etree.fromstring(files[f"{q.id}.xml"])) for q in quiz.exported_questions}


def clamp(value: float, points: float) -> float:
    return min(max(value, 0.0), points)


def shown(item: Item, values: dict) -> set[str]:
    return set(values.get("FEEDBACK") or ())


def outcome_ids(question, score: float, correct: bool) -> set[str]:
    ids = set()
    given = question.feedback
    if correct and given.correct is not None:
        ids.add("correct_feedback")
    elif not correct and score > 0 and given.partially_correct is not None:
        ids.add("partial_feedback")
    elif not correct and score <= 0 and given.incorrect is not None:
        ids.add("incorrect_feedback")
    if given.general is not None:
        ids.add("general_feedback")
    return ids


def check_choices(question, item: Item) -> int:
    multiple = isinstance(question, MultipleResponse)
    if isinstance(question, TrueFalse):
        choices = [("true", question.answer, question.true_feedback), ("false", not question.answer, question.false_feedback)]
        credit = {"true": 1.0 if question.answer else 0.0, "false": 0.0 if question.answer else 1.0}
    else:
        choices = [(choice_identifier(c.id), c.correct, c.feedback) for c in question.choices]
        credit = {choice_identifier(c.id): c.credit for c in question.choices}
    ids = [c[0] for c in choices]
    right = {c[0] for c in choices if c[1]}
    response_id = item.response_id
    # Canvas makes a true_false_question only of a response named TF...
    assert response_id == ("TF_RESPONSE" if isinstance(question, TrueFalse) else "RESPONSE")
    assert item.correct(response_id) == (frozenset(right) if multiple else next(iter(right)))
    if multiple:
        responses = [frozenset(s) for n in range(len(ids) + 1) for s in itertools.combinations(ids, n)]
    else:
        responses = [*ids, None]
    for response in responses:
        chosen = (set(response) if multiple else {response}) - {None}
        values = item.run({response_id: response})
        expected = clamp(sum(credit[c] for c in chosen) * question.points, question.points)
        assert values["SCORE"] == pytest.approx(expected), (question.id, response)
        is_correct = chosen == right
        expected_ids = outcome_ids(question, expected, is_correct)
        for choice_id, _, feedback in choices:
            if feedback is not None and choice_id in chosen:
                expected_ids.add(qti.feedback.option_feedback_id(choice_id, ids.index(choice_id)))
        assert shown(item, values) == expected_ids, (question.id, response)
    return len(responses)


def check_short_answer(question: ShortAnswer, item: Item) -> None:
    def first_match(given: str):
        for index, answer in enumerate(question.answers):
            same = answer.text == given if question.case_sensitive else answer.text.lower() == given.lower()
            if same:
                return index, answer
        return None, None

    tries = [a.text for a in question.answers] + [a.text.swapcase() for a in question.answers] + ["nothing like it", None]
    for given in tries:
        values = item.run({"RESPONSE": given})
        index, answer = first_match(given) if given is not None else (None, None)
        expected = clamp(answer.credit * question.points, question.points) if answer else 0.0
        assert values["SCORE"] == pytest.approx(expected), (question.id, given)
        expected_ids = outcome_ids(question, expected, bool(answer and answer.credit >= 1))
        if answer is not None and answer.feedback is not None:
            expected_ids.add(f"answer_{index + 1}_feedback")
        assert shown(item, values) == expected_ids, (question.id, given)


def check_numerical(question: Numerical, item: Item) -> None:
    tries = {0.0, -1.0, 1e9}
    for answer in question.answers:
        tries |= {answer.low, answer.high, answer.low - 1e-6, answer.high + 1e-6, (answer.low + answer.high) / 2}
    for given in sorted(tries):
        values = item.run({"RESPONSE": given})
        accepting = [(i, a) for i, a in enumerate(question.answers) if a.low <= given <= a.high]
        best = max(accepting, key=lambda pair: pair[1].credit, default=None)
        expected = clamp(best[1].credit * question.points, question.points) if best else 0.0
        assert values["SCORE"] == pytest.approx(expected), (question.id, given)
        expected_ids = outcome_ids(question, expected, any(a.credit >= 1 for _, a in accepting))
        if best is not None and best[1].feedback is not None:
            expected_ids.add(f"answer_{best[0] + 1}_feedback")
        assert shown(item, values) == expected_ids, (question.id, given)


def check_matching(question: Matching, item: Item) -> None:
    interaction = item.root.find(f".//{NS}matchInteraction")
    sources = [c.get("identifier") for c in interaction[0]]
    targets = {c.get("identifier"): c.text for c in interaction[1]}
    assert [choice_identifier(p.id) for p in question.pairs] == sources
    right = {choice_identifier(p.id): p.answer for p in question.pairs}
    for assignment in itertools.product(list(targets), repeat=len(sources)):
        response = frozenset(zip(sources, assignment))
        values = item.run({"RESPONSE": response})
        good = sum(1 for s, t in zip(sources, assignment) if targets[t] == right[s])
        expected = question.points * good / len(sources)
        assert values["SCORE"] == pytest.approx(expected)
        assert shown(item, values) == outcome_ids(question, expected, good == len(sources))


@pytest.mark.parametrize("path", sorted(CONTENT.glob("*.json")) + [DATA / "every_type.json"], ids=lambda p: p.stem)
def test_every_response_scores_as_in_the_content(path):
    quiz = load_quiz(path).quiz
    items = items_of(quiz)
    for question in quiz.exported_questions:
        item = items[question.id]
        if isinstance(question, (SingleChoice, MultipleResponse, TrueFalse)):
            check_choices(question, item)
        elif isinstance(question, ShortAnswer):
            check_short_answer(question, item)
        elif isinstance(question, Numerical):
            check_numerical(question, item)
        elif isinstance(question, Matching):
            check_matching(question, item)
        else:
            assert item.root.find(f"{NS}responseProcessing") is None or question.feedback.general is not None


def _quiz(*questions, **fields):
    return quiz_of(*questions, **{"id": "scoring", "title": "Scoring", **fields})


def test_credits_and_bounds_of_multiple_response():
    quiz = _quiz(
        {
            "id": "mr",
            "type": "multiple_response",
            "stem": "Pick",
            "points": 4,
            "options": [
                {"id": "a", "text": "A", "correct": True, "credit": 0.5},
                {"id": "b", "text": "B", "correct": True, "credit": 0.75},
                {"id": "c", "text": "C", "credit": -1},
                {"id": "d", "text": "D", "credit": -0.25},
            ],
        }
    )
    item = items_of(quiz)["mr"]
    mapping = item.root.find(f".//{NS}mapping")
    assert (mapping.get("lowerBound"), mapping.get("upperBound")) == ("0", "4")
    assert item.run({"RESPONSE": frozenset({"a", "b"})})["SCORE"] == 4  # 5 points of credit, bounded to 4
    assert item.run({"RESPONSE": frozenset({"a", "d"})})["SCORE"] == 1
    assert item.run({"RESPONSE": frozenset({"a", "c"})})["SCORE"] == 0  # negative, bounded to 0
    assert check_choices(quiz.questions[0], item) == 16


def test_case_insensitive_short_answer_and_standard_templates():
    quiz = _quiz(
        {"id": "sa", "type": "short_answer", "stem": "Library?", "answers": [{"text": "NCCL"}, {"text": "RCCL", "credit": 0.5}]},
        {"id": "sc", "type": "single_choice", "stem": "One", "options": [{"id": "x", "text": "X", "correct": True}, {"id": "y", "text": "Y"}]},
    )
    items = items_of(quiz)
    short = items["sa"]
    assert all(e.get("caseSensitive") == "false" for e in short.root.iter(f"{NS}mapEntry"))
    assert short.run({"RESPONSE": "nccl"})["SCORE"] == 1
    assert short.run({"RESPONSE": "Rccl"})["SCORE"] == 0.5
    # Nothing beyond plain scoring: the standard templates say it, as platforms expect.
    assert short.root.find(f"{NS}responseProcessing").get("template").endswith("/map_response")
    assert items["sc"].root.find(f"{NS}responseProcessing").get("template").endswith("/match_correct")
    check_short_answer(quiz.questions[0], short)
    check_choices(quiz.questions[1], items["sc"])


def test_single_choice_worth_more_than_one_point_scores_its_points():
    quiz = _quiz({"id": "sc", "type": "single_choice", "stem": "One", "points": 3, "options": [{"id": "x", "text": "X", "correct": True}, {"id": "y", "text": "Y"}]})
    item = items_of(quiz)["sc"]
    assert item.root.find(f"{NS}responseProcessing").get("template") is None
    assert item.run({"RESPONSE": "x"})["SCORE"] == 3 and item.run({"RESPONSE": "y"})["SCORE"] == 0


def test_overlapping_numerical_answers_give_the_best_credit():
    quiz = _quiz(
        {
            "id": "num",
            "type": "numerical",
            "stem": "Value?",
            "points": 2,
            "answers": [{"value": 10, "tolerance": 5, "credit": 0.5}, {"min": 9, "max": 11}, {"value": 0.1, "tolerance": 0.05, "credit": 0.25}],
        }
    )
    item = items_of(quiz)["num"]
    assert item.run({"RESPONSE": 10.0})["SCORE"] == 2
    assert item.run({"RESPONSE": 14.0})["SCORE"] == 1
    assert item.run({"RESPONSE": 0.05})["SCORE"] == 0.5  # the bound itself, written without float arithmetic
    assert item.run({"RESPONSE": 16.0})["SCORE"] == 0
    check_numerical(quiz.questions[0], item)


def test_matching_with_a_shared_answer_and_distractors():
    quiz = _quiz(
        {
            "id": "m",
            "type": "matching",
            "stem": "Match",
            "points": 2,
            "pairs": [{"id": "p1", "prompt": "one", "answer": "odd"}, {"id": "p2", "prompt": "two", "answer": "even"}, {"id": "p3", "prompt": "three", "answer": "odd"}],
            "distractors": [{"id": "d", "text": "prime?"}],
        }
    )
    item = items_of(quiz)["m"]
    targets = [c.text for c in item.root.findall(f".//{NS}simpleMatchSet")[1]]
    assert targets == ["odd", "even", "prime?"]
    check_matching(quiz.questions[0], item)


def test_ids_that_look_like_generated_or_reserved_identifiers_stay_apart(schemas):
    quiz = _quiz(
        {"id": "SCORE", "type": "single_choice", "stem": "Pick", "options": [
            {"id": "RESPONSE", "text": "right", "correct": True}, {"id": "FEEDBACK", "text": "no", "feedback": "No."},
            {"id": "MAXSCORE", "text": "no"}]},
        {"id": "mt", "type": "matching", "stem": "Match", "pairs": [
            {"id": "p1", "prompt": "one", "answer": "X"}, {"id": "p1_answer", "prompt": "two", "answer": "Y"},
            {"id": "b_distractor", "prompt": "three", "answer": "Z"}], "distractors": [{"id": "b", "text": "W"}]},
    )
    result = qti.render(quiz, ExportOptions())
    assert not result.failed, [d.message for d in result.diagnostics]
    items = items_of(quiz)
    for item in items.values():
        for key in ("qti 2.1", "qti 2.1.2"):
            assert schemas[key].validate(item.root), schemas[key].error_log
        variables = {e.get("identifier") for e in item.root if e.tag in (f"{NS}responseDeclaration", f"{NS}outcomeDeclaration")}
        choices = {e.get("identifier") for e in item.root.iter(f"{NS}simpleChoice", f"{NS}simpleAssociableChoice")}
        assert not variables & choices
    check_choices(quiz.questions[0], items["SCORE"])
    check_matching(quiz.questions[1], items["mt"])


def test_true_false_is_written_the_way_canvas_recognises_it(schemas):
    """Canvas makes a true_false_question only of a response named TF... compared by `match` with an
    explicit baseValue: a <correct/> there makes its importer fail on the item."""
    quiz = _quiz(
        {"id": "tf", "type": "true_false", "stem": "Right?", "answer": False, "points": 3,
         "true_feedback": "No.", "false_feedback": "Yes.", "feedback": {"correct": "Well done", "incorrect": "Sorry"}},
    )
    item = items_of(quiz)["tf"]
    for key in ("qti 2.1", "qti 2.1.2"):
        assert schemas[key].validate(item.root), schemas[key].error_log
    assert item.response_id == "TF_RESPONSE"
    processing = item.root.find(f"{NS}responseProcessing")
    assert processing.get("template") is None and not list(processing.iter(f"{NS}correct"))
    for match in processing.iter(f"{NS}match"):
        assert [_local(e) for e in match] == ["variable", "baseValue"] and match[1].get("baseType") == "identifier"
    assert item.run({"TF_RESPONSE": "false"})["SCORE"] == 3 and item.run({"TF_RESPONSE": "true"})["SCORE"] == 0
    assert item.run({"TF_RESPONSE": None})["SCORE"] == 0
    assert check_choices(quiz.questions[0], item) == 3


def _local(element) -> str:
    return etree.QName(element).localname


@pytest.mark.parametrize(
    "low, high, written",
    [(0.1, 0.3, "0.2"), (0.25, 0.5, "0.375"), (1, 2, "1.5"), (0.1, 0.2, "0.15"), (-3, -1, "-2"), (5, 5, "5"),
     (1, 1.0000000000000002, "1.0000000000000001"), (-1e308, 1e308, "0"), (1e20, 3e20, "2e+20")],
)
def test_a_range_gives_its_midpoint_exactly_as_correct_response(low, high, written):
    quiz = _quiz({"id": "r", "type": "numerical", "stem": "Give one", "answers": [{"min": low, "max": high}]})
    item = items_of(quiz)["r"]
    value = item.root.findtext(f"{NS}responseDeclaration/{NS}correctResponse/{NS}value")
    assert value == written
    assert low <= float(value) <= high
    # The range itself still scores: its bounds, not only the midpoint.
    assert item.run({"RESPONSE": float(value)})["SCORE"] == 1
    assert item.run({"RESPONSE": float(low)})["SCORE"] == 1 and item.run({"RESPONSE": float(high)})["SCORE"] == 1
    check_numerical(quiz.questions[0], item)


def test_the_range_warning_says_what_canvas_accepts():
    quiz = _quiz({"id": "r", "type": "numerical", "stem": "Give one", "answers": [{"min": 0.1, "max": 0.3}]})
    for strict in (False, True):
        result = qti.render(quiz, ExportOptions(strict=strict))
        assert not result.failed  # the package carries the range; only Canvas reads less of it
        warnings = [d for d in result.diagnostics if d.severity.value == "warning"]
        assert [(d.pointer, d.code) for d in warnings] == [("/questions/0", "qti-platform")]
        assert "midpoint" in warnings[0].message and "Canvas" in warnings[0].message


# Credits written with seven decimals count as full credit wherever the content's rules do
# (validation accepts 0.9999999 as the answer worth full marks): the answer that earns full marks
# shows the correct feedback.
SEVEN_DECIMALS = 0.9999999


def test_an_answer_at_full_credit_written_with_seven_decimals_is_correct_in_a_short_answer():
    quiz = _quiz({"id": "sa", "type": "short_answer", "stem": "Say", "feedback": {"correct": "Right", "incorrect": "No"},
                  "answers": [{"text": "yes", "credit": SEVEN_DECIMALS}]})
    item = items_of(quiz)["sa"]
    assert shown(item, item.run({"RESPONSE": "yes"})) == {"correct_feedback"}


def test_an_answer_at_full_credit_written_with_seven_decimals_is_correct_in_a_numerical():
    quiz = _quiz({"id": "nu", "type": "numerical", "stem": "Count", "feedback": {"correct": "Right", "incorrect": "No"},
                  "answers": [{"value": 4, "credit": SEVEN_DECIMALS}]})
    item = items_of(quiz)["nu"]
    assert shown(item, item.run({"RESPONSE": 4.0})) == {"correct_feedback"}


@pytest.mark.parametrize("blank", [
    {"id": "b", "type": "short_answer", "answers": [{"text": "yes", "credit": SEVEN_DECIMALS}]},
    {"id": "b", "type": "numerical", "answers": [{"value": 4, "credit": SEVEN_DECIMALS}]},
], ids=["short_answer", "numerical"])
def test_a_blank_answer_at_full_credit_written_with_seven_decimals_is_correct(blank):
    quiz = _quiz({"id": "fb", "type": "fill_in_blanks", "stem": "It is [[b]].", "feedback": {"correct": "Right", "incorrect": "No"},
                  "blanks": [blank]})
    item = items_of(quiz)["fb"]
    response = item.response_id
    assert shown(item, item.run({response: "yes" if blank["type"] == "short_answer" else 4.0})) == {"correct_feedback"}

"""The benchmark's bank generator: its banks load without errors and hold what was asked."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter

import pytest

from conftest import ROOT
from lmsexport.loader import load_quiz
from lmsexport.model import Matching, SingleChoice, TextFormat

_spec = importlib.util.spec_from_file_location("bench_generate", ROOT / "bench" / "generate.py")
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)


def _load_all(paths):
    quizzes = []
    for path in paths:
        result = load_quiz(path)
        errors = [d for d in result.diagnostics if d.is_error or d.severity.value == "warning"]
        assert result.quiz is not None and not errors, f"{path}: {errors}"
        quizzes.append(result.quiz)
    return quizzes


@pytest.mark.parametrize("questions,files", [(500, 3), (7, 2)])
def test_mixed_bank_validates_with_the_asked_count_and_mix(tmp_path, questions, files):
    paths = generate.write_bank(tmp_path, generate.mixed_bank(seed=3, questions=questions, files=files))
    quizzes = _load_all(paths)

    assert len(quizzes) == files
    sizes = [len(q.questions) for q in quizzes]
    assert sum(sizes) == questions and max(sizes) - min(sizes) <= 1
    found = Counter(question.type for quiz in quizzes for question in quiz.questions)
    assert dict(found) == {k: v for k, v in generate.type_counts(questions).items() if v}
    assert sum(q.draft for quiz in quizzes for q in quiz.questions) == round(questions * generate.DRAFT_SHARE)


def test_mixed_bank_has_the_realistic_features(tmp_path):
    quizzes = _load_all(generate.write_bank(tmp_path, generate.mixed_bank(seed=5, questions=500, files=5)))
    found = Counter(q.type for quiz in quizzes for q in quiz.questions)
    assert found.most_common(1)[0][0] == "single_choice" and found["single_choice"] == 300
    assert {quiz.language for quiz in quizzes} == {"wo", "nl", "en"}
    assert {quiz.text_format for quiz in quizzes} == {TextFormat.PLAIN, TextFormat.MARKDOWN}
    questions = [q for quiz in quizzes for q in quiz.questions]
    stems = [q.stem for q in questions]
    assert any(t.format is TextFormat.MARKDOWN for t in stems) and any(t.format is TextFormat.PLAIN for t in stems)
    assert any(q.feedback.general for q in questions) and any(q.feedback.correct for q in questions)
    assert any(q.feedback.partially_correct for q in questions)
    choices = [c for q in questions if hasattr(q, "choices") for c in q.choices]
    assert any(c.feedback for c in choices) and {c.language for c in choices if c.language} >= {"fr", "ar"}
    everything = json.dumps([p.read_text(encoding="utf-8") for p in tmp_path.glob("json/*.json")], ensure_ascii=False)
    for needle in ("ë", "ñ", "é", "🚀", "]]>", "<script>", "&"):
        assert needle in everything


def test_generation_is_deterministic_per_seed():
    first = [generate.quiz_json(q) for q in generate.mixed_bank(seed=9, questions=200, files=2)]
    again = [generate.quiz_json(q) for q in generate.mixed_bank(seed=9, questions=200, files=2)]
    other = [generate.quiz_json(q) for q in generate.mixed_bank(seed=10, questions=200, files=2)]
    assert first == again and first != other


def test_type_counts_follow_any_mix():
    assert generate.type_counts(10, {"single_choice": 2, "essay": 1}) == {"single_choice": 7, "essay": 3}
    assert sum(generate.type_counts(12345).values()) == 12345


def test_mc_bank_is_single_choice_and_validates(tmp_path):
    paths = generate.write_bank(tmp_path, generate.mc_bank(seed=2, questions=300, files=2), text2qti=True)
    quizzes = _load_all(paths)
    questions = [q for quiz in quizzes for q in quiz.questions]
    assert len(questions) == 300 and all(isinstance(q, SingleChoice) for q in questions)
    assert not any(isinstance(q, Matching) for q in questions)
    assert sorted(p.name for p in (tmp_path / "text2qti").iterdir()) == ["mc-0001.txt", "mc-0002.txt"]


def test_text2qti_reads_the_same_questions(tmp_path, monkeypatch):
    """text2qti's own parser finds every question, choice, correct answer and feedback of our JSON."""
    text2qti_quiz = pytest.importorskip("text2qti.quiz", reason="text2qti is an optional bench dependency")
    from text2qti.config import Config

    monkeypatch.setenv("HOME", str(tmp_path))  # text2qti may write its settings file there
    quiz = generate.mc_bank(seed=4, questions=120, files=1)[0]
    parsed = text2qti_quiz.Quiz(generate.to_text2qti(quiz), config=Config(), source_name="bench.txt")
    theirs = [x for x in parsed.questions_and_delims if isinstance(x, text2qti_quiz.Question)]

    assert parsed.title_raw == quiz["title"]
    assert len(theirs) == len(quiz["questions"])
    for ours, question in zip(quiz["questions"], theirs):
        assert question.type == "multiple_choice_question"
        assert question.question_raw == ours["stem"]
        assert question.feedback_raw == ours.get("explanation")
        assert question.correct_feedback_raw == ours.get("feedback", {}).get("correct")
        assert question.incorrect_feedback_raw == ours.get("feedback", {}).get("incorrect")
        assert [(c.choice_raw, c.correct, c.feedback_raw) for c in question.choices] == [
            (o["text"], o.get("correct", False), o.get("feedback")) for o in ours["options"]]

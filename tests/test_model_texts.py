"""`Question.texts` makes a question's list of texts at its first call and keeps it, as
`Quiz.exported_questions` keeps the questions that are not drafts: the kept lists are those a
fresh walk of the fields gives, for every question type; an object made anew
(`dataclasses.replace`, pickling) walks its own fields again."""

from __future__ import annotations

import dataclasses
import json
import pickle

from hypothesis import given, settings

import strategies
from lmsexport import canonical, model


def _walked(question: model.Question) -> list:
    """The texts read off the fields themselves, in document order, as the JSON names them."""
    feedback = question.feedback
    found = [(("stem",), question.stem), (("explanation",), feedback.general), (("feedback", "correct"), feedback.correct),
             (("feedback", "partially_correct"), feedback.partially_correct), (("feedback", "incorrect"), feedback.incorrect)]
    for i, choice in enumerate(getattr(question, "choices", ())):
        found += [(("options", i, "text"), choice.text), (("options", i, "feedback"), choice.feedback)]
    if isinstance(question, model.TrueFalse):
        found += [(("true_feedback",), question.true_feedback), (("false_feedback",), question.false_feedback)]
    if isinstance(question, (model.ShortAnswer, model.Numerical)):
        found += [(("answers", i, "feedback"), a.feedback) for i, a in enumerate(question.answers)]
    if isinstance(question, model.Matching):
        found += [(("pairs", i, "prompt"), p.prompt) for i, p in enumerate(question.pairs)]
    if isinstance(question, model.Ordering):
        found += [(("items", i, "text"), item.text) for i, item in enumerate(question.items)]
    if isinstance(question, model.Essay):
        found.append((("grader_info",), question.grader_info))
    if isinstance(question, model.FillInBlanks):
        for i, blank in enumerate(question.blanks):
            if isinstance(blank, model.DropdownBlank):
                found += [(("blanks", i, "options", j, "feedback"), o.feedback) for j, o in enumerate(blank.options)]
            else:
                found += [(("blanks", i, "answers", j, "feedback"), a.feedback) for j, a in enumerate(blank.answers)]
    return found


@settings(max_examples=80, deadline=None)
@given(strategies.quiz(max_questions=8))
def test_the_kept_texts_are_those_of_the_fields(data):
    quiz = canonical.build_quiz(json.loads(json.dumps(data)), "q.json")
    for question in quiz.questions:
        first = question.texts()
        assert list(first) == _walked(question)
        assert question.texts() is first  # kept, not walked again
        changed = dataclasses.replace(question, stem=model.Text(question.stem.source + " more", question.stem.format))
        assert list(changed.texts()) == _walked(changed) and changed.texts()[0][1] != first[0][1]
        copied = pickle.loads(pickle.dumps(question))
        assert copied == question and list(copied.texts()) == list(first)


def test_the_kept_texts_are_no_field():
    question = model.Essay(id="e", stem=model.Text("Why?"))
    question.texts()
    assert "_texts" not in {f.name for f in dataclasses.fields(question)}
    assert question == model.Essay(id="e", stem=model.Text("Why?")) and "_texts" not in repr(question)


@settings(max_examples=40, deadline=None)
@given(strategies.quiz(max_questions=8))
def test_the_kept_exported_questions_are_those_not_drafts(data):
    quiz = canonical.build_quiz(json.loads(json.dumps(data)), "q.json")
    first = quiz.exported_questions
    assert first == tuple(q for q in quiz.questions if not q.draft) and quiz.exported_questions is first
    every = dataclasses.replace(quiz, questions=tuple(dataclasses.replace(q, draft=False) for q in quiz.questions))
    assert every.exported_questions == every.questions
    copied = pickle.loads(pickle.dumps(quiz))
    assert copied == quiz and copied.exported_questions == first

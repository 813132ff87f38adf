"""What Canvas's classic quizzes can score, as decisions shared by the item builder and the warnings.

Facts from canvas-lms (app/models/quizzes/quiz_question/*, gems/plugins/qti_exporter/lib/qti/*):
- multiple choice and true/false: the importer turns any answer that sets a positive SCORE into a
  correct answer worth everything, so an answer is either right (100%) or worth nothing;
- multiple answers: score = points * (right chosen - wrong chosen) / number of right answers,
  at least 0, whatever weights the file carries;
- short answer and numerical: every listed answer is fully right (weight 100), and short answers
  are compared without case;
- no answer can take points away.
"""

from __future__ import annotations

from ...model import Choice, MultipleResponse, Question, Quiz, SingleChoice
from ...tolerances import same_but_for_rounding


def canvas_credit(choice: Choice, n_correct: int) -> float:
    """What Canvas's multiple answers rule gives (or takes) for choosing this option."""
    share = 1.0 / n_correct if n_correct else 0.0
    return share if choice.correct else -share


def off_rule_choices(question: MultipleResponse, n_correct: int | None = None) -> list[Choice]:
    """The options whose credit is not what Canvas's rule gives; `n_correct`: the number of right
    options, when the caller has counted them."""
    if n_correct is None:
        n_correct = sum(1 for c in question.choices if c.correct)
    return [c for c in question.choices if not same_but_for_rounding(c.credit, canvas_credit(c, n_correct))]


def wants_fixed_order(question: Question) -> bool:
    """A choice question whose options must not move: no shuffling, or a pinned option."""
    if isinstance(question, (SingleChoice, MultipleResponse)):
        return not question.shuffle or any(c.pinned for c in question.choices)
    return False


def shuffle_answers(quiz: Quiz) -> bool:
    """Canvas shuffles per quiz, not per question: only when every choice question allows it,
    since moving an "all of the above" is worse than not shuffling."""
    choice_questions = [q for q in quiz.exported_questions if isinstance(q, (SingleChoice, MultipleResponse))]
    return bool(choice_questions) and not any(wants_fixed_order(q) for q in choice_questions)

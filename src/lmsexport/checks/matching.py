"""Matching: distinct pairs, distractors that answer no prompt."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic, error, pointer_join
from ..model import Matching
from .blank import is_blank
from .ids import unique_ids

_ONE_LINE = "a matching answer is offered in a drop-down list, which cannot show a line break: write it on one line"


def matching_errors(question: Matching, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    ids = [(p.id, ("pairs", i, "id")) for i, p in enumerate(question.pairs)]
    ids += [(d.id, ("distractors", i, "id")) for i, d in enumerate(question.distractors)]
    yield from unique_ids(ids, base, "pair or distractor", file)
    if len(question.pairs) < 2:
        yield error("a matching question needs at least two pairs", file, pointer_join(base, "pairs"), code="pairs")
    prompts: set[str] = set()
    answers = {p.answer for p in question.pairs}
    for i, pair in enumerate(question.pairs):
        if pair.prompt.source in prompts:
            yield error("this prompt is already used by another pair", file, pointer_join(base, "pairs", i, "prompt"), code="duplicate")
        prompts.add(pair.prompt.source)
        if is_blank(pair.prompt) or is_blank(pair.answer):
            yield error("a pair's prompt and answer cannot be only white space", file, pointer_join(base, "pairs", i), code="blank")
        if "\n" in pair.answer or "\r" in pair.answer:
            yield error(_ONE_LINE, file, pointer_join(base, "pairs", i, "answer"), code="line-break")
    for i, distractor in enumerate(question.distractors):
        if distractor.text in answers:
            yield error("this distractor is also the answer of a pair", file, pointer_join(base, "distractors", i, "text"), code="duplicate")
        if is_blank(distractor.text):
            yield error("a distractor cannot be only white space", file, pointer_join(base, "distractors", i, "text"), code="blank")
        if "\n" in distractor.text or "\r" in distractor.text:
            yield error(_ONE_LINE, file, pointer_join(base, "distractors", i, "text"), code="line-break")

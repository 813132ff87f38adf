"""Properties over arbitrary valid quizzes with hostile text, for every writer.

For every generated quiz: every writer's output parses back; QTI validates against the official
XSDs and scores every response as the content says; Moodle XML and GIFT read back (the way
Moodle imports them) to the same questions, options, credits and feedback; Canvas reads back
with the same types, points, right answers and feedback; two exports are byte-identical. For
every generated invalid document, both schema validators say it is invalid.

Each known hostile case is pinned with @example (strategies.PINNED), so it runs every time; the
generated ones run under a derandomised profile in CI, so coverage does not change from run to
run. For a longer local run, with fresh random examples:
    LMSEXPORT_HYPOTHESIS_PROFILE=thorough .venv/bin/pytest tests/test_properties.py
How often each hostile case is generated: .venv/bin/python tests/strategy_stats.py
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import shutil
import tempfile
import zipfile
from pathlib import Path

import pytest
import test_canvas as canvas_checks  # module imports: their tests are not collected twice
import qti_support
import test_qti_scoring as qti_checks
from canvas_reader import read_package
from conftest import DATA
from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from lxml import etree
from moodle_checks import assert_same_quiz
from strategies import DEFECTS, PINNED, PINNED_INVALID, HOSTILE_CASES, hostile_cases, invalid_quiz
from strategies import quiz as quizzes

from lmsexport.loader import load_quiz
from lmsexport.model import FillInBlanks, Matching, MultipleResponse, Numerical, Ordering, ShortAnswer, SingleChoice, TrueFalse
from lmsexport.importers.gift.reader import read_gift
from lmsexport.importers.moodle.reader import read_moodle_xml
from lmsexport.schema import fast_validator, validator
from lmsexport.writers import canvas, qti
from lmsexport.writers.moodle import gift, moodle_xml
from lmsexport.writers.shared import ExportOptions

# The Hypothesis profiles ("ci", derandomised; "thorough") are tests/conftest.py's.


def pinned(examples):
    """Run each known hostile document as an explicit example, before the generated ones."""
    def decorate(test):
        for data in reversed(examples):
            test = example(data=data)(test)
        return test
    return decorate


def label(data: dict) -> None:
    for name in sorted(hostile_cases(data)):
        event(name)


def load(data: dict):
    """The quiz as `lmsexport validate` would load it from a file, media files beside it: the
    loader's checks all run."""
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(DATA / "media" / "media", Path(folder) / "media")
        path = Path(folder) / "quiz.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        result = load_quiz(path)
    assert result.ok, [d.message for d in result.diagnostics if d.is_error]
    return result.quiz


def render_twice(writer, quiz):
    first = writer.render(quiz, ExportOptions())
    second = writer.render(quiz, ExportOptions())
    assert not first.failed, [d.message for d in first.diagnostics if d.is_error]
    assert first.data == second.data
    return first


@given(data=quizzes())
@pinned(PINNED)
def test_both_schema_validators_accept_every_valid_quiz(data):
    label(data)
    assert validator().is_valid(data), list(validator().iter_errors(data))[:1]
    assert fast_validator().is_valid(data)


@pytest.mark.parametrize("defect", DEFECTS)
@settings(max_examples=5)
@given(data=st.data())
def test_both_schema_validators_refuse_every_invalid_document(defect, data):
    """Each defect in a few generated quizzes (the defect first, so none is left to chance)."""
    _, document = data.draw(invalid_quiz(defect))
    assert not validator().is_valid(document), f"the generator's '{defect}' left the document valid"
    assert not fast_validator().is_valid(document), f"the fast validator accepts a document with {defect}"


@pytest.mark.parametrize("defect, document", PINNED_INVALID, ids=[d for d, _ in PINNED_INVALID])
def test_both_schema_validators_refuse_the_pinned_invalid_documents(defect, document):
    assert not validator().is_valid(document) and not fast_validator().is_valid(document), defect


@given(data=quizzes(), swap=st.booleans())
@example(data=next(q for q in PINNED if q["id"] == "pinned-case-ids"), swap=True)  # "IMSMANIFEST" and "imsmanifest"
def test_ids_that_differ_only_by_case_are_refused(data, swap):
    data = json.loads(json.dumps(data))
    first = data["questions"][0]
    twin = {**first, "id": first["id"].swapcase() if swap and first["id"].swapcase() != first["id"] else first["id"]}
    data["questions"].append(twin)
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(DATA / "media" / "media", Path(folder) / "media")
        path = Path(folder) / "quiz.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        result = load_quiz(path)
    assert not result.ok
    assert any(d.code == "duplicate-id" for d in result.diagnostics if d.is_error)


def in_layout_order(quiz):
    """The quiz with its exported questions in the order shown: each section where its first
    question stands, its questions in its own order (as every writer puts them out)."""
    shown = tuple(q for _, members in quiz.layout() for q in members)
    return dataclasses.replace(quiz, questions=shown)


def without(quiz, kinds: tuple[type, ...]):
    """The quiz without questions of `kinds` (read back elsewhere), its sections kept for the rest."""
    kept = tuple(q for q in quiz.questions if not isinstance(q, kinds))
    ids = {q.id for q in kept}
    sections = tuple(s for s in (dataclasses.replace(s, question_ids=tuple(i for i in s.question_ids if i in ids)) for s in quiz.sections)
                     if s.question_ids)
    return dataclasses.replace(quiz, questions=kept, sections=sections)


@given(data=quizzes())
@pinned(PINNED)
def test_moodle_xml_reads_back_the_same(data):
    label(data)
    quiz = load(data)
    render_twice(moodle_xml, quiz)
    # Our Moodle XML reader does not read cloze questions: the rest of the quiz is read back.
    quiz = without(quiz, (FillInBlanks,))
    if not quiz.exported_questions:
        return
    read = read_moodle_xml(render_twice(moodle_xml, quiz).data)
    # Sections are subcategories of the quiz's: the first category read, which gives the title
    # and category read, is a section's when the quiz begins with one.
    if quiz.sections:
        read = dataclasses.replace(read, title=quiz.title, category=quiz.category)
    assert_same_quiz(read, in_layout_order(quiz), full=True)


@given(data=quizzes())
@pinned(PINNED)
def test_gift_reads_back_the_same(data):
    label(data)
    quiz = load(data)
    result = gift.render(quiz, ExportOptions())
    unwritable = [d for d in result.diagnostics if d.code == "gift-unwritable"]
    if unwritable:
        # GIFT has no escape for '->' in a short answer (it would make the question a matching
        # one), no ordering question and one answer block per question: an error that names the
        # answer or the question, never a wrong file. The other questions are still checked:
        # the quiz without the ones GIFT cannot write.
        unwritable_questions = {q.location.pointer for q in quiz.exported_questions if isinstance(q, Ordering)}
        unwritable_questions |= {q.location.pointer + "/blanks" for q in quiz.exported_questions
                                 if isinstance(q, FillInBlanks) and len(q.blanks) > 1}
        assert result.data is None and all("->" in d.message or "&&0" in d.message or d.pointer in unwritable_questions
                                           for d in unwritable)
        event("GIFT refused a question it cannot write")
        refused = [d.pointer for d in unwritable]  # the question's pointer, or one inside it
        kept = tuple(q for q in quiz.questions
                     if not any(r == q.location.pointer or r.startswith(q.location.pointer + "/") for r in refused))
        if not [q for q in kept if not q.draft]:
            return
        quiz = dataclasses.replace(quiz, questions=kept)
        result = gift.render(quiz, ExportOptions())
    # Our GIFT reader reads a missing word as the question its one blank is, not as a blank.
    quiz = without(quiz, (FillInBlanks,))
    if not quiz.exported_questions:
        return
    result = gift.render(quiz, ExportOptions())
    if any("->" in s for s in _texts_of(quiz)):
        event("'->' reaches the GIFT read-back")
    read = read_gift(render_twice(gift, quiz).data)
    # What GIFT warns it cannot carry is left out of the comparison: a description has no answer
    # block for its explanation; a name holding Moodle's own placeholders (&&058; ...) is decoded.
    renamed = {d.pointer.rsplit("/", 1)[0] for d in result.diagnostics if d.code == "gift-name"}  # at the title or id
    titles = {q.id: q.title for q in read.questions}
    # A category path holding GIFT's escapes changes in Moodle (a warning): compared as read.
    category = read.category if any(d.code == "gift-category" for d in result.diagnostics) else quiz.category
    if quiz.sections:  # each section is a $CATEGORY under the quiz's: the first one read may be a section's
        read = dataclasses.replace(read, title=quiz.title, category=category)
    quiz = in_layout_order(quiz)
    expected = dataclasses.replace(quiz, tags=gift_tags(quiz.tags), category=category, questions=tuple(
        dataclasses.replace(
            q,
            tags=gift_tags(q.tags),
            title=titles.get(q.id) if q.location.pointer in renamed else q.title,
            feedback=dataclasses.replace(q.feedback, general=None) if q.type == "description" else q.feedback,
        )
        for q in quiz.questions))
    assert_same_quiz(read, expected, full=False)


@given(data=quizzes())
@pinned(PINNED)
def test_qti_validates_and_scores_as_the_content(data, schemas):
    label(data)
    quiz = load(data)
    result = render_twice(qti, quiz)
    with zipfile.ZipFile(io.BytesIO(result.data)) as archive:
        documents = {name: etree.fromstring(archive.read(name)) for name in archive.namelist() if name.endswith(".xml")}
    for name, document in documents.items():
        for check in (["manifest"] if name == "imsmanifest.xml" else ["qti 2.1", "qti 2.1.2"]):
            assert schemas[check].validate(document), f"{name} against {check}: {schemas[check].error_log}"
    # Items are found by identifier: an item whose file name would meet the package's own files
    # (a question id "test" or "imsmanifest") is written under another name.
    by_identifier = {d.get("identifier"): d for d in documents.values() if d.tag == f"{qti_support.NS}assessmentItem"}
    items = {q.id: qti_checks.Item(by_identifier[q.id]) for q in quiz.exported_questions}
    for question in quiz.exported_questions:
        item = items[question.id]
        if isinstance(question, (SingleChoice, MultipleResponse, TrueFalse)):
            qti_checks.check_choices(question, item)
        elif isinstance(question, ShortAnswer):
            qti_checks.check_short_answer(question, item)
        elif isinstance(question, Numerical):
            qti_checks.check_numerical(question, item)
        elif isinstance(question, Matching):
            qti_checks.check_matching(question, item)


@given(data=quizzes())
@pinned(PINNED)
def test_canvas_reads_back_the_same(data):
    label(data)
    quiz = load(data)
    result = render_twice(canvas, quiz)
    package = read_package(result.data)
    shown = in_layout_order(quiz).exported_questions
    assert [i.title for i in package.items] == [q.title or q.id for q in shown]
    # The new types' items are checked by their own properties; these checks read the others.
    old = [(q, i) for q, i in zip(shown, package.items) if not isinstance(q, (Ordering, FillInBlanks))]
    quiz = dataclasses.replace(quiz, questions=tuple(q for q, _ in old), sections=())
    exported = (quiz, result, dataclasses.replace(package, items=[i for _, i in old]))
    canvas_checks.test_every_exported_question_once_in_order(exported)
    canvas_checks.test_general_correct_incorrect_feedback(exported)
    canvas_checks.test_choice_questions(exported)
    canvas_checks.test_short_answers_and_numbers(exported)
    canvas_checks.test_matching(exported)


def gift_tags(tags: tuple[str, ...]) -> tuple[str, ...]:
    """The tags GIFT can carry in a `[tag:...]` comment (the others are left out, with a warning):
    none holding a line break, a control character, '<' or '>', or ending in a backslash."""
    return tuple(t for t in tags if not re.search(r"[\x00-\x1f\x7f<>]", t) and not t.endswith("\\"))


def _texts_of(quiz) -> list[str]:
    """Every string of the quiz's exported questions."""
    found = []

    def walk(value):
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                if field.name != "location":
                    walk(getattr(value, field.name))
    walk(quiz.exported_questions)
    return found


def test_generators_reach_every_hostile_case():
    """The strategy statistics (tests/strategy_stats.py prints them): every hostile case is
    generated in the derandomised examples. Hypothesis mixes constants of the loaded local
    modules into what it draws, so the examples shift with the code and with the tests run
    before; 600 quizzes give each choice of eight (an ordering's grading) about 20 chances."""
    from strategy_stats import collect

    cases, _ = collect(600, invalid=False)
    assert not [name for name in HOSTILE_CASES if not cases[name]], dict(cases)

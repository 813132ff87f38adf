"""The QTI 2.1 reader on fill in the blanks, ordering and sections: our own packages come back as
the content they were written from, foreign items as faithfully as the model allows, and what is
not carried is a located warning."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from import_support import export

from conftest import SHARED
from lmsexport.importers import import_data
from lmsexport.loader import load_quiz
from lmsexport.model import DropdownBlank, FillInBlanks, NumericalBlank, Ordering, OrderingGrading, ShortAnswerBlank

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests/data"
QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"


def imported(data: bytes, name: str = "quiz.zip", format_name: str = "qti"):
    quizzes, problems = import_data(data, name, format_name)
    assert not [p for p in problems if p.is_error], [p.message for p in problems]
    assert len(quizzes) == 1
    return quizzes[0].quiz, [d.message for d in quizzes[0].diagnostics]


def _without_texts(blank):
    """A blank with its feedback texts replaced by whether they are there (formats differ)."""
    import dataclasses

    if isinstance(blank, DropdownBlank):
        return dataclasses.replace(blank, options=tuple(dataclasses.replace(o, feedback=o.feedback is not None) for o in blank.options))
    return dataclasses.replace(blank, answers=tuple(dataclasses.replace(a, feedback=a.feedback is not None) for a in blank.answers))


def test_our_blanks_come_back_as_written():
    quiz = load_quiz(DATA / "blanks.json").quiz
    back, said = imported(export(quiz, "qti"))
    assert not [m for m in said if "warning" in m or "draft" in m], said
    ours = {q.id: q for q in quiz.questions}
    assert [q.id for q in back.questions] == [q.id for q in quiz.questions]
    for question in back.questions:
        original = ours[question.id]
        assert isinstance(question, FillInBlanks)
        assert question.points == original.points
        assert question.blank_points == original.blank_points
        assert [_without_texts(b) for b in question.blanks] == [_without_texts(b) for b in original.blanks]
        assert question.stem.source.count("[[") == len(original.blanks)
    ring = next(q for q in back.questions if q.id == "ring-all-reduce")
    assert "[[gpus]]" in ring.stem.source and "**ring**" in ring.stem.source
    assert ring.blanks[1].answers[1].feedback.source == "That is AMD's port."
    assert ring.blanks[2].options[1].feedback.source.startswith("Small messages")


def test_blank_names_with_underscores_stay_names():
    quiz = load_quiz(DATA / "blanks.json").quiz
    import dataclasses

    question = quiz.questions[3]
    renamed = dataclasses.replace(question, stem=dataclasses.replace(question.stem, source=question.stem.source.replace("[[micro]]", "[[micro_batch]]")),
                                  blanks=(dataclasses.replace(question.blanks[0], id="micro_batch"),))
    back, _ = imported(export(dataclasses.replace(quiz, questions=(renamed,)), "qti"))
    assert "[[micro_batch]]" in back.questions[0].stem.source
    assert back.questions[0].blanks[0].id == "micro_batch"


def test_every_expressible_ordering_grading_is_recognised():
    quiz = load_quiz(DATA / "ordering.json").quiz
    back, said = imported(export(quiz, "qti"))
    gradings = {q.id: q.grading for q in back.questions if isinstance(q, Ordering)}
    for question in quiz.questions:
        expected = question.grading
        if expected in (OrderingGrading.LONGEST_ORDERED_SUBSET, OrderingGrading.LONGEST_CONTIGUOUS_SUBSET):
            expected = OrderingGrading.ALL_OR_NOTHING  # QTI cannot express it: the export scores all or nothing
        assert gradings[question.id] == expected, question.id
    assert not [m for m in said if "gradings the content format has" in m], said


def _package(items: dict[str, str], test: str | None = None) -> bytes:
    resources = "".join(f'<resource identifier="{n}" type="imsqti_item_xmlv2p1" href="{n}.xml"><file href="{n}.xml"/></resource>' for n in items)
    if test is not None:
        resources += '<resource identifier="test" type="imsqti_test_xmlv2p1" href="test.xml"><file href="test.xml"/></resource>'
    manifest = f'<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><organizations/><resources>{resources}</resources></manifest>'
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("imsmanifest.xml", manifest)
        for name, body in items.items():
            archive.writestr(f"{name}.xml", body)
        if test is not None:
            archive.writestr("test.xml", test)
    return buffer.getvalue()


def _order_item(processing: str) -> str:
    return (f'<assessmentItem xmlns="{QTI}" identifier="order1" title="Order" adaptive="false" timeDependent="false" xml:lang="en">'
            '<responseDeclaration identifier="RESPONSE" cardinality="ordered" baseType="identifier"><correctResponse>'
            '<value>a</value><value>b</value><value>c</value></correctResponse></responseDeclaration>'
            '<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>'
            '<itemBody><p>Put in order</p><orderInteraction responseIdentifier="RESPONSE" shuffle="true">'
            '<simpleChoice identifier="a">A</simpleChoice><simpleChoice identifier="b">B</simpleChoice><simpleChoice identifier="c">C</simpleChoice>'
            f'</orderInteraction></itemBody>{processing}</assessmentItem>')


def test_foreign_order_scoring_is_all_or_nothing_with_a_warning():
    # A platform's own partial credit: one point when the first item is first.
    rule = ('<responseProcessing><responseCondition><responseIf><match><index n="1"><variable identifier="RESPONSE"/></index>'
            '<baseValue baseType="identifier">a</baseValue></match><setOutcomeValue identifier="SCORE"><baseValue baseType="float">0.5</baseValue>'
            '</setOutcomeValue></responseIf></responseCondition></responseProcessing>')
    back, said = imported(_package({"order1": _order_item(rule)}))
    assert back.questions[0].grading is OrderingGrading.ALL_OR_NOTHING
    assert any("order1.xml" in m and "read as all or nothing" in m for m in said), said
    template = '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>'
    back, said = imported(_package({"order1": _order_item(template)}))
    assert back.questions[0].grading is OrderingGrading.ALL_OR_NOTHING
    assert not [m for m in said if "all or nothing" in m], said


def _blanks_item(processing: str) -> str:
    return (f'<assessmentItem xmlns="{QTI}" identifier="two" title="Two" adaptive="false" timeDependent="false" xml:lang="en">'
            '<responseDeclaration identifier="R1" cardinality="single" baseType="string"><correctResponse><value>Paris</value></correctResponse></responseDeclaration>'
            '<responseDeclaration identifier="R2" cardinality="single" baseType="identifier"><correctResponse><value>c2</value></correctResponse></responseDeclaration>'
            '<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>'
            '<itemBody><p>The capital is <textEntryInteraction responseIdentifier="R1"/> and it lies on the '
            '<inlineChoiceInteraction responseIdentifier="R2"><inlineChoice identifier="c1">Rhine</inlineChoice>'
            f'<inlineChoice identifier="c2">Seine</inlineChoice></inlineChoiceInteraction>.</p></itemBody>{processing}</assessmentItem>')


def test_foreign_blanks_scored_together_are_read_with_a_warning():
    template = '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>'
    back, said = imported(_package({"two": _blanks_item(template)}))
    question = back.questions[0]
    assert isinstance(question, FillInBlanks) and not question.draft
    assert question.stem.source == "The capital is [[R1]] and it lies on the [[R2]]."
    first, second = question.blanks
    assert isinstance(first, ShortAnswerBlank) and [a.text for a in first.answers] == ["Paris"]
    assert isinstance(second, DropdownBlank) and [(o.text, o.correct) for o in second.options] == [("Rhine", False), ("Seine", True)]
    assert any("two.xml" in m and "all or nothing" in m for m in said), said


def test_a_number_scored_by_unknown_rules_is_a_draft_that_says_why():
    item = _blanks_item("").replace('baseType="string"', 'baseType="float"').replace("<value>Paris</value>", "<value>3</value>")
    rule = ('<responseProcessing><responseCondition><responseIf><lt><variable identifier="R1"/><baseValue baseType="float">3</baseValue></lt>'
            '<setOutcomeValue identifier="SCORE"><baseValue baseType="float">1</baseValue></setOutcomeValue></responseIf></responseCondition></responseProcessing>')
    back, said = imported(_package({"two": item.replace("</itemBody>", "</itemBody>" + rule)}))
    assert back.questions[0].draft
    assert any("two.xml" in m and "scored by rules the content format cannot state" in m for m in said), said


@pytest.mark.skipif(SHARED is None, reason="../shared (the QTI 2.1 samples) is missing: set LMSEXPORT_SHARED")
def test_ims_and_rqti_blank_items():
    items = SHARED / "fixtures/qti21/items"
    text, said = imported((items / "ims_text_entry.xml").read_bytes(), "ims_text_entry.xml")
    blank = text.questions[0].blanks[0]
    assert "sun of\n> [[RESPONSE]];" in text.questions[0].stem.source
    assert [(a.text, a.credit) for a in blank.answers] == [("York", 1.0), ("york", 0.5)] and blank.case_sensitive
    choice, _ = imported((items / "ims_inline_choice.xml").read_bytes(), "ims_inline_choice.xml")
    blank = choice.questions[0].blanks[0]
    assert isinstance(blank, DropdownBlank) and not blank.shuffle
    assert [(o.text, o.correct) for o in blank.options] == [("Gloucester", False), ("Lancaster", False), ("York", True)]
    gap, said = imported((items / "rqti_NumericGap.xml").read_bytes(), "rqti_NumericGap.xml")
    blank = gap.questions[0].blanks[0]
    assert isinstance(blank, NumericalBlank) and [(a.value, a.tolerance, a.credit) for a in blank.answers] == [(300.0, 2.0, 1.0)]


def test_our_sections_come_back():
    quiz = load_quiz(DATA / "sections.json").quiz
    back, said = imported(export(quiz, "qti"))
    assert [q.id for q in back.questions] == [q.id for q in quiz.exported_questions]
    got = [(s.id, s.title, s.question_ids, s.pick, s.shuffle, s.instructions.source if s.instructions else None) for s in back.sections]
    assert got == [("warm-up", "Warm-up", ("w1", "w2", "w3"), 2, True, "Answer quickly: two of these are drawn for you."),
                   ("pipeline", "Pipeline parallelism", ("p2", "p1"), None, True, None)]
    assert not [m for m in said if "section" in m], said


def _simple_item(name: str, points: str = "1") -> str:
    return (f'<assessmentItem xmlns="{QTI}" identifier="{name}" title="{name}" adaptive="false" timeDependent="false" xml:lang="en">'
            '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>a</value></correctResponse></responseDeclaration>'
            f'<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/><outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float"><defaultValue><value>{points}</value></defaultValue></outcomeDeclaration>'
            '<itemBody><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><prompt>Pick</prompt><simpleChoice identifier="a">A</simpleChoice>'
            '<simpleChoice identifier="b">B</simpleChoice></choiceInteraction></itemBody>'
            '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/></assessmentItem>')


def _ref(name: str) -> str:
    return f'<assessmentItemRef identifier="{name}" href="{name}.xml"/>'


def test_structures_the_model_cannot_hold_are_flattened_with_located_warnings():
    test = (f'<assessmentTest xmlns="{QTI}" identifier="t" title="Exam">'
            '<testPart identifier="p1" navigationMode="linear" submissionMode="individual">'
            '<assessmentSection identifier="A" title="Part A" visible="true"><selection select="1"/>' + _ref("q1") + _ref("q2") +
            '<assessmentSection identifier="A1" title="Inner" visible="true"><ordering shuffle="true"/>' + _ref("q3") + '</assessmentSection>'
            '</assessmentSection></testPart>'
            '<testPart identifier="p2" navigationMode="linear" submissionMode="individual">'
            '<assessmentSection identifier="B" title="Part B" visible="true">'
            '<rubricBlock view="candidate"><p>Read <em>carefully</em>.</p></rubricBlock>' + _ref("q4") + '</assessmentSection></testPart></assessmentTest>')
    back, said = imported(_package({n: _simple_item(n) for n in ("q1", "q2", "q3", "q4")}, test))
    assert back.title == "Exam"
    assert [q.id for q in back.questions] == ["q1", "q2", "q3", "q4"]
    assert [(s.id, s.question_ids, s.pick, s.shuffle) for s in back.sections] == [("A", ("q1", "q2", "q3"), 1, False), ("B", ("q4",), None, False)]
    assert back.sections[1].instructions.source == "Read *carefully*."
    assert any(m.startswith("test.xml: quiz 'Exam': the test has 2 test parts") for m in said), said
    assert any(m.startswith("test.xml: quiz 'Exam': the section 'Inner' inside the section 'Part A'") and "its shuffle left out" in m
               for m in said), said


def test_a_draw_that_cannot_be_made_is_dropped_with_a_warning():
    test = (f'<assessmentTest xmlns="{QTI}" identifier="t" title="Exam"><testPart identifier="p" navigationMode="linear" submissionMode="individual">'
            '<assessmentSection identifier="A" title="Pool" visible="true"><selection select="1"/>' + _ref("q1") + _ref("q2") +
            '</assessmentSection></testPart></assessmentTest>')
    back, said = imported(_package({"q1": _simple_item("q1", "1"), "q2": _simple_item("q2", "2")}, test))
    assert back.sections[0].pick is None
    assert any("worth different points" in m for m in said), said


@pytest.mark.skipif(SHARED is None, reason="../shared (the Canvas corpus) is missing: set LMSEXPORT_SHARED")
def test_canvas_converted_items_mean_what_canvas_makes_of_them():
    folder = SHARED / "corpora/canvas-qti/canvas"
    blanks, said = imported((folder / "fimb.xml").read_bytes(), "fimb.xml", "auto")
    question = blanks.questions[0]
    assert isinstance(question, FillInBlanks) and question.points == 10.23
    assert question.stem.source.startswith("You have so many [[problems]] that I don't even know where to [[begin]]")
    assert [(b.id, [a.text for a in b.answers]) for b in question.blanks] == [
        ("problems", ["problems"]), ("begin", ["begin", "start"]), ("something", ["something", "anything"])]
    formula, said = imported((folder / "calculated.xml").read_bytes(), "calculated.xml", "auto")
    assert formula.questions[0].draft and any("a Canvas formula question" in m for m in said), said
    essay, _ = imported((folder / "essay.xml").read_bytes(), "essay.xml", "auto")
    assert essay.questions[0].points == 6


def test_an_option_named_like_an_item_variable_keeps_its_id():
    from lmsexport.model import Choice, Quiz, SingleChoice, Text

    question = SingleChoice(id="q", stem=Text("Pick"), choices=(Choice(id="RESPONSE", text=Text("A"), correct=True, credit=1.0),
                                                                Choice(id="SCORE", text=Text("B"), correct=False, credit=0.0)))
    quiz = Quiz(id="reserved", title="Reserved", language="en", questions=(question,))
    back, _ = imported(export(quiz, "qti"))
    assert [c.id for c in back.questions[0].choices] == ["RESPONSE", "SCORE"]


def test_blank_answers_worth_nothing_and_feedback_out_of_rank_survive_a_round_trip():
    from import_support import difference, round_trip

    from lmsexport.model import AcceptedAnswer, Feedback, NumericAnswer, NumericalBlank, Quiz, Text

    words = ShortAnswerBlank(id="b0", answers=(AcceptedAnswer(text="beta", credit=0.5, feedback=Text("Half.")),
                                               AcceptedAnswer(text="alphabet", credit=0.0), AcceptedAnswer(text="<b>", credit=1.0)))
    numbers = NumericalBlank(id="b1", answers=(NumericAnswer(value=-3, credit=0.5), NumericAnswer(value=1, credit=1.0, feedback=Text("Yes.")),
                                               NumericAnswer(minimum=2, maximum=3.5, credit=1.0)))
    question = FillInBlanks(id="q", stem=Text("Say [[b0]] and [[b1]]."), points=2, blanks=(words, numbers),
                            feedback=Feedback(correct=Text("Good")))
    quiz = Quiz(id="ranks", title="Ranks", language="en", questions=(question,))
    first, second, _ = round_trip(quiz, "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")
    back, _ = imported(first)
    assert [a.text for a in back.questions[0].blanks[0].answers] == ["beta", "alphabet", "<b>"]
    assert back.questions[0].feedback.correct.source == "Good"


def test_spaces_inside_answers_and_no_break_spaces_at_the_ends_are_kept():
    from import_support import difference, round_trip

    from lmsexport.model import Choice, Distractor, Matching, MatchPair, Quiz, SingleChoice, Text

    choice = SingleChoice(id="c", stem=Text("Pick"), choices=(Choice(id="a", text=Text("x"), correct=True, credit=1.0),
                                                              Choice(id="b", text=Text("x\u00a0"), correct=False, credit=0.0)))
    matching = Matching(id="m", stem=Text("Match"), pairs=(MatchPair(id="p0", prompt=Text("a"), answer="~ ~"),
                                                           MatchPair(id="p1", prompt=Text("b"), answer="~  ~")),
                        distractors=(Distractor(id="d", text="~   ~"),))
    quiz = Quiz(id="spaces", title="Spaces", language="en", questions=(choice, matching))
    for format_name in ("qti", "canvas"):
        first, second, _ = round_trip(quiz, format_name)
        assert not difference(first, second, format_name), (format_name, difference(first, second, format_name))
    back, _ = imported(export(quiz, "qti"))
    assert [p.answer for p in back.questions[1].pairs] == ["~ ~", "~  ~"]


def test_a_short_answer_worth_nothing_comes_back_valid():
    from import_support import difference, round_trip

    from lmsexport.model import AcceptedAnswer, Quiz, ShortAnswer, Text

    question = ShortAnswer(id="free", stem=Text("Say"), points=0.0, answers=(AcceptedAnswer(text="y"),))
    quiz = Quiz(id="free", title="Free", language="en", questions=(question,))
    first, second, _ = round_trip(quiz, "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")


def test_a_multiple_response_worth_nothing_comes_back_valid():
    from import_support import difference, round_trip

    from lmsexport.model import Choice, MultipleResponse, Quiz, SingleChoice, Text

    question = MultipleResponse(id="m", stem=Text("Pick"), points=0.0, choices=(
        Choice(id="a", text=Text("x"), correct=True, credit=0.7), Choice(id="b", text=Text("y"), correct=True, credit=0.3),
        Choice(id="c", text=Text("z"), correct=False, credit=-0.5)))
    single = SingleChoice(id="s", stem=Text("Pick"), points=0.0, choices=(
        Choice(id="a", text=Text("x"), correct=True, credit=1.0), Choice(id="b", text=Text("y"), correct=False, credit=0.5)))
    first, second, _ = round_trip(Quiz(id="free", title="Free", language="en", questions=(question, single)), "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")
    back, _ = imported(first)
    assert [c.credit for c in back.questions[1].choices] == [1.0, 0.5]  # kept in the mapping, whose upper bound 0 keeps the score 0


def test_a_number_worth_nothing_comes_back_valid_with_a_warning():
    from import_support import difference, round_trip

    from lmsexport.model import NumericAnswer, Numerical, Quiz, Text

    question = Numerical(id="n", stem=Text("How many?"), points=0.0, answers=(NumericAnswer(minimum=47, maximum=47.1),
                                                                              NumericAnswer(minimum=0, maximum=100, credit=0.5)))
    first, second, said = round_trip(Quiz(id="free", title="Free", language="en", questions=(question,)), "qti")
    assert not difference(first, second, "qti"), difference(first, second, "qti")
    assert any("is worth nothing" in d.message for d in said), [d.message for d in said]

"""The Canvas reader on fill in multiple blanks, multiple drop-downs and question groups: our own
packages come back with what Canvas keeps of them, foreign items with Canvas's meaning."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from import_support import export

from lmsexport.importers import import_data
from lmsexport.loader import load_quiz
from lmsexport.model import DropdownBlank, FillInBlanks, Matching, ShortAnswerBlank

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests/data"


def imported(data: bytes, name: str = "quiz.zip"):
    quizzes, problems = import_data(data, name, "canvas")
    assert not [p for p in problems if p.is_error], [p.message for p in problems]
    assert len(quizzes) == 1
    return quizzes[0].quiz, [d.message for d in quizzes[0].diagnostics]


def test_our_blanks_come_back_with_canvas_placeholders_as_ours():
    quiz = load_quiz(DATA / "blanks.json").quiz
    back, said = imported(export(quiz, "canvas"))
    assert not [m for m in said if "draft" in m], said
    by_id = {q.id: q for q in back.questions}
    words = by_id["words-only"]
    assert isinstance(words, FillInBlanks)
    assert words.stem.source == "Pipeline parallelism splits the model by [[split]]; tensor parallelism splits each [[within]]."
    assert [(b.id, [a.text for a in b.answers]) for b in words.blanks] == [("split", ["layers", "layer"]), ("within", ["matrix multiplication", "GEMM"])]
    drops = by_id["drop-downs-only"]
    assert all(isinstance(b, DropdownBlank) for b in drops.blanks)
    assert [[(o.text, o.correct) for o in b.options] for b in drops.blanks] == [
        [("1", False), ("2", False), ("3", True)], [("CPU memory or NVMe & disk", True), ("the GPU's L2 cache", False)]]
    ring = by_id["ring-all-reduce"]  # a mix: every blank typed, accepting its full-credit answers (the export says so)
    assert [(b.id, [a.text for a in b.answers]) for b in ring.blanks] == [("gpus", ["8"]), ("library", ["NCCL"]), ("size", ["large"])]
    assert "[[gpus]]" in ring.stem.source and ring.points == 3


def _package(item: str, groups: str = "") -> bytes:
    document = ('<questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2"><assessment ident="a1" title="Imported">'
                f'<section ident="root_section">{item}{groups}</section></assessment></questestinterop>')
    manifest = ('<manifest xmlns="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1" identifier="m"><resources>'
                '<resource identifier="a1" type="imsqti_xmlv1p2"><file href="a1/a1.xml"/></resource></resources></manifest>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("imsmanifest.xml", manifest)
        archive.writestr("a1/a1.xml", document)
    return buffer.getvalue()


def _item(ident: str, kind: str, text: str, blanks: dict[str, list[str]], right: dict[str, list[str]], points: str = "2") -> str:
    lids = "".join(f'<response_lid ident="response_{name}"><material><mattext>{name}</mattext></material><render_choice>'
                   + "".join(f'<response_label ident="{name}{k}"><material><mattext>{label}</mattext></material></response_label>' for k, label in enumerate(labels))
                   + "</render_choice></response_lid>" for name, labels in blanks.items())
    conditions = "".join(f'<respcondition><conditionvar><varequal respident="response_{name}">{name}{k}</varequal></conditionvar>'
                         '<setvar varname="SCORE" action="Add">50</setvar></respcondition>'
                         for name, ks in right.items() for k in ks)
    return (f'<item ident="{ident}" title="{ident}"><itemmetadata><qtimetadata>'
            f'<qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>{kind}</fieldentry></qtimetadatafield>'
            f'<qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>{points}</fieldentry></qtimetadatafield>'
            f'</qtimetadata></itemmetadata><presentation><material><mattext texttype="text/html">&lt;p&gt;{text}&lt;/p&gt;</mattext></material>{lids}</presentation>'
            f'<resprocessing><outcomes><decvar varname="SCORE"/></outcomes>{conditions}</resprocessing></item>')


def test_every_label_of_a_typed_blank_is_accepted_as_canvas_does():
    item = _item("roses", "fill_in_multiple_blanks_question", "Roses are [color1], violets are [color 2].",
                 {"color1": ["red", "green"], "color 2": ["blue"]}, {"color1": ["0"], "color 2": ["0"]})
    back, said = imported(_package(item))
    question = back.questions[0]
    assert question.stem.source == "Roses are [[color1]], violets are [[color_2]]."
    assert [(b.id, [(a.text, a.credit) for a in b.answers]) for b in question.blanks] == [
        ("color1", [("red", 1.0), ("green", 1.0)]), ("color_2", [("blue", 1.0)])]
    assert any("'color 2' is named 'color_2'" in m for m in said), said


def test_a_blank_without_its_placeholder_is_put_at_the_end_with_a_warning():
    item = _item("lost", "fill_in_multiple_blanks_question", "Nothing here.", {"b": ["x"]}, {"b": ["0"]})
    back, said = imported(_package(item))
    assert back.questions[0].stem.source == "Nothing here.\n\n[[b]]"
    assert any("a1/a1.xml" in m and "has no [b] in the text" in m for m in said), said


def test_a_drop_down_with_no_right_option_is_a_draft_that_says_why():
    item = _item("mdd", "multiple_dropdowns_question", "A [pet] says [sound].", {"pet": ["cat", "dog"], "sound": ["meow", "woof"]},
                 {"pet": ["0"]})
    back, said = imported(_package(item))
    assert back.questions[0].draft
    assert any("the drop-down [sound] has 0 right options" in m for m in said), said


def test_our_question_groups_come_back_as_sections_that_draw():
    quiz = load_quiz(DATA / "sections.json").quiz
    back, said = imported(export(quiz, "canvas"))
    assert [(s.title, s.question_ids, s.pick) for s in back.sections] == [("Warm-up", ("w1", "w2", "w3"), 2)]


def test_a_group_gives_its_questions_its_points():
    simple = ('<item ident="{0}" title="{0}"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>'
              '<fieldentry>essay_question</fieldentry></qtimetadatafield><qtimetadatafield><fieldlabel>points_possible</fieldlabel>'
              '<fieldentry>{1}</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation><material><mattext>Say {0}</mattext>'
              '</material><response_str ident="r"><render_fib/></response_str></presentation></item>')
    group = ('<section ident="g1" title="Pool A"><selection_ordering><selection><selection_number>1</selection_number>'
             '<selection_extension><points_per_item>1.5</points_per_item></selection_extension></selection></selection_ordering>'
             + simple.format("e1", "2") + simple.format("e2", "1.5") + "</section>")
    back, said = imported(_package("", group))
    assert [(s.id, s.pick) for s in back.sections] == [("pool-a", 1)]
    assert [q.points for q in back.questions] == [1.5, 1.5]
    assert any("its group gives each 1.5" in m for m in said), said


def test_our_ordering_comes_back_as_the_matching_canvas_holds():
    quiz = load_quiz(DATA / "ordering.json").quiz
    back, _ = imported(export(quiz, "canvas"))
    first = back.questions[0]
    assert isinstance(first, Matching)
    assert sorted(p.answer for p in first.pairs) == ["1", "2", "3", "4"]
    assert {p.answer: p.prompt.source for p in first.pairs}["3"] == "**All-reduce** of the gradients"


def test_feedback_in_the_questions_language_comes_back_without_a_warning():
    from lmsexport.model import Quiz, Text, TrueFalse

    question = TrueFalse(id="q", stem=Text("Say"), answer=False, false_feedback=Text("two\nlines"))
    quiz = Quiz(id="lines", title="Lines", language="en", questions=(question,))
    back, said = imported(export(quiz, "canvas"))
    assert back.questions[0].false_feedback == Text("two\nlines")
    assert not [m for m in said if "language" in m and "part of a text" in m], said


def test_answers_told_apart_by_case_make_the_blank_case_sensitive():
    item = _item("case", "fill_in_multiple_blanks_question", "Say [b].", {"b": ["Alpha", "alpha"]}, {"b": ["0"]})
    back, said = imported(_package(item))
    blank = back.questions[0].blanks[0]
    assert blank.case_sensitive and [a.text for a in blank.answers] == ["Alpha", "alpha"]
    assert any("differ only in case" in m for m in said), said


def test_a_group_drawing_all_its_questions_draws_them_all():
    from lmsexport.model import Quiz, Section, Text, TrueFalse

    questions = tuple(TrueFalse(id=f"t{i}", stem=Text(f"Claim {i}"), answer=True, points=2) for i in range(3))
    quiz = Quiz(id="all", title="All", language="en", questions=questions,
                sections=(Section(id="pool", title="Pool", question_ids=("t1", "t2"), pick=2),))
    from import_support import difference, round_trip

    first, second, _ = round_trip(quiz, "canvas")
    assert not difference(first, second, "canvas"), difference(first, second, "canvas")
    back, _ = imported(first)
    assert [(s.question_ids, s.pick) for s in back.sections] == [(("t1", "t2"), 2)]

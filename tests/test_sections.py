"""Sections and random draws: validation, the order shown, and how each format carries them."""

from __future__ import annotations

import json

import pytest
from conftest import DATA
from lxml import etree
from qti_support import NS
from packages import canvas_assessment, entries
from quizzes import loaded

from lmsexport.loader import load_quiz
from lmsexport.writers import canvas, qti
from lmsexport.writers.moodle import gift, moodle_xml
from lmsexport.writers.shared import ExportOptions

QUIZ = DATA / "sections.json"


def test_sections_stand_where_their_first_question_stands_without_drafts():
    quiz = loaded(QUIZ)
    layout = [(s.id if s else None, [q.id for q in members]) for s, members in quiz.layout()]
    assert layout == [(None, ["intro"]), ("warm-up", ["w1", "w2", "w3"]), ("pipeline", ["p2", "p1"]), (None, ["outro"])]


def test_a_draft_standing_first_in_a_section_takes_no_place():
    from quizzes import quiz_of

    def question(qid, **more):
        return {"id": qid, "type": "true_false", "stem": "T?", "answer": True, **more}

    quiz = quiz_of(question("d", draft=True), question("x"), question("y"), sections=[{"id": "s", "title": "S", "questions": ["d", "y"]}])
    # The section stands where its first exported question stands, as in the quiz without the draft.
    assert [(s.id if s else None, [q.id for q in members]) for s, members in quiz.layout()] == [(None, ["x"]), ("s", ["y"])]


def _errors(tmp_path, sections, questions=None) -> list:
    questions = questions or [
        {"id": "a", "type": "true_false", "stem": "A?", "answer": True},
        {"id": "b", "type": "true_false", "stem": "B?", "answer": True, "points": 2},
        {"id": "c", "type": "true_false", "stem": "C?", "answer": False, "draft": True},
    ]
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"id": "q", "title": "Q", "language": "en", "questions": questions, "sections": sections}))
    return [d for d in load_quiz(path).diagnostics if d.is_error]


@pytest.mark.parametrize(
    "sections, message, pointer",
    [
        ([{"id": "s", "title": "S", "questions": ["a", "zz"]}], "no question of the quiz has the id 'zz'", "/sections/0/questions/1"),
        ([{"id": "s", "title": "S", "questions": ["a"]}, {"id": "t", "title": "T", "questions": ["a"]}], "already in the section 's'", "/sections/1/questions/0"),
        ([{"id": "s", "title": "S", "questions": ["a"], "pick": 2}], "draws 2 questions but has 1", "/sections/0/pick"),
        ([{"id": "s", "title": "S", "questions": ["a", "c"], "pick": 2}], "(drafts are not drawn)", "/sections/0/pick"),
        ([{"id": "s", "title": "S", "questions": ["a", "b"], "pick": 1}], "worth the same", "/sections/0/pick"),
        ([{"id": "s", "title": "S", "questions": ["a"]}, {"id": "S", "title": "T", "questions": ["b"]}], "only by case", "/sections/1/id"),
        ([{"id": "s", "title": "  ", "questions": ["a"]}], "white space", "/sections/0/title"),
        ([{"id": "s", "title": "S", "questions": ["a"], "instructions": {"text": "See ![ring](ring.png)", "format": "markdown"}}],
         "cannot show media files", "/sections/0/instructions"),
        ([{"id": "s", "title": "S", "questions": ["a"], "pick": 0}], "", "/sections/0/pick"),
    ],
)
def test_bad_sections_are_located_errors(tmp_path, sections, message, pointer):
    errors = _errors(tmp_path, sections)
    assert any(message in d.message and d.pointer == pointer and d.line for d in errors), errors


def test_qti_nests_a_section_per_section_with_its_draw(schemas):
    files = entries(qti.render(loaded(QUIZ), ExportOptions()).data)
    test = etree.fromstring(next(v for k, v in files.items() if etree.fromstring(v).tag == NS + "assessmentTest"))
    schemas["qti 2.1"].assertValid(test)
    schemas["qti 2.1.2"].assertValid(test)
    outer = test.find(f"{NS}testPart/{NS}assessmentSection")
    shape = [(etree.QName(c).localname, c.get("identifier")) for c in outer]
    assert shape == [("assessmentItemRef", "intro"), ("assessmentSection", "section.warm-up"),
                     ("assessmentSection", "section.pipeline"), ("assessmentItemRef", "outro")]
    warm_up = outer[1]
    assert warm_up.get("title") == "Warm-up" and warm_up.find(f"{NS}selection").get("select") == "2"
    assert warm_up.find(f"{NS}ordering").get("shuffle") == "true"
    assert "".join(warm_up.find(f"{NS}rubricBlock").itertext()) == "Answer quickly: two of these are drawn for you."
    assert [r.get("identifier") for r in warm_up.iterfind(f"{NS}assessmentItemRef")] == ["w1", "w2", "w3"]  # the draft w4 is not drawn
    pipeline = outer[2]
    assert pipeline.find(f"{NS}selection") is None
    assert [r.get("identifier") for r in pipeline.iterfind(f"{NS}assessmentItemRef")] == ["p2", "p1"]


def test_canvas_draws_from_a_question_group_with_the_points_of_its_questions():
    result = canvas.render(loaded(QUIZ), ExportOptions())
    files = entries(result.data)
    root = etree.fromstring(files[canvas_assessment(files)])
    meta = etree.fromstring(next(data for name, data in files.items() if name.endswith("assessment_meta.xml")))
    ns = {"q": root.nsmap[None]}
    groups = root.findall(".//q:section[@ident='root_section']/q:section", ns)
    assert [g.get("title") for g in groups] == ["Warm-up"]
    assert groups[0].findtext(".//q:selection_number", namespaces=ns) == "2"
    assert groups[0].findtext(".//q:points_per_item", namespaces=ns) == "1.0"
    assert [i.get("title") for i in groups[0].findall("q:item", ns)] == ["w1", "w2", "w3"]
    # Shuffled but worth different points: no group (it would give both the same points), in order.
    loose = [i.get("title") for i in root.findall(".//q:section[@ident='root_section']/q:item", ns)]
    assert loose == ["intro", "p2", "p1", "outro"]
    assert meta.findtext("{*}points_possible") == "8.0"  # 2 drawn x 1 + 3 + 2 + 1
    lost = {d.pointer: d.code for d in result.diagnostics if d.code == "canvas-section"}
    assert set(lost) == {"/sections/0/instructions", "/sections/1/shuffle"}


def test_moodle_files_each_section_as_a_subcategory_saying_what_to_draw():
    result = moodle_xml.render(loaded(QUIZ), ExportOptions())
    root = etree.fromstring(result.data)
    order = [q.findtext("category/text") or q.findtext("idnumber") for q in root.iter("question")]
    base = "$course$/top/Distributed GPU training/Sections and random draws"
    assert order == [base, "intro", base + "/Warm-up", "w1", "w2", "w3", base + "/Pipeline parallelism", "p2", "p1", base, "outro"]
    info = root.findall("question")[2].findtext("info/text")
    assert info == ('<p class="section-instructions">Answer quickly: two of these are drawn for you.</p>\n'
                    '<p class="section-draw">Draw 2 of these 3 questions at random for each student.</p>')
    # A section without a draw says so too: that paragraph is how the import knows a section.
    assert root.findall("question")[6].findtext("info/text") == \
        '<p class="section-draw">Add all 2 of these questions to the quiz together, in a random order.</p>'
    notes = [d.message for d in result.diagnostics if d.code == "moodle-section"]
    assert len(notes) == 2 and "add 2 random question(s) from this category" in notes[0]


def test_gift_files_each_section_under_its_own_category_line():
    text = gift.render(loaded(QUIZ), ExportOptions()).data.decode()
    base = "$CATEGORY: $course$/top/Distributed GPU training/Sections and random draws"
    lines = [line for line in text.splitlines() if line.startswith("$CATEGORY") or line.startswith("// [id:")]
    assert lines == [base, "// [id:intro]", base + "/Warm-up", "// [id:w1]", "// [id:w2]", "// [id:w3]",
                     base + "/Pipeline parallelism", "// [id:p2]", "// [id:p1]", base, "// [id:outro]"]
    assert "// draw: 2 of these 3 questions at random for each student\n" in text


# A section whose questions are all drafts shows nothing: no writer writes it (no empty Moodle
# category saying "Add all 0", no empty assessmentSection or Canvas group), and each says so.
DRAFTS_ONLY = {"id": "drafts-only", "title": "Drafts only", "language": "en", "questions": [
    {"id": "a", "type": "true_false", "stem": "A?", "answer": True},
    {"id": "b", "type": "essay", "stem": "B?", "draft": True},
    {"id": "c", "type": "true_false", "stem": "C?", "answer": False}],
    "sections": [{"id": "later", "title": "Later", "questions": ["b"]}]}


@pytest.mark.parametrize("format_name,code", [("moodle", "moodle-section"), ("gift", "moodle-section"), ("qti", "qti-section"), ("canvas", "canvas-section")])
def test_a_section_of_drafts_only_is_left_out_with_a_note(format_name, code, tmp_path):
    import io
    import zipfile

    from lmsexport.writers.moodle import gift, moodle_xml
    from lmsexport.writers.shared import ExportOptions

    path = tmp_path / "drafts-only.json"
    path.write_text(json.dumps(DRAFTS_ONLY), encoding="utf-8")
    quiz = load_quiz(path).quiz
    result = {"moodle": moodle_xml, "gift": gift, "qti": qti, "canvas": canvas}[format_name].render(quiz, ExportOptions())
    said = [d for d in result.diagnostics if d.code == code and "all its questions are drafts" in d.message]
    assert [(d.severity.value, d.pointer) for d in said] == [("note", "/sections/0")]
    if format_name in ("moodle", "gift"):
        text = result.data.decode("utf-8")
    else:
        with zipfile.ZipFile(io.BytesIO(result.data)) as archive:
            text = "".join(archive.read(n).decode("utf-8") for n in archive.namelist() if n.endswith(".xml"))
    assert "Later" not in text and "Add all 0" not in text
    assert "A?" in text and "C?" in text


def test_moodle_says_in_words_how_each_kind_of_section_goes_into_the_quiz_and_where():
    from quizzes import quiz_of

    quiz = quiz_of(*({"id": q, "type": "essay", "stem": "E"} for q in ("a", "b", "c", "d", "e")), sections=[
        {"id": "kept", "title": "Kept", "questions": ["a", "b"]},
        {"id": "mixed", "title": "Mixed", "shuffle": True, "questions": ["c", "d"]},
        {"id": "drawn", "title": "Drawn", "pick": 1, "questions": ["e"]}])
    result = moodle_xml.render(quiz, ExportOptions())
    infos = [q.findtext("info/text") for q in etree.fromstring(result.data).iter("question") if q.get("type") == "category"]
    assert [info for info in infos if info] == [
        '<div lang="en"></div>',  # the quiz's own category: its language, and no description
        '<p class="section-draw">Add all 2 of these questions to the quiz together, in this order.</p>',
        '<p class="section-draw">Add all 2 of these questions to the quiz together, in a random order.</p>',
        '<p class="section-draw">Draw 1 of these 1 questions at random for each student.</p>']
    base = "$course$/top/T"
    assert [(d.pointer, d.message) for d in result.diagnostics if d.code == "moodle-section"] == [
        ("/sections/0", f"section 'kept': a Moodle question bank holds no quiz layout, so the section is the category '{base}/Kept'; "
                        "add its questions to the quiz together"),
        ("/sections/1", f"section 'mixed': a Moodle question bank holds no quiz layout, so the section is the category '{base}/Mixed'; "
                        "add its questions to the quiz together and shuffle them"),
        ("/sections/2", f"section 'drawn': a Moodle question bank holds no quiz layout, so the section is the category '{base}/Drawn'; "
                        "to draw 1 of its questions, add 1 random question(s) from this category to the quiz")]


@pytest.mark.parametrize("format_name,code", [("moodle", "moodle-section"), ("gift", "moodle-section"), ("qti", "qti-section"), ("canvas", "canvas-section")])
def test_the_check_notes_a_section_of_drafts_only_as_its_writer_does(format_name, code, tmp_path):
    from lmsexport.formats import FORMATS
    from lmsexport.writers.shared import ExportOptions

    path = tmp_path / "drafts-only.json"
    path.write_text(json.dumps(DRAFTS_ONLY), encoding="utf-8")
    said = [(d.code, d.severity.value, d.pointer, d.message) for d in FORMATS[format_name].check(load_quiz(path).quiz, ExportOptions())
            if "all its questions are drafts" in d.message]
    assert said == [(code, "note", "/sections/0", "section 'later': all its questions are drafts, so the section is left out")]

"""Languages on import: what each format can say, and `import --language` where it says nothing.

Moodle XML and GIFT have no language field (qformat_xml and qformat_gift never mention one):
they carry languages only inside HTML texts, as a `lang` on the element around a text or as
Moodle's multi-language spans (`<span lang="fr" class="multilang">`), of which Moodle shows one.
lmsexport's own files state the quiz's language: Moodle XML as a `<div lang>` holding the
category's whole info, GIFT as a `// language:` header line. QTI states xml:lang on each item
and, in lmsexport's packages, the test's language in its metadata; Canvas only in the texts'
markup.
"""

from __future__ import annotations

import io
import json
import zipfile

from conftest import SHARED
import pytest

from lmsexport.importers import import_data
from lmsexport.model import Text, TextFormat
from quizzes import quiz_of


def _moodle(*questions: str) -> bytes:
    body = "".join(f'''
  <question type="truefalse">
    <name><text>{name}</text></name>
    <questiontext format="html"><text><![CDATA[{text}]]></text></questiontext>
    <answer fraction="100" format="moodle_auto_format"><text>true</text></answer>
    <answer fraction="0" format="moodle_auto_format"><text>false</text></answer>
  </question>''' for name, text in (q.split("|", 1) for q in questions))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n  <question type="category"><category><text>$course$/top/Bank</text></category></question>{body}\n</quiz>\n'.encode()


MULTILANG = _moodle(
    'hello|<p><span lang="en" class="multilang">Is "bonjour" a greeting?</span><span lang="fr" class="multilang">« Bonjour » est-il une salutation ?</span></p>',
    # Moodle's filter takes the attributes in either order, and white space between the spans.
    'bye|<p><span class="multilang" lang="fr">« Salut » peut-il dire au revoir ?</span> <span class="multilang" lang="en">Can "salut" mean goodbye?</span></p>',
)


def _one(data: bytes, file: str, **options):
    quizzes, problems = import_data(data, file, **options)
    assert not [p for p in problems if p.is_error], [p.message for p in problems]
    (quiz,) = quizzes
    return quiz


def _said(imported, code: str) -> list[tuple[str, int | None, str]]:
    return [(d.severity.value, d.line, d.message) for d in imported.diagnostics if d.code == code]


def test_moodle_multilang_texts_give_the_quiz_the_language_they_all_have():
    imported = _one(MULTILANG, "bank.xml")
    quiz = imported.quiz
    assert quiz.language == "en"
    assert [q.stem.source for q in quiz.questions] == ['Is "bonjour" a greeting?', 'Can "salut" mean goodbye?']
    assert [q.language for q in quiz.questions] == [None, None]
    # The note stands at the first question; each text that lost a version says which, where it is.
    assert _said(imported, "import-language") == [("note", 4, "bank: the quiz's language is 'en', the one its Moodle multi-language texts all have")]
    losses = [(line, message) for _, line, message in _said(imported, "import-loss")]
    assert losses == [(4, "question 'hello': the question text: a Moodle multi-language text: its 'en' version is kept, its 'fr' version left out"),
                      (10, "question 'bye': the question text: a Moodle multi-language text: its 'en' version is kept, its 'fr' version left out")]


def test_language_option_picks_the_multilang_version_and_sets_the_quiz_language():
    quiz = _one(MULTILANG, "bank.xml", language="fr").quiz
    assert quiz.language == "fr"
    assert [q.stem.source for q in quiz.questions] == ["« Bonjour » est-il une salutation ?", "« Salut » peut-il dire au revoir ?"]
    assert not _said(_one(MULTILANG, "bank.xml", language="fr"), "import-language")


def test_a_language_the_multilang_texts_lack_keeps_english_else_the_first_version_as_moodle_does():
    # Moodle's filter follows the reader's parent languages, which end in English for every one.
    quiz = _one(MULTILANG, "bank.xml", language="de").quiz
    assert quiz.language == "de"
    assert [q.stem.source for q in quiz.questions] == ['Is "bonjour" a greeting?', 'Can "salut" mean goodbye?']
    no_english = _moodle('hallo|<span lang="nl" class="multilang">Hallo?</span><span lang="fr" class="multilang">Salut ?</span>')
    assert [q.stem.source for q in _one(no_english, "bank.xml", language="de").quiz.questions] == ["Hallo?"]


AUTHORED = _moodle("french|<p lang=\"FR\" dir=\"ltr\">C'est <b>vrai</b> ?</p>", "plain|<p>Is it true?</p>")


def test_a_lang_an_editor_put_around_a_moodle_text_is_the_questions_language():
    imported = _one(AUTHORED, "bank.xml")
    assert [(q.language, q.stem.source) for q in imported.quiz.questions] == [("fr", "C'est **vrai** ?"), (None, "Is it true?")]
    assert not _said(imported, "import-loss")  # the attribute is read, not lost
    # Moodle XML states no quiz language: 'und', with a note located at the first question.
    assert imported.quiz.language == "und"
    assert _said(imported, "import-language") == [
        ("note", 4, "bank: the file states no language; the quiz says 'und' (undetermined): set its language, or import with --language")]


def test_the_language_option_is_the_quiz_language_of_a_moodle_file_and_its_questions_inherit_it():
    imported = _one(AUTHORED, "bank.xml", language="fr")
    assert imported.quiz.language == "fr"
    assert [q.language for q in imported.quiz.questions] == [None, None]  # 'plain' too: the quiz's language is the option's
    assert not _said(imported, "import-language")


def test_gift_html_texts_state_their_language_the_same_way():
    gift = "::q1::[html]<p lang=\"de\">Ist das so?</p>{T}\n\n::q2::[html]<div lang=\"nl\"><p>Klopt dat?</p></div>{F}\n"
    imported = _one(gift.encode(), "bank.gift.txt")
    assert [q.language for q in imported.quiz.questions] == ["de", "nl"]
    assert imported.quiz.language == "und" and _said(imported, "import-language")[0][1] == 1
    assert [q.language for q in _one(gift.encode(), "bank.gift.txt", language="de").quiz.questions] == [None, "nl"]


def _qti_item(identifier: str, language: str | None) -> str:
    lang = f' xml:lang="{language}"' if language else ""
    return (f'<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="{identifier}" title="{identifier}"'
            f' adaptive="false" timeDependent="false"{lang}>'
            '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>'
            '<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>'
            '<itemBody><choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1"><prompt>Which?</prompt>'
            '<simpleChoice identifier="A">a</simpleChoice><simpleChoice identifier="B">b</simpleChoice></choiceInteraction></itemBody>'
            '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/></assessmentItem>')


def _qti_package(languages: list[str | None]) -> bytes:
    resources = "".join(f'<resource identifier="r{i}" type="imsqti_item_xmlv2p1" href="i{i}.xml"><file href="i{i}.xml"/></resource>'
                        for i in range(len(languages)))
    manifest = ('<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><organizations/>'
                f"<resources>{resources}</resources></manifest>")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("imsmanifest.xml", manifest)
        for i, language in enumerate(languages):
            archive.writestr(f"i{i}.xml", _qti_item(f"q{i}", language))
    return buffer.getvalue()


def test_a_qti_package_without_a_stated_language_is_in_the_one_its_items_state_most():
    imported = _one(_qti_package(["nl", "nl", "fr", None]), "items.zip")
    assert imported.quiz.language == "nl"
    assert [q.language for q in imported.quiz.questions] == [None, None, "fr", None]
    assert not _said(imported, "import-language")
    # The option does not override what the file states; a note says so.
    again = _one(_qti_package(["nl"]), "items.zip", language="en")
    assert again.quiz.language == "nl"
    assert [m for _, _, m in _said(again, "import-language")] == [
        "i0.xml: items: the file states the language 'nl', which the quiz keeps (--language 'en' is for files that state none)"]


def test_a_qti_package_whose_items_state_no_language_takes_the_option():
    assert _one(_qti_package([None, None]), "items.zip", language="wo").quiz.language == "wo"
    imported = _one(_qti_package([None]), "items.zip")
    assert imported.quiz.language == "und"
    assert [m for _, _, m in _said(imported, "import-language")] == [
        "i0.xml: items: the file states no language; the quiz says 'und' (undetermined): set its language, or import with --language"]


@pytest.mark.skipif(SHARED is None, reason="../shared (the corpora) is missing: set LMSEXPORT_SHARED")
def test_taos_package_is_in_the_language_of_its_item():
    # TAO writes xml:lang="en-US" on the item and no language in the manifest.
    imported = _one((SHARED / "fixtures/qti21/packages/tao_package.zip").read_bytes(), "tao_package.zip")
    assert imported.quiz.language == "en-US" and imported.quiz.questions[0].language is None


def test_the_command_takes_language_and_refuses_a_tag_that_is_none(tmp_path):
    from typer.testing import CliRunner

    from lmsexport.cli import app

    source = tmp_path / "bank.xml"
    source.write_bytes(AUTHORED)
    runner = CliRunner()
    refused = runner.invoke(app, ["import", str(source), "-o", str(tmp_path / "out"), "--language", "french"])
    assert refused.exit_code == 2 and "'french' is not a registered language tag" in refused.output
    assert not (tmp_path / "out" / "bank.json").exists()
    done = runner.invoke(app, ["import", str(source), "-o", str(tmp_path / "out"), "--lang", "fr"])
    assert done.exit_code == 0, done.output
    written = json.loads((tmp_path / "out" / "bank.json").read_text(encoding="utf-8"))
    assert written["language"] == "fr" and all("language" not in q for q in written["questions"])


def _qti12(language: str) -> bytes:
    item = ('<item ident="i1" title="Capital"><itemmetadata><qtimetadata><qtimetadatafield><fieldlabel>question_type</fieldlabel>'
            '<fieldentry>true_false_question</fieldentry></qtimetadatafield></qtimetadata></itemmetadata><presentation>'
            f'<material><mattext texttype="text/plain" xml:lang="{language}">Parijs is de hoofdstad van Frankrijk.</mattext></material>'
            '<response_lid ident="response1" rcardinality="Single"><render_choice>'
            '<response_label ident="t"><material><mattext>Waar</mattext></material></response_label>'
            '<response_label ident="f"><material><mattext>Onwaar</mattext></material></response_label></render_choice></response_lid>'
            '</presentation><resprocessing><outcomes><decvar varname="SCORE"/></outcomes><respcondition continue="No"><conditionvar>'
            '<varequal respident="response1">t</varequal></conditionvar><setvar action="Set" varname="SCORE">100</setvar></respcondition>'
            '</resprocessing></item>')
    return ('<?xml version="1.0" encoding="UTF-8"?><questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2">'
            f'<assessment ident="a1" title="Landen"><section ident="root_section">{item}</section></assessment></questestinterop>').encode()


def test_qti_1_2_states_a_texts_language_with_xml_lang_on_mattext():
    imported = _one(_qti12("nl"), "landen.xml", format="canvas")
    assert imported.quiz.language == "nl" and imported.quiz.questions[0].language is None
    assert not _said(imported, "import-language")


@pytest.mark.skipif(SHARED is None, reason="../shared (the corpora) is missing: set LMSEXPORT_SHARED")
def test_canvas_exports_state_no_language():
    # Canvas's own QTI 1.2 has no language anywhere: 'und', with the located note.
    imported = _one((SHARED / "corpora/canvas-qti/canvas/true_false.xml").read_bytes(), "true_false.xml")
    assert imported.quiz.language == "und"
    ((severity, line, _),) = _said(imported, "import-language")
    assert severity == "note" and line is not None


# -- the quiz's language in lmsexport's own Moodle XML and GIFT -----------------------------------

def _export(quiz, fmt: str) -> bytes:
    from import_support import export

    return export(quiz, fmt)


# A Wolof quiz with a question and an option in other languages, a Dutch quiz with no
# description and one whose plain description holds the white space and markup escaping must keep.
WOLOF = quiz_of({"id": "naka", "type": "true_false", "stem": "Ndax dëgg la?", "answer": True},
                {"id": "english", "type": "single_choice", "language": "en", "stem": "Which is Wolof?", "options": [
                    {"id": "a", "text": "Waaw", "correct": True, "language": "wo"}, {"id": "b", "text": "Yes", "correct": False}]},
                id="wolof", title="Laaj", language="wo", description="Ay laaj  ci  wolof.\n  Ñaareel & <b> \u00a0 &nbsp;\r.")
DUTCH = quiz_of({"id": "rond", "type": "true_false", "stem": "Is de aarde rond?", "answer": True}, id="dutch", title="Aarde", language="nl")
FORMATS = ["moodle", "gift", "qti", "canvas"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("quiz", [WOLOF, DUTCH], ids=["wolof", "dutch"])
def test_our_exports_give_the_quizs_language_back_without_the_option(quiz, fmt):
    imported = _one(_export(quiz, fmt), {"moodle": "quiz.xml", "gift": "quiz.gift.txt"}.get(fmt, "quiz.zip"), format=fmt)
    assert imported.quiz.language == quiz.language
    assert not _said(imported, "import-language")  # no 'und' note: the file says it
    back = {q.id: q for q in imported.quiz.questions}
    for question in quiz.questions:
        assert back[question.id].language == question.language, question.id
    if quiz is WOLOF:
        assert [c.language for c in back["english"].choices] == ["wo", None]
        if fmt in ("moodle", "gift"):  # the description comes back character for character
            assert imported.quiz.description == quiz.description


@pytest.mark.parametrize("fmt", ["moodle", "gift"])
def test_the_file_states_its_language_over_the_option(fmt):
    imported = _one(_export(DUTCH, fmt), "quiz.xml" if fmt == "moodle" else "quiz.gift.txt", language="fr")
    assert imported.quiz.language == "nl"
    assert [m for _, _, m in _said(imported, "import-language")] == [
        "dutch: the file states the language 'nl', which the quiz keeps (--language 'fr' is for files that state none)"
        if fmt == "gift" else "aarde: the file states the language 'nl', which the quiz keeps (--language 'fr' is for files that state none)"]


def test_moodle_xml_states_the_quiz_language_on_one_div_holding_the_category_info():
    from lxml import etree

    infos = {}
    for quiz in (WOLOF, DUTCH):
        category = etree.fromstring(_export(quiz, "moodle")).find("question[@type='category']/info")
        infos[quiz.id] = (category.get("format"), category.findtext("text"))
    # A plain description alone is a block of no margins, as Moodle shows plain text: a space HTML
    # would collapse is a no-break space entity, which the escaping writes for nothing else.
    assert infos == {
        "wolof": ("html", '<div lang="wo"><div class="quiz-description">Ay laaj &nbsp;ci &nbsp;wolof.<br/>\n'
                          '&nbsp;&nbsp;Ñaareel &amp; &lt;b&gt; \u00a0 &amp;nbsp;&#13;.</div></div>'),
        "dutch": ("html", '<div lang="nl"></div>'),
    }


def test_gift_states_the_quiz_language_in_a_header_comment():
    assert _export(DUTCH, "gift").decode().split("\n")[:3] == ["// quiz: dutch", "// title: Aarde", "// language: nl"]


def test_a_foreign_category_info_in_one_element_with_a_lang_gives_the_quiz_its_language():
    data = (b'<?xml version="1.0" encoding="UTF-8"?>\n<quiz><question type="category"><category><text>$course$/top/Bank</text></category>'
            b'<info format="html"><text><![CDATA[<p lang="fr-CA" dir="ltr">Questions de <b>base</b></p>]]></text></info></question>'
            b'<question type="truefalse"><name><text>q</text></name><questiontext format="html"><text>Vrai ?</text></questiontext>'
            b'<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question></quiz>')
    imported = _one(data, "bank.xml")
    assert imported.quiz.language == "fr-CA"
    assert imported.quiz.description == Text("Questions de **base**", TextFormat.MARKDOWN)
    assert not _said(imported, "import-language")


# -- the older multi-language syntaxes ------------------------------------------------------------

# Moodle's own test cases for filter_multilang (filter/multilang/tests/text_filter_test.php), with
# its language codes as language tags: (text, reader's language, what Moodle shows). Moodle's test
# gives fr_ca the parent fr, as its language pack does; the import takes a tag's language as its
# parent. tests/importers/test_moodle.py runs the real filter on the cases that need no parent.
FILTER_MULTILANG_CASES = [
    ('<span lang="en" class="multilang">English</span><span lang="fr" class="multilang">Français</span>', "en", "English"),
    ('<span lang="en" class="multilang">English</span><span lang="fr" class="multilang">Français</span>', "fr", "Français"),
    ('<span lang="fr" class="multilang">Français</span><span class="multilang" lang="en">English</span>', "en", "English"),
    ('<span lang="en" class="multilang">English</span><span lang="fr" class="multilang">Français</span>', "fr-CA", "Français"),
    ('<span lang="fr_ca" class="multilang">Québécois</span>\n    <span lang="fr" class="multilang">Français</span>\n'
     '    <span lang="en" class="multilang">English</span>', "fr-CA", "Québécois"),
    ('<span lang="fr_ca" class="multilang">Québécois</span>\n    <span lang="fr" class="multilang">Français</span>\n'
     '    <span lang="en" class="multilang">English</span>', "fr", "Français"),
    ('<span lang="en" class="multilang">English</span>\n    <span lang="fr" class="multilang">Français</span>\n'
     '    <span lang="fr_ca" class="multilang">Québécois</span>', "fr-CA", "Québécois"),
    ('<span lang="de" class="multilang">Deutsch</span><span lang="en" class="multilang">English</span>', "en-US", "English"),
    # process_match's parent chain ends in English for every language (get_parent_lang), before the first.
    ('<span lang="de" class="multilang">Deutsch</span><span lang="en" class="multilang">English</span>', "nl", "English"),
    ('<span lang="de" class="multilang">Deutsch</span><span lang="fr" class="multilang">Français</span>', "nl", "Deutsch"),
]
# The old syntax, by the same filter's search for it (used until tool_multilangupgrade has run).
OLD_SYNTAX_CASES = [
    ('<lang lang="en">English</lang><lang lang="fr">Français</lang>', "fr", "Français"),
    ('<p><LANG lang="EN">English</LANG>\n <lang lang="fr_ca">Québécois</lang> tail</p>', "fr-CA", "<p>Québécois tail</p>"),
    ('<lang lang="en">English</lang> <span lang="fr">Français</span>', "fr", "Français"),  # runs may mix in spans
    ('<lang lang="de">Deutsch</lang><lang lang="fr">Français</lang>', "nl", "Deutsch"),
    # Spans alone, without class="multilang", are a text stating the languages of its parts: what
    # the filter reads them as since tool_multilangupgrade (and every new site) set the new syntax.
    ('<span lang="en">English</span> <span lang="fr">Français</span>', "fr", '<span lang="en">English</span> <span lang="fr">Français</span>'),
]
# The multilang2 plugin's own test cases (tests/actual_test_cases.php of iarenaza/moodle-filter_multilang2).
MULTILANG2_CASES = [
    ("No multilang tags", "es", "No multilang tags"),
    ("{mlang es}Todo el texto está en español{mlang}", "es", "Todo el texto está en español"),
    ("{MLANG es}Todo el texto está en español{MLANG}", "es", "Todo el texto está en español"),
    ("{MlAnG Es}Todo el texto está en español{MlAnG}", "es", "Todo el texto está en español"),
    ("Some non-filtered content {mlang es}plus some content in Spanish{mlang}", "es", "Some non-filtered content plus some content in Spanish"),
    ("{mlang es}Algo en español{mlang}{mlang eu}Zerbait euskeraz{mlang}", "eu", "Zerbait euskeraz"),
    ("Non-filtered {begin}{mlang es}En español{mlang}{mlang eu}Euskeraz{mlang}Non-filtered{end}", "eu", "Non-filtered {begin}EuskerazNon-filtered{end}"),
    ("{mlang}Bad filter syntax{mlang}", "es", "{mlang}Bad filter syntax{mlang}"),
    ("{mlang-es}Bad filter syntax{mlang}", "es", "{mlang-es}Bad filter syntax{mlang}"),
    ("{mlang _es}Este texto está en español{mlang}", "es", ""),
    ("Before {mlang}Bad filter syntax{mlang}{mlang es}Algo de español{mlang} After", "es", "Before {mlang}Bad filter syntax{mlang}Algo de español After"),
    ("Before {mlang non-existent-language}Some content{mlang} After", "es", "Before  After"),
    ("Before {mlang en_us}Some content{mlang} After", "en-US", "Before Some content After"),
    ("Before {mlang en-us}Some content{mlang} After", "en-US", "Before Some content After"),
    ("Before {mlang fr}French{mlang}{mlang it}Italian{mlang}{mlang de}Deutsch{mlang} After", "en", "Before  After"),
    ("Before {mlang fr}Français{mlang}{mlang it}Italiano{mlang}{mlang de}Deutsch{mlang}{mlang other}България{mlang}\n Middle "
     "{mlang other}България{mlang}{mlang it}Italiano{mlang}{mlang de}Deutsch{mlang}{mlang fr}Français{mlang}\n After", "en",
     "Before България\n Middle България\n After"),
    ("{mlang de}Deutsch {mlang}no other language declared", "en", "no other language declared"),
    ("{mlang other}Other language{mlang} Middle {mlang de}Deutsch{mlang}{mlang other}Other language{mlang}", "en", "Other language Middle Other language"),
    *((("{mlang other}Hello!{mlang}{mlang es,es_mx}¡Hola!{mlang}\n Common text.\n {mlang other}Bye!{mlang}{mlang it}Ciao!{mlang}"), language, shown)
      for language, shown in (("fr", "Hello!\n Common text.\n Bye!"), ("es-MX", "¡Hola!\n Common text.\n "), ("it", "\n Common text.\n Ciao!"))),
    ("{mlang en,fr,es}Todo el texto está en español{mlang}", "es", "Todo el texto está en español"),
    ("{mlang   en   ,      fr,es    }Todo el texto está en español{mlang}", "es", "Todo el texto está en español"),
    ("{mLaNg   eN   ,      FR,Es    }Todo el texto está en español{mlang}", "es", "Todo el texto está en español"),
    *((f"{{mlang {bad}}}Bad filter syntax{{mlang}}", "es", f"{{mlang {bad}}}Bad filter syntax{{mlang}}")
      for bad in ("  en  ,  ,  ,,,     fr,es,,     ,", "  en   ,", "en,,es", "en , , es , ", "en,es,")),
    ("{mlang,es}Bad filter syntax{mlang}", "es", "{mlang,es}Bad filter syntax{mlang}"),
    ("{mlang ,es}Bad filter syntax{mlang}", "es", "{mlang ,es}Bad filter syntax{mlang}"),
]


@pytest.mark.parametrize(("text", "language", "shown"), FILTER_MULTILANG_CASES + OLD_SYNTAX_CASES + MULTILANG2_CASES)
def test_the_version_kept_is_the_one_moodles_filter_shows_a_reader_of_the_quizs_language(text, language, shown):
    from lmsexport.importers import multilang

    assert multilang.select(text, language)[0] == shown


def test_what_each_syntax_leaves_out_is_said():
    from lmsexport.importers import multilang

    assert multilang.select('<lang lang="en">English</lang><lang lang="fr_ca">Québécois</lang>', "fr-CA")[1] == [
        "a Moodle multi-language text (the old <lang> syntax): its 'fr-CA' version is kept, its 'en' version left out"]
    assert multilang.select("{mlang other}Hi{mlang}{mlang es,es_mx}Hola{mlang} {mlang it}Ciao{mlang}", "es-MX")[1] == [
        "a multi-language text of the multilang2 filter ({mlang}): its 'es-MX' version is kept, its 'other', 'it' versions left out"]
    assert multilang.select("{mlang de}Hallo{mlang}{mlang other}Hi{mlang}", "nl")[1] == [
        "a multi-language text of the multilang2 filter ({mlang}): its 'other' version is kept, its 'de' version left out"]
    assert multilang.select("A {mlang de}Hallo{mlang}", "nl") == ("A ", [
        "a multi-language text of the multilang2 filter ({mlang}): none of its versions is in 'nl' nor 'other', so Moodle shows none: "
        "its 'de' version left out"])
    assert multilang.select("{mlang nl}Hallo{mlang}", "nl") == ("Hallo", [])  # nothing left out, nothing said


OLD_AND_MLANG = _moodle(
    'old|<p><lang lang="en">Is it <b>true</b>?</lang><lang lang="fr">Est-ce <b>vrai</b> ?</lang></p>',
    'mlang|<p>{mlang en}True or false?{mlang}{mlang fr,fr_ca}Vrai ou faux ?{mlang}{mlang other}?{mlang}</p>',
)


def test_old_multilang_and_multilang2_texts_give_the_quiz_the_language_they_all_have_and_say_what_is_left_out():
    imported = _one(OLD_AND_MLANG, "bank.xml")
    assert imported.quiz.language == "en"
    assert [q.stem.source for q in imported.quiz.questions] == ["Is it **true**?", "True or false?"]
    assert _said(imported, "import-language") == [("note", 4, "bank: the quiz's language is 'en', the one its Moodle multi-language texts all have")]
    assert [(line, message) for _, line, message in _said(imported, "import-loss")] == [
        (4, "question 'old': the question text: a Moodle multi-language text (the old <lang> syntax): its 'en' version is kept, its 'fr' version left out"),
        (10, "question 'mlang': the question text: a multi-language text of the multilang2 filter ({mlang}): its 'en' version is kept, "
             "its 'fr, fr-CA', 'other' versions left out")]


def test_the_language_option_picks_the_old_and_multilang2_versions():
    quiz = _one(OLD_AND_MLANG, "bank.xml", language="fr-CA").quiz
    assert [q.stem.source for q in quiz.questions] == ["Est-ce **vrai** ?", "Vrai ou faux ?"]
    # A language no version has: the old syntax shows its first, multilang2 its 'other'.
    quiz = _one(OLD_AND_MLANG, "bank.xml", language="de").quiz
    assert [q.stem.source for q in quiz.questions] == ["Is it **true**?", "?"]


def test_gift_texts_in_multilang2_syntax_are_read_the_same_way():
    # GIFT escapes the braces (\{); Moodle stores them unescaped, and its filter reads them.
    gift = ("::q1::\\{mlang nl\\}Is de aarde rond?\\{mlang\\}\\{mlang en\\}Is the earth round?\\{mlang\\}{T}\n\n"
            "::q2::Water \\{mlang nl\\}is nat\\{mlang\\}\\{mlang en\\}is wet\\{mlang\\}{T}\n")
    imported = _one(gift.encode(), "bank.gift.txt")
    assert imported.quiz.language == "nl"
    assert [q.stem.source for q in imported.quiz.questions] == ["Is de aarde rond?", "Water is nat"]
    assert [line for _, line, _ in _said(imported, "import-loss")] == [1, 3]


def test_an_option_stating_no_language_is_in_its_questions_in_gift_as_in_moodle_xml():
    # The question's paragraph states German; its options state nothing: they are read as German
    # in both formats, not as undetermined ('und') in GIFT alone.
    gift = _one('::q::[html]<p lang\\="de">Ist das so?</p>{=Ja ~<span lang\\="fr">Non</span>}\n'.encode(), "bank.gift.txt", language="en")
    moodle = _one(b'<?xml version="1.0" encoding="UTF-8"?>\n<quiz><question type="category"><category><text>$course$/top/Bank</text>'
                  b'</category></question><question type="multichoice"><name><text>q</text></name><questiontext format="html">'
                  b'<text><![CDATA[<p lang="de">Ist das so?</p>]]></text></questiontext><single>true</single>'
                  b'<answer fraction="100" format="html"><text>Ja</text></answer>'
                  b'<answer fraction="0" format="html"><text><![CDATA[<span lang="fr">Non</span>]]></text></answer></question></quiz>',
                  "bank.xml", language="en")
    for imported in (gift, moodle):
        (question,) = imported.quiz.questions
        assert (question.language, [c.language for c in question.choices]) == ("de", [None, "fr"])

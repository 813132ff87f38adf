"""Moodle XML to the model, reading what question/format/xml/format.php reads.

Moodle keeps no option identifiers, so options are numbered in file order. Fractions come
back as Moodle stores them (83.33333% is 0.8333333). Each category question starts a bank: its
path (after the context prefix Moodle writes, `$course$`, `$system$`, `$coursecategory$` or, from
Moodle 5.0, `$module$`, and the `top` category) gives the bank's category and title.
`read_moodle_xml` gives one quiz with the first category's names (what the tests compare with);
`read_banks` gives every bank with the source line of each question, and keeps what it cannot read
(an unknown plugin type, a broken number) as an `Unread` with the reason.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote

from lxml import etree

from ...model import (
    AcceptedAnswer,
    Choice,
    Description,
    Distractor,
    Essay,
    Feedback,
    FillInBlanks,
    Matching,
    MatchPair,
    MultipleResponse,
    Numerical,
    NumericAnswer,
    Ordering,
    OrderingGrading,
    OrderItem,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Text,
    TrueFalse,
)
from ..result import SourceSection, Unread
from ...tolerances import reaches_full_credit
from .cloze import ClozeError, read_cloze, read_gapselect
from .text import php_trim, quiz_info, quiz_language, section_info, split_category_path, text_in_language

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
_CONTEXT = re.compile(r"^\$[a-z]+\$$")
_PLUGINFILE = re.compile(r"@@PLUGINFILE@@(/[^\"'\s<>)]*)")

# (folder, name, bytes) of a file embedded in a text -> the address the text should use instead.
MediaSink = Callable[[str, str, bytes], str]


@dataclass
class Bank:
    """The questions under one category of the file, in order, each with its source line."""

    names: list[str]  # the category path without the context and 'top'
    info: tuple[Text | None, str | None, str | None] = (None, None, None)
    language: str | None = None  # the quiz's, as the category's info states it
    questions: list[tuple[Question | Unread, int]] = field(default_factory=list)
    problems: list[tuple[str, int]] = field(default_factory=list)  # (message, line): embedded files that could not be read
    losses: dict[int, list[str]] = field(default_factory=dict)  # question index -> what the reader could not carry
    sections: list[SourceSection] = field(default_factory=list)


def category_names(path: str) -> list[str]:
    """A category path without its context prefix and the 'top' category of that context."""
    names = split_category_path(path)
    if names and _CONTEXT.match(names[0]):
        names = names[1:]
        if names[:1] == ["top"]:
            names = names[1:]
    return [n for n in names if n]


def _string(element: etree._Element | None, tag: str = "text", default: str = "") -> str:
    """getpath(..., istext=true): the trimmed content of a child element."""
    if element is None:
        return default
    found = element.find(tag)
    if found is None:
        return default
    return php_trim("".join(found.itertext()))


def _rich_language(element: etree._Element | None, default_format: str = "html") -> tuple[Text | None, str | None]:
    """A rich text and the language it states (a `lang` wrapper), if any."""
    if element is None:
        return None, None
    return text_in_language(_string(element), element.get("format", default_format))


def _number(element: etree._Element, tag: str, default: float) -> float:
    found = element.find(tag)
    if found is None or not php_trim(found.text or ""):
        return default
    return float(php_trim(found.text))


def _fraction(answer: etree._Element) -> float:
    return float(answer.get("fraction", "0")) / 100


def _truthy(value: str) -> bool:
    """trans_single: 'false', '0' and '' are false."""
    value = php_trim(value)
    return not (value == "false" or value in ("", "0"))


def unescape_wildcards(answer: str) -> str:
    return answer.replace("\\*", "*")


class _Reader:
    def __init__(self, media: MediaSink | None = None, invent_ids: bool = True) -> None:
        self.count = 0
        self.invent_ids = invent_ids  # without, a question with no idnumber has the id ""
        self.language: str | None = None  # the language the current question's text states
        self.media = media
        self.problems: list[tuple[str, int]] = []
        self.losses: list[str] = []  # what the current question loses, in words

    def with_files(self, element: etree._Element, source: str) -> str:
        """The text with each @@PLUGINFILE@@ address of a file embedded beside it replaced by
        the address the media sink gives that file."""
        if self.media is None or "@@PLUGINFILE@@" not in source:
            return source
        files = {}
        for node in element.findall("file"):
            folder, name = node.get("path", "/"), node.get("name", "")
            try:
                data = base64.b64decode("".join(node.itertext()), validate=False)
            except (binascii.Error, ValueError):
                self.problems.append((f"the embedded file {name!r} is not valid base64: left out", node.sourceline or 0))
                continue
            files[(folder.strip("/") + "/" + name).lstrip("/")] = self.media(folder, name, data)

        def replace(found: re.Match) -> str:
            path = unquote(found.group(1)).lstrip("/")
            return files.get(path, found.group())

        return _PLUGINFILE.sub(replace, source)

    def rich_language(self, element: etree._Element | None, default_format: str = "html") -> tuple[Text | None, str | None]:
        text, language = _rich_language(element, default_format)
        if text is not None and element is not None:
            text = Text(self.with_files(element, text.source), text.format)
        return text, language

    def rich(self, element: etree._Element | None, default_format: str = "html") -> Text | None:
        return self.rich_language(element, default_format)[0]

    def choice_language(self, language: str | None) -> str | None:
        return language if language != self.language else None

    def common(self, element: etree._Element) -> dict:
        self.count += 1
        name = _string(element.find("name"))
        identifier = php_trim(element.findtext("idnumber") or "") or (f"q{self.count}" if self.invent_ids else "")
        tags = tuple(_string(tag) for tag in element.findall("tags/tag"))
        penalty = element.find("penalty")
        stem, self.language = self.rich_language(element.find("questiontext"))
        return {
            "id": identifier,
            "title": None if name == identifier else name,  # an empty id: the title names it
            "stem": stem or Text(""),
            "language": self.language,
            "points": _number(element, "defaultgrade", 1.0),
            "penalty": float(php_trim(penalty.text)) if penalty is not None and penalty.text else None,
            "feedback": Feedback(
                general=self.rich(element.find("generalfeedback")),
                correct=self.rich(element.find("correctfeedback")),
                partially_correct=self.rich(element.find("partiallycorrectfeedback")),
                incorrect=self.rich(element.find("incorrectfeedback")),
            ),
            "tags": tags,
        }

    def question(self, element: etree._Element) -> Question | None:
        kind = element.get("type")
        reader = getattr(self, "_" + str(kind), None)
        if reader is None:
            raise ValueError(f"question type {kind!r} is not read")
        return reader(element)

    def question_or_unread(self, element: etree._Element) -> Question | Unread:
        kind = str(element.get("type"))
        self.losses = []
        try:
            return self.question(element)
        except (ValueError, TypeError) as problem:
            self.losses = []
            reason = str(problem) if getattr(self, "_" + kind, None) is not None else f"Moodle's {kind!r} questions have no counterpart in the content format"
            self.count += getattr(self, "_" + kind, None) is None
            return Unread(kind=kind, name=_string(element.find("name")), text=_string(element.find("questiontext")), reason=reason,
                          idnumber=php_trim(element.findtext("idnumber") or ""),
                          tags=tuple(_string(tag) for tag in element.findall("tags/tag")))

    def _multichoice(self, element: etree._Element) -> Question:
        fields = self.common(element)
        single = _truthy(element.findtext("single") or "true")
        choices = []
        for index, answer in enumerate(element.findall("answer")):
            fraction = _fraction(answer)
            text, language = self.rich_language(answer)
            choices.append(
                Choice(
                    id=_option_id(index),
                    text=text or Text(""),
                    language=self.choice_language(language),
                    correct=reaches_full_credit(fraction) if single else fraction > 0,
                    credit=fraction,
                    feedback=self.rich(answer.find("feedback")),
                )
            )
        shuffle = _truthy(element.findtext("shuffleanswers") or "false")
        kind = SingleChoice if single else MultipleResponse
        return kind(**fields, choices=tuple(choices), shuffle=shuffle)

    def _truefalse(self, element: etree._Element) -> Question:
        fields = self.common(element)
        answer = True
        feedback: dict[str, Text | None] = {}
        for node in element.findall("answer"):
            which = _string(node)
            feedback[which] = self.rich(node.find("feedback"))
            if which == "true":
                answer = node.get("fraction") == "100"
            elif which == "false":
                answer = node.get("fraction") != "100"
        return TrueFalse(**fields, answer=answer, true_feedback=feedback.get("true"), false_feedback=feedback.get("false"))

    def _shortanswer(self, element: etree._Element) -> Question:
        fields = self.common(element)
        answers = tuple(
            AcceptedAnswer(text=unescape_wildcards(_string(a)), credit=_fraction(a), feedback=self.rich(a.find("feedback")))
            for a in element.findall("answer")
        )
        return ShortAnswer(**fields, answers=answers, case_sensitive=_truthy(element.findtext("usecase") or "0"))

    def _numerical(self, element: etree._Element) -> Question:
        fields = self.common(element)
        for other in element.findall("answer"):
            # A '*' answer is what any other response gets: its feedback is the incorrect one.
            if _string(other) == "*" and _fraction(other) == 0 and not self.invent_ids and fields["feedback"].incorrect is None:  # importing
                fields["feedback"] = Feedback(**{**{k: getattr(fields["feedback"], k) for k in ("general", "correct", "partially_correct")},
                                                 "incorrect": self.rich(other.find("feedback"))})
        answers = tuple(
            NumericAnswer(
                value=float(_string(a)),
                tolerance=_number(a, "tolerance", 0.0),
                credit=_fraction(a),
                feedback=self.rich(a.find("feedback")),
            )
            for a in element.findall("answer")
            if _string(a) not in ("", "*")
        )
        return Numerical(**fields, answers=answers)

    def _matching(self, element: etree._Element) -> Question:
        fields = self.common(element)
        pairs, distractors = [], []
        for sub in element.findall("subquestion"):
            prompt = self.rich(sub)
            answer = _string(sub.find("answer"))
            if prompt is None:
                distractors.append(Distractor(id=f"d{len(distractors) + 1}", text=answer))
            else:
                pairs.append(MatchPair(id=f"p{len(pairs) + 1}", prompt=prompt, answer=answer))
        shuffle = _truthy(element.findtext("shuffleanswers") or "1")
        return Matching(**fields, pairs=tuple(pairs), distractors=tuple(distractors), shuffle=shuffle)

    _match = _matching

    def _essay(self, element: etree._Element) -> Question:
        fields = self.common(element)
        template = _string(element.find("responsetemplate"))
        return Essay(
            **fields,
            grader_info=self.rich(element.find("graderinfo")),
            response_template=template or None,
            lines=int(_number(element, "responsefieldlines", 15)),
        )

    def _ordering(self, element: etree._Element) -> Question:
        """qtype_ordering: each answer's fraction is its place; Moodle keeps no item ids."""
        fields = self.common(element)
        answers = sorted(element.findall("answer"), key=lambda a: float(a.get("fraction", "0")))
        items = tuple(OrderItem(id=f"i{index + 1}", text=self.rich(answer) or Text("")) for index, answer in enumerate(answers))
        grading = php_trim(element.findtext("gradingtype") or "ALL_OR_NOTHING").lower()
        try:
            kind = OrderingGrading(grading)
        except ValueError:
            raise ValueError(f"the ordering grading type {grading!r} is not read") from None
        if php_trim(element.findtext("selecttype") or "ALL") != "ALL":
            raise ValueError("an ordering question that shows a subset of its items has no counterpart in the content format")
        return Ordering(**fields, items=items, grading=kind, horizontal=php_trim(element.findtext("layouttype") or "") == "HORIZONTAL")

    def _cloze(self, element: etree._Element) -> Question:
        """qtype_multianswer as question/format/xml/format.php import_multianswer reads it: the
        text, general feedback, penalty, tags and id number; the mark is the sum of the blanks'
        weights (<defaultgrade> and the feedback by outcome are not read)."""
        fields = self.common(element)
        try:
            cloze = read_cloze(fields["stem"].source)
        except ClozeError as problem:
            raise ValueError(f"an embedded answers (cloze) question: {problem}") from None
        self.losses.extend(cloze.losses)
        fields.update(stem=Text(cloze.stem, fields["stem"].format), points=cloze.points,
                      feedback=Feedback(general=fields["feedback"].general))
        return FillInBlanks(**fields, blanks=cloze.blanks)

    _multianswer = _cloze

    def _gapselect(self, element: etree._Element) -> Question:
        """qtype_gapselect import_from_xml: gap [[n]] is a drop-down of the n-th choice's group."""
        fields = self.common(element)
        choices = [(_string(option), _string(option, "group", "1")) for option in element.findall("selectoption")]
        try:
            stem, blanks = read_gapselect(fields["stem"].source, choices, _truthy(element.findtext("shuffleanswers") or "1"))
        except ClozeError as problem:
            raise ValueError(f"a select missing words question: {problem}") from None
        fields["stem"] = Text(stem, fields["stem"].format)
        return FillInBlanks(**fields, blanks=blanks)

    def _description(self, element: etree._Element) -> Question:
        fields = self.common(element)
        return Description(**fields)


def _option_id(index: int) -> str:
    return chr(ord("a") + index) if index < 26 else f"o{index + 1}"


def parse(data: bytes) -> etree._Element:
    root = etree.fromstring(data, _PARSER)
    if root.tag != "quiz":
        raise ValueError("the root element is not <quiz>")
    return root


def read_banks(root: etree._Element, media: MediaSink | None = None) -> list[Bank]:
    """Every bank of a parsed Moodle XML file, in order; questions before any category form a
    bank with no names. A category met again continues its bank. A subcategory that lmsexport
    wrote for a section of the quiz (see section_info) is no bank of its own: its questions are
    the quiz's, in that section."""
    reader = _Reader(media, invent_ids=False)
    banks: list[Bank] = []
    current: Bank | None = None
    section: SourceSection | None = None
    for element in root.iterchildren("question"):
        if element.get("type") == "category":
            names = category_names(_string(element.find("category")))
            info = element.find("info")
            info_text, info_format = (_string(info), info.get("format", "html")) if info is not None else ("", "html")
            found = section_info(info_text, info_format) if names else None
            parent = next((b for b in banks if b.names == names[:-1]), None) if found else None
            if found is not None and parent is not None and current is parent:
                instructions, pick, shuffle = found
                section = SourceSection("", names[-1], [], instructions=instructions, pick=pick, shuffle=shuffle, line=element.sourceline)
                parent.sections.append(section)
                current = parent
                continue
            section = None
            again = next((b for b in banks if b.names == names), None) if names else None
            if again is not None:
                current = again
                continue
            info_text, language = quiz_language(info_text, info_format)
            current = Bank(names, quiz_info(info_text, info_format) if info is not None else (None, None, None), language=language)
            banks.append(current)
            continue
        if current is None:
            current = Bank([])
            banks.append(current)
        current.questions.append((reader.question_or_unread(element), element.sourceline or 0))
        if section is not None:
            section.places.append(len(current.questions) - 1)
        if reader.losses:
            current.losses[len(current.questions) - 1] = reader.losses
        current.problems.extend(reader.problems)
        reader.problems.clear()
    return banks


def read_moodle_xml(data: bytes, quiz_id: str = "imported", language: str = "und", file: str = "") -> Quiz:
    """The quiz in a Moodle XML file (in `language` unless its first category states one). Raises
    ValueError on what Moodle's importer would not read."""
    root = parse(data)
    reader = _Reader()
    questions: list[Question] = []
    category: list[str] = []
    title = quiz_id
    description = level = learning_path = None
    for element in root.findall("question"):
        if element.get("type") == "category":
            if not category:
                names = category_names(_string(element.find("category")))
                category, title = names[:-1], names[-1] if names else quiz_id
                info = element.find("info")
                if info is not None:
                    info_text, stated = quiz_language(_string(info), info.get("format", "html"))
                    language = stated or language
                    description, level, learning_path = quiz_info(info_text, info.get("format", "html"))
            continue
        question = reader.question(element)
        if question is not None:
            questions.append(question)
    return Quiz(
        id=quiz_id,
        title=title,
        language=language,
        questions=tuple(questions),
        description=description,
        level=level,
        learning_path=learning_path,
        category=tuple(category),
    )

"""Moodle XML to the model, reading what question/format/xml/format.php reads.

Moodle keeps no option identifiers, so options are numbered in file order. Fractions come
back as Moodle stores them (83.33333% is 0.8333333). The first category question gives the
quiz's category and title (the last name of the path, under `$course$/top`).
"""

from __future__ import annotations

from lxml import etree

from ..model import (
    AcceptedAnswer,
    Choice,
    Description,
    Distractor,
    Essay,
    Feedback,
    Matching,
    MatchPair,
    MultipleResponse,
    Numerical,
    NumericAnswer,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Text,
    TrueFalse,
)
from .moodle_text import php_trim, quiz_info, split_category_path, text_in_language

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


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


def _rich(element: etree._Element | None, default_format: str = "html") -> Text | None:
    return _rich_language(element, default_format)[0]


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
    def __init__(self) -> None:
        self.count = 0
        self.language: str | None = None  # the language the current question's text states

    def choice_language(self, language: str | None) -> str | None:
        return language if language != self.language else None

    def common(self, element: etree._Element) -> dict:
        self.count += 1
        name = _string(element.find("name"))
        identifier = php_trim(element.findtext("idnumber") or "") or f"q{self.count}"
        tags = tuple(_string(tag) for tag in element.findall("tags/tag"))
        penalty = element.find("penalty")
        stem, self.language = _rich_language(element.find("questiontext"))
        return {
            "id": identifier,
            "title": None if name == identifier else name,
            "stem": stem or Text(""),
            "language": self.language,
            "points": _number(element, "defaultgrade", 1.0),
            "penalty": float(php_trim(penalty.text)) if penalty is not None and penalty.text else None,
            "feedback": Feedback(
                general=_rich(element.find("generalfeedback")),
                correct=_rich(element.find("correctfeedback")),
                partially_correct=_rich(element.find("partiallycorrectfeedback")),
                incorrect=_rich(element.find("incorrectfeedback")),
            ),
            "tags": tags,
        }

    def question(self, element: etree._Element) -> Question | None:
        kind = element.get("type")
        reader = getattr(self, "_" + str(kind), None)
        if reader is None:
            raise ValueError(f"question type {kind!r} is not read")
        return reader(element)

    def _multichoice(self, element: etree._Element) -> Question:
        fields = self.common(element)
        single = _truthy(element.findtext("single") or "true")
        choices = []
        for index, answer in enumerate(element.findall("answer")):
            fraction = _fraction(answer)
            text, language = _rich_language(answer)
            choices.append(
                Choice(
                    id=_option_id(index),
                    text=text or Text(""),
                    language=self.choice_language(language),
                    correct=fraction >= 1 - 1e-5 if single else fraction > 0,
                    credit=fraction,
                    feedback=_rich(answer.find("feedback")),
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
            feedback[which] = _rich(node.find("feedback"))
            if which == "true":
                answer = node.get("fraction") == "100"
            elif which == "false":
                answer = node.get("fraction") != "100"
        return TrueFalse(**fields, answer=answer, true_feedback=feedback.get("true"), false_feedback=feedback.get("false"))

    def _shortanswer(self, element: etree._Element) -> Question:
        fields = self.common(element)
        answers = tuple(
            AcceptedAnswer(text=unescape_wildcards(_string(a)), credit=_fraction(a), feedback=_rich(a.find("feedback")))
            for a in element.findall("answer")
        )
        return ShortAnswer(**fields, answers=answers, case_sensitive=_truthy(element.findtext("usecase") or "0"))

    def _numerical(self, element: etree._Element) -> Question:
        fields = self.common(element)
        answers = tuple(
            NumericAnswer(
                value=float(_string(a)),
                tolerance=_number(a, "tolerance", 0.0),
                credit=_fraction(a),
                feedback=_rich(a.find("feedback")),
            )
            for a in element.findall("answer")
            if _string(a) not in ("", "*")
        )
        return Numerical(**fields, answers=answers)

    def _matching(self, element: etree._Element) -> Question:
        fields = self.common(element)
        pairs, distractors = [], []
        for sub in element.findall("subquestion"):
            prompt = _rich(sub)
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
            grader_info=_rich(element.find("graderinfo")),
            response_template=template or None,
            lines=int(_number(element, "responsefieldlines", 15)),
        )

    def _description(self, element: etree._Element) -> Question:
        fields = self.common(element)
        return Description(**fields)


def _option_id(index: int) -> str:
    return chr(ord("a") + index) if index < 26 else f"o{index + 1}"


def read_moodle_xml(data: bytes, quiz_id: str = "imported", language: str = "und", file: str = "") -> Quiz:
    """The quiz in a Moodle XML file. Raises ValueError on what Moodle's importer would not read."""
    root = etree.fromstring(data, _PARSER)
    if root.tag != "quiz":
        raise ValueError("the root element is not <quiz>")
    reader = _Reader()
    questions: list[Question] = []
    category: list[str] = []
    title = quiz_id
    description = level = learning_path = None
    for element in root.findall("question"):
        if element.get("type") == "category":
            if not category:
                names = split_category_path(_string(element.find("category")))
                if names[:2] == ["$course$", "top"]:
                    names = names[2:]
                elif names[:1] == ["$course$"]:
                    names = names[1:]
                category, title = names[:-1], names[-1] if names else quiz_id
                info = element.find("info")
                if info is not None:
                    description, level, learning_path = quiz_info(_string(info), info.get("format", "html"))
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

"""GIFT to the model, parsing as Moodle's importer does (question/format/gift/format.php).

The steps follow Moodle's readquestion: blocks split on blank lines, `//` lines set aside
(they may hold `[id:...]` and `[tag:...]`), escapes replaced by placeholders, then the name,
the answer block between the first `{` and the first `}`, the general feedback after the last
`####`, and the question type from the answer block's characters.

`read_gift` gives one quiz (the first `$CATEGORY:` names it); `read_banks` gives one bank per
`$CATEGORY:` with each question's first line, keeping a block it cannot read as an `Unread`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from ...model import (
    AcceptedAnswer,
    Blank,
    Choice,
    Description,
    Distractor,
    DropdownBlank,
    DropdownOption,
    Essay,
    Feedback,
    FillInBlanks,
    Matching,
    MatchPair,
    MultipleResponse,
    Numerical,
    NumericalBlank,
    NumericAnswer,
    Question,
    Quiz,
    ShortAnswer,
    ShortAnswerBlank,
    SingleChoice,
    Text,
    TextFormat,
    TrueFalse,
)
from ..moodle.text import php_trim, text_in_language
from ...text.blanks import PLACEHOLDER
from ...text.gift_escapes import escapes_undone as _pre, placeholders_undone as _post
from ..moodle.reader import Bank, Unread, category_names
from ..result import SourceSection
from ...tolerances import reaches_full_credit

_WEIGHT = re.compile(r"^%-*([0-9]{1,2})\.?([0-9]*)%")
_FORMATS = {"moodle": "moodle", "html": "html", "plain": "plain", "markdown": "markdown"}
_ID = re.compile(r"\[id:((?:\\]|[^\]\x00-\x1f\x7f])+)\]")
_TAG = re.compile(r"\[tag:((?:\\]|[^\]<>\x00-\x1f\x7f])+)\]")


def _dropdown(question: SingleChoice) -> DropdownBlank | None:
    options = []
    for choice in question.choices:
        text = choice.text.source
        if choice.text.format is TextFormat.HTML:
            from ..html import _as_plain

            plain = _as_plain(text)
            if plain is None:
                return None  # formatting a drop-down cannot show: the choice question keeps it
            text = plain
        options.append(DropdownOption(id=choice.id, text=text, correct=choice.correct, credit=choice.credit, feedback=choice.feedback))
    return DropdownBlank(id="b1", options=tuple(options))


# The missing word form: the blank `b1` each type whose answer block can stand inside the text
# becomes (None: it keeps its own type), keyed by the model's class. The others (true/false,
# matching, several right options...) have no blank.
_AS_BLANK: dict[type[Question], Callable[[Question], Blank | None]] = {
    ShortAnswer: lambda question: ShortAnswerBlank(id="b1", answers=question.answers, case_sensitive=question.case_sensitive),
    Numerical: lambda question: NumericalBlank(id="b1", answers=question.answers),
    SingleChoice: _dropdown,
}


class GiftError(ValueError):
    """What Moodle's GIFT importer would refuse."""


def _weighted_answer(answer: str, fmt: str) -> tuple[float, Text | None, Text | None]:
    """An answer of a short answer or numerical question: its %weight% (full credit without one),
    its text and its #feedback."""
    answer = php_trim(answer)
    fraction = 1.0
    if _WEIGHT.match(answer):
        fraction, answer = _weight(answer)
    text, feedback = _comment(answer, fmt)
    return fraction, text, feedback


def _with_format(text: str, default: str = "moodle") -> tuple[str, str]:
    """parse_text_with_format: a leading [format] marker, then the text unescaped and trimmed."""
    fmt = default
    if text.startswith("["):
        end = text.find("]")
        name = text[1:end] if end >= 0 else text[1:-1]
        if name in _FORMATS:
            fmt = _FORMATS[name]
            text = text[end + 1:]
    return php_trim(_post(text)), fmt


def _text(text: str, default: str) -> Text | None:
    """A text without the language it may state (a question's stem states the question's)."""
    source, fmt = _with_format(text, default)
    return text_in_language(source, fmt)[0]


def _weight(answer: str) -> tuple[float, str]:
    """answerweightparser: the number between the first two '%', as a fraction."""
    answer = answer[1:]
    end = answer.find("%")
    return float(answer[:end]) / 100, answer[end + 1:]


def _comment(answer: str, default: str) -> tuple[Text | None, Text | None]:
    text, _, feedback = answer.partition("#")
    return _text(php_trim(text), default), (_text(php_trim(feedback), default) if "#" in answer else None)


def _option(answer: str, default: str, question_language: str | None) -> tuple[Text | None, Text | None, str | None]:
    """An option's text, its feedback, and the language it states when not the question's (an
    option that states none is in its question's, as the Moodle XML reader reads it)."""
    text, _, feedback = answer.partition("#")
    source, fmt = _with_format(php_trim(text), default)
    option, language = text_in_language(source, fmt)
    language = language if language != question_language else None
    return option, (_text(php_trim(feedback), default) if "#" in answer else None), language


def _split(answers: str, separator: str) -> list[str]:
    parts = answers.split(separator)
    parts[0] = php_trim(parts[0])
    if parts[0] == "":
        parts.pop(0)
    return parts


def numbered_blocks(data: str) -> list[tuple[int, list[str]]]:
    """readquestions: a line that trims to nothing (or to '0', PHP's empty()) ends a block.
    Each block comes with the number of its first line."""
    result, current, start = [], [], 0
    for number, line in enumerate(data.split("\n"), 1):
        line = php_trim(line)
        if line == "" or line == "0":
            if current:
                result.append((start, current))
                current = []
        else:
            if not current:
                start = number
            current.append(line)
    if current:
        result.append((start, current))
    return result


def blocks(data: str) -> list[list[str]]:
    return [lines for _, lines in numbered_blocks(data)]


class _Reader:
    def __init__(self, invent_ids: bool = True) -> None:
        self.count = 0
        self.invent_ids = invent_ids
        # read_banks reads for `lmsexport import`: it also keeps what only an import needs
        # (the feedback for any other number, options in a language GIFT cannot name).
        self.importing = not invent_ids
        self.category: str | None = None
        self.last_category: str | None = None

    def block(self, lines: list[str]) -> Question | None:
        comments = "".join(line + "\n" for line in lines if line.startswith("//"))
        text = php_trim("\n".join(" " if line.startswith("//") else line for line in lines))
        if not text:
            return None
        text = _pre(text)
        if text.startswith("$CATEGORY:"):
            if self.category is None:
                self.category = php_trim(text[10:])
            # Moodle keeps a category line's placeholders (it undoes the escapes only).
            self.last_category = php_trim(text[10:])
            return None
        self.count += 1
        name = None
        if text.startswith("::"):
            text = text[2:]
            end = text.find("::")
            if end >= 0:
                name = php_trim(_post(text[:end]))
                text = php_trim(text[end + 2:])
        start, finish = text.find("{"), text.find("}")
        description = start < 0 and finish < 0
        if description:
            questiontext, answertext = text, ""
        elif start < 0 or finish < 0:
            raise GiftError(f"unbalanced braces in {text[:60]!r}")
        else:
            answertext = php_trim(text[start + 1:finish])
            # Text after the answers makes a "missing word" question: the blank shows as _____.
            questiontext = text[:start] + ("" if text.endswith("}") else "_____") + text[finish + 1:]
            if answertext.startswith(">"):
                raise GiftError("an ordering question ({>...}, from the ordering plugin) has no counterpart in the content format")
        general = ""
        separator = answertext.rfind("####")
        if separator >= 0:
            general = answertext[separator + 4:]
            answertext = php_trim(answertext[:separator])
        stem_source, stem_format = _with_format(questiontext)
        stem, language = text_in_language(stem_source, stem_format)
        identifier, tags = _id_and_tags(comments)
        identifier = identifier or (f"q{self.count}" if self.invent_ids else "")
        fields = {
            "id": identifier,
            "title": None if name in (None, identifier) else name,
            "stem": stem or Text(""),
            "language": language,
            "feedback": Feedback(general=_text(general, stem_format)),
            "tags": tags,
        }
        if description:
            return Description(**fields)
        question = self.typed(fields, answertext, stem_format)
        if self.importing and not text.endswith("}"):
            # The missing word form: the answer block stands inside the text (Moodle shows it as _____).
            return self.missing_word(question, text[:start] + "[[b1]]" + text[finish + 1:]) or question
        return question

    def missing_word(self, question: Question, questiontext: str) -> FillInBlanks | None:
        """The question as fill in the blanks with its one blank `b1` where the answer block
        stands: typed words, a number or a drop-down of one right option. None for the types
        that have no blank (true/false, matching, several right options) and for a text that
        already holds [[...]], which would read as a blank."""
        if PLACEHOLDER.search(questiontext.replace("[[b1]]", "", 1)):
            return None
        source, fmt = _with_format(questiontext)
        stem = text_in_language(source, fmt)[0]
        if stem is None:
            return None
        as_blank = _AS_BLANK.get(type(question))
        blank = None if as_blank is None else as_blank(question)
        if blank is None:
            return None
        return FillInBlanks(id=question.id, title=question.title, stem=stem, language=question.language, feedback=question.feedback,
                            tags=question.tags, blanks=(blank,))

    def typed(self, fields: dict, answertext: str, stem_format: str) -> Question:
        """The question the answer block's characters make, as Moodle's readquestion decides."""
        if answertext == "":
            return Essay(**fields, lines=15)
        if answertext[0] == "#":
            return self.numerical(fields, answertext[1:], stem_format)
        if "~" in answertext:
            return self.multichoice(fields, answertext, stem_format)
        if "=" in answertext and "->" in answertext:
            return self.matching(fields, answertext, stem_format)
        check = answertext
        if answertext.find("#") > 0:
            check = php_trim(answertext[: answertext.find("#")])
        if check in ("T", "TRUE", "F", "FALSE"):
            return self.truefalse(fields, answertext, stem_format)
        return self.shortanswer(fields, answertext, stem_format)

    def multichoice(self, fields: dict, answertext: str, fmt: str) -> Question:
        single = "=" in answertext
        answers = _split(answertext.replace("=", "~="), "~")
        if len(answers) < 2:
            raise GiftError("a choice question needs two answers")
        choices = []
        for index, answer in enumerate(answers):
            answer = php_trim(answer)
            if answer.startswith("="):
                fraction, answer = 1.0, answer[1:]
            elif _WEIGHT.match(answer):
                fraction, answer = _weight(answer)
            else:
                fraction = 0.0
            text, feedback, language = _option(answer, fmt, fields["language"])
            choices.append(
                Choice(id=chr(ord("a") + index) if index < 26 else f"o{index + 1}", text=text or Text(""), language=language,
                       correct=reaches_full_credit(fraction) if single else fraction > 0, credit=fraction, feedback=feedback)
            )
        kind = SingleChoice if single else MultipleResponse
        return kind(**fields, choices=tuple(choices))

    def matching(self, fields: dict, answertext: str, fmt: str) -> Question:
        answers = _split(answertext, "=")
        if len(answers) < 2:
            raise GiftError("a matching question needs two lines")
        pairs, distractors = [], []
        for answer in answers:
            answer = php_trim(answer)
            marker = answer.find("->")
            if marker < 0:
                raise GiftError(f"a matching line without '->': {answer!r}")
            prompt = _text(answer[:marker], fmt)
            target = php_trim(_post(answer[marker + 2:]))
            if prompt is None:
                distractors.append(Distractor(id=f"d{len(distractors) + 1}", text=target))
            else:
                pairs.append(MatchPair(id=f"p{len(pairs) + 1}", prompt=prompt, answer=target))
        return Matching(**fields, pairs=tuple(pairs), distractors=tuple(distractors))

    def truefalse(self, fields: dict, answertext: str, fmt: str) -> Question:
        bits = answertext.split("#", 2)
        answer = _with_format(php_trim(bits[0]), fmt)[0]
        wrong = _text(php_trim(bits[1]), fmt) if len(bits) > 1 else None
        right = _text(php_trim(bits[2]), fmt) if len(bits) > 2 else None
        truth = answer in ("T", "TRUE")
        return TrueFalse(**fields, answer=truth, true_feedback=right if truth else wrong, false_feedback=wrong if truth else right, penalty=1.0)

    def shortanswer(self, fields: dict, answertext: str, fmt: str) -> Question:
        accepted = []
        for answer in _split(answertext, "="):
            fraction, text, feedback = _weighted_answer(answer, fmt)
            # The answer is compared with '*' as a wildcard and '\*' as a star.
            accepted.append(AcceptedAnswer(text=(text.source if text else "").replace("\\*", "*"), credit=fraction, feedback=feedback))
        if not accepted:
            raise GiftError("a short answer question needs an answer")
        return ShortAnswer(**fields, answers=tuple(accepted))

    def numerical(self, fields: dict, answertext: str, fmt: str) -> Question:
        tilde = answertext.find("~")
        other = None
        if tilde >= 0:
            # `~#text`: Moodle stores a '*' answer worth 0 with it, the feedback for any other answer.
            rest = answertext[tilde + 1:]
            if "#" in rest:
                other = _text(php_trim(rest[rest.find("#") + 1:]), fmt)
            answertext = answertext[:tilde]
        if other is not None and self.importing:
            fields = {**fields, "feedback": dataclasses.replace(fields["feedback"], incorrect=other)}
        answers = []
        for answer in _split(answertext, "="):
            fraction, text, feedback = _weighted_answer(answer, fmt)
            source = text.source if text else ""
            if source.find("..") > 0:
                # Moodle stores the middle and half the width; the range is what the file says.
                low, high = (float(php_trim(s)) for s in source.split("..", 1))
                answers.append(NumericAnswer(minimum=low, maximum=high, credit=fraction, feedback=feedback))
                continue
            elif source.find(":") > 0:
                value_text, tolerance_text = source.split(":", 1)
                value, tolerance = float(php_trim(value_text)), float(php_trim(tolerance_text))
            else:
                value, tolerance = float(php_trim(source)), 0.0
            answers.append(NumericAnswer(value=value, tolerance=tolerance, credit=fraction, feedback=feedback))
        if not answers:
            raise GiftError("a numerical question needs an answer")
        return Numerical(**fields, answers=tuple(answers))


def _id_and_tags(comments: str) -> tuple[str, tuple[str, ...]]:
    found = _ID.search(comments)
    identifier = php_trim(found.group(1)).replace("\\]", "]") if found else ""
    tags = tuple(php_trim(t).replace("\\]", "]") for t in _TAG.findall(comments))
    return identifier, tags


_HEADER = re.compile(r"// ([a-z ]+(?: \([a-z]+\))?): (.*)", re.S)
HEADER_FORMATS = _HEADER_FORMATS = {"description": TextFormat.PLAIN, "description (markdown)": TextFormat.MARKDOWN, "description (html)": TextFormat.HTML}


def header(data: str) -> dict[str, str]:
    """The quiz's metadata from the `// label: value` lines lmsexport writes before `$CATEGORY:`,
    read from the raw lines (Moodle trims lines; a value keeps its spaces here). Lines with the
    same label in a row are the lines of one value."""
    values: dict[str, list[str]] = {}
    for line in data.split("\n"):
        found = _HEADER.fullmatch(line)
        if found is None:
            break
        values.setdefault(found.group(1), []).append(found.group(2))
    return {label: "\n".join(lines) for label, lines in values.items()}


def _decoded(data: str | bytes) -> str:
    return data.decode("utf-8") if isinstance(data, bytes) else data


_SECTION_FIELD = re.compile(r"// (section|instructions|instructions \(markdown\)|draw|shuffle): (.*)", re.S)
_DRAW = re.compile(r"([0-9]+) of these [0-9]+ questions at random for each student")


def section_comments(raw_lines: list[str]) -> SourceSection | None:
    """The section lmsexport's writer records in the comment lines before a `$CATEGORY:` line
    (`// section: title`, then its instructions, draw and shuffle); None for any other block.
    Read from the lines as the file has them: Moodle's trimming would cut a value's spaces."""
    values: dict[str, list[str]] = {}
    for line in raw_lines:
        # A carriage return is part of the value, as in the header (the writer splits on line feeds only).
        found = _SECTION_FIELD.fullmatch(line)
        if found is None:
            break
        values.setdefault(found.group(1), []).append(found.group(2))
    if "section" not in values or not raw_lines[0].startswith("// section: "):
        return None
    joined = {label: "\n".join(lines) for label, lines in values.items()}
    instructions = None
    if "instructions" in joined:
        instructions = Text(joined["instructions"], TextFormat.PLAIN)
    elif "instructions (markdown)" in joined:
        instructions = Text(joined["instructions (markdown)"], TextFormat.MARKDOWN)
    draw = _DRAW.fullmatch(joined.get("draw", ""))
    return SourceSection("", joined["section"], [], instructions=instructions, pick=int(draw.group(1)) if draw else None,
                         shuffle=joined.get("shuffle") == "yes")


def read_banks(data: str | bytes) -> list[Bank]:
    """One bank per `$CATEGORY:` (questions before the first one form a bank with no names); a
    category met again continues its bank, and a subcategory lmsexport wrote for a section of
    the quiz (see section_comments) adds its questions to the quiz, in that section."""
    data = _decoded(data)
    raw = data.split("\n")
    reader = _Reader(invent_ids=False)
    banks: list[Bank] = []
    current: Bank | None = None
    section: SourceSection | None = None
    for line, lines in numbered_blocks(data):
        before = reader.last_category
        try:
            question = reader.block(lines)
        except GiftError as problem:
            comments = "".join(text + "\n" for text in lines if text.startswith("//"))
            identifier, tags = _id_and_tags(comments)
            source = "\n".join(text for text in lines if not text.startswith("//"))
            name = source[2:source.find("::", 2)] if source.startswith("::") and source.find("::", 2) > 0 else ""
            question = Unread(kind="gift", name=php_trim(name), text=source, reason=str(problem), idnumber=identifier, tags=tags)
        if reader.last_category is not before or (question is None and lines and _pre(php_trim("\n".join(lines))).startswith("$CATEGORY:")):
            names = category_names(reader.last_category or "")
            found = section_comments(raw[line - 1: line - 1 + len(lines)]) if names else None
            if found is not None and current is not None and current.names == names[:-1]:
                section = found
                section.line = line
                current.sections.append(section)
                continue
            section = None
            current = next((b for b in banks if b.names == names), None) if names else None
            if current is None:
                current = Bank(names)
                banks.append(current)
            continue
        if question is None:
            continue
        if current is None:
            current = Bank([])
            banks.append(current)
        current.questions.append((question, line))
        if section is not None:
            section.places.append(len(current.questions) - 1)
    return banks


def read_gift(data: str | bytes, quiz_id: str = "imported", language: str = "und") -> Quiz:
    """The quiz in a GIFT file (in `language` unless its header states one). Raises GiftError on
    what Moodle's importer would refuse."""
    data = _decoded(data)
    metadata = header(data)
    description = next((Text(metadata[label], fmt) for label, fmt in _HEADER_FORMATS.items() if label in metadata), None)
    reader = _Reader()
    questions = [q for q in (reader.block(lines) for lines in blocks(data)) if q is not None]
    names = category_names(reader.category) if reader.category else []
    return Quiz(
        id=metadata.get("quiz", quiz_id),
        title=metadata.get("title", names[-1] if names else quiz_id),
        language=metadata.get("language", language),
        questions=tuple(questions),
        category=tuple(names[:-1]),
        description=description,
        level=metadata.get("level"),
        learning_path=metadata.get("learning path"),
    )

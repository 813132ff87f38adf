"""From banks as read to content quizzes: platform HTML to plain text or Markdown, ids that are
stable slugs, questions the content cannot hold kept as drafts, and a located warning for
everything that could not be carried."""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass, field

from ..checks.languages import language_is_valid
from ..diagnostics import Diagnostic, Severity
from ..model import Description, Essay, FillInBlanks, Question, Quiz, Section, ShortAnswer, Text, TextFormat
from ..text.blanks import PLACEHOLDER
from .result import Unread
import lxml.html

from . import multilang
from .html import _as_plain, html_to_text
from .moodle.text import as_moodle_typesets
from .result import SourceBank, SourceFile, SourceQuestion

# White space around a text that loading drops (as canonical.py does: a no-break space is content).
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
_QUIZ_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
UNKNOWN_LANGUAGE = "und"
# Only the ASCII white space platforms trim from names: a no-break space at the end of one is its own.
ASCII_SPACE = " \t\n\r\x0b\x0c"


def slug(value: str, limit: int = 64) -> str:
    """Lower case ASCII letters and digits joined by '-': 'Équations du 2ᵉ degré' -> 'equations-du-2e-degre'."""
    ascii_text = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii").lower()
    words = re.findall(r"[a-z0-9]+", ascii_text)
    result = ""
    for word in words:
        candidate = f"{result}-{word}" if result else word
        if len(candidate) > limit:
            break
        result = candidate
    return result or (words[0][:limit] if words else "")


def unique(base: str, taken: set[str], limit: int) -> str:
    candidate, counter = base, 2
    while candidate.lower() in taken:
        suffix = f"-{counter}"
        candidate = base[: limit - len(suffix)] + suffix
        counter += 1
    taken.add(candidate.lower())
    return candidate


@dataclass
class ImportedQuiz:
    quiz: Quiz
    media: dict[str, bytes]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    lines: dict[int, int | None] = field(default_factory=dict)  # question index -> source line
    members: dict[int, str | None] = field(default_factory=dict)  # question index -> package member it came from


# The readers whose HTML Moodle shows (importers/moodle and importers/gift), through its filters.
MOODLE_FORMATS = ("moodle", "gift")


class _Finisher:
    def __init__(self, file: str, strict: bool, member: str | None, quotes_lost: bool = False, language: str | None = None,
                 moodle: bool = False):
        self.quotes_lost = quotes_lost
        self.moodle = moodle  # a Moodle bank's HTML: Moodle's filter decides which "\\(" is a formula
        self.language = language  # the quiz's: which span of a Moodle multi-language text is kept
        self.quotes_as_entities = False
        self.file = file
        self.strict = strict
        self.member = member
        self.diagnostics: list[Diagnostic] = []
        self.losses: list[str] = []

    def report(self, message: str, line: int | None, member: str | None = None, code: str = "import-loss") -> None:
        severity = Severity.ERROR if self.strict else Severity.WARNING
        where = member or self.member
        text = f"{where}: {message}" if where else message
        if self.strict:
            text += " (an error under --strict)"
        self.diagnostics.append(Diagnostic(severity, text, self.file, "", line, None, code))

    def text(self, text: Text | None, field_name: str) -> Text | None:
        if text is None or text.format is not TextFormat.HTML:
            if text is not None and not text.source.strip():
                return None
            return text
        source = text.source
        if multilang.has_versions(source):
            source, chosen = multilang.select(source, self.language)
            self.losses.extend(f"{field_name}: {choice}" for choice in chosen)
        if self.moodle:
            source = as_moodle_typesets(source)
        converted = html_to_text(source, self.quotes_lost, self.quotes_as_entities)
        if not converted.exact:
            self.losses.append(f"{field_name}: {'; '.join(converted.losses)}")
        return converted.text

    def blank_stem(self, stem: Text) -> Text | None:
        """A fill in the blanks text converted with its [[name]] placeholders kept as they are:
        during the conversion each stands as a private-use token that no escaping touches."""
        names: list[str] = []

        def token(found: re.Match) -> str:
            names.append(found.group(1))
            return f"\ue000{len(names) - 1}\ue001"

        converted = self.text(Text(PLACEHOLDER.sub(token, stem.source), stem.format), "the question text")
        if converted is None or not names:
            return converted
        return Text(re.sub("\ue000([0-9]+)\ue001", lambda m: f"[[{names[int(m.group(1))]}]]", converted.source), converted.format)

    def convert(self, value, path: str):
        """Every Text inside a model value converted, field by field (path names the field)."""
        if isinstance(value, Text):
            return self.text(value, path)
        if isinstance(value, tuple):
            return tuple(self.convert(v, f"{path} {i + 1}") for i, v in enumerate(value))
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {}
            for item in dataclasses.fields(value):
                if item.name == "location":
                    continue
                current = getattr(value, item.name)
                if item.name == "stem" and isinstance(value, FillInBlanks):
                    changes["stem"] = self.blank_stem(current)
                elif isinstance(current, (Text, tuple)) or dataclasses.is_dataclass(current):
                    label = {"stem": "the question text", "choices": "option", "pairs": "matching pair", "answers": "answer",
                             "general": "the general feedback"}.get(item.name, item.name.replace("_", " "))
                    changes[item.name] = self.convert(current, label if not path else f"{path}, {label}")
            return dataclasses.replace(value, **changes)
        return value


def _draft(unread: Unread, identifier: str) -> Description:
    """A question the content cannot hold: its original text, as written, in a draft."""
    original = unread.text.strip() or f"({unread.kind} question with no text)"
    return Description(id=identifier, title=unread.name or None, stem=Text(original, TextFormat.PLAIN), draft=True,
                       tags=tuple(t for t in unread.tags if t and "," not in t), points=0.0)


def _name_of(item: SourceQuestion) -> str:
    question = item.question
    if isinstance(question, Unread):
        return question.name or question.idnumber or question.kind
    return question.title or question.id


def _stated_language(bank: SourceBank) -> str | None:
    """The quiz's language as the input states it (QTI's xml:lang and metadata, Canvas)."""
    return bank.language if bank.language and language_is_valid(bank.language) else None


def _multilang_language(bank: SourceBank) -> str | None:
    """The language every Moodle multi-language text of the bank has (the first such that the
    texts give first, as Moodle shows it by default), else the one they give first most often."""
    blocks = [languages for item in bank.questions if not isinstance(item.question, Unread)
              for text in _all_texts(item.question) if text.format is TextFormat.HTML and multilang.has_versions(text.source)
              for languages in multilang.block_languages(text.source)]
    blocks = [b for b in blocks if b]
    if not blocks:
        return None
    firsts = [b[0] for b in blocks]
    shared = [f for f in dict.fromkeys(firsts) if all(f in b for b in blocks)]
    found = shared[0] if shared else max(dict.fromkeys(firsts), key=firsts.count)
    return found if language_is_valid(found) else None


def _in_language(main: str, questions: list[Question]) -> list[Question]:
    """Questions in the quiz's language state none (they inherit it)."""
    return [dataclasses.replace(q, language=None) if q.language == main else q for q in questions]


def _same_answers(question: Question) -> tuple[Question, str | None]:
    """Accepted answers that differ only in case mean the question tells them apart (a format
    that cannot say so dropped it): it is made case-sensitive, with a word about it."""
    if not isinstance(question, ShortAnswer) or question.case_sensitive:
        return question, None
    folded = [a.text.casefold() for a in question.answers]
    if len(set(folded)) == len(folded) or len(set(a.text for a in question.answers)) != len(folded):
        return question, None
    return dataclasses.replace(question, case_sensitive=True), "answers differ only in case: the question is made case-sensitive"


_ESCAPED_PLACEHOLDER = re.compile(r"\[\[((?:[A-Za-z0-9-]|\\_)+)\]\]")


def _placeholders_unescaped(question: Question) -> Question:
    """Markdown escapes the underscores of a blank's [[name]], which renders the same but is no
    longer the blank's name: they are unescaped again."""
    if not isinstance(question, FillInBlanks) or question.stem.format is not TextFormat.MARKDOWN:
        return question
    source = _ESCAPED_PLACEHOLDER.sub(lambda m: "[[" + m.group(1).replace("\\_", "_") + "]]", question.stem.source)
    return dataclasses.replace(question, stem=Text(source, question.stem.format))


def _template(question: Question) -> Question:
    """An essay's response template is plain text; Moodle holds it as HTML."""
    if isinstance(question, Essay) and question.response_template and "<" in question.response_template:
        from ..text import plain_to_html

        html = question.response_template
        # The plain text whose HTML this is: no-break spaces are the writer's for spaces, or the author's.
        # The template as rendered first (white space at its ends included: 'x\t' is '<p>x\t</p>'), then trimmed.
        found = [p for p in (_as_plain(html), _as_plain(html, keep_no_break=True)) if p is not None]
        candidates = [*found, *(p.strip(ASCII_SPACE) for p in found)]
        plain = next((p for p in candidates if plain_to_html(p) == html), candidates[len(found)] if candidates else None)
        if plain is None:
            plain = lxml.html.fromstring(f"<div>{html}</div>").text_content().strip(ASCII_SPACE)
        return dataclasses.replace(question, response_template=plain or None)
    return question


def finish(source: SourceFile, file: str, quiz_ids: set[str], strict: bool, fixed_id: str | None,
           language: str | None = None) -> list[ImportedQuiz]:
    """Content quizzes from the banks of one input file; `quiz_ids` holds the ids already taken;
    `language`, the quiz language of a bank whose input states none (`import --language`)."""
    results = []
    banks = [b for b in source.banks if b.questions]
    stem = slug(re.sub(r"(\.gift)?\.(txt|xml|zip|gift)$", "", file.rsplit("/", 1)[-1])) or "imported"
    for bank in banks:
        file_language = _stated_language(bank)
        from_texts = None if file_language or language else _multilang_language(bank)
        main = file_language or language or from_texts or UNKNOWN_LANGUAGE
        finisher = _Finisher(file, strict, bank.member, language=None if main == UNKNOWN_LANGUAGE else main,
                             moodle=source.format in MOODLE_FORMATS)
        title = bank.names[-1] if bank.names else stem.replace("-", " ").capitalize()
        if fixed_id and len(banks) == 1:
            base = fixed_id
        elif fixed_id:
            base = f"{fixed_id}-{slug(title, 40) or 'bank'}"
        elif bank.quiz_id and _QUIZ_ID.match(bank.quiz_id):
            base = bank.quiz_id
        else:
            base = slug("-".join([*bank.names[-2:]]) if len(bank.names) > 1 and len(banks) > 1 else title, 60) or stem
        quiz_id = unique(base[:80], quiz_ids, 80)
        taken: set[str] = set()
        questions: list[Question] = []
        lines: dict[int, int | None] = {}
        members: dict[int, str | None] = {}
        for index, item in enumerate(bank.questions):
            question = item.question
            name = _name_of(item)
            stated = question.idnumber if isinstance(question, Unread) else question.id
            if stated and _IDENTIFIER.match(stated) and stated.lower() not in taken:
                identifier = unique(stated, taken, 64)
            else:
                derived = slug(name if name != stated else "", 60)
                identifier = unique(derived if derived and derived[0].isalpha() else f"q{index + 1}", taken, 64)
                if stated:
                    finisher.report(f"question {name!r}: the id number {stated!r} is not a valid content id; the question's id is {identifier!r}",
                                    item.line, item.member, code="import-id")
            if isinstance(question, Unread):
                questions.append(_draft(question, identifier))
                finisher.report(f"question {name!r}: {question.reason}; kept as a draft with its original text", item.line, item.member, code="import-draft")
            else:
                finisher.losses = []
                finisher.quotes_as_entities = item.quotes_as_entities
                # Only Moodle holds an essay's response template as HTML.
                question = _template(question) if source.format == "moodle" else question
                converted = finisher.convert(dataclasses.replace(question, id=identifier), "")
                if converted.title == identifier:
                    converted = dataclasses.replace(converted, title=None)
                converted = _placeholders_unescaped(converted)
                converted, remark = _same_answers(converted)
                if remark:
                    finisher.losses.append(remark)
                if converted.stem is None:
                    converted = dataclasses.replace(converted, stem=Text("(no text)", TextFormat.PLAIN), draft=True)
                    finisher.losses.append("the question has no text: kept as a draft")
                for loss in [*item.losses, *finisher.losses]:
                    finisher.report(f"question {name!r}: {loss}", item.line, item.member)
                questions.append(converted)
            lines[index] = item.line
            members[index] = item.member
        if main != UNKNOWN_LANGUAGE:
            questions = _in_language(main, questions)
        if bank.tags:  # formats that give every question the quiz's tags too
            questions = [dataclasses.replace(q, tags=tuple(t for t in q.tags if t not in bank.tags)) for q in questions]
        # Located at the bank's first question: where a reader looks for the quiz's language.
        first = bank.questions[0] if bank.questions else None
        line, member = (first.line, first.member) if first else (None, bank.member)
        where = f"{member}: " if member else ""
        if main == UNKNOWN_LANGUAGE:
            finisher.diagnostics.append(Diagnostic(Severity.NOTE, f"{where}{quiz_id}: the file states no language; the quiz says 'und' "
                                                   "(undetermined): set its language, or import with --language", file, "", line, None, "import-language"))
        elif from_texts:
            finisher.diagnostics.append(Diagnostic(Severity.NOTE, f"{where}{quiz_id}: the quiz's language is {from_texts!r}, the one its Moodle "
                                                   "multi-language texts all have", file, "", line, None, "import-language"))
        elif file_language and language and language != file_language:
            finisher.diagnostics.append(Diagnostic(Severity.NOTE, f"{where}{quiz_id}: the file states the language {file_language!r}, which the quiz "
                                                   f"keeps (--language {language!r} is for files that state none)", file, "", line, None, "import-language"))
        finisher.losses = []
        description = finisher.text(bank.description, "the description")
        for loss in finisher.losses:
            finisher.report(f"quiz {title!r}: {loss}", None)
        sections = _sections(bank, questions, finisher, title)
        for message, line, member in bank.losses:
            finisher.report(f"quiz {title!r}: {message}", line, member)
        quiz = Quiz(id=quiz_id, title=title.strip(ASCII_SPACE) or quiz_id, language=main, questions=tuple(questions),
                    description=description, level=bank.level, learning_path=bank.learning_path, difficulty=bank.difficulty,
                    category=tuple(n for n in bank.names[:-1]), tags=bank.tags, source=bank.source,
                    text_format=TextFormat.PLAIN, sections=sections)
        results.append(ImportedQuiz(quiz, _media_of(quiz, source.media), finisher.diagnostics, lines, members))
    return results


def _sections(bank: SourceBank, questions: list[Question], finisher: _Finisher, title: str) -> tuple[Section, ...]:
    """The bank's sections over the questions' final ids; a draw the imported questions cannot
    make (drafts are not drawn, drawn questions are worth the same) is dropped with a warning."""
    result = []
    for section in bank.sections:
        members = [questions[i] for i in section.places if i < len(questions)]
        if not members:
            finisher.report(f"quiz {title!r}: the section {section.title!r} holds no question and is left out", section.line, bank.member)
            continue
        pick = section.pick
        drawn = [q for q in members if not q.draft]
        if pick is not None and pick > len(drawn):
            finisher.report(f"quiz {title!r}: the section {section.title!r} draws {pick} of {len(drawn)} questions that can be drawn: it shows them all",
                            section.line, bank.member)
            pick = None
        if pick is not None and len({q.points for q in drawn}) > 1:
            finisher.report(f"quiz {title!r}: the section {section.title!r} draws {pick} of questions worth different points, which the content "
                            "format does not allow: it shows them all", section.line, bank.member)
            pick = None
        finisher.losses = []
        instructions = finisher.text(section.instructions, "instructions")
        for loss in finisher.losses:
            finisher.report(f"quiz {title!r}: section {section.title!r}: {loss}", section.line, bank.member)
        result.append(Section(id=section.id, title=section.title.strip(ASCII_SPACE) or section.id, question_ids=tuple(q.id for q in members),
                              instructions=instructions, pick=pick, shuffle=section.shuffle))
    return tuple(result)


def _media_of(quiz: Quiz, media: dict[str, bytes]) -> dict[str, bytes]:
    from ..text import media_references

    used: dict[str, bytes] = {}
    for question in quiz.questions:
        for text in _all_texts(question):
            for path in media_references(text):
                if path in media:
                    used[path] = media[path]
    for path in media_references(quiz.description):
        if path in media:
            used[path] = media[path]
    return used


def _all_texts(value):
    if isinstance(value, Text):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _all_texts(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            if item.name != "location":
                yield from _all_texts(getattr(value, item.name))

"""Semantic rules that the schema cannot express, checked on the model of one quiz."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from html import unescape
from typing import Any

import langcodes

from . import safety
from .text import formula_problems, markdown, to_html
from .diagnostics import Diagnostic, error, note, pointer_join, warning
from .model import (
    Choice,
    Matching,
    MultipleResponse,
    Numerical,
    Question,
    Quiz,
    ShortAnswer,
    SingleChoice,
    Text,
    TextFormat,
)

EPSILON = 1e-6

# Characters XML 1.0 cannot carry: every export format is XML or ends up in one.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# In the raw JSON text such characters can only come from an escape (raw control characters
# are a JSON syntax error) or stand as U+FFFE/U+FFFF themselves.
# Starting with the literal "\\u" lets the regex engine skip ahead fast on megabyte files.
_MAYBE_NOT_XML = re.compile(
    r"\\u(?:00[01][0-9a-fA-F]"  # an escaped control character
    r"|[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"  # a high surrogate alone
    r"|(?<![dD][89abAB][0-9a-fA-F]{2}\\u)[dD][c-fC-F][0-9a-fA-F]{2}"  # a low surrogate alone
    r"|[fF]{3}[eEfF])"
)


def xml_character_errors(data: Any, raw_text: str, file: str) -> Iterator[Diagnostic]:
    """Strings holding characters that XML 1.0 forbids (control characters, lone surrogates, U+FFFE)."""
    if not _MAYBE_NOT_XML.search(raw_text) and "\ufffe" not in raw_text and "\uffff" not in raw_text:
        return

    def walk(value: Any, pointer: str) -> Iterator[Diagnostic]:
        if isinstance(value, str):
            match = _NOT_XML.search(value)
            if match:
                yield error(
                    f"this text holds the character U+{ord(match.group()):04X}, which XML (and so every export) cannot carry",
                    file, pointer, code="xml-char",
                )
        elif isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, pointer_join(pointer, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from walk(item, f"{pointer}/{index}")

    yield from walk(data, "")


@lru_cache(maxsize=1024)
def _registered_language(tag: str) -> bool:
    return langcodes.tag_is_valid(tag)


def _language_errors(tag: str | None, file: str, pointer: str) -> Iterator[Diagnostic]:
    if tag is not None and not _registered_language(tag):
        yield error(f"{tag!r} is not a registered language tag (BCP 47: for example 'en', 'wo', 'nl' or 'pt-BR')", file, pointer, code="language")


_TAGS = re.compile(r"<[^>]+>")
_VISIBLE_ELEMENT = re.compile(r"<(img|hr|audio|video|math|a href)\b")


def _blank(text: Text | str | None) -> bool:
    """Only white space: nothing for a student to read."""
    value = text.source if isinstance(text, Text) else text
    if value is None:
        return False
    if not value.strip():
        return True
    if isinstance(text, Text) and text.format is TextFormat.MARKDOWN and (
        "&" in value or "](" in value or not any(c.isalnum() for c in value)
    ):
        # Markup alone ("#", "- ", "```") or an entity for white space ("&#10;") renders to nothing.
        html = to_html(text)
        return not _VISIBLE_ELEMENT.search(html) and not unescape(_TAGS.sub("", html)).strip()
    return False


def _unique_ids(ids: Iterable[tuple[str, tuple]], base: str, what: str, file: str) -> Iterator[Diagnostic]:
    """ids: (id, pointer parts below base). Ids that differ only by case would collide in exports
    on many systems. The schema keeps ids ASCII, so no two can differ by Unicode normalisation."""
    first: dict[str, str] = {}
    for identifier, parts in ids:
        key = identifier.lower()
        if key in first:
            same = first[key] == identifier
            detail = "is used twice" if same else f"differs from '{first[key]}' only by case"
            yield error(f"the {what} id '{identifier}' {detail}: {what} ids must be unique", file, pointer_join(base, *parts), code="duplicate-id")
        else:
            first[key] = identifier


def _choice_errors(question: SingleChoice | MultipleResponse, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    options = question.choices
    yield from _unique_ids(((c.id, ("options", i, "id")) for i, c in enumerate(options)), base, "option", file)
    if len(options) < 2:
        yield error(f"a {question.type.replace('_', ' ')} question needs at least two options", file, pointer_join(base, "options"), code="options")
        return
    correct = [c for c in options if c.correct]
    if isinstance(question, SingleChoice):
        if len(correct) != 1:
            found = "none is marked correct" if not correct else f"{len(correct)} are marked correct ({', '.join(c.id for c in correct)})"
            yield error(f"a single choice question has exactly one correct option; {found}", file, pointer_join(base, "options"), code="correct-count")
        for i, choice in enumerate(options):
            if choice.correct and abs(choice.credit - 1) > EPSILON:
                yield error("the correct option of a single choice question is worth full credit (1)", file, pointer_join(base, "options", i, "credit"), code="credit")
            if not choice.correct and choice.credit >= 1 - EPSILON:
                yield error("an option that is not correct cannot be worth full credit", file, pointer_join(base, "options", i, "credit"), code="credit")
        return
    if not correct:
        yield error("a multiple response question needs at least one correct option", file, pointer_join(base, "options"), code="correct-count")
        return
    for i, choice in enumerate(options):
        if choice.correct and choice.credit <= 0:
            yield error("a correct option must be worth a positive credit", file, pointer_join(base, "options", i, "credit"), code="credit")
        if not choice.correct and choice.credit > 0:
            yield error("an option that is not correct cannot be worth a positive credit", file, pointer_join(base, "options", i, "credit"), code="credit")
    total = sum(c.credit for c in options if c.credit > 0)
    if abs(total - 1) > EPSILON:
        yield error(f"the credits of the correct options add up to {total:g}; they must add up to 1 (full marks)", file, pointer_join(base, "options"), code="credit")


def _answers_errors(question: ShortAnswer | Numerical, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    if not any(abs(a.credit - 1) <= EPSILON for a in question.answers):
        yield error("at least one answer must be worth full credit (1)", file, pointer_join(base, "answers"), code="credit")
    for i, answer in enumerate(question.answers):
        if answer.credit < 0:
            yield error("an accepted answer cannot be worth negative credit", file, pointer_join(base, "answers", i, "credit"), code="credit")
    if isinstance(question, ShortAnswer):
        seen: set[str] = set()
        for i, answer in enumerate(question.answers):
            key = answer.text if question.case_sensitive else answer.text.casefold()
            if key in seen:
                yield error(f"the answer {answer.text!r} is listed twice", file, pointer_join(base, "answers", i, "text"), code="duplicate")
            seen.add(key)
            if _blank(answer.text):
                yield error("an accepted answer cannot be only white space", file, pointer_join(base, "answers", i, "text"), code="blank")
    else:
        for i, answer in enumerate(question.answers):
            if answer.is_range and answer.minimum > answer.maximum:
                yield error(f"the range is empty: min {answer.minimum:g} is above max {answer.maximum:g}", file, pointer_join(base, "answers", i), code="range")


def _matching_errors(question: Matching, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    ids = [(p.id, ("pairs", i, "id")) for i, p in enumerate(question.pairs)]
    ids += [(d.id, ("distractors", i, "id")) for i, d in enumerate(question.distractors)]
    yield from _unique_ids(ids, base, "pair or distractor", file)
    if len(question.pairs) < 2:
        yield error("a matching question needs at least two pairs", file, pointer_join(base, "pairs"), code="pairs")
    prompts: set[str] = set()
    answers = {p.answer for p in question.pairs}
    for i, pair in enumerate(question.pairs):
        if pair.prompt.source in prompts:
            yield error("this prompt is already used by another pair", file, pointer_join(base, "pairs", i, "prompt"), code="duplicate")
        prompts.add(pair.prompt.source)
        if _blank(pair.prompt) or _blank(pair.answer):
            yield error("a pair's prompt and answer cannot be only white space", file, pointer_join(base, "pairs", i), code="blank")
    for i, distractor in enumerate(question.distractors):
        if distractor.text in answers:
            yield error("this distractor is also the answer of a pair", file, pointer_join(base, "distractors", i, "text"), code="duplicate")
        if _blank(distractor.text):
            yield error("a distractor cannot be only white space", file, pointer_join(base, "distractors", i, "text"), code="blank")


def _blank_text_errors(question: Question, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    if _blank(question.stem):
        yield error("the question text cannot be only white space", file, pointer_join(base, "stem"), code="blank")
    if _blank(question.title):
        yield error("the title cannot be only white space", file, pointer_join(base, "title"), code="blank")
    for i, choice in enumerate(getattr(question, "choices", ())):
        if _blank(choice.text):
            yield error("an option's text cannot be only white space", file, pointer_join(base, "options", i, "text"), code="blank")


def _language_of_choices(choices: tuple[Choice, ...], file: str, base: str) -> Iterator[Diagnostic]:
    for i, choice in enumerate(choices):
        if choice.language is not None:
            yield from _language_errors(choice.language, file, pointer_join(base, "options", i, "language"))


def rich_texts(question: Question) -> Iterator[tuple[tuple, Text | None]]:
    """(pointer parts below the question, text) of every rich text field, as the JSON names them."""
    yield ("stem",), question.stem
    yield ("explanation",), question.feedback.general
    feedback = question.feedback
    if feedback.correct or feedback.partially_correct or feedback.incorrect:
        for name in ("correct", "partially_correct", "incorrect"):
            yield ("feedback", name), getattr(feedback, name)
    for i, choice in enumerate(getattr(question, "choices", ())):
        yield ("options", i, "text"), choice.text
        yield ("options", i, "feedback"), choice.feedback
    for i, answer in enumerate(getattr(question, "answers", ())):
        yield ("answers", i, "feedback"), answer.feedback
    for i, pair in enumerate(getattr(question, "pairs", ())):
        yield ("pairs", i, "prompt"), pair.prompt
    for name in ("true_feedback", "false_feedback", "grader_info"):
        yield (name,), getattr(question, name, None)


# Inline links and images "](", reference definitions "]:", autolinks "<scheme:": only a text with
# one of these can hold an address, and parsing Markdown is the costliest check.
_MAY_LINK = re.compile(r"\]\(|\]:|<[A-Za-z][A-Za-z0-9.+-]{1,31}:")


def _markdown_errors(texts: Iterable[tuple[tuple, Text | None]], base: str, file: str) -> Iterator[Diagnostic]:
    """Unsafe addresses, images without alt text and formulas that cannot be converted."""
    for parts, text in texts:
        if text is None or text.format is not TextFormat.MARKDOWN:
            continue
        problems: list[tuple[str, str]] = []
        if _MAY_LINK.search(text.source):
            for kind, address in safety.addresses(text.source):
                problem = safety.unsafe_address(kind, address)
                if problem:
                    problems.append((problem, "unsafe-url"))
            for address, alt in markdown.images(text.source):
                if not alt.strip():
                    problems.append((f"the image '{address}' has no alt text: write ![what it shows]({address})", "alt-text"))
                if address.startswith("/") and not address.startswith("//"):
                    problems.append((f"the media path '{address}' is absolute: use a path relative to the quiz file, or a full https:// address", "media"))
        problems += [(problem, "math") for problem in formula_problems(text)]
        for message, code in problems:
            yield error(message, file, pointer_join(base, *parts), code=code)


def question_diagnostics(question: Question, file: str) -> Iterator[Diagnostic]:
    base = question.location.pointer
    if question.language is not None:
        yield from _language_errors(question.language, file, pointer_join(base, "language"))
    yield from _language_of_choices(getattr(question, "choices", ()), file, base)
    yield from _blank_text_errors(question, file)
    yield from _markdown_errors(rich_texts(question), base, file)
    if question.draft:
        yield note(f"question '{question.id}' is a draft: it stays in the bank and is not exported", file, base, code="draft")
        return
    if isinstance(question, (SingleChoice, MultipleResponse)):
        yield from _choice_errors(question, file)
    elif isinstance(question, (ShortAnswer, Numerical)):
        yield from _answers_errors(question, file)
    elif isinstance(question, Matching):
        yield from _matching_errors(question, file)


def quiz_diagnostics(quiz: Quiz) -> Iterator[Diagnostic]:
    file = quiz.location.file
    yield from _language_errors(quiz.language, file, "/language")
    if _blank(quiz.title):
        yield error("the title cannot be only white space", file, "/title", code="blank")
    yield from _markdown_errors([(("description",), quiz.description)], "", file)
    yield from _unique_ids(((q.id, (i, "id")) for i, q in enumerate(quiz.questions)), "/questions", "question", file)
    for question in quiz.questions:
        yield from question_diagnostics(question, file)
    if quiz.questions and not quiz.exported_questions:
        yield warning("every question is a draft: nothing will be exported", file, "/questions", code="all-drafts")

"""Canvas quiz exports and other QTI 1.2 (Canvas's own dialect, Blackboard, Respondus): one bank
per assessment or question bank (`objectbank`).

An item's type comes from Canvas's `question_type` metadata when it is there, else from its
response element (`response_lid` with one or several answers, `response_str`, no response). The
key comes from the conditions that set SCORE to 100; per-answer feedback from the conditions that
show an `itemfeedback`; `general_fb`, `correct_fb` and `general_incorrect_fb` are the general,
correct and incorrect feedback. Points come from `points_possible`. Fill in multiple blanks and
multiple drop-downs are fill in the blanks (canvas_blanks); formula and file upload questions are
kept as drafts. A question group (a section with selection_ordering) is a section that draws
selection_number of its questions, each worth points_per_item.
"""

from __future__ import annotations

import html as html_module
import re
from collections import Counter
from decimal import Decimal, InvalidOperation, localcontext

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
    ShortAnswer,
    SingleChoice,
    Source,
    Text,
    TextFormat,
    TrueFalse,
)
from .moodle.text import language_of
from .result import Unread
from .media import MediaStore
from .qti import XML_LANG, strip_namespaces
from .canvas_blanks import FILL_IN_MULTIPLE_BLANKS, MULTIPLE_DROPDOWNS, Unreadable, question_groups, read_blanks
from .result import SourceBank, SourceFile, SourceQuestion
from .safety import InputError, Package, is_zip, parse_xml

FORMAT = "canvas"
_KEEP_AS_DRAFT = {
    "calculated_question": "a Canvas formula question",
    "file_upload_question": "a Canvas file upload question",
}
_FILE_REFERENCE = re.compile(r"((?:\$|%24)IMS[-_]CC[-_]FILEBASE(?:\$|%24))/([^\"'\s<>?]+)")


_NAMED = {"&#38;": "&amp;", "&#60;": "&lt;", "&#62;": "&gt;", "&#34;": "&quot;"}


def _metadata(item: etree._Element) -> dict[str, str]:
    return {(f.findtext("fieldlabel") or "").strip(): (f.findtext("fieldentry") or "").strip() for f in item.iter("qtimetadatafield")}


def _number(value: str | None, default: float | None = None) -> float | None:
    try:
        return float(value) if value not in (None, "") else default
    except ValueError:
        return default


class _Reader:
    def __init__(self, package: Package | None, store: MediaStore, base: str):
        self.package = package
        self.store = store
        self.base = base
        self.losses: list[str] = []

    def material(self, element: etree._Element | None) -> Text | None:
        """The text of a <material> (or anything holding <mattext>)."""
        if element is None:
            return None
        texts = list(element.iter("mattext"))
        if not texts:
            return None
        parts = []
        html = False
        for mattext in texts:
            kind = (mattext.get("texttype") or "text/plain").lower()
            value = mattext.text or ""
            if kind == "text/html":
                html = True
                # Canvas's own exporter (and lmsexport's) write these references numerically so
                # that Canvas's plain twin of the text keeps them; in HTML they mean the same.
                for numeric, named in _NAMED.items():
                    value = value.replace(numeric, named)
                parts.append(self.files(value))
            else:
                parts.append(html_module.escape(value, quote=False) if html or len(texts) > 1 else value)
        source = "".join(parts).strip(" \t\n\r\f\v")  # a no-break space at an end is content
        if not source:
            return None
        return Text(source, TextFormat.HTML if html else TextFormat.PLAIN)

    def files(self, source: str) -> str:
        if self.package is None or "FILEBASE" not in source:
            return source

        def replace(found: re.Match) -> str:
            from urllib.parse import unquote

            path = unquote(found.group(2))
            for candidate in (path, f"{self.base}/{path}" if self.base else path, f"web_resources/{path}"):
                if self.package.has(candidate):
                    folder, _, name = candidate.removeprefix("web_resources/").rpartition("/")
                    return self.store.add(folder, name, self.package.read(candidate))
            self.losses.append(f"the file {path!r} is not in the package")
            return found.group()

        return _FILE_REFERENCE.sub(replace, source)


def _feedbacks(item: etree._Element, reader: _Reader) -> dict[str, Text | None]:
    return {f.get("ident"): reader.material(f) for f in item.iter("itemfeedback")}


def _conditions(item: etree._Element) -> list[etree._Element]:
    return list(item.iter("respcondition"))


def _full_score(condition: etree._Element) -> float | None:
    for setvar in condition.iter("setvar"):
        if (setvar.get("varname") or "SCORE").upper() == "SCORE":
            return _number(setvar.text)
    return None


def _shown(condition: etree._Element) -> list[str]:
    return [d.get("linkrefid") for d in condition.iter("displayfeedback") if d.get("linkrefid")]


def _positive(conditionvar: etree._Element) -> list[str]:
    """The values a condition requires (varequal not under <not>)."""
    values = []
    for equal in conditionvar.iter("varequal"):
        if any(ancestor.tag == "not" for ancestor in equal.iterancestors()):
            continue
        values.append((equal.text or "").strip(" \t\n\r"))
    return values


def read_item(item: etree._Element, reader: _Reader) -> SourceQuestion:
    metadata = _metadata(item)
    kind = metadata.get("question_type", "")
    title = item.get("title") or ""
    identifier = ""
    stem = reader.material(item.find("presentation/material")) or reader.material(item.find("presentation/flow/material"))
    stem = stem or Text("", TextFormat.HTML)
    language = None
    if stem.format is TextFormat.HTML:
        inner, language = language_of(stem.source)
        stem = Text(inner, TextFormat.HTML)
    if language is None:  # QTI 1.2's own attribute (Respondus, Blackboard): the stem's text states it
        stem_material = item.find("presentation/material")
        stem_material = stem_material if stem_material is not None else item.find("presentation/flow/material")
        stated = {m.get(XML_LANG) for m in (stem_material.iter("mattext") if stem_material is not None else ()) if m.get(XML_LANG)}
        language = stated.pop() if len(stated) == 1 else None
    points = _number(metadata.get("points_possible"), 1.0)
    feedbacks = {ident: _in_language(text, language) for ident, text in _feedbacks(item, reader).items()}
    used: set[str] = set()

    def feedback(ident: str | None) -> Text | None:
        if ident is None:
            return None
        used.add(ident)
        return feedbacks.get(ident)

    outcome = Feedback(general=feedback("general_fb") if "general_fb" in feedbacks else None,
                       correct=feedback("correct_fb") if "correct_fb" in feedbacks else None,
                       incorrect=feedback("general_incorrect_fb") if "general_incorrect_fb" in feedbacks else None)
    common = {"id": identifier, "title": title or None, "stem": stem, "points": points, "language": language, "feedback": outcome}
    text_of_item = re.sub(r"<[^>]+>", " ", html_module.unescape(stem.source)).strip()

    def unread(reason: str) -> SourceQuestion:
        return SourceQuestion(Unread(kind=kind or "qti1", name=title, text=stem.source if stem.source else text_of_item, reason=reason), item.sourceline)

    if kind in _KEEP_AS_DRAFT:
        return unread(f"{_KEEP_AS_DRAFT[kind]} has no counterpart in the content format")
    lids = list(item.iter("response_lid"))
    strs = list(item.iter("response_str")) + list(item.iter("response_num"))
    conditions = _conditions(item)
    question: Question
    if kind in (FILL_IN_MULTIPLE_BLANKS, MULTIPLE_DROPDOWNS):
        try:
            question = read_blanks(item, kind, common, reader.losses)
        except Unreadable as problem:
            reader.losses.clear()
            return unread(str(problem))
    elif kind == "matching_question" or (not kind and len(lids) > 1):
        question = _matching(item, lids, conditions, common, reader, feedback)
    elif lids and kind in ("", "multiple_choice_question", "true_false_question", "multiple_answers_question"):
        question = _choices(item, lids[0], conditions, common, reader, feedback, kind)
    elif kind == "essay_question" or (not kind and strs and not any(_full_score(c) for c in conditions)):
        question = Essay(**common)
    elif kind == "numerical_question" or (not kind and strs and any(r.tag == "response_num" or r.find(".//render_fib[@fibtype='Decimal']") is not None for r in strs)):
        question = _numerical(conditions, common, feedback)
    elif kind == "short_answer_question" or (not kind and strs):
        question = _short_answer(conditions, common, feedback)
    elif kind == "text_only_question" or (not kind and not lids and not strs):
        question = Description(**{**common, "points": 0.0 if kind else points})
    else:
        return unread(f"a {kind or 'QTI 1.2'} item has no counterpart in the content format")
    losses = list(reader.losses)
    reader.losses.clear()
    unused = [i for i in feedbacks if i not in used and feedbacks[i] is not None]
    if unused:
        losses.append(f"feedback {', '.join(unused)} (shown on conditions the content format cannot state)")
    return SourceQuestion(question, item.sourceline, losses=losses)


def _in_language(text: Text | None, language: str | None) -> Text | None:
    """A text without the wrapper that states the question's own language (the writers wrap
    every text in it); a text in another language keeps its wrapper."""
    if text is None or text.format is not TextFormat.HTML:
        return text
    inner, stated = language_of(text.source)
    return Text(inner, TextFormat.HTML) if stated is not None and stated == language else text


def _label_text(label: etree._Element, reader: _Reader) -> Text:
    return reader.material(label) or Text("", TextFormat.PLAIN)


def _choices(item, lid, conditions, common, reader, feedback, kind) -> Question:
    labels = [(l.get("ident"), _label_text(l, reader)) for l in lid.iter("response_label")]
    correct: set[str] = set()
    for condition in conditions:
        score = _full_score(condition)
        if score is not None and score > 0 and condition.find("conditionvar") is not None:
            correct.update(_positive(condition.find("conditionvar")))
    by_value: dict[str, str] = {}
    for condition in conditions:
        if _full_score(condition) is None:
            values = _positive(condition.find("conditionvar")) if condition.find("conditionvar") is not None else []
            shown = [s for s in _shown(condition) if s not in ("general_fb", "correct_fb", "general_incorrect_fb")]
            if len(values) == 1 and shown:
                by_value.setdefault(values[0], shown[0])
    texts = [t.source.strip().lower() for _, t in labels]
    single = (lid.get("rcardinality") or "Single").lower() == "single" and kind != "multiple_answers_question"
    if kind == "true_false_question" or (not kind and single and sorted(texts) == ["false", "true"]):
        truth = next((i for (i, t) in labels if t.source.strip().lower() == "true"), labels[0][0] if labels else "")
        falsity = next((i for (i, t) in labels if i != truth), "")
        return TrueFalse(**common, answer=truth in correct, true_feedback=feedback(by_value.get(truth)), false_feedback=feedback(by_value.get(falsity)))
    choices = []
    n_correct = max(1, len(correct))
    question_language = common["language"]
    for index, (ident, text) in enumerate(labels):
        language = None
        if text.format is TextFormat.HTML:
            inner, language = language_of(text.source)
            text = Text(inner, TextFormat.HTML)
        is_correct = ident in correct
        credit = (1.0 if is_correct else 0.0) if single else (1.0 / n_correct if is_correct else -1.0 / n_correct)
        choices.append(Choice(id=_option_id(index), text=text, correct=is_correct, credit=credit, feedback=feedback(by_value.get(ident)),
                              language=language if language != question_language else None))
    kind_class = SingleChoice if single else MultipleResponse
    return kind_class(**common, choices=tuple(choices), shuffle=False)


def _option_id(index: int) -> str:
    return chr(ord("a") + index) if index < 26 else f"o{index + 1}"


def _short_answer(conditions, common, feedback) -> Question:
    accepted: list[str] = []
    answer_feedback: dict[str, Text | None] = {}
    for condition in conditions:
        values = [(e.text or "").strip(" \t\n\r") for e in condition.iter("varequal")]
        if _full_score(condition):
            accepted.extend(v for v in values if v not in accepted)
        elif len(values) == 1 and _shown(condition):
            answer_feedback.setdefault(values[0], feedback(_shown(condition)[0]))
    answers = tuple(AcceptedAnswer(text=v, feedback=answer_feedback.get(v)) for v in accepted)
    return ShortAnswer(**common, answers=answers)


def _numerical(conditions, common, feedback) -> Question:
    answers = []
    for condition in conditions:
        score = _full_score(condition)
        conditionvar = condition.find("conditionvar")
        if not score or conditionvar is None:
            continue
        shown = [s for s in _shown(condition) if s not in ("general_fb", "correct_fb", "general_incorrect_fb")]
        text = feedback(shown[0]) if shown else None
        credit = score / 100
        exact = conditionvar.find("or/varequal")
        low, high = _number(conditionvar.findtext(".//vargte")), _number(conditionvar.findtext(".//varlte"))
        if exact is not None and low is not None and high is not None:
            value = _number(exact.text)
            answers.append(NumericAnswer(value=value, tolerance=_margin(exact.text, conditionvar.findtext(".//vargte"),
                                                                        conditionvar.findtext(".//varlte")), credit=credit, feedback=text))
        elif low is not None and high is not None:
            answers.append(NumericAnswer(minimum=low, maximum=high, credit=credit, feedback=text))
        elif conditionvar.find("varequal") is not None:
            answers.append(NumericAnswer(value=_number(conditionvar.findtext("varequal"), 0.0), credit=credit, feedback=text))
    return Numerical(**common, answers=tuple(answers))


def _margin(value: str, low: str, high: str) -> float:
    """The margin of an exact answer, the larger distance from its value to a bound, computed on the
    decimals as written (Canvas writes 4.9 and 5.1 around 5, lmsexport exact decimals of value ±
    tolerance) and rounded once: a binary subtraction would give 0.09999999999999964, or lose a
    margin below the spacing of doubles at the value."""
    with localcontext() as context:
        context.prec = 800  # exact for any decimals two doubles apart
        try:
            v, lo, hi = (Decimal(t.strip()) for t in (value, low, high))
            return float(max(v - lo, hi - v))
        except (InvalidOperation, ValueError):  # infinities (inf - inf) or texts only float reads
            number = float(value)
            return max(number - float(low), float(high) - number)


def _matching(item, lids, conditions, common, reader, feedback) -> Question:
    key: dict[str, str] = {}
    for condition in conditions:
        if _full_score(condition) is None:
            continue
        for equal in condition.iter("varequal"):
            key.setdefault(equal.get("respident") or "", (equal.text or "").strip())
    answers: dict[str, str] = {}
    for lid in lids:
        for label in lid.iter("response_label"):
            # Canvas strips an answer's white space as Ruby does (ASCII only): a no-break space
            # at an end is the answer's own (checked with Canvas's import classes).
            answers.setdefault(label.get("ident"), "".join(label.itertext()).strip(" \t\n\r\f\v"))
    pairs = []
    for index, lid in enumerate(lids):
        prompt = _in_language(reader.material(lid.find("material")), common["language"]) or Text("", TextFormat.PLAIN)
        target = key.get(lid.get("ident") or "")
        if target is None:
            raise InputError(f"the matching prompt {lid.get('ident')!r} has no right answer", line=lid.sourceline)
        pairs.append(MatchPair(id=f"p{index + 1}", prompt=prompt, answer=answers.get(target, "")))
    used = set(key.values())
    distractors = tuple(Distractor(id=f"d{i + 1}", text=t) for i, t in enumerate(t for ident, t in answers.items() if ident not in used))
    return Matching(**common, pairs=tuple(pairs), distractors=distractors, shuffle=False)


_META_PARAGRAPH = re.compile(r"<p>(Level|Learning path): ([^<]*)</p>$")


def _bank(element: etree._Element, reader: _Reader, meta: etree._Element | None) -> SourceBank:
    bank = SourceBank([element.get("title") or (meta.findtext("title") if meta is not None else None) or "Imported"])
    if meta is not None:
        description = meta.findtext("description") or ""
        found = True
        while found:
            found = _META_PARAGRAPH.search(description)
            if found:
                setattr(bank, "level" if found.group(1) == "Level" else "learning_path", html_module.unescape(found.group(2)))
                description = description[: found.start()]
        if description.strip():
            bank.description = Text(reader.files(description), TextFormat.HTML)
    items = list(element.iter("item"))
    for item in items:
        try:
            bank.questions.append(read_item(item, reader))
        except InputError as problem:
            bank.questions.append(SourceQuestion(Unread(kind="qti1", name=item.get("title") or "", text="", reason=str(problem)), item.sourceline))
    group_losses: list = []
    bank.sections, group_points = question_groups(element, items, group_losses)
    bank.losses.extend((message, line, None) for message, line in group_losses)
    for place, points in group_points:  # Canvas scores a group's questions by the group's points
        question = bank.questions[place]
        if not isinstance(question.question, Unread) and question.question.points != points:
            import dataclasses

            question.losses.append(f"the question is worth {question.question.points:g} points but its group gives each {points:g}: it is worth {points:g}")
            question.question = dataclasses.replace(question.question, points=points)
    if meta is not None and (meta.findtext("shuffle_answers") or "").strip() == "true":
        import dataclasses

        for item in bank.questions:
            if hasattr(item.question, "shuffle"):
                item.question = dataclasses.replace(item.question, shuffle=True)
    languages = Counter(q.question.language for q in bank.questions if not isinstance(q.question, Unread) and q.question.language)
    if languages:
        bank.language = languages.most_common(1)[0][0]
    return bank


def _read_document(root: etree._Element, reader: _Reader, meta: etree._Element | None, member: str | None) -> list[SourceBank]:
    root = strip_namespaces(root)
    if root.tag != "questestinterop":
        raise InputError(f"<{root.tag}> is not QTI 1.2's <questestinterop>", line=root.sourceline, member=member)
    banks = [_bank(e, reader, meta) for e in root if isinstance(e.tag, str) and e.tag in ("assessment", "objectbank")]
    if not banks and root.find("item") is not None:
        banks = [_bank(root, reader, meta)]
    for bank in banks:
        bank.member = member
        for question in bank.questions:
            question.member = member
    return banks


def read(data: bytes, file: str) -> SourceFile:
    store = MediaStore()
    result = SourceFile(FORMAT)
    if not is_zip(data):
        result.banks = _read_document(parse_xml(data), _Reader(None, store, ""), None, None)
        if not any(b.questions for b in result.banks):
            raise InputError("the QTI 1.2 file holds no question")
        return result
    package = Package(data)
    documents = []
    license_text = None
    if package.has("imsmanifest.xml"):
        manifest = strip_namespaces(parse_xml(package.read("imsmanifest.xml"), member="imsmanifest.xml"))
        license_text = (manifest.findtext("metadata/lom/rights/description/string") or "").strip() or None
        for resource in manifest.iter("resource"):
            if (resource.get("type") or "").startswith("imsqti_xmlv1p2"):
                hrefs = [f.get("href") for f in resource.iter("file") if f.get("href")] or [resource.get("href")]
                documents.extend(h for h in hrefs if h and h.endswith(".xml"))
    if not documents:
        documents = [n for n in package.names() if n.endswith(".xml") and n != "imsmanifest.xml" and not n.endswith("assessment_meta.xml")]
    for name in documents:
        if not package.has(name):
            raise InputError(f"the manifest lists {name!r}, which is not in the package", member="imsmanifest.xml")
        folder = name.rpartition("/")[0]
        meta_name = f"{folder}/assessment_meta.xml" if folder else "assessment_meta.xml"
        meta = strip_namespaces(parse_xml(package.read(meta_name), member=meta_name)) if package.has(meta_name) else None
        root = parse_xml(package.read(name), member=name)
        if etree.QName(root).localname != "questestinterop":
            continue
        result.banks.extend(_read_document(root, _Reader(package, store, folder), meta, name))
    if not any(b.questions for b in result.banks):
        raise InputError("the package holds no QTI 1.2 question")
    if license_text:
        for bank in result.banks:
            bank.source = Source(license=license_text)
    result.media = store.files
    return result

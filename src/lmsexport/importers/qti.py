"""IMS QTI 2.1 (and 2.2) packages or single item files, as TAO, Inspera, Blackboard, OpenOlat and
lmsexport write them.

The manifest lists the items (`imsqti_item_xmlv2p*` resources); an `assessmentTest` gives their
order, their points (`<weight>`) and the quiz's title, and the manifest's LOM its description,
language, level, difficulty and category. Each item is read from what it declares and scores:
a choice interaction with one answer is single choice (true/false when its two choices are true
and false), with more multiple response, credits from the mapping; a text entry is a short answer
(string) or a number (float: exact values, tolerances and ranges from response processing); a match
interaction is matching; an extended text an essay; an item with no interaction a description.
Feedback is found through the FEEDBACK outcome that response processing sets. Anything else (order,
gap match, hotspots, several interactions in one item) is kept as a draft with its text.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections import Counter
from urllib.parse import unquote

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
    Ordering,
    OrderItem,
    Question,
    ShortAnswer,
    SingleChoice,
    Source,
    Text,
    TextFormat,
    TrueFalse,
)
from .result import Unread
from .html import LITERAL_BACKSLASH
from .mathml import formula_source
from .media import MediaStore
from .result import SourceBank, SourceFile, SourceQuestion
from .safety import InputError, Package, is_zip, parse_xml
from .qti_order import read_order
from .qti_canvas import BLANK_TYPES as CANVAS_BLANK_TYPES, NOT_CARRIED as CANVAS_NOT_CARRIED, canvas_fields, read_canvas_blanks
from .qti_sections import TestLayout, in_listed_order
from .qti_blanks import BLANK_INTERACTIONS, blank_names, is_blanks_item, read_blanks

FORMAT = "qti"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_INTERACTIONS = {"choiceInteraction", "textEntryInteraction", "matchInteraction", "extendedTextInteraction", "orderInteraction",
                 "associateInteraction", "gapMatchInteraction", "inlineChoiceInteraction", "hottextInteraction", "hotspotInteraction",
                 "selectPointInteraction", "graphicOrderInteraction", "graphicAssociateInteraction", "graphicGapMatchInteraction",
                 "positionObjectInteraction", "sliderInteraction", "drawingInteraction", "uploadInteraction", "mediaInteraction",
                 "customInteraction", "endAttemptInteraction"}
# lxml gives back '"' for both '"' and '&quot;'; Markdown renders quotes as &quot; and plain text
# does not, so which one the package wrote tells the two apart. Before parsing, each &quot; becomes
# this private-use character, which goes back to &quot; in texts and to '"' everywhere else.
QUOTE = "\ue001"
_RICH = {"itemBody", "modalFeedback", "rubricBlock"}  # a test's sections hold rubrics


def parse_item(data: bytes, member: str | None = None) -> etree._Element:
    root = parse_xml(data.replace(b"&quot;", QUOTE.encode("utf-8")), member=member)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        inside = any(isinstance(a.tag, str) and etree.QName(a).localname in _RICH for a in (element, *element.iterancestors()))
        for name, value in element.attrib.items():
            if QUOTE in value:
                element.set(name, value.replace(QUOTE, '"'))
        if not inside:
            if element.text and QUOTE in element.text:
                element.text = element.text.replace(QUOTE, '"')
            if element.tail and QUOTE in element.tail:
                element.tail = element.tail.replace(QUOTE, '"')
    return root


_FEEDBACK_WRAPPER = '<div class="feedback">'
_OUTCOME_NAMES = ("general_feedback", "correct_feedback", "partial_feedback", "incorrect_feedback")
_NOT_STEM = _INTERACTIONS | {"rubricBlock", "feedbackBlock", "feedbackInline", "modalFeedback"}


def strip_namespaces(root: etree._Element) -> etree._Element:
    """Local names only (QTI 2.1 and 2.2 differ in their namespace only); MathML keeps a marker."""
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        qname = etree.QName(element)
        element.tag = ("mathml_" if qname.namespace == "http://www.w3.org/1998/Math/MathML" and qname.localname == "math" else "") + qname.localname
        for name in list(element.attrib):
            if name.startswith("{") and name != XML_LANG:
                del element.attrib[name]
    etree.cleanup_namespaces(root)
    return root


# lmsexport writes a choice whose content id is one of an item's variable names as choice.<id>.
_RESERVED = {"RESPONSE", "SCORE", "MAXSCORE", "FEEDBACK", "completionStatus", "duration", "numAttempts"}


def content_id(identifier: str) -> str:
    rest = identifier[len("choice."):] if identifier.startswith("choice.") else None
    return rest if rest in _RESERVED else identifier


def _float(value: str | None, default: float | None = None) -> float | None:
    try:
        return float(value) if value is not None else default
    except ValueError:
        return default


class _Item:
    """One assessmentItem read into a question."""

    def __init__(self, root: etree._Element, base: str, package: Package | None, store: MediaStore, losses: list[str]):
        self.root = root
        self.base = base  # the item's folder in the package
        self.package = package
        self.store = store
        self.losses = losses
        self.feedbacks = {m.get("identifier"): m for m in root.iter("modalFeedback")}
        self.used_feedback: set[str] = set()

    # Text -----------------------------------------------------------------
    def html(self, nodes) -> str:
        """The HTML of a list of elements and strings, media addresses made local, math as TeX."""
        parts = []
        for node in nodes:
            if isinstance(node, str):
                parts.append(_escape(_literal(node)))
                continue
            tail = node.tail
            parts.append(etree.tostring(self.prepared(node), encoding="unicode", with_tail=False, method="xml"))
            if tail:
                parts.append(_escape(_literal(tail)))
        return "".join(parts).strip(SPACE).replace(QUOTE, "&quot;")

    def prepared(self, node: etree._Element) -> etree._Element:
        node = _copy(node)
        # QTI's formulas are MathML: a backslash of the text is text, marked so before the MathML
        # becomes \( \) (a literal "\(" is no formula; see html.LITERAL_BACKSLASH).
        for element in node.iter():
            if not isinstance(element.tag, str) or element.tag == "mathml_math" or any(True for _ in element.iterancestors("mathml_math")):
                if element is not node and element.tag == "mathml_math" and element.tail:
                    element.tail = _literal(element.tail)
                continue
            element.text = _literal(element.text)
            if element is not node:
                element.tail = _literal(element.tail)
        for element in list(node.iter()):
            if not isinstance(element.tag, str):
                continue
            if element.tag == "mathml_math":
                latex, display, exact = formula_source(element)
                if not exact:
                    self.losses.append("a MathML formula that LaTeX cannot say exactly (kept as its nearest LaTeX)")
                replacement = ("\\[" if display else "\\(") + latex + ("\\]" if display else "\\)")
                _replace_with_text(element, replacement)
                continue
            for attribute in ("src", "data", "href"):
                address = element.get(attribute)
                if address and _relative(address):
                    local = self.media(address)
                    if local is not None:
                        element.set(attribute, local)
                    elif element.tag in ("img", "object"):  # a picture that is not there: its description stays
                        element.tag = "span"
                        element.text = element.get("alt") or element.text
                        element.attrib.clear()
                        break
            if element.tag == "object" and element.get("data"):
                element.tag = "img"
                element.set("src", element.attrib.pop("data"))
                element.attrib.pop("type", None)
                if not element.get("alt"):
                    element.set("alt", "".join(element.itertext()).strip())
                for child in list(element):
                    element.remove(child)
                element.text = None
            if element.get(XML_LANG) is not None:
                element.set("lang", element.attrib.pop(XML_LANG))
        for element in node.iter():  # HTML's end tags, not XML's <p/>: an empty paragraph is written as HTML writes it
            if isinstance(element.tag, str) and element.tag not in _VOID and element.text is None and not len(element):
                element.text = ""
        return node

    def media(self, address: str) -> str | None:
        path = posixpath.normpath(posixpath.join(self.base, unquote(address.split("#")[0].split("?")[0])))
        if path.startswith("../") or self.package is None or not self.package.has(path):
            where = "in the package" if self.package is not None else "imported with a single item file (import the package)"
            self.losses.append(f"the file {address!r} is not {where}: its alt text stands in for it")
            return None
        folder, name = posixpath.split(path)
        return self.store.add(folder, name, self.package.read(path))

    def rich(self, element: etree._Element | None, inline: bool = False) -> Text | None:
        if element is None:
            return None
        nodes = [element.text or "", *element] if len(element) or element.text else []
        # lmsexport wraps a text in one <div>; others write blocks straight into the element.
        children = [c for c in element if isinstance(c.tag, str)]
        if len(children) == 1 and children[0].tag == "div" and not (element.text or "").strip() and not (children[0].tail or "").strip() \
                and not children[0].attrib:
            inner = children[0]
            nodes = [inner.text or "", *inner]
        source = self.html(nodes)
        return Text(source, TextFormat.HTML) if source else None

    def feedback_text(self, identifier: str | None) -> Text | None:
        if identifier is None or identifier not in self.feedbacks:
            return None
        self.used_feedback.add(identifier)
        element = self.feedbacks[identifier]
        text = self.rich(element)
        if text is None or not (text.source.startswith(_FEEDBACK_WRAPPER) and text.source.endswith("</div>")):
            return text
        # lmsexport wraps feedback in an attributed <div> that stops Canvas unwrapping it, and
        # per-answer feedback, which Canvas reads from the first <div>, with its <p> made <div>.
        inner = text.source[len(_FEEDBACK_WRAPPER):-len("</div>")]
        children = [c for c in element if isinstance(c.tag, str)]
        if children and children[0].tag == "div" and not children[0].attrib:
            inner = re.sub(r"<(/?)div(?=[\s>])", r"<\1p", inner)
        return Text(inner, TextFormat.HTML) if inner.strip() else None

    # Response processing ----------------------------------------------------
    def feedback_rules(self) -> list[tuple[etree._Element | None, str]]:
        """(condition, feedback identifier) for every place response processing adds a feedback;
        the condition is None for an unconditional one."""
        rules = []
        processing = self.root.find("responseProcessing")
        if processing is None:
            return rules
        for setter in processing.iter("setOutcomeValue"):
            value = setter.find(".//baseValue[@baseType='identifier']")
            if value is None or setter.get("identifier") != "FEEDBACK" and not setter.get("identifier", "").startswith("FEEDBACK"):
                continue
            parent = setter.getparent()
            condition = None
            if parent.tag in ("responseIf", "responseElseIf"):
                condition = next((c for c in parent if c.tag != "setOutcomeValue"), None)
            elif parent.tag == "responseElse":
                condition = etree.Element("else")
            rules.append((condition, (value.text or "").strip()))
        return rules

    def outcome_feedback(self) -> Feedback:
        general = correct = partial = incorrect = None
        named = {i: self.feedbacks[i] for i in _OUTCOME_NAMES if i in self.feedbacks}
        if named:  # lmsexport's own names
            return Feedback(general=self.feedback_text("general_feedback"), correct=self.feedback_text("correct_feedback"),
                            partially_correct=self.feedback_text("partial_feedback"), incorrect=self.feedback_text("incorrect_feedback"))
        for condition, identifier in self.feedback_rules():
            if condition is None:
                general = general or self.feedback_text(identifier)
            elif condition.tag == "match" and condition.find("correct") is not None:
                correct = self.feedback_text(identifier)
            elif condition.tag == "gt" and condition.find("variable[@identifier='SCORE']") is not None:
                partial = self.feedback_text(identifier)
            elif condition.tag == "else":
                incorrect = self.feedback_text(identifier)
        # Feedback that no rule names: Canvas and others name it by convention.
        for identifier in self.feedbacks:
            if identifier in self.used_feedback or any(identifier == i and c is not None and c.tag in ("match", "member", "stringMatch", "equal")
                                                       for c, i in self.feedback_rules()):
                continue
            lowered = identifier.lower()
            if "general" in lowered or lowered.endswith("_all") or lowered == "solution":
                general = general or self.feedback_text(identifier)
            elif "incorrect" in lowered or "wrong" in lowered or lowered.endswith("_ic"):
                incorrect = incorrect or self.feedback_text(identifier)
            elif "correct" in lowered or lowered.endswith("_c"):
                correct = correct or self.feedback_text(identifier)
        return Feedback(general=general, correct=correct, partially_correct=partial, incorrect=incorrect)

    def value_feedback(self, value: str) -> Text | None:
        """The feedback response processing gives when the response is (or holds) this value."""
        for condition, identifier in self.feedback_rules():
            if condition is None or condition.tag not in ("match", "member", "stringMatch", "equal"):
                continue
            base = condition.find("baseValue")
            if base is not None and (base.text or "").strip() == value:
                return self.feedback_text(identifier)
        return None


def _copy(node: etree._Element) -> etree._Element:
    import copy

    copied = copy.deepcopy(node)
    copied.tail = None
    return copied


def _remove_keeping_tail(element: etree._Element) -> None:
    parent = element.getparent()
    tail = element.tail or ""
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(element)


def _literal(text: str | None) -> str | None:
    return text.replace("\\", LITERAL_BACKSLASH) if text else text


def _replace_with_text(element: etree._Element, text: str) -> None:
    parent = element.getparent()
    tail = element.tail or ""
    if parent is None:  # the element is the whole text (a formula alone in an option): a bare span of it
        element.tag = "span"
        element.attrib.clear()
        element.text = text
        for child in list(element):
            element.remove(child)
        return
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + text + tail
    else:
        parent.text = (parent.text or "") + text + tail
    parent.remove(element)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _relative(address: str) -> bool:
    return not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", address) and not address.startswith(("/", "#"))


def _declaration(root: etree._Element, identifier: str) -> etree._Element | None:
    for declaration in root.iter("responseDeclaration"):
        if declaration.get("identifier") == identifier:
            return declaration
    return None


def _points(root: etree._Element, weight: float | None) -> float:
    if weight is not None:
        return weight
    for outcome in root.iter("outcomeDeclaration"):
        if outcome.get("identifier") == "MAXSCORE":
            value = _float(outcome.findtext("defaultValue/value"))
            if value is not None:
                return value
    for mapping in root.iter("mapping"):
        value = _float(mapping.get("upperBound"))
        if value is not None and value > 0:
            return value
    return 1.0


def _item_text(root: etree._Element) -> str:
    body = root.find("itemBody")
    return re.sub(r"\s+", " ", "".join(body.itertext())).strip() if body is not None else ""


def read_item(root: etree._Element, base: str, package: Package | None, store: MediaStore, weight: float | None) -> SourceQuestion:
    root = strip_namespaces(root)
    if root.tag != "assessmentItem":
        raise InputError(f"<{root.tag}> is not a QTI assessmentItem", line=root.sourceline)
    losses: list[str] = []
    item = _Item(root, base, package, store, losses)
    identifier = root.get("identifier", "")
    title = root.get("title")
    title = None if title in (None, "", identifier) else title
    language = root.get(XML_LANG)
    body = root.find("itemBody")
    if body is None:
        raise InputError(f"the item {identifier!r} has no itemBody", line=root.sourceline)
    interactions = [e for e in body.iter() if isinstance(e.tag, str) and e.tag in _INTERACTIONS]
    # The stem: what the body shows, without interactions and feedback (an interaction's prompt
    # is part of it); lmsexport puts it in one <div>.
    canvas = canvas_fields(root)
    canvas_kind = canvas.get("question_type", "")
    shown = _copy(body)
    # An empty paragraph of the text itself (Markdown renders a paragraph of a no-break space so)
    # is part of the text; only blocks that the removal of interactions leaves empty go.
    empty_in_text = {element for element in shown.iter("p", "div") if _empty_block(element)}
    names = blank_names(interactions) if is_blanks_item(body, interactions) else None
    if canvas_kind in CANVAS_BLANK_TYPES:  # the blanks are [name] in the text; the interactions list their answers
        names = None
        for element in list(shown.iter(*_INTERACTIONS)):
            _remove_keeping_tail(element)
    if isinstance(names, dict):  # each blank stands in the stem as [[name]]
        for element in [e for e in shown.iter(*BLANK_INTERACTIONS)]:
            _replace_with_text(element, f"[[{names[element.get('responseIdentifier') or '']}]]")
    for element in list(shown.iter()):
        if isinstance(element.tag, str) and element.tag in _NOT_STEM and element.getparent() is not None:
            prompt = element.find("prompt") if element.tag in _INTERACTIONS else None
            if prompt is not None:
                paragraph = etree.Element("p")
                paragraph.text = prompt.text
                for child in prompt:
                    paragraph.append(child)
                paragraph.tail = element.tail
                element.getparent().replace(element, paragraph)
            else:
                _remove_keeping_tail(element)
    for element in reversed(list(shown.iter("p", "div"))):  # blocks left empty show nothing
        if element is not shown and element not in empty_in_text and _empty_block(element) and element.getparent() is not None:
            _remove_keeping_tail(element)
    stem_nodes = []
    if shown.text and shown.text.strip():
        stem_nodes.append(shown.text)
    stem_nodes.extend(c for c in shown if isinstance(c.tag, str))
    if len(stem_nodes) == 1 and not isinstance(stem_nodes[0], str) and stem_nodes[0].tag == "div" and not stem_nodes[0].attrib:
        stem = item.rich(stem_nodes[0])
        if stem is None:
            stem = Text("", TextFormat.HTML)
    else:
        holder = etree.Element("div")
        for node in stem_nodes:
            if isinstance(node, str):
                holder.text = node
            else:
                holder.append(_copy(node))
        stem = item.rich(holder) or Text("", TextFormat.HTML)
    points = _points(root, weight if weight is not None else _float(canvas.get("points_possible")))
    common = {"id": identifier, "title": title, "stem": stem, "points": points, "language": language}

    def unread(reason: str) -> SourceQuestion:
        return SourceQuestion(Unread(kind="qti", name=title or identifier, text=_item_text(root), reason=reason, idnumber=identifier))

    if isinstance(names, str):
        return unread(names)
    if canvas_kind in CANVAS_NOT_CARRIED:
        return unread(f"{CANVAS_NOT_CARRIED[canvas_kind]} has no counterpart in the content format")
    if canvas_kind in CANVAS_BLANK_TYPES:
        try:
            question = read_canvas_blanks(item, canvas_kind, interactions, common, _Unsupported)
        except _Unsupported as problem:
            return unread(str(problem))
        return _finished(item, body, question, root, losses)
    if len(interactions) > 1 and names is None:
        kinds = ", ".join(sorted({e.tag for e in interactions}))
        return unread(f"an item with {len(interactions)} interactions ({kinds}) has no counterpart in the content format")
    try:
        if names is not None:
            question: Question = read_blanks(item, interactions, names, common, _Unsupported)
        elif not interactions:
            question = Description(**{**common, "points": 0.0 if weight is None else points}, feedback=item.outcome_feedback())
        else:
            interaction = interactions[0]
            reader = {"choiceInteraction": _choice, "textEntryInteraction": _text_entry, "matchInteraction": _match,
                      "extendedTextInteraction": _essay,
                      "orderInteraction": lambda i, e, c: read_order(i, e, c, _Unsupported)}.get(interaction.tag)
            if reader is None:
                return unread(f"a QTI {interaction.tag} has no counterpart in the content format")
            question = reader(item, interaction, common)
    except _Unsupported as problem:
        return unread(str(problem))
    return _finished(item, body, question, root, losses)


def _finished(item: _Item, body: etree._Element, question: Question, root: etree._Element, losses: list[str]) -> SourceQuestion:
    unused = [i for i in item.feedbacks if i not in item.used_feedback]
    if unused:
        losses.append(f"feedback {', '.join(unused)} (shown on conditions the content format cannot state)")
    for block in body.iter("feedbackBlock", "feedbackInline"):
        losses.append("a feedbackBlock or feedbackInline inside the question text (left out)")
        break
    return SourceQuestion(question, root.sourceline, losses=losses)


def _only_interaction(element: etree._Element) -> bool:
    """A <p> or <div> that holds an interaction and nothing to show besides it."""
    text = "".join(t for t in (element.text, *(c.tail for c in element)) if t).strip()
    return not text and all(isinstance(c.tag, str) and c.tag in _INTERACTIONS for c in element)


class _Unsupported(ValueError):
    pass


def _mapping(declaration: etree._Element | None) -> dict[str, float]:
    if declaration is None:
        return {}
    return {e.get("mapKey"): _float(e.get("mappedValue"), 0.0) for e in declaration.iter("mapEntry")}


def _correct_values(declaration: etree._Element | None) -> list[str]:
    if declaration is None:
        return []
    return [(v.text or "").strip() for v in declaration.findall("correctResponse/value")]


def _choice(item: _Item, interaction: etree._Element, common: dict) -> Question:
    declaration = _declaration(item.root, interaction.get("responseIdentifier", "RESPONSE"))
    correct = set(_correct_values(declaration))
    mapping = _mapping(declaration)
    if not common["points"] and not any(mapping.values()):
        mapping = {}  # a question worth nothing maps every choice to 0: its credits are not in the package
    points = common["points"] or 1.0
    simple = interaction.findall("simpleChoice")
    identifiers = [c.get("identifier") for c in simple]
    single = interaction.get("maxChoices") == "1"
    feedback = item.outcome_feedback()
    if not correct and not mapping:
        correct = _scored_values(item.root)
    texts = [_plain(c).lower() for c in simple]
    if single and len(simple) == 2 and not mapping and (sorted(i.lower() for i in identifiers) == ["false", "true"] or sorted(texts) == ["false", "true"]):
        by_text = sorted(i.lower() for i in identifiers) != ["false", "true"]
        truth = next((i for i, t in zip(identifiers, texts) if (t if by_text else i.lower()) == "true"))
        return TrueFalse(**common, feedback=feedback, answer=truth in correct,
                         true_feedback=item.value_feedback(truth), false_feedback=item.value_feedback(next(i for i in identifiers if i != truth)))
    if not correct and mapping:
        correct = {k for k, v in mapping.items() if v > 0}
    choices = []
    question_language = common["language"]
    for index, element in enumerate(simple):
        identifier = element.get("identifier") or f"o{index + 1}"
        is_correct = identifier in correct
        if mapping:
            credit = mapping.get(identifier, 0.0) / points
        else:
            credit = (1.0 if is_correct else 0.0) if single else ((1.0 / len(correct)) if is_correct else (-1.0 / len(correct) if correct else 0.0))
        language = element.get(XML_LANG)
        text = item.rich(element, inline=True) or Text("", TextFormat.HTML)
        choices.append(Choice(id=content_id(identifier), text=text, correct=is_correct, credit=credit, feedback=item.value_feedback(identifier),
                              pinned=element.get("fixed") == "true", language=language if language != question_language else None))
    shuffle = interaction.get("shuffle") == "true"
    kind = SingleChoice if single else MultipleResponse
    return kind(**common, feedback=feedback, choices=tuple(choices), shuffle=shuffle)


def _scored_values(root: etree._Element) -> set[str]:
    """Values that response processing rewards with a positive SCORE (items with no correctResponse)."""
    found = set()
    for branch in root.iter("responseIf", "responseElseIf"):
        score = branch.find("setOutcomeValue[@identifier='SCORE']/baseValue")
        test = branch[0] if len(branch) else None
        if score is not None and (_float(score.text, 0) or 0) > 0 and test is not None and test.tag in ("match", "member"):
            value = test.find("baseValue")
            if value is not None:
                found.add((value.text or "").strip())
    return found


def _text_entry(item: _Item, interaction: etree._Element, common: dict) -> Question:
    declaration = _declaration(item.root, interaction.get("responseIdentifier", "RESPONSE"))
    if declaration is None:
        raise _Unsupported("a text entry with no response declaration")
    points = common["points"] or 1.0
    feedback = item.outcome_feedback()
    rules = [(c, i) for c, i in item.feedback_rules() if c is not None and c.tag not in ("match", "gt", "else") and i not in _OUTCOME_NAMES]
    if declaration.get("baseType") in ("float", "integer"):
        answers = []
        processing = item.root.find("responseProcessing")
        conditions = []
        if processing is not None:
            first = processing.find("responseCondition")
            if first is not None:
                conditions = [branch for branch in first if branch.tag in ("responseIf", "responseElseIf")]
        for branch in conditions:
            test = branch[0]
            score = branch.find("setOutcomeValue[@identifier='SCORE']/baseValue")
            credit = (_float(score.text, points) / points) if score is not None else 1.0
            answer = _numeric(test)
            if answer is None:
                raise _Unsupported("a number scored by rules the content format cannot state")
            answers.append((answer, credit))
        if not answers:
            answers = [((v, 0.0, None, None), 1.0) for v in map(_float, _correct_values(declaration)) if v is not None]
        if not common["points"] and answers and not any(credit for _, credit in answers):
            # Worth nothing, every rule adds 0: what each answer would be worth is not in the package.
            answers = [(answer, 1.0) for answer, _ in answers]
            item.losses.append("the answers' credits (the question is worth nothing, so its rules score 0): each is read as full credit")
        tests = [etree.tostring(branch[0], with_tail=False) for branch in conditions]
        identifiers = _parallel_feedback(processing, conditions) if conditions else None
        if identifiers is None:
            by_test: dict[bytes, list[str]] = {}
            for c, i in rules:
                by_test.setdefault(etree.tostring(c, with_tail=False), []).append(i)
            identifiers = [by_test[t].pop(0) if by_test.get(t) else None for t in tests] if conditions else \
                [rules[index][1] if index < len(rules) else None for index in range(len(answers))]
        result = []
        for ((value, tolerance, low, high), credit), identifier in zip(answers, identifiers):
            text = item.feedback_text(identifier)
            if value is None:
                result.append(NumericAnswer(minimum=low, maximum=high, credit=credit, feedback=text))
            else:
                result.append(NumericAnswer(value=value, tolerance=tolerance, credit=credit, feedback=text))
        result = _content_order(result, identifiers)
        return Numerical(**common, feedback=feedback, answers=tuple(result))
    mapping = [(e.get("mapKey"), _float(e.get("mappedValue"), 0.0), e.get("caseSensitive") == "true") for e in declaration.iter("mapEntry")]
    if not mapping:
        mapping = [(v, points, False) for v in _correct_values(declaration)]
    if not common["points"] and not any(value for _, value, _ in mapping):
        # A question worth nothing maps every answer to 0: the credits are not in the package.
        mapping = [(text, points, case) for text, _, case in mapping]
    answers = []
    for index, (text, value, _case) in enumerate(mapping):
        condition_feedback = next((i for c, i in rules if c.find("baseValue") is not None and (c.find("baseValue").text or "") == text), None)
        answers.append(AcceptedAnswer(text=text, credit=value / points, feedback=item.feedback_text(condition_feedback)))
    # An answer worth nothing, there only for its feedback, is in the rules alone: at its place
    # in the content when its feedback is named after it (answer_3_feedback), else at the end.
    mapped = {text for text, _, _ in mapping}
    for condition, identifier in rules:
        base = condition.find("baseValue") if condition.tag == "stringMatch" else None
        if base is None or (base.text or "") in mapped or item.feedback_text(identifier) is None:
            continue
        mapped.add(base.text or "")
        named = _ANSWER_FEEDBACK.fullmatch(identifier)
        place = min(int(named.group(1)) - 1, len(answers)) if named else len(answers)
        answers.insert(place, AcceptedAnswer(text=base.text or "", credit=0.0, feedback=item.feedback_text(identifier)))
    case_sensitive = any(case for _, _, case in mapping)
    return ShortAnswer(**common, feedback=feedback, answers=tuple(answers), case_sensitive=case_sensitive)


def _parallel_feedback(processing: etree._Element, scoring: list[etree._Element]) -> list[str | None] | None:
    """The feedback identifier of each scoring branch, when a later condition repeats the scoring
    branches' tests one for one to show feedback (as lmsexport writes it, an empty branch for an
    answer without feedback): then answers repeating a value or a range each get their own."""
    tests = [etree.tostring(branch[0], with_tail=False) for branch in scoring]
    for chain in processing.findall("responseCondition")[1:]:
        branches = [b for b in chain if b.tag in ("responseIf", "responseElseIf")]
        if len(branches) != len(scoring) or [etree.tostring(b[0], with_tail=False) for b in branches] != tests:
            continue
        found = []
        for branch in branches:
            setter = branch.find("setOutcomeValue[@identifier='FEEDBACK']")
            value = setter.find(".//baseValue[@baseType='identifier']") if setter is not None else None
            found.append((value.text or "").strip() if value is not None else None)
        # The outcome feedback of a question of one answer repeats that answer's test too: it is
        # the question's correct feedback, not the answer's own.
        if any(found) and not any(identifier in _OUTCOME_NAMES for identifier in found):
            return found
    return None


_ANSWER_FEEDBACK = re.compile(r"answer_([1-9][0-9]*)_feedback")


def _content_order(answers: list[NumericAnswer], identifiers: list[str | None]) -> list[NumericAnswer]:
    """lmsexport writes numerical answers best first (the first that accepts a response counts)
    and names each answer's feedback after the answer's place in the content (answer_3_feedback).
    Put answers with such feedback back at their place and the others, in the order written, in
    the places left, so that writing them best first again gives the same order: an answer may
    not pass an earlier one of the same credit. Packages named otherwise keep the written order."""
    n = len(answers)
    fixed: dict[int, int] = {}  # written position -> content place
    for position, identifier in enumerate(identifiers):
        named = _ANSWER_FEEDBACK.fullmatch(identifier or "")
        if named is None:
            continue
        place = int(named.group(1)) - 1
        if place >= n or place in fixed.values():
            return answers
        fixed[position] = place
    if not fixed:
        return answers
    # Unit jobs on the free places: each answer of a credit comes after the one before it of that
    # credit (release) and before the next one whose place is fixed (deadline); earliest deadline first.
    groups: dict[float, list[int]] = {}
    for position, answer in enumerate(answers):
        groups.setdefault(answer.credit, []).append(position)
    order: list[int | None] = [None] * n
    for position, place in fixed.items():
        order[place] = position
    following = {credit: 0 for credit in groups}
    for place in range(n):
        if order[place] is not None:
            position = order[place]
            credit = answers[position].credit
            if groups[credit][following[credit]] != position:
                return answers
            following[credit] += 1
            continue
        best = None
        for credit, members in groups.items():
            if following[credit] >= len(members) or members[following[credit]] in fixed:
                continue
            deadline = next((fixed[m] for m in members[following[credit]:] if m in fixed), n)
            if best is None or deadline < best[0]:
                best = (deadline, credit)
        if best is None or best[0] < place:
            return answers
        position = groups[best[1]][following[best[1]]]
        order[place] = position
        following[best[1]] += 1
    return [answers[position] for position in order]


def _numeric(test: etree._Element):
    """(value, tolerance, low, high) of a numeric comparison in response processing."""
    if test.tag == "equal":
        value = _float(test.findtext("baseValue"))
        if value is None:
            return None
        if test.get("toleranceMode", "exact") == "exact":
            return value, 0.0, None, None
        tolerances = (test.get("tolerance") or "0").split()
        if test.get("toleranceMode") != "absolute" or len(set(tolerances)) != 1:
            return None
        return value, float(tolerances[0]), None, None
    if test.tag == "and" and [c.tag for c in test] == ["gte", "lte"]:
        low, high = _float(test[0].findtext("baseValue")), _float(test[1].findtext("baseValue"))
        return (None, 0.0, low, high) if low is not None and high is not None else None
    if test.tag == "match":
        value = _float(test.findtext("baseValue"))
        return (value, 0.0, None, None) if value is not None else None
    return None


def _match(item: _Item, interaction: etree._Element, common: dict) -> Question:
    sets = interaction.findall("simpleMatchSet")
    if len(sets) != 2:
        raise _Unsupported("a match interaction without two sets")
    declaration = _declaration(item.root, interaction.get("responseIdentifier", "RESPONSE"))
    pairs_wanted = [v.split() for v in _correct_values(declaration)]
    if not pairs_wanted:
        pairs_wanted = [k.split() for k, v in _mapping(declaration).items() if v > 0]
    sources = {c.get("identifier"): c for c in sets[0].findall("simpleAssociableChoice")}
    targets = {c.get("identifier"): c for c in sets[1].findall("simpleAssociableChoice")}
    matched: dict[str, str] = {}
    for pair in pairs_wanted:
        if len(pair) != 2 or pair[0] not in sources or pair[1] not in targets or pair[0] in matched:
            raise _Unsupported("a match interaction whose key is not one answer per prompt")
        matched[pair[0]] = pair[1]
    pairs, used = [], set()
    for identifier, element in sources.items():
        if identifier not in matched:
            raise _Unsupported(f"the prompt {identifier!r} has no right answer")
        target = targets[matched[identifier]]
        used.add(matched[identifier])
        children = [c for c in element if isinstance(c.tag, str)]
        if len(children) == 1 and children[0].tag == "span" and children[0].get("class") == "prompt" \
                and not (element.text or "").strip() and not (children[0].tail or "").strip():
            element = children[0]  # lmsexport's wrapper, which keeps Canvas from pasting the answers into the prompt
        pairs.append(MatchPair(id=content_id(identifier), prompt=item.rich(element, inline=True) or Text("", TextFormat.HTML), answer=_plain(target)))
    distractors = []
    for identifier, element in targets.items():
        if identifier not in used:
            distractor_id = content_id(identifier[: -len(".distractor")] if identifier.endswith(".distractor") else identifier)
            distractors.append(Distractor(id=re.sub(r"[^A-Za-z0-9_-]", "-", distractor_id), text=_plain(element)))
    return Matching(**common, feedback=item.outcome_feedback(), pairs=tuple(pairs), distractors=tuple(distractors),
                    shuffle=interaction.get("shuffle") == "true")


# White space the content drops around a text (ASCII only: a no-break space is content).
SPACE = " \t\n\r\f\v"


def _plain(element: etree._Element) -> str:
    """The text of an answer or option. Laid-out XML (a line break in it) has its white space
    collapsed; one written on one line, as lmsexport writes it, keeps its spaces."""
    text = "".join(element.itertext())
    if re.search(r"[\n\r]", text):  # a tab on one line is the author's (laid-out XML breaks lines)
        text = re.sub(r"[ \t\n\r]+", " ", text)
    return text.strip(SPACE).replace(QUOTE, '"')


def _essay(item: _Item, interaction: etree._Element, common: dict) -> Question:
    body = item.root.find("itemBody")
    scorer = next((r for r in body.iter("rubricBlock") if "scorer" in (r.get("view") or "")), None)
    lines = interaction.get("expectedLines")
    return Essay(**common, feedback=item.outcome_feedback(), grader_info=item.rich(scorer),
                 response_template=interaction.get("placeholderText"), lines=int(lines) if lines and lines.isdigit() else 10)


# Packages ------------------------------------------------------------------


def _lom_text(element: etree._Element | None, path: str) -> tuple[str | None, str | None]:
    if element is None:
        return None, None
    found = element.find(path)
    if found is None:
        return None, None
    string = found.find("langstring")
    if string is None:
        string = found.find("string")
    target = string if string is not None else found
    text = "".join(target.itertext())  # as written: a level or a name may keep its spaces
    return (text if text.strip() else None), target.get(XML_LANG) or target.get("language")


def _bank_metadata(bank: SourceBank, lom: etree._Element | None) -> None:
    if lom is None:
        return
    title, _ = _lom_text(lom, "general/title")
    if title:
        bank.names = [*bank.names[:-1], title] if bank.names else [title]
    found = lom.find("general/description/langstring")
    description = "".join(found.itertext()) if found is not None else ""
    if description.strip():
        # LOM holds the description's source, not its format: lmsexport writes it there as the
        # author wrote it, so white space a plain text would lose means Markdown.
        markdown = description != description.strip(" \t\n\r\x0b\x0c") or bool(re.search(r"[*_`#\[\]\\$|<>]", description))
        bank.description = Text(description, TextFormat.MARKDOWN if markdown else TextFormat.PLAIN)
    language = (lom.findtext("general/language") or "").strip()
    bank.language = language or bank.language
    level, _ = _lom_text(lom, "educational/description")
    bank.level = level
    difficulty, _ = _lom_text(lom, "educational/difficulty/value")
    bank.difficulty = {"easy": "easy", "very easy": "easy", "medium": "medium", "difficult": "hard", "very difficult": "hard"}.get(difficulty or "")
    keywords = [_lom_text(k, ".")[0] for k in lom.findall("general/keyword")]
    bank.tags = tuple(k for k in keywords if k)
    for relation in lom.findall("relation"):
        kind, _ = _lom_text(relation, "kind/value")
        if kind == "ispartof":
            bank.learning_path = _lom_text(relation, "resource/description")[0]
        elif kind == "isbasedon":
            name = _lom_text(relation, "resource/description")[0]
            url = _lom_text(relation, "resource/catalogentry/entry")[0]
            bank.source = Source(name, url, bank.source.license if bank.source else None)
    license_text, _ = _lom_text(lom, "rights/description")
    if license_text:
        bank.source = Source(bank.source.name if bank.source else None, bank.source.url if bank.source else None, license_text)
    taxa = [(_lom_text(t, "entry")[0]) for t in lom.findall("classification/taxonpath/taxon")]
    if taxa and all(taxa):
        bank.names = [*taxa, bank.names[-1] if bank.names else ""]


def read(data: bytes, file: str) -> SourceFile:
    result = _read(data, file)
    for bank in result.banks:
        _language_of_items(bank)
    return result


def _language_of_items(bank: SourceBank) -> None:
    """A test or package whose metadata states no language (TAO, for one) is in the language its
    items' xml:lang state most (each item states its own, unlike Moodle's texts)."""
    if bank.language:
        return
    languages = Counter(q.question.language for q in bank.questions if not isinstance(q.question, Unread) and q.question.language)
    if languages:
        bank.language = languages.most_common(1)[0][0]


def _read(data: bytes, file: str) -> SourceFile:
    store = MediaStore()
    result = SourceFile(FORMAT)
    if not is_zip(data):
        bank = SourceBank([])
        bank.questions.append(read_item(parse_item(data), "", None, store, None))
        result.banks.append(bank)
        return result
    package = Package(data)
    if not package.has("imsmanifest.xml"):
        items = [n for n in package.names() if n.endswith(".xml")]
        bank = SourceBank([])
        for name in items:
            root = parse_item(package.read(name), member=name)
            if etree.QName(root).localname == "assessmentItem":
                question = read_item(root, posixpath.dirname(name), package, store, None)
                question.member = name
                bank.questions.append(question)
        result.banks.append(bank)
        result.media = store.files
        return result
    manifest = strip_namespaces(parse_xml(package.read("imsmanifest.xml"), member="imsmanifest.xml"))
    resources = {r.get("identifier"): r for r in manifest.iter("resource")}
    items = {i: r for i, r in resources.items() if (r.get("type") or "").startswith("imsqti_item_xmlv2p")}
    tests = [r for r in resources.values() if (r.get("type") or "").startswith("imsqti_test_xmlv2p")]
    top_lom = manifest.find("metadata/lom")
    if not items:
        raise InputError("the manifest lists no QTI 2 item (resources of type imsqti_item_xmlv2p1)", member="imsmanifest.xml")
    by_href = {r.get("href"): i for i, r in items.items()}
    placed: set[str] = set()
    listed = {identifier: rank for rank, identifier in enumerate(items)}
    ranks: dict[int, int] = {}  # id() of a question read -> the rank of its item in the manifest
    for test in tests:
        href = test.get("href") or ""
        if not package.has(href):
            raise InputError(f"the manifest's test {href!r} is not in the package", member="imsmanifest.xml")
        root = strip_namespaces(parse_item(package.read(href), member=href))  # as an item: a rubric's &quot; stays one
        bank = SourceBank([root.get("title") or test.get("identifier") or "Imported"], member=None)
        identifier = root.get("identifier") or ""
        bank.quiz_id = identifier[len("test."):] if identifier.startswith("test.") else identifier
        _bank_metadata(bank, test.find("metadata/lom") if test.find("metadata/lom") is not None else top_lom)

        def read_reference(reference: etree._Element, href=href, bank=bank) -> int | None:
            item_href = posixpath.normpath(posixpath.join(posixpath.dirname(href), reference.get("href") or ""))
            identifier = by_href.get(item_href) or reference.get("identifier")
            resource = items.get(identifier)
            if resource is None:
                result.diagnostics.append(_member_error(f"the test refers to {item_href!r}, which the manifest does not list", href))
                return None
            weight = next((_float(w.get("value")) for w in reference.findall("weight")), None)
            bank.questions.append(_read_resource(package, resource, store, weight))
            ranks[id(bank.questions[-1])] = listed[identifier]
            placed.add(identifier)
            return len(bank.questions) - 1

        test_losses: list[str] = []
        rubric_reader = _Item(root, posixpath.dirname(href), package, store, test_losses)
        layout = TestLayout(read_reference, rubric_reader.rich, lambda message, line, href=href, bank=bank: bank.losses.append((message, line, href)))
        bank.sections = layout.walk(root)
        bank.questions, bank.sections = in_listed_order(bank.questions, bank.sections, lambda q: ranks.get(id(q), len(items)))
        bank.losses.extend((f"section instructions: {loss}", None, href) for loss in test_losses)
        result.banks.append(bank)
    rest = [i for i in items if i not in placed]
    if rest:
        bank = SourceBank([])
        _bank_metadata(bank, top_lom)
        for identifier in rest:
            bank.questions.append(_read_resource(package, items[identifier], store, None))
        result.banks.append(bank)
    result.media = store.files
    return result


# HTML's elements without content, the only ones written as <br/>.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"})


def _empty_block(element: etree._Element) -> bool:
    return not len(element) and not (element.text or "").strip(SPACE)


def _member_error(message: str, member: str):
    from ..diagnostics import error

    return error(f"{member}: {message}", code="import")


def _read_resource(package: Package, resource: etree._Element, store: MediaStore, weight: float | None) -> SourceQuestion:
    href = resource.get("href") or ""
    if not package.has(href):
        return SourceQuestion(Unread(kind="qti", name=resource.get("identifier", href), text="", reason=f"the item file {href!r} is missing from the package"), None, href)
    try:
        question = read_item(parse_item(package.read(href), member=href), posixpath.dirname(href), package, store, weight)
    except InputError as problem:
        return SourceQuestion(Unread(kind="qti", name=resource.get("identifier", href), text="", reason=str(problem)), problem.line, href)
    question.member = href
    keywords = tuple(k for k in (_lom_text(k, ".")[0] for k in resource.findall("metadata/lom/general/keyword")) if k)
    if keywords and not isinstance(question.question, Unread):
        question.question = dataclasses.replace(question.question, tags=keywords)
    return question

"""QTI 2.1 items with textEntryInteraction / inlineChoiceInteraction inline in their text, read as
fill in the blanks.

Each interaction is a blank named after its response identifier (lmsexport writes
RESPONSE_<blank>) and stands in the stem as [[name]]. What a blank accepts comes from its response
declaration: the mapping gives accepted texts and drop-down options their credits, the
correctResponse the right one; a number is read from the response processing that compares it
(exact values, absolute tolerances, ranges), with what each match adds to the score. A blank is
worth its mapping's upper bound, or the most its rules add. Feedback per answer is found by the
condition it is shown on (lmsexport names it blank_<n>_answer_<m>_feedback, which also gives the
answer's place). Scoring the item as a whole (match_correct over several blanks) cannot be said per
blank: the blanks then share the points, with a warning.
"""

from __future__ import annotations

import re

from lxml import etree

from ..tolerances import ROUNDING
from ..model import (
    AcceptedAnswer,
    Blank,
    DropdownBlank,
    DropdownOption,
    FillInBlanks,
    NumericAnswer,
    NumericalBlank,
    Question,
    ShortAnswerBlank,
)

BLANK_INTERACTIONS = ("textEntryInteraction", "inlineChoiceInteraction")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
_OURS = re.compile(r"^blank_(\d+)_(answer|option)_(\d+)_feedback$")

# A value's white space as XML has it: a no-break space at an end of an answer is the answer's.
XML_SPACE = " \t\n\r"


def is_blanks_item(body: etree._Element, interactions: list[etree._Element]) -> bool:
    """Every interaction a blank, and the item more than one text entry standing alone below the
    text (which is a short answer or a number): several blanks, a drop-down, or a blank in a sentence."""
    if not interactions or any(e.tag not in BLANK_INTERACTIONS for e in interactions):
        return False
    if len(interactions) > 1 or interactions[0].tag == "inlineChoiceInteraction":
        return True
    parent = interactions[0].getparent()
    alone = parent is not None and parent.getparent() is body and _holds_only(parent)
    return not alone


def _holds_only(element: etree._Element) -> bool:
    text = "".join(t for t in (element.text, *(c.tail for c in element)) if t).strip()
    return not text and all(isinstance(c.tag, str) and c.tag in BLANK_INTERACTIONS for c in element)


def blank_names(interactions: list[etree._Element]) -> dict[str, str] | str:
    """Response identifier -> blank name; a reason when the blanks cannot be named."""
    names: dict[str, str] = {}
    for index, interaction in enumerate(interactions):
        response = interaction.get("responseIdentifier") or ""
        if response in names:
            return f"two blanks share the response {response!r}"
        stripped = response[len("RESPONSE_"):] if response.startswith("RESPONSE_") else response
        name = stripped if _NAME.match(stripped) else response if _NAME.match(response) else f"blank{index + 1}"
        while name in names.values():
            name = f"{name}-{index + 1}"
        names[response] = name
    return names


def _same(a: etree._Element, b: etree._Element) -> bool:
    return a.tag == b.tag and dict(a.attrib) == dict(b.attrib) and (a.text or "").strip() == (b.text or "").strip() \
        and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))


def _head(condition: etree._Element) -> etree._Element:
    """lmsexport makes the feedback conditions of one blank exclusive: and(this, not(an earlier one))."""
    if condition.tag == "and" and len(condition) == 2 and condition[1].tag == "not":
        return condition[0]
    return condition


def _variables(element: etree._Element) -> set[str]:
    return {v.get("identifier") for v in element.iter("variable", "mapResponse", "correct")}


class _Reader:
    def __init__(self, item, interactions, names: dict[str, str], common: dict, unsupported):
        self.item, self.interactions, self.names, self.common = item, interactions, names, common
        self.unsupported = unsupported
        processing = item.root.find("responseProcessing")
        self.processing = processing
        self.template = (processing.get("template") or "") if processing is not None else ""
        outcome_names = ("general_feedback", "correct_feedback", "partial_feedback", "incorrect_feedback")
        self.rules = [(c, i) for c, i in item.feedback_rules() if c is not None and c.tag not in ("gt", "else") and i not in outcome_names]
        outcomes = {o.get("identifier"): o for o in item.root.iter("outcomeDeclaration")}
        self.defaults = {k: _float(o.findtext("defaultValue/value")) for k, o in outcomes.items()}

    # What one rule adds -----------------------------------------------------
    def amount(self, branch: etree._Element) -> float | None:
        """What a branch adds to the score: sum(SCORE, n), or an outcome of its own set to n or to
        another outcome's default (rqti's SCORE_<response> = MAXSCORE_<response>)."""
        for setter in branch.findall("setOutcomeValue"):
            if setter.get("identifier") == "FEEDBACK":
                continue
            value = setter.find("sum/baseValue") if setter.find("sum") is not None else setter.find("baseValue")
            if value is not None:
                return _float(value.text)
            variable = setter.find("variable")
            if variable is not None and variable.get("identifier") in self.defaults:
                return self.defaults[variable.get("identifier")]
        return None

    def scoring_branches(self, response: str) -> list[etree._Element]:
        if self.processing is None:
            return []
        found = []
        for condition in self.processing.iter("responseCondition"):
            for branch in condition:
                if branch.tag in ("responseIf", "responseElseIf") and len(branch) and response in _variables(branch[0]) \
                        and any(s.get("identifier") != "FEEDBACK" for s in branch.findall("setOutcomeValue")):
                    found.append(branch)
        return found

    def feedback_for(self, index: int, kind: str, test) -> dict[int, tuple[str, etree._Element]]:
        """Answer place (0-based, when lmsexport named it, else -1 - order) -> (feedback id, the
        condition's head) for the feedback rules of one blank."""
        response = self.interactions[index].get("responseIdentifier")
        found: dict[int, tuple[str, etree._Element]] = {}
        for order, (condition, identifier) in enumerate(self.rules):
            head = _head(condition)
            ours = _OURS.match(identifier)
            if ours and int(ours.group(1)) == index + 1 and ours.group(2) == kind:
                found[int(ours.group(3)) - 1] = (identifier, head)
            elif not ours and response in _variables(head) and test(head):
                found[-1 - order] = (identifier, head)
        return found

    # Blanks -------------------------------------------------------------------
    def read(self) -> Question:
        blanks: list[Blank] = []
        worths: list[float | None] = []
        whole = self.template.endswith("match_correct") and len(self.interactions) > 1
        if whole:
            self.item.losses.append("the blanks are scored together, all or nothing (read as sharing the points, each scored alone)")
        # The blanks in the order the item declares their responses (the content's order, which
        # lmsexport writes and numbers its feedback by), not the order they stand in the text.
        declared = [d.get("identifier") for d in self.item.root.iter("responseDeclaration")]
        self.interactions = sorted(self.interactions, key=lambda i: declared.index(i.get("responseIdentifier"))
                                   if i.get("responseIdentifier") in declared else len(declared))
        for index, interaction in enumerate(self.interactions):
            response = interaction.get("responseIdentifier")
            declaration = next((d for d in self.item.root.iter("responseDeclaration") if d.get("identifier") == response), None)
            if declaration is None:
                raise self.unsupported(f"the blank {response!r} has no response declaration")
            name = self.names[response]
            if interaction.tag == "inlineChoiceInteraction":
                blank, worth = self.dropdown(index, interaction, declaration, name)
            elif declaration.get("baseType") in ("float", "integer"):
                blank, worth = self.numerical(index, declaration, name)
            else:
                blank, worth = self.short_answer(index, declaration, name)
            blanks.append(blank)
            worths.append(None if whole else worth)
        points = self.common["points"]
        known = [w for w in worths if w is not None]
        share = points / len(blanks)
        if len(known) == len(worths) and any(abs(w - share) > ROUNDING * max(1.0, share) for w in known):
            blanks = [_with_points(b, w) for b, w in zip(blanks, known)]
            if abs(sum(known) - points) > ROUNDING * max(1.0, points):
                self.item.losses.append(f"the item is worth {points:g} points but its blanks add up to {sum(known):g}: read as their sum")
                self.common = {**self.common, "points": sum(known)}
        return FillInBlanks(**self.common, feedback=self.item.outcome_feedback(), blanks=tuple(blanks))

    def worthless(self, name: str) -> None:
        loss = f"the answers' credits of the blank {name!r} (it is worth nothing, so its rules score 0): each is read as full credit"
        if loss not in self.item.losses:
            self.item.losses.append(loss)

    def credit(self, amount: float, worth: float, name: str) -> float:
        """An answer's credit: what it adds over what the blank is worth; full credit when the blank
        is worth nothing, since every answer then adds 0."""
        if worth:
            return amount / worth
        self.worthless(name)
        return 1.0

    def worth_of(self, declaration: etree._Element, scores: list[float]) -> float:
        mapping = declaration.find("mapping")
        upper = _float(mapping.get("upperBound")) if mapping is not None else None
        if upper is not None and upper > 0:
            return upper
        if upper == 0 and max(scores, default=0.0) <= 0:
            return 0.0  # a blank worth nothing (its answers' credits are not in the package)
        if not self.common["points"] and max(scores, default=0.0) <= 0:
            return 0.0  # a question worth nothing scores every rule 0: its credits are not in the package
        if len(self.interactions) == 1:
            return self.common["points"] or 1.0
        best = max(scores, default=0.0)
        if scores and best <= 0:
            return 0.0  # every rule of the blank adds nothing: it is worth nothing, as above
        return best if best > 0 else (self.common["points"] / len(self.interactions))

    def short_answer(self, index: int, declaration: etree._Element, name: str) -> tuple[Blank, float]:
        entries = [(e.get("mapKey") or "", _float(e.get("mappedValue"), 0.0), e.get("caseSensitive") == "true") for e in declaration.iter("mapEntry")]
        correct = _correct(declaration)
        worth = self.worth_of(declaration, [v for _, v, _ in entries])
        if not entries:
            if not correct:
                raise self.unsupported(f"the blank {name!r} states no accepted answer")
            entries = [(correct[0], worth, False)]
        answers = [[text, self.credit(value, worth, name), None] for text, value, _ in entries]
        feedback = self.feedback_for(index, "answer", lambda head: head.tag in ("stringMatch", "match"))
        for place, (identifier, head) in sorted(feedback.items(), key=lambda p: (p[0] < 0, abs(p[0]))):
            text = (head.findtext("baseValue") or "").strip(XML_SPACE) if head.tag in ("stringMatch", "match") else None
            if text is None:
                continue
            known = next((a for a in answers if a[0] == text and a[2] is None), None)
            if known is None:  # an answer worth nothing, there only for its feedback
                known = [text, 0.0, None]
                answers.insert(place if 0 <= place <= len(answers) else len(answers), known)
            elif place >= 0 and answers.index(known) != place and place < len(answers):
                answers.remove(known)
                answers.insert(place, known)
            known[2] = self.item.feedback_text(identifier)
        case = any(c for _, _, c in entries)
        folded = [t.casefold() for t, _, _ in answers]
        if not case and len(set(folded)) < len(folded) and len({t for t, _, _ in answers}) == len(folded):
            case = True  # answers scored apart that differ only in case: the mapping tells case apart
        return ShortAnswerBlank(id=name, answers=tuple(AcceptedAnswer(text=t, credit=c, feedback=f) for t, c, f in answers),
                                case_sensitive=case), worth

    def numerical(self, index: int, declaration: etree._Element, name: str) -> tuple[Blank, float]:
        from .qti import _numeric

        response = declaration.get("identifier")
        correct = _correct(declaration)
        found = []
        for branch in self.scoring_branches(response):
            test = branch[0]
            if test.find("correct") is not None and correct:
                test = _with_correct(test, correct[0])
            answer = _numeric(test)
            amount = self.amount(branch)
            if answer is None or amount is None:
                raise self.unsupported(f"the number in blank {name!r} is scored by rules the content format cannot state")
            found.append((answer, amount, branch[0]))
        if not found:
            value = _float(correct[0]) if correct else None
            if value is None:
                raise self.unsupported(f"the blank {name!r} states no number")
            found = [((value, 0.0, None, None), None, None)]
        worth = self.worth_of(declaration, [a for _, a, _ in found if a is not None])
        answers = []
        for (value, tolerance, low, high), amount, _ in found:
            credit = 1.0 if amount is None else self.credit(amount, worth, name)
            answers.append([NumericAnswer(minimum=low, maximum=high, credit=credit) if value is None
                            else NumericAnswer(value=value, tolerance=tolerance, credit=credit), None])
        tests = [t for _, _, t in found]
        feedback = self.feedback_for(index, "answer", lambda head: any(t is not None and _same(head, t) for t in tests))
        placed: list = [None] * len(answers)
        for place, (identifier, head) in feedback.items():
            at = next((k for k, t in enumerate(tests) if t is not None and _same(head, t)), None)
            if at is None:
                continue
            answers[at][1] = self.item.feedback_text(identifier)
            if 0 <= place < len(placed) and placed[place] is None:
                placed[place] = answers[at]
        # lmsexport writes a blank's numbers best first; its feedback names give their places back.
        ordered = _unranked(answers, placed)
        result = tuple(_replace(a, feedback=f) for a, f in ordered)
        return NumericalBlank(id=name, answers=result), worth

    def dropdown(self, index: int, interaction: etree._Element, declaration: etree._Element, name: str) -> tuple[Blank, float]:
        from .qti import _plain

        choices = [(c.get("identifier") or f"o{k + 1}", _plain(c)) for k, c in enumerate(interaction.findall("inlineChoice"))]
        if not choices:
            raise self.unsupported(f"the drop-down {name!r} has no choice")
        correct = set(_correct(declaration))
        mapping = {e.get("mapKey"): _float(e.get("mappedValue"), 0.0) for e in declaration.iter("mapEntry")}
        if not correct and mapping:
            best = max(mapping.values())
            correct = {k for k, v in mapping.items() if v == best and v > 0}
        if len(correct & {i for i, _ in choices}) != 1:
            raise self.unsupported(f"the drop-down {name!r} has {len(correct)} right choices where the content format takes one")
        worth = self.worth_of(declaration, list(mapping.values()))
        feedback = self.feedback_for(index, "option", lambda head: head.tag == "match")
        texts: dict[str, str] = {}
        for place, (identifier, head) in feedback.items():
            if place >= 0 and place < len(choices):
                texts[choices[place][0]] = identifier
            elif head.tag == "match" and head.findtext("baseValue"):
                texts[(head.findtext("baseValue") or "").strip(XML_SPACE)] = identifier
        options = []
        for identifier, text in choices:
            right = identifier in correct
            credit = (mapping[identifier] / worth if worth else float(right)) if identifier in mapping else (1.0 if right else 0.0)
            if not worth and identifier in mapping and not right:  # a wrong option with credit, which is lost
                self.worthless(name)
            from .qti import content_id

            option_id = content_id(identifier) if _NAME.match(content_id(identifier)) else f"o{len(options) + 1}"
            options.append(DropdownOption(id=option_id, text=text, correct=right, credit=credit,
                                          feedback=self.item.feedback_text(texts.get(identifier))))
        return DropdownBlank(id=name, options=tuple(options), shuffle=interaction.get("shuffle") == "true"), worth


def _unranked(ranked: list, placed: list) -> list:
    """Answers in an order that has those of known place where they were and that, sorted best
    first as lmsexport writes them, gives `ranked` back (the first such order); `ranked` when no
    order fits."""
    from itertools import permutations

    rest = [a for a in ranked if not any(a is p for p in placed)]
    free = [k for k, p in enumerate(placed) if p is None]
    if len(rest) != len(free):
        return ranked
    candidates = permutations(rest) if len(rest) <= 6 else [tuple(rest)]
    for choice in candidates:
        order = list(placed)
        for k, answer in zip(free, choice):
            order[k] = answer
        if [id(a) for a in sorted(order, key=lambda a: -a[0].credit)] == [id(a) for a in ranked]:
            return order
    return ranked


def _with_points(blank: Blank, points: float) -> Blank:
    import dataclasses

    return dataclasses.replace(blank, points=points)


def _replace(answer: NumericAnswer, feedback) -> NumericAnswer:
    import dataclasses

    return dataclasses.replace(answer, feedback=feedback)


def _with_correct(test: etree._Element, value: str) -> etree._Element:
    import copy

    test = copy.deepcopy(test)
    for element in test.iter("correct"):
        element.tag = "baseValue"
        element.attrib.clear()
        element.text = value
    return test


def _correct(declaration: etree._Element) -> list[str]:
    return [(v.text or "").strip(XML_SPACE) for v in declaration.findall("correctResponse/value")]


def _float(value, default=None):
    try:
        return float(value) if value is not None else default
    except ValueError:
        return default


def read_blanks(item, interactions: list[etree._Element], names: dict[str, str], common: dict, unsupported) -> Question:
    return _Reader(item, interactions, names, common, unsupported).read()

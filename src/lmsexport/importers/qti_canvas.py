"""Canvas's own QTI 2.1: what Canvas's QTIMigrationTool makes of a Canvas QTI 1.2 export, with the
question's Canvas type and points in <instructureMetadata>. Its fill in multiple blanks and
multiple drop-downs are one choiceInteraction per blank (prompt = the blank's name) with the text
naming each blank as [name]; they mean what Canvas's importer makes of them: every choice of a
typed blank is accepted, a drop-down's right choice is the one that adds to SCORE. A formula
question keeps only its text there, so it is not read as the essay it looks like."""

from __future__ import annotations

import re

from lxml import etree

from ..model import AcceptedAnswer, DropdownBlank, DropdownOption, FillInBlanks, Question, ShortAnswerBlank, Text

FILL_IN_MULTIPLE_BLANKS = "fill_in_multiple_blanks_question"
MULTIPLE_DROPDOWNS = "multiple_dropdowns_question"
BLANK_TYPES = (FILL_IN_MULTIPLE_BLANKS, MULTIPLE_DROPDOWNS)
NOT_CARRIED = {"calculated_question": "a Canvas formula question (its variables and formulas)", "file_upload_question": "a Canvas file upload question"}
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


def canvas_fields(root: etree._Element) -> dict[str, str]:
    return {f.get("name") or "": f.get("value") or "" for f in root.findall("instructureMetadata/instructureField")}


def _name(response: str, index: int, taken: set[str]) -> str:
    name = response[len("response_"):] if response.startswith("response_") else response
    candidate = name if _NAME.match(name) else f"blank{index + 1}"
    while candidate in taken:
        candidate = f"{candidate}_{index + 1}"
    taken.add(candidate)
    return candidate


def read_canvas_blanks(item, kind: str, interactions: list[etree._Element], common: dict, unsupported) -> Question:
    from .qti import _plain

    stem: Text = common["stem"]
    source = stem.source
    blanks, taken = [], set()
    scored = _scored(item.root)
    for index, interaction in enumerate(interactions):
        if interaction.tag != "choiceInteraction":
            raise unsupported(f"a Canvas {kind.replace('_', ' ')} with a {interaction.tag}")
        response = interaction.get("responseIdentifier") or ""
        shown_name = (interaction.findtext("prompt") or response.removeprefix("response_")).strip()
        name = _name(response, index, taken)
        placeholder = re.compile(r"(?<!\[)\[" + re.escape(shown_name) + r"\](?!\])")
        if not placeholder.search(source):
            raise unsupported(f"the blank [{shown_name}] does not stand in the text")
        source = placeholder.sub(lambda _: f"[[{name}]]", source, count=1)
        choices = [(c.get("identifier") or "", _plain(c)) for c in interaction.findall("simpleChoice")]
        if kind == MULTIPLE_DROPDOWNS:
            right = [i for i, _ in choices if (response, i) in scored]
            if len(right) != 1:
                raise unsupported(f"the drop-down [{shown_name}] has {len(right)} right options where the content format takes one")
            blanks.append(DropdownBlank(id=name, options=tuple(DropdownOption(id=f"o{k + 1}", text=t, correct=i in right, credit=1.0 if i in right else 0.0)
                                                               for k, (i, t) in enumerate(choices))))
        else:
            texts = list(dict.fromkeys(t for _, t in choices if t))
            if not texts:
                raise unsupported(f"the blank [{shown_name}] accepts no answer")
            said = {}
            for identifier, text in choices:
                said.setdefault(text, item.value_feedback(identifier))
            blanks.append(ShortAnswerBlank(id=name, answers=tuple(AcceptedAnswer(text=t, feedback=said.get(t)) for t in texts)))
    return FillInBlanks(**{**common, "stem": Text(source, stem.format)}, feedback=item.outcome_feedback(), blanks=tuple(blanks))


def _scored(root: etree._Element) -> set[tuple[str, str]]:
    """(response, choice) pairs a rule adds a positive amount to SCORE for."""
    found = set()
    for branch in root.iter("responseIf", "responseElseIf"):
        if not len(branch) or branch[0].tag != "match":
            continue
        amount = branch.find("setOutcomeValue[@identifier='SCORE']/sum/baseValue")
        variable, value = branch[0].find("variable"), branch[0].find("baseValue")
        try:
            positive = amount is not None and float(amount.text or "0") > 0
        except ValueError:
            positive = False
        if positive and variable is not None and value is not None:
            found.add((variable.get("identifier"), (value.text or "").strip()))
    return found

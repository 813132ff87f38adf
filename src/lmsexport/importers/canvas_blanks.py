"""Canvas's fill_in_multiple_blanks_question and multiple_dropdowns_question, read as fill in the
blanks, with the meaning Canvas's importer gives them (lib/qti/fill_in_the_blank.rb):

- the text names each blank as [name]; each blank is a response_lid "response_<name>", and the
  content writes it [[name]] (a name that is not a content id is renamed, in the text too);
- in fill in multiple blanks every response_label of a blank is an accepted answer, worth full
  credit, whatever the conditions say; Canvas compares them without case;
- in drop-downs an option is right when a condition adding to SCORE names it;
- Canvas shares the points equally between the blanks (the SCORE amounts are not weights).
"""

from __future__ import annotations

import re

from lxml import etree

from ..model import AcceptedAnswer, DropdownBlank, DropdownOption, FillInBlanks, Question, ShortAnswerBlank, Text

FILL_IN_MULTIPLE_BLANKS = "fill_in_multiple_blanks_question"
MULTIPLE_DROPDOWNS = "multiple_dropdowns_question"
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


class Unreadable(ValueError):
    pass


def _content_name(name: str, taken: set[str]) -> str:
    candidate = name if _NAME.match(name) else (re.sub(r"[^A-Za-z0-9_-]", "_", name).strip("_") or "blank")
    if not candidate[0].isalpha():
        candidate = f"b_{candidate}"
    candidate = candidate[:64]  # a content id's length, as _NAME allows
    base, n = candidate, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    taken.add(candidate)
    return candidate


def _added_values(item: etree._Element, response: str) -> set[str]:
    """Label idents that a condition adding a positive amount to SCORE names for this response."""
    found = set()
    for condition in item.iter("respcondition"):
        adds = [s for s in condition.iter("setvar") if (s.get("varname") or "SCORE").upper() == "SCORE" and (s.get("action") or "").lower() == "add"]
        if not adds or not any((_number(s.text) or 0) > 0 for s in adds):
            continue
        for equal in condition.iter("varequal"):
            if (equal.get("respident") or "") == response and not any(a.tag == "not" for a in equal.iterancestors()):
                found.add((equal.text or "").strip())
    return found


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


def read_blanks(item: etree._Element, kind: str, common: dict, losses: list[str]) -> Question:
    stem: Text = common["stem"]
    source = stem.source
    lids = list(item.iter("response_lid"))
    if not lids:
        raise Unreadable(f"a Canvas {kind.replace('_', ' ')} with no blank")
    taken: set[str] = set()
    blanks = []
    for lid in lids:
        ident = lid.get("ident") or ""
        name = ident[len("response_"):] if ident.startswith("response_") else ident
        content = _content_name(name, taken)
        # Canvas's importer replaces the string "[name]" wherever it stands
        # (extended_text_interaction.rb), also beside brackets of the text: "[[[name]" is "[[" then it.
        placeholder = re.compile(re.escape(f"[{name}]"))
        places = len(placeholder.findall(source))
        if places:
            source = placeholder.sub(lambda _: f"[[{content}]]", source, count=1)
            if places > 1:
                losses.append(f"the blank [{name}] stands {places} times in the text: only its first place is a blank")
        else:
            source = f"{source} [[{content}]]"
            losses.append(f"the blank {name!r} has no [{name}] in the text (Canvas shows it nowhere): it is put at the end")
        if content != name:
            losses.append(f"the blank {name!r} is named {content!r}, a content id")
        # Stripped as Canvas strips them (Ruby's strip: ASCII white space only; a no-break space stays).
        labels = [(label.get("ident") or "", "".join(label.itertext()).strip(" \t\n\r\f\v")) for label in lid.iter("response_label")]
        if kind == MULTIPLE_DROPDOWNS:
            right = _added_values(item, ident)
            chosen = [i for i, _ in labels if i in right]
            if len(chosen) != 1:
                raise Unreadable(f"the drop-down [{name}] has {len(chosen)} right options where the content format takes one")
            options = tuple(DropdownOption(id=f"o{k + 1}", text=text, correct=i in right, credit=1.0 if i in right else 0.0)
                            for k, (i, text) in enumerate(labels))
            blanks.append(DropdownBlank(id=content, options=options))
        else:
            answers = tuple(AcceptedAnswer(text=text) for text in dict.fromkeys(t for _, t in labels if t))
            if not answers:
                raise Unreadable(f"the blank [{name}] accepts no answer")
            folded = {a.text.casefold() for a in answers}
            case = len(folded) < len(answers)  # Canvas compares without case: answers told apart by case mean it matters
            if case:
                losses.append(f"answers of blank {name!r} differ only in case: the blank is made case-sensitive")
            blanks.append(ShortAnswerBlank(id=content, answers=answers, case_sensitive=case))
    return FillInBlanks(**{**common, "stem": Text(source, stem.format)}, blanks=tuple(blanks))


def question_groups(bank_element: etree._Element, items: list[etree._Element], losses: list) -> list:
    """Canvas question groups: sections inside the assessment's root section, each drawing
    selection_number of its items (all of them: a shuffle), each worth points_per_item.
    Returns SourceSections over the items' places, and (place, points) where a group sets points."""
    from .finish import slug
    from .result import SourceSection

    place_of = {id(item): index for index, item in enumerate(items)}
    sections, points, taken = [], [], set()
    for section in bank_element.iter("section"):
        parent = section.getparent()
        if parent is None or parent.tag != "section":
            continue  # the root section holds the quiz itself
        if parent.getparent() is not None and parent.getparent().tag == "section":
            losses.append((f"the group {section.get('title') or section.get('ident')!r} inside another group: its questions join the outer group",
                           section.sourceline))
            continue
        places = [place_of[id(i)] for i in section.iter("item") if id(i) in place_of]
        title = section.get("title") or "Group"
        identifier = slug(title, 60) or "group"
        identifier = identifier if identifier[0].isalpha() else f"group-{identifier}"
        base, n = identifier, 2
        while identifier in taken:
            identifier, n = f"{base}-{n}", n + 1
        taken.add(identifier)
        number = _number(section.findtext("selection_ordering/selection/selection_number"))
        each = _number(section.findtext("selection_ordering/selection/selection_extension/points_per_item"))
        if section.find("selection_ordering/selection/sourcebank_ref") is not None and not places:
            losses.append((f"the group {title!r} draws from a question bank that is not in the package (left out)", section.sourceline))
            continue
        # A group draws its questions at random, all of them when selection_number is their number.
        pick = min(int(number), len(places)) if number is not None and number == int(number) and number > 0 else None
        shuffle = False
        sections.append(SourceSection(id=identifier, title=title, places=places, pick=pick, shuffle=shuffle, line=section.sourceline))
        if each is not None:
            points.extend((place, each) for place in places)
    return sections, points

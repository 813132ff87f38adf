"""The layout of a QTI assessmentTest: which items it shows, in which sections.

The quiz's sections are one level of assessmentSection: title, rubricBlock as the instructions,
`selection select` as the number drawn, `ordering shuffle` as the shuffle. lmsexport wraps the whole
test in one invisible section with none of these; a test part's only top-level section, or an
invisible one that neither draws, shuffles nor instructs, is such a wrapper too, and what it holds
is laid out directly. What the content's one level cannot hold (several test parts, sections
inside sections, draws with replacement) is flattened into the enclosing level, with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from .result import SourceSection

_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


def _shapes(section: etree._Element) -> bool:
    """The section draws, shuffles or instructs: it means something beyond holding items."""
    ordering = section.find("ordering")
    return section.find("selection") is not None or (ordering is not None and ordering.get("shuffle") == "true") \
        or section.find("rubricBlock") is not None


def _wrapper(section: etree._Element, siblings: int) -> bool:
    return not _shapes(section) and (siblings == 1 or section.get("visible") == "false")


class TestLayout:
    """Walks a test, calling `read(ref)` for each item reference in the order shown; `read` gives
    the item's place in the bank, or None when it could not be placed."""

    def __init__(self, read: Callable[[etree._Element], int | None], rich: Callable[[etree._Element], object], warn: Callable[[str, int | None], None]):
        self.read, self.rich, self.warn = read, rich, warn
        self.sections: list[SourceSection] = []
        self.taken: set[str] = set()

    def walk(self, root: etree._Element) -> list[SourceSection]:
        parts = root.findall("testPart")
        if not parts:  # not a valid test, but its items are still worth reading
            for reference in root.iter("assessmentItemRef"):
                self.read(reference)
        if len(parts) > 1:
            self.warn(f"the test has {len(parts)} test parts; the quiz shows their questions one after the other", parts[1].sourceline)
        for part in parts:
            tops = part.findall("assessmentSection")
            for top in tops:
                if _wrapper(top, len(tops)):
                    for child in top:
                        if child.tag == "assessmentItemRef":
                            self.read(child)
                        elif child.tag == "assessmentSection":
                            self.section(child)
                else:
                    self.section(top)
        return self.sections

    def section(self, element: etree._Element) -> None:
        places: list[int] = []
        self.collect(element, places)
        identifier = element.get("identifier") or ""
        identifier = identifier[len("section."):] if identifier.startswith("section.") else identifier
        if not _ID.match(identifier) or identifier.lower() in self.taken:
            base = re.sub(r"[^A-Za-z0-9_-]", "-", identifier).strip("-") or "section"
            base = base if base[0].isalpha() else f"s-{base}"
            identifier, n = base[:60], 2
            while identifier.lower() in self.taken:
                identifier, n = f"{base[:60]}-{n}", n + 1
        self.taken.add(identifier.lower())
        selection = element.find("selection")
        pick = None
        if selection is not None:
            try:
                pick = int(selection.get("select") or "")
            except ValueError:
                self.warn(f"the section {identifier!r} draws {selection.get('select')!r} questions, which is not a number: it draws none", selection.sourceline)
            if selection.get("withReplacement") == "true":
                self.warn(f"the section {identifier!r} draws with replacement, which the content format cannot state: it draws without", selection.sourceline)
        ordering = element.find("ordering")
        rubrics = [r for r in element.findall("rubricBlock") if "candidate" in (r.get("view") or "candidate")]
        if len(rubrics) > 1:
            self.warn(f"the section {identifier!r} has {len(rubrics)} rubric blocks: the first are its instructions", rubrics[1].sourceline)
        for rubric in element.findall("rubricBlock"):
            if rubric not in rubrics:
                self.warn(f"the section {identifier!r} has a rubric for {rubric.get('view')!r}, not for candidates (left out)", rubric.sourceline)
        title = element.get("title") or identifier
        self.sections.append(SourceSection(id=identifier, title=title, places=places, instructions=self.rich(rubrics[0]) if rubrics else None,
                                           pick=pick if pick and pick > 0 else None, shuffle=ordering is not None and ordering.get("shuffle") == "true",
                                           line=element.sourceline))

    def collect(self, element: etree._Element, places: list[int]) -> None:
        for child in element:
            if child.tag == "assessmentItemRef":
                place = self.read(child)
                if place is not None:
                    places.append(place)
            elif child.tag == "assessmentSection":
                what = []
                if child.find("selection") is not None:
                    what.append(f"its draw of {child.find('selection').get('select')}")
                if child.find("ordering") is not None and child.find("ordering").get("shuffle") == "true":
                    what.append("its shuffle")
                if child.find("rubricBlock") is not None:
                    what.append("its rubric")
                lost = f" ({', '.join(what)} left out)" if what else ""
                self.warn(f"the section {child.get('title') or child.get('identifier')!r} inside the section "
                          f"{element.get('title') or element.get('identifier')!r}: the content's sections do not nest, its questions "
                          f"join the outer section{lost}", child.sourceline)
                self.collect(child, places)


def shown_order(order: list[int], sections: list[SourceSection]) -> list[int]:
    """The questions as a quiz with this question order and these sections shows them: each
    section where its first question stands (as Quiz.layout does)."""
    owner = {place: s for s in sections for place in s.places}
    shown: list[int] = []
    done: set[int] = set()
    for place in order:
        section = owner.get(place)
        if section is None:
            shown.append(place)
        elif id(section) not in done:
            done.add(id(section))
            shown.extend(section.places)
    return shown


def in_listed_order(questions: list, sections: list[SourceSection], rank: Callable[[object], int]) -> tuple[list, list[SourceSection]]:
    """The questions in the order the manifest lists them (lmsexport lists them in the content's
    order, and a section may show its own in another), when that order shows them as the test
    does; else as the test shows them."""
    order = sorted(range(len(questions)), key=lambda i: rank(questions[i]))
    if shown_order(order, sections) != list(range(len(questions))):
        return questions, sections
    new_place = {old: new for new, old in enumerate(order)}
    for section in sections:
        section.places = [new_place[p] for p in section.places]
    return [questions[i] for i in order], sections

"""The assessmentTest: every item in content order in one testPart and one section."""

from __future__ import annotations

from lxml import etree

from .expressions import make, set_outcome
from .names import MAXSCORE, QTI, QTI_XSD, SCORE, XSI, number

_NSMAP = {None: QTI, "xsi": XSI}


def assessment_test(test_id: str, title: str, refs: list[tuple[str, str, float]]) -> etree._Element:
    """`refs` holds (item identifier, href, points) in the order the items are shown."""
    root = etree.Element(
        "{%s}assessmentTest" % QTI,
        nsmap=_NSMAP,
        attrib={"{%s}schemaLocation" % XSI: f"{QTI} {QTI_XSD}", "identifier": test_id, "title": title},
    )
    for name in (SCORE, MAXSCORE):
        root.append(make("outcomeDeclaration", identifier=name, cardinality="single", baseType="float"))
    part = make("testPart", identifier="part", navigationMode="nonlinear", submissionMode="individual")
    # An invisible section: Canvas turns a visible titled section into an extra text-only question.
    section = make("assessmentSection", identifier="section", title=title, visible="false")
    for item_id, href, points in refs:
        ref = make("assessmentItemRef", identifier=item_id, href=href)
        # Canvas takes a question's points from this weight, not from the item's MAXSCORE.
        ref.append(make("weight", identifier="points", value=number(points)))
        section.append(ref)
    part.append(section)
    root.append(part)
    # Item scores are already in points, so the test sums them without the weights.
    processing = make("outcomeProcessing")
    for name in (SCORE, MAXSCORE):
        processing.append(set_outcome(name, make("sum", make("testVariables", variableIdentifier=name))))
    root.append(processing)
    return root

"""The assessmentTest: every item in content order in one testPart and one section."""

from __future__ import annotations

from .markup import DECLARATION, attribute
from .names import MAXSCORE, QTI, QTI_XSD, SCORE, XSI, number

_OUTCOMES = "".join(f'\n  <outcomeDeclaration identifier="{name}" cardinality="single" baseType="float"/>' for name in (SCORE, MAXSCORE))
# Item scores are already in points, so the test sums them without the weights.
_PROCESSING = (
    "\n  <outcomeProcessing>"
    + "".join(
        f'<setOutcomeValue identifier="{name}"><sum><testVariables variableIdentifier="{name}"/></sum></setOutcomeValue>'
        for name in (SCORE, MAXSCORE)
    )
    + "</outcomeProcessing>"
)


def assessment_test(test_id: str, title: str, refs: list[tuple[str, str, float]]) -> bytes:
    """`refs` holds (item identifier, href, points) in the order the items are shown."""
    name = attribute(title)
    head = (
        f'{DECLARATION}<assessmentTest xmlns="{QTI}" xmlns:xsi="{XSI}" xsi:schemaLocation="{QTI} {QTI_XSD}"'
        f' identifier="{attribute(test_id)}" title="{name}">{_OUTCOMES}'
        '\n  <testPart identifier="part" navigationMode="nonlinear" submissionMode="individual">'
        # An invisible section: Canvas turns a visible titled section into an extra text-only question.
        f'\n    <assessmentSection identifier="section" title="{name}" visible="false">'
    )
    # Canvas takes a question's points from the weight, not from the item's MAXSCORE.
    items = "".join(
        f'\n      <assessmentItemRef identifier="{item_id}" href="{attribute(href)}">'
        f'<weight identifier="points" value="{number(points)}"/></assessmentItemRef>'
        for item_id, href, points in refs
    ).encode()
    return b"".join((head.encode(), items, ("\n    </assessmentSection>\n  </testPart>" + _PROCESSING + "\n</assessmentTest>\n").encode()))

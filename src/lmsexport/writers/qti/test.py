"""The assessmentTest: one testPart and one invisible section holding the items in the order
they are shown, and the quiz's sections as nested assessmentSections (selection and ordering for
random draws and shuffling, the instructions as a rubricBlock)."""

from __future__ import annotations

from ..xml import DECLARATION, attribute, number
from .names import MAXSCORE, QTI, QTI_XSD, SCORE, XSI

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


Ref = tuple[str, str, float]  # item identifier, href, points


def assessment_test(test_id: str, title: str, groups: list[tuple[tuple[str, str, int | None, bool, str] | None, list[Ref]]]) -> bytes:
    """`groups`: runs of item refs in the order shown, each with its section as (identifier,
    title, pick, shuffle, rubric markup) or None for questions in no section."""
    name = attribute(title)
    head = (
        f'{DECLARATION}<assessmentTest xmlns="{QTI}" xmlns:xsi="{XSI}" xsi:schemaLocation="{QTI} {QTI_XSD}"'
        f' identifier="{attribute(test_id)}" title="{name}">{_OUTCOMES}'
        '\n  <testPart identifier="part" navigationMode="nonlinear" submissionMode="individual">'
        # An invisible section: Canvas turns a visible titled section into an extra text-only question.
        f'\n    <assessmentSection identifier="section" title="{name}" visible="false">'
    )
    parts = [head]
    for section, refs in groups:
        indent = "\n      "
        if section is not None:
            identifier, section_title, pick, shuffle, rubric = section
            parts.append(f'{indent}<assessmentSection identifier="{identifier}" title="{attribute(section_title)}" visible="true">')
            if pick is not None:
                parts.append(f'<selection select="{pick}"/>')
            if shuffle:
                parts.append('<ordering shuffle="true"/>')
            if rubric:
                parts.append(f'<rubricBlock view="candidate">{rubric}</rubricBlock>')
            indent = "\n        "
        # Canvas takes a question's points from the weight, not from the item's MAXSCORE.
        parts.extend(
            f'{indent}<assessmentItemRef identifier="{item_id}" href="{attribute(href)}">'
            f'<weight identifier="points" value="{number(points)}"/></assessmentItemRef>'
            for item_id, href, points in refs
        )
        if section is not None:
            parts.append("\n      </assessmentSection>")
    parts.append("\n    </assessmentSection>\n  </testPart>" + _PROCESSING + "\n</assessmentTest>\n")
    return "".join(parts).encode()

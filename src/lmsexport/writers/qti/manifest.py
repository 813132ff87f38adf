"""imsmanifest.xml: IMS Content Packaging 1.1 with IMS Metadata 1.2 (LOM), laid out as lxml's
pretty printer would (TAO's metadata reader depends on the indentation, see lom.py)."""

from __future__ import annotations

from typing import NamedTuple

from .lom import item_lom
from ..xml import DECLARATION, attribute
from .names import CP, CP_XSD, MD, MD_XSD, QTI, XSI

ITEM_TYPE = "imsqti_item_xmlv2p1"
TEST_TYPE = "imsqti_test_xmlv2p1"
MEDIA_TYPE = "webcontent"


class Resource(NamedTuple):
    """One resource of the manifest. (A named tuple: made once per question, and a frozen
    dataclass costs several times as much to make.)"""

    identifier: str
    kind: str
    href: str | None  # None for media: see `_resource`
    title: str
    language: str
    keywords: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()
    # Files the resource uses besides its own: an item lists the media it shows, as importers
    # (Canvas, TAO) copy the files an item resource names.
    files: tuple[str, ...] = ()
    # Ready-made LOM (the test's); otherwise one is written from the title, language and keywords.
    lom: str | None = None
    # The question type Canvas must take, for an item whose type it cannot guess (see `canvas_type`).
    canvas_type: str | None = None


def canvas_type(question_type: str) -> str:
    """Canvas's qti_exporter takes an item's type from an `interactionType` of the QTI namespace in
    its manifest metadata (assessment_item_converter.rb, get_interaction_type) and otherwise
    guesses it from the interactions, making an "Error" of an item without any. CP metadata takes
    elements of any other namespace, checked only where their schema declares them, and QTI 2.1
    declares no global `interactionType` in its own namespace: the package stays valid."""
    return f'\n        <interactionType xmlns="{QTI}">{question_type}</interactionType>'


def _resource(resource: Resource) -> str:
    own = f' href="{attribute(resource.href)}"' if resource.href is not None else ""
    lines = [f'\n    <resource identifier="{attribute(resource.identifier)}" type="{resource.kind}"{own}>']
    if resource.kind != MEDIA_TYPE:
        lom = resource.lom if resource.lom is not None else item_lom(resource.title, resource.language, resource.keywords, 4)
        marked = canvas_type(resource.canvas_type) if resource.canvas_type else ""
        lines.append(f"\n      <metadata>{lom}{marked}\n      </metadata>")
    if resource.href is not None:
        lines.append(f'\n      <file{own}/>')
    if resource.files:  # most items show no media and depend on nothing
        lines.extend([f'\n      <file href="{attribute(f)}"/>' for f in resource.files])
    if resource.dependencies:
        lines.extend([f'\n      <dependency identifierref="{attribute(d)}"/>' for d in resource.dependencies])
    lines.append("\n    </resource>")
    return "".join(lines)


def manifest(manifest_id: str, lom: str, resources: list[Resource]) -> bytes:
    """`lom` is the package's LOM, written at depth 2."""
    head = (
        f'{DECLARATION}<manifest xmlns="{CP}" xmlns:imsmd="{MD}" xmlns:xsi="{XSI}" identifier="{attribute(manifest_id)}"'
        f' xsi:schemaLocation="{CP} {CP_XSD} {MD} {MD_XSD}">'
        # Canvas reads a package as QTI 2 when this schema names QTIv2.x.
        "\n  <metadata>\n    <schema>QTIv2.1 Package</schema>\n    <schemaversion>1.0.0</schemaversion>"
        f"{lom}\n  </metadata>\n  <organizations/>\n  <resources>"
    )
    # Encoded resource by resource: one emoji makes a whole Python string four bytes a character,
    # and a bank's manifest is megabytes long.
    parts = [head.encode()]
    parts.extend(_resource(r).encode() for r in resources)
    parts.append(b"\n  </resources>\n</manifest>\n")
    return b"".join(parts)

"""imsmanifest.xml as Canvas's QTI export writes it (lib/cc/qti/qti_manifest.rb, qti_generator.rb)."""

from __future__ import annotations

from lxml import etree

from ...model import MediaFile, Quiz
from . import identifiers
from .media import href, resource_ident

NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
IMSMD = "http://www.imsglobal.org/xsd/imsmd_v1p2"
LOM = "http://ltsc.ieee.org/xsd/imsccv1p1/LOM/resource"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = (
    f"{NS} http://www.imsglobal.org/xsd/imscp_v1p1.xsd "
    f"{LOM} http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lomresource_v1p0.xsd "
    f"{IMSMD} http://www.imsglobal.org/xsd/imsmd_v1p2p2.xsd"
)
# Not a QTI 2 namespace nor a "QTIv2." schema: Canvas then converts the package as QTI 1.2.
QTI_RESOURCE = "imsqti_xmlv1p2"
META_RESOURCE = "associatedcontent/imscc_xmlv1p1/learning-application-resource"
MEDIA_RESOURCE = "webcontent"


def _sub(parent: etree._Element, ns: str, name: str, attrib: dict[str, str] | None = None, text: str | None = None):
    element = etree.SubElement(parent, f"{{{ns}}}{name}", attrib or {})
    if text is not None:
        element.text = text
    return element


def paths(quiz: Quiz) -> tuple[str, str]:
    """The assessment file and assessment_meta.xml, in a folder named after the assessment ident
    (the importer finds the metadata of quiz X at X/assessment_meta.xml)."""
    ident = identifiers.assessment_ident(quiz)
    return f"{ident}/{ident}.xml", f"{ident}/assessment_meta.xml"


def manifest_document(quiz: Quiz, media: list[MediaFile] = ()) -> etree._Element:
    root = etree.Element(f"{{{NS}}}manifest", nsmap={None: NS, "lom": LOM, "imsmd": IMSMD, "xsi": XSI})
    root.set("identifier", identifiers.manifest_ident(quiz))
    root.set(f"{{{XSI}}}schemaLocation", SCHEMA_LOCATION)
    metadata = _sub(root, NS, "metadata")
    _sub(metadata, NS, "schema", text="IMS Content")
    _sub(metadata, NS, "schemaversion", text="1.1.3")
    lom = _sub(metadata, IMSMD, "lom")
    _sub(_sub(_sub(lom, IMSMD, "general"), IMSMD, "title"), IMSMD, "string", text=quiz.title)
    if quiz.source is not None and quiz.source.license:
        rights = _sub(lom, IMSMD, "rights")
        _sub(_sub(rights, IMSMD, "copyrightAndOtherRestrictions"), IMSMD, "value", text="yes")
        _sub(_sub(rights, IMSMD, "description"), IMSMD, "string", text=quiz.source.license)
    _sub(root, NS, "organizations")
    resources = _sub(root, NS, "resources")
    assessment_path, meta_path = paths(quiz)
    quiz_resource = _sub(resources, NS, "resource", {"identifier": identifiers.assessment_ident(quiz), "type": QTI_RESOURCE})
    _sub(quiz_resource, NS, "file", {"href": assessment_path})
    _sub(quiz_resource, NS, "dependency", {"identifierref": identifiers.meta_ident(quiz)})
    meta_resource = _sub(
        resources, NS, "resource", {"identifier": identifiers.meta_ident(quiz), "type": META_RESOURCE, "href": meta_path}
    )
    _sub(meta_resource, NS, "file", {"href": meta_path})
    # As Canvas's QTI export lists course files: the importer makes a course file of each <file>.
    for file in media:
        address = href(file.path)
        resource = _sub(resources, NS, "resource", {"identifier": resource_ident(quiz, file), "type": MEDIA_RESOURCE, "href": address})
        _sub(resource, NS, "file", {"href": address})
    return root

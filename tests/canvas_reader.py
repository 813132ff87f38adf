"""Reads a Canvas QTI 1.2 package back the way Canvas's importer does, for the Canvas tests.

It follows gems/plugins/qti_exporter: the type and points from the item metadata, an answer is
right when the condition naming it sets a positive SCORE (or, for multiple answers, sits directly
in the scoring <and>), short answers are the texts of the scoring condition, feedback is found by
the itemfeedback ident (general_fb, correct_fb, general_incorrect_fb, <answer id>_fb).
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field

from lxml import etree

QTI = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
CP = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
CANVAS = "{http://canvas.instructure.com/xsd/cccv1p0}"


@dataclass
class Item:
    ident: str
    title: str
    question_type: str
    points: float
    answer_ids: list[str]
    stem_html: str
    labels: dict[str, str] = field(default_factory=dict)  # answer id -> mattext (unescaped HTML or plain)
    right: list[str] = field(default_factory=list)  # right answer ids, or texts for short answers
    feedback: dict[str, str] = field(default_factory=dict)  # itemfeedback ident -> HTML
    answer_feedback: dict[str, str] = field(default_factory=dict)  # answer id or text -> feedback ident
    numeric: list[tuple[str, ...]] = field(default_factory=list)
    matches: dict[str, str] = field(default_factory=dict)  # prompt answer id -> right match text
    prompts: dict[str, str] = field(default_factory=dict)  # prompt answer id -> prompt HTML
    offered: list[str] = field(default_factory=list)  # right-hand texts offered in matching


@dataclass
class Package:
    names: list[str]
    manifest: etree._Element
    assessment: etree._Element
    meta: etree._Element
    items: list[Item]


# The writer spells the references of escaped text as numbers (Canvas's plain-text twin of a text
# keeps them); HTML means the same either way, so HTML is read back with the named ones.
_NAMED = {"&#38;": "&amp;", "&#60;": "&lt;", "&#62;": "&gt;", "&#34;": "&quot;"}


def _text(element) -> str:
    value = element.text or ""
    if element.tag == f"{QTI}mattext" and element.get("texttype") == "text/html" and "&#" in value:
        for numeric, named in _NAMED.items():
            value = value.replace(numeric, named)
    return value


def _fields(item) -> dict[str, str]:
    return {
        _text(f.find(f"{QTI}fieldlabel")): _text(f.find(f"{QTI}fieldentry"))
        for f in item.iter(f"{QTI}qtimetadatafield")
    }


def read_item(element) -> Item:
    fields = _fields(element)
    presentation = element.find(f"{QTI}presentation")
    item = Item(
        ident=element.get("ident"),
        title=element.get("title"),
        question_type=fields["question_type"],
        points=float(fields["points_possible"]),
        answer_ids=[i for i in fields["original_answer_ids"].split(",") if i],
        stem_html=_text(presentation.find(f"{QTI}material/{QTI}mattext")),
    )
    for feedback in element.findall(f"{QTI}itemfeedback"):
        item.feedback[feedback.get("ident")] = _text(feedback.find(f".//{QTI}mattext"))
    if item.question_type == "matching_question":
        for lid in presentation.findall(f"{QTI}response_lid"):
            answer_id = lid.get("ident").removeprefix("response_")
            item.prompts[answer_id] = _text(lid.find(f"{QTI}material/{QTI}mattext"))
            offered = {l.get("ident"): _text(l.find(f".//{QTI}mattext")) for l in lid.iter(f"{QTI}response_label")}
            item.offered = list(offered.values())
            item.labels.update(offered)
    else:
        for label in presentation.iter(f"{QTI}response_label"):
            mattext = label.find(f".//{QTI}mattext")
            if mattext is not None:
                item.labels[label.get("ident")] = _text(mattext)
    resprocessing = element.find(f"{QTI}resprocessing")
    if resprocessing is None:
        return item
    for condition in resprocessing.findall(f"{QTI}respcondition"):
        conditionvar = condition.find(f"{QTI}conditionvar")
        setvar = condition.find(f"{QTI}setvar")
        scores = setvar is not None and float(setvar.text) > 0
        links = [d.get("linkrefid") for d in condition.findall(f"{QTI}displayfeedback")]
        direct = conditionvar.findall(f"{QTI}varequal")
        if item.question_type == "matching_question":
            if scores and setvar.get("action") == "Add":
                answer_id = direct[0].get("respident").removeprefix("response_")
                item.matches[answer_id] = item.labels[direct[0].text]
            continue
        if item.question_type == "numerical_question":
            if scores:
                either = conditionvar.find(f"{QTI}or")
                if either is not None:
                    bounds = either.find(f"{QTI}and")
                    item.numeric.append(
                        ("exact", either.find(f"{QTI}varequal").text, bounds.find(f"{QTI}vargte").text, bounds.find(f"{QTI}varlte").text)
                    )
                else:
                    item.numeric.append(("range", conditionvar.find(f"{QTI}vargte").text, conditionvar.find(f"{QTI}varlte").text))
                own = [l for l in links if l not in ("correct_fb", None)]
                if own:
                    item.answer_feedback[str(len(item.numeric) - 1)] = own[0]
            continue
        both = conditionvar.find(f"{QTI}and")
        if scores and both is not None:
            item.right.extend(v.text for v in both.findall(f"{QTI}varequal"))
        elif scores:
            item.right.extend(v.text for v in direct)
        elif len(direct) == 1 and links:
            item.answer_feedback.setdefault(direct[0].text, links[0])
    return item


def read_package(data: bytes) -> Package:
    archive = zipfile.ZipFile(io.BytesIO(data))
    names = archive.namelist()
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    manifest = etree.fromstring(archive.read("imsmanifest.xml"), parser)
    qti_resource = manifest.find(f"{CP}resources/{CP}resource[@type='imsqti_xmlv1p2']")
    assessment = etree.fromstring(archive.read(qti_resource.find(f"{CP}file").get("href")), parser)
    meta_resource = manifest.find(f"{CP}resources/{CP}resource[@identifier='{qti_resource.find(f'{CP}dependency').get('identifierref')}']")
    meta = etree.fromstring(archive.read(meta_resource.find(f"{CP}file").get("href")), parser)
    items = [read_item(e) for e in assessment.iter(f"{QTI}item")]
    return Package(names, manifest, assessment, meta, items)

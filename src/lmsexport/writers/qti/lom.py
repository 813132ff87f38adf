"""IMS Metadata 1.2 (LOM) for the manifest: the quiz's own data, and each item's title and tags.

Where each value goes (all valid under imsmd_v1p2p4.xsd, in the order lomType requires):
- title, language, description, tags: general/title, language, description, keyword;
- difficulty: educational/difficulty in the LOMv1.0 vocabulary (hard is its "difficult");
- level: educational/description, in the quiz's language;
- licence: rights/description;
- learning path: a relation of kind "ispartof" whose resource description is the path;
- source: a relation of kind "isbasedon": its name as the resource description, its URL as a
  catalog entry of the catalog "URI";
- category: a classification of purpose "discipline" with one taxon per level, outermost first.

TAO's manifest reader (ImsManifestMetadataExtractor) keys each value by its chain of prefixed
element names under the prefixes declared on <manifest>, and only descends into an element with
more than one child node: the metadata must keep the `imsmd:` prefix and its indentation.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model import Quiz
from ..xml import attribute, text

VOCABULARY = "LOMv1.0"
# Vocabulary values and identifiers are in no human language.
NO_LANGUAGE = "x-none"
DIFFICULTY = {"easy": "easy", "medium": "medium", "hard": "difficult"}


@dataclass(frozen=True, slots=True)
class Node:
    """An imsmd element: `content` is its text, or its children."""

    tag: str
    content: str | tuple[Node, ...]
    language: str | None = None


def langstring(value: str, language: str) -> Node:
    return Node("langstring", value, language)


def _vocabulary(tag: str, value: str) -> Node:
    return Node(tag, (Node("source", (langstring(VOCABULARY, NO_LANGUAGE),)), Node("value", (langstring(value, NO_LANGUAGE),))))


def quiz_lom(quiz: Quiz, keywords: tuple[str, ...]) -> Node:
    language = quiz.language
    general: list[Node] = [Node("title", (langstring(quiz.title, language),)), Node("language", language)]
    if quiz.description is not None:
        general.append(Node("description", (langstring(quiz.description.source, language),)))
    general.extend(Node("keyword", (langstring(k, language),)) for k in keywords)
    parts = [Node("general", tuple(general))]

    educational = []
    if quiz.difficulty is not None:
        educational.append(_vocabulary("difficulty", DIFFICULTY[quiz.difficulty]))
    if quiz.level is not None:
        educational.append(Node("description", (langstring(quiz.level, language),)))
    if educational:
        parts.append(Node("educational", tuple(educational)))

    source = quiz.source
    if source is not None and source.license is not None:
        parts.append(Node("rights", (Node("description", (langstring(source.license, NO_LANGUAGE),)),)))
    if quiz.learning_path is not None:
        path = Node("resource", (Node("description", (langstring(quiz.learning_path, language),)),))
        parts.append(Node("relation", (_vocabulary("kind", "ispartof"), path)))
    if source is not None and (source.name is not None or source.url is not None):
        origin = []
        if source.name is not None:
            origin.append(Node("description", (langstring(source.name, language),)))
        if source.url is not None:
            entry = Node("entry", (langstring(source.url, NO_LANGUAGE),))
            origin.append(Node("catalogentry", (Node("catalog", "URI"), entry)))
        parts.append(Node("relation", (_vocabulary("kind", "isbasedon"), Node("resource", tuple(origin)))))
    if quiz.category:
        taxa = tuple(Node("taxon", (Node("entry", (langstring(name, language),)),)) for name in quiz.category)
        parts.append(Node("classification", (_vocabulary("purpose", "discipline"), Node("taxonpath", taxa))))
    return Node("lom", tuple(parts))


def write(node: Node, depth: int) -> str:
    """The element on lines of its own, indented two spaces a level, from `depth`."""
    pad = "\n" + "  " * depth
    lang = f' xml:lang="{attribute(node.language)}"' if node.language is not None else ""
    if isinstance(node.content, str):
        return f"{pad}<imsmd:{node.tag}{lang}>{text(node.content)}</imsmd:{node.tag}>"
    inner = "".join(write(child, depth + 1) for child in node.content)
    return f"{pad}<imsmd:{node.tag}{lang}>{inner}{pad}</imsmd:{node.tag}>"


def item_lom(title: str, language: str, keywords: tuple[str, ...], depth: int) -> str:
    """The LOM of one item: as `write` would lay it out, from a template (one per question)."""
    pad = "\n" + "  " * depth
    lang = attribute(language)
    words = "".join(
        f'{pad}    <imsmd:keyword>{pad}      <imsmd:langstring xml:lang="{lang}">{text(k)}</imsmd:langstring>{pad}    </imsmd:keyword>'
        for k in keywords
    )
    return (
        f"{pad}<imsmd:lom>{pad}  <imsmd:general>{pad}    <imsmd:title>"
        f'{pad}      <imsmd:langstring xml:lang="{lang}">{text(title)}</imsmd:langstring>{pad}    </imsmd:title>'
        f"{pad}    <imsmd:language>{text(language)}</imsmd:language>{words}{pad}  </imsmd:general>{pad}</imsmd:lom>"
    )

"""Editor support in the quiz schema: markdownDescription everywhere, per-value descriptions for
enums, and each property's own description on hover rather than that of the type it refers to.

Run after editing src/lmsexport/quiz.schema.json (it also refreshes the copy in schema/); running
it twice changes nothing. tests/test_editor_schema.py fails when it is needed.

    python3 tools/editor_schema.py
"""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
path = ROOT / "src" / "lmsexport" / "quiz.schema.json"
schema = json.loads(path.read_text(encoding="utf-8"))
defs = schema["$defs"]

STEM = ("The stem: the question itself, as the learner sees it before any option or answer box (the prompt, "
        "problem or statement to respond to; for a description item, the text shown).")
TEXT_NOTE = "A string in the quiz's text_format, or {\"text\": \"...\", \"format\": \"plain\" | \"markdown\"}."
FORMATS = {
    "plain": "Shown exactly as written: no markup, every character as typed.",
    "markdown": "CommonMark with tables, $...$ math and images of media files beside the quiz; raw HTML is shown as text, never run.",
}
DIFFICULTY = {"easy": "Most learners answer it right.", "medium": "About half the learners answer it right.",
              "hard": "Few learners answer it right."}
TYPES = {name: defs[name]["properties"]["type"]["description"] for name in defs["question"]["properties"]["type"]["enum"]
         if name in defs and "description" in defs[name].get("properties", {}).get("type", {})}

# A $ref'd type's description wins the hover over the property's own (the editor reports the
# innermost schema that matches), so the shared types keep theirs only where nothing else
# describes the value: their words move into each property that uses them.
SHARED = {
    "#/$defs/text": TEXT_NOTE,
    "#/$defs/language": "A BCP 47 language tag such as 'wo', 'nl', 'en' or 'pt-BR'.",
    "#/$defs/identifier": ("A stable identifier: letters, digits, '-' and '_', starting with a letter. Exports derive "
                           "their identifiers from it, so keep it when the text changes."),
    "#/$defs/credit": ("What this answer is worth as a fraction of the question's points, from -1 (lose them all) "
                       "to 1 (all of them)."),
}
for ref in SHARED:
    shared_def = defs[ref.rsplit("/", 1)[1]]
    shared_def.pop("description", None)
    shared_def.pop("markdownDescription", None)
    for branch in shared_def.get("oneOf", ()):
        branch.pop("description", None)
        branch.pop("markdownDescription", None)


def sentence(*parts: str) -> str:
    return " ".join(p.strip() for p in parts if p)


def walk(node, key=None):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref in SHARED:
            own = STEM if key == "stem" else node.get("description", "").replace(SHARED[ref], "").strip()
            node["description"] = sentence(own, SHARED[ref])
        if "description" in node:
            node["markdownDescription"] = node["description"]
        for k, value in list(node.items()):
            if k in ("properties", "$defs"):
                for name, sub in value.items():
                    walk(sub, name)
            elif k not in ("enum", "const", "examples", "default", "description", "markdownDescription"):
                walk(value, None)
    elif isinstance(node, list):
        for item in node:
            walk(item, None)


ORDERING_GRADING = {
    "all_or_nothing": "Full marks only when every item is in its place; otherwise none.",
    "absolute_position": "A share of the marks for each item in its right position.",
    "relative_next_exclude_last": "A share for each item followed by its right next item (the last item does not count).",
    "relative_next_include_last": "A share for each item followed by its right next item, and for the last item when it is last.",
    "relative_one_previous_and_next": "A share for each right neighbour, before and after each item.",
    "relative_all_previous_and_next": "A share for every item rightly placed before and after each item.",
    "longest_ordered_subset": "Marks for the longest set of items in the right relative order, gaps allowed.",
    "longest_contiguous_subset": "Marks for the longest run of adjacent items in the right order.",
}
LAYOUT = {"vertical": "Items one under the other.", "horizontal": "Items side by side, in one row."}


def meanings_from_branches(owner: dict, name: str) -> dict[str, str]:
    """Each value's words from the if/then branch it selects (the question and blank types)."""
    found = {}
    for branch in owner.get("allOf", ()):
        value = branch.get("if", {}).get("properties", {}).get(name, {}).get("const")
        target = branch.get("then", {}).get("$ref", "")
        if value is not None and target.startswith("#/$defs/"):
            described = defs[target.rsplit("/", 1)[1]].get("properties", {}).get(name, {}).get("description")
            if described:
                found[value] = described
    return found


def describe_enum(node: dict, meanings: dict[str, str]) -> None:
    assert set(meanings) >= set(node["enum"]), f"say what each value means: {sorted(set(node['enum']) - set(meanings))}"
    node["enumDescriptions"] = [meanings[v] for v in node["enum"]]
    node["markdownEnumDescriptions"] = [meanings[v] for v in node["enum"]]


walk(schema)
describe_enum(schema["properties"]["difficulty"], DIFFICULTY)
describe_enum(schema["properties"]["text_format"], FORMATS)
describe_enum(defs["text"]["oneOf"][1]["properties"]["format"], FORMATS)
describe_enum(defs["question"]["properties"]["type"], {**TYPES, **meanings_from_branches(defs["question"], "type")})
if "blank" in defs:
    describe_enum(defs["blank"]["properties"]["type"], meanings_from_branches(defs["blank"], "type"))
if "ordering" in defs:
    describe_enum(defs["ordering"]["properties"]["grading"], ORDERING_GRADING)
    describe_enum(defs["ordering"]["properties"]["layout"], LAYOUT)
text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
path.write_text(text, encoding="utf-8")
(ROOT / "schema" / "quiz.schema.json").write_text(text, encoding="utf-8")

"""Importing the third-party corpora in ../shared/corpora (and the public QTI 2.1 samples in
../shared/fixtures): every file, and the share of questions imported exactly, per corpus.

A question is imported exactly when it arrives as a question (not a draft) with no warning about
what could not be carried, and, where the corpus states the expected result (Moodle's own GIFT
test expectations, gift-pegjs's parses), with the type, answers, right answers and weights it
states.

    .venv/bin/python tests/import_corpora.py            # prints the table the README quotes
    .venv/bin/python tests/import_corpora.py --misses   # each question not imported exactly, and why
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from lmsexport.importers import import_data  # noqa: E402
from lmsexport.model import Question  # noqa: E402

CORPORA = {
    "moodle-xml": ("corpora/moodle-xml", ("*.xml", "*.txt")),
    "moodle-gift": ("corpora/moodle-gift", ("*.gift.txt",)),
    "gift-pegjs": ("corpora/gift-pegjs", ("*.gift",)),
    "canvas-qti": ("corpora/canvas-qti", ("*.xml",)),
    "qti21 samples": ("fixtures", ("qti21/items/*.xml", "qti21/packages/*.zip", "canvas/ims-qti21-examples/items/*.xml", "canvas/*.zip")),
}

_PEGJS_TYPES = {"MC": ("single_choice", "multiple_response"), "TF": ("true_false",), "Short": ("short_answer",),
                "Numerical": ("numerical",), "Matching": ("matching",), "Essay": ("essay",), "Description": ("description",)}
_MOODLE_TYPES = {"multichoice": ("single_choice", "multiple_response"), "truefalse": ("true_false",), "shortanswer": ("short_answer",),
                 "numerical": ("numerical",), "match": ("matching",), "essay": ("essay",), "description": ("description",)}


@dataclass
class FileResult:
    path: Path
    questions: list[Question] = field(default_factory=list)
    warned: set[int] = field(default_factory=set)  # indexes of questions with a loss warning or a draft
    reasons: dict[int, list[str]] = field(default_factory=dict)  # index -> the warnings that name it
    errors: list[str] = field(default_factory=list)
    mismatches: dict[int, str] = field(default_factory=dict)  # index -> how it differs from the corpus's expectation

    @property
    def exact(self) -> int:
        return sum(1 for i, q in enumerate(self.questions) if not q.draft and i not in self.warned and i not in self.mismatches)


def corpus_files(shared: Path, name: str) -> list[Path]:
    folder, patterns = CORPORA[name]
    base = shared / folder
    files: set[Path] = set()
    for pattern in patterns:
        files.update(p for p in base.rglob(pattern) if p.is_file()) if "/" not in pattern else files.update(base.glob(pattern))
    return sorted(files)


def _format_of(path: Path) -> str:
    return "auto"  # judged by the content, as the command does


def import_file(path: Path) -> FileResult:
    result = FileResult(path)
    quizzes, problems = import_data(path.read_bytes(), str(path), _format_of(path))
    result.errors = [p.message for p in problems if p.is_error]
    offset = 0
    for quiz in quizzes:
        for diagnostic in quiz.diagnostics:
            if diagnostic.code in ("import-loss", "import-draft"):
                for index, line in quiz.lines.items():
                    # In a package every item is a file of its own: a warning names its member.
                    member = quiz.members.get(index)
                    if line == diagnostic.line and line is not None and (member is None or diagnostic.message.startswith(f"{member}: ")):
                        result.warned.add(offset + index)
                        result.reasons.setdefault(offset + index, []).append(diagnostic.message)
        for index, question in enumerate(quiz.quiz.questions):
            if question.draft:
                result.warned.add(offset + index)
                if offset + index not in result.reasons:  # a draft the file gives no line for: the warning names it
                    named = f"question {(question.title or question.id)!r}: "
                    said = [d.message for d in quiz.diagnostics if d.code == "import-draft" and named in d.message]
                    result.reasons[offset + index] = said[:1]
        result.questions.extend(quiz.quiz.questions)
        offset += len(quiz.quiz.questions)
    _compare_expected(result)
    return result


def _compare_expected(result: FileResult) -> None:
    path = result.path
    expected_path = path.with_name(path.name.replace(".gift.txt", ".expected.json"))
    if path.name.endswith(".gift.txt") and expected_path.exists() and expected_path != path:
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
        if expected.get("direction") == "import":
            _compare_moodle(result, expected)
        return
    pegjs = path.with_suffix(".json")
    if path.suffix == ".gift" and pegjs.exists():
        _compare_pegjs(result, [q for q in json.loads(pegjs.read_text(encoding="utf-8")) if q.get("type") != "Category"])


def _compare_moodle(result: FileResult, expected: dict) -> None:
    if not result.questions:
        return
    question = result.questions[0]
    problems = []
    kinds = _MOODLE_TYPES.get(expected.get("qtype"), ())
    if question.type not in kinds:
        problems.append(f"type {question.type} for Moodle's {expected.get('qtype')}")
    elif expected.get("qtype") == "multichoice":
        wanted = "single_choice" if expected.get("single") in (1, True, "1") else "multiple_response"
        if question.type != wanted:
            problems.append(f"type {question.type}, Moodle says {wanted}")
    if expected.get("name") and (question.title or question.id) != expected["name"] and question.title != expected["name"]:
        problems.append(f"name {question.title or question.id!r} != {expected['name']!r}")
    answers = expected.get("answers") or []
    if question.type == "numerical":  # '*' (any other answer) is the incorrect feedback in the content
        answers = [a for a in answers if a.get("text") != "*"]
    credits = [c.credit for c in getattr(question, "choices", ())] or [a.credit for a in getattr(question, "answers", ())]
    if answers and credits and [round(a["fraction"], 5) for a in answers] != [round(c, 5) for c in credits]:
        problems.append(f"fractions {credits} != {[a['fraction'] for a in answers]}")
    if "correctanswer" in expected and question.type == "true_false" and bool(expected["correctanswer"]) != question.answer:
        problems.append("true/false key")
    if problems:
        result.mismatches[0] = "; ".join(problems)


# gift-pegjs's type of a missing word question -> the kind of its one blank.
_PEGJS_BLANKS = {"MC": "dropdown", "Short": "short_answer", "Numerical": "numerical"}


class _BlankAsQuestion:
    """A blank seen as the question gift-pegjs reads: its options as choices, its answers."""

    def __init__(self, blank):
        self.choices = getattr(blank, "options", ())
        self.answers = getattr(blank, "answers", ())


def _compare_pegjs(result: FileResult, expected: list[dict]) -> None:
    if len(expected) != len(result.questions):
        for index in range(len(result.questions)):
            result.mismatches[index] = f"{len(result.questions)} questions where gift-pegjs reads {len(expected)}"
        return
    for index, (question, want) in enumerate(zip(result.questions, expected)):
        problems = []
        if want.get("hasEmbeddedAnswers") and want["type"] in _PEGJS_BLANKS:
            # The missing word form: one blank where gift-pegjs reads "_____".
            if question.type != "fill_in_blanks" or [b.kind for b in question.blanks] != [_PEGJS_BLANKS[want["type"]]]:
                problems.append(f"{question.type} for a {want['type']} missing word, not one {_PEGJS_BLANKS[want['type']]} blank")
            elif "[[b1]]" not in question.stem.source:
                problems.append("the blank is not where the answer block stood")
            question = _BlankAsQuestion(question.blanks[0])
        elif question.type not in _PEGJS_TYPES.get(want["type"], ()):
            problems.append(f"type {question.type} for {want['type']}")
        if problems:
            pass  # the type is wrong: nothing more to compare
        elif want["type"] == "MC":
            choices = question.choices
            if len(choices) != len(want["choices"]):
                problems.append("number of options")
            else:
                for got, option in zip(choices, want["choices"]):
                    if option.get("weight") is not None and abs(got.credit * 100 - option["weight"]) > 1e-3:
                        problems.append(f"weight {got.credit * 100} != {option['weight']}")
                    elif option.get("weight") is None and got.correct != option["isCorrect"]:
                        problems.append("right answer")
        elif want["type"] == "TF" and question.answer != want.get("isTrue"):
            problems.append("true/false key")
        elif want["type"] == "Short" and [a.text for a in question.answers] != [c["text"]["text"] if isinstance(c["text"], dict) else c["text"] for c in want["choices"]]:
            problems.append("accepted answers")
        if problems:
            result.mismatches[index] = "; ".join(problems)


def report(shared: Path) -> list[tuple[str, int, int, int, int]]:
    """(corpus, files, files refused, questions read, questions imported exactly)."""
    rows = []
    for name in CORPORA:
        results = [import_file(path) for path in corpus_files(shared, name)]
        rows.append((name, len(results), sum(1 for r in results if r.errors and not r.questions),
                     sum(len(r.questions) for r in results), sum(r.exact for r in results)))
    return rows


def misses(shared: Path) -> list[tuple[str, str, int, str]]:
    """(corpus, file, question number in the file, why) of every question not imported exactly."""
    found = []
    for name in CORPORA:
        for path in corpus_files(shared, name):
            result = import_file(path)
            for index, question in enumerate(result.questions):
                if question.draft or index in result.warned or index in result.mismatches:
                    why = [result.mismatches[index]] if index in result.mismatches else result.reasons.get(index, [])
                    found.append((name, str(path.relative_to(shared)), index + 1, " | ".join(why) or "a draft"))
    return found


def main() -> None:
    arguments = [a for a in sys.argv[1:] if a != "--misses"]
    shared = Path(arguments[0]) if arguments else ROOT.parent / "shared"
    if "--misses" in sys.argv:
        for name, file, number, why in misses(shared):
            print(f"{name}\t{file}\t#{number}\t{why}")
        return
    rows = report(shared)
    print("| corpus | files | files refused (located message) | questions read | imported exactly | share |")
    print("|---|---|---|---|---|---|")
    for name, files, refused, questions, exact in rows:
        share = f"{100 * exact / questions:.0f} %" if questions else "-"
        print(f"| {name} | {files} | {refused} | {questions} | {exact} | {share} |")


if __name__ == "__main__":
    main()

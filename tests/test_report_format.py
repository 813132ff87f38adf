"""The machine-readable side of the CLI: the versioned JSON report (checked against the schema
the package ships), the documented diagnostic codes, standard input and standard output."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conftest import CONTENT, DATA, ROOT

SRC = ROOT / "src" / "lmsexport"
REPORT_SCHEMA = json.loads((resources.files("lmsexport") / "report.schema.json").read_text(encoding="utf-8"))


def lmsexport(*args: str, stdin: bytes | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lmsexport", *args], input=stdin, capture_output=True, cwd=cwd, timeout=300)


CORPUS = [str(DATA / "bad"), str(DATA / "media_bad"), str(DATA / "media"), str(DATA / "every_type.json"), str(CONTENT)]


@pytest.fixture(scope="module")
def corpus_report() -> dict:
    result = lmsexport("validate", *CORPUS, "--output-format", "json")
    assert result.returncode == 1
    return json.loads(result.stdout)


def test_the_report_schema_is_a_valid_schema_printed_by_the_cli():
    Draft202012Validator.check_schema(REPORT_SCHEMA)
    printed = lmsexport("schema", "--report")
    assert printed.returncode == 0 and json.loads(printed.stdout) == REPORT_SCHEMA


def test_real_reports_match_the_shipped_schema(corpus_report):
    Draft202012Validator(REPORT_SCHEMA).validate(corpus_report)
    assert corpus_report["report_version"] == 1
    assert corpus_report["summary"]["errors"] == sum(d["severity"] == "error" for d in corpus_report["diagnostics"]) > 40
    clean = json.loads(lmsexport("validate", str(CONTENT), "--format", "json").stdout)  # the older spelling still works
    Draft202012Validator(REPORT_SCHEMA).validate(clean)
    assert clean["summary"]["errors"] == 0 and clean["summary"]["quizzes"] == 4


def test_the_schema_would_catch_a_changed_shape(corpus_report):
    broken = {**corpus_report, "diagnostics": [{**corpus_report["diagnostics"][0], "line": "3"}]}
    assert not Draft202012Validator(REPORT_SCHEMA).is_valid(broken)
    assert not Draft202012Validator(REPORT_SCHEMA).is_valid({k: v for k, v in corpus_report.items() if k != "report_version"})


# --- diagnostic codes -------------------------------------------------------------------------

_KEBAB = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")


def codes_in_source(src: Path = SRC) -> dict[str, str]:
    """Every diagnostic code written in the code base, with where: a `code=` argument or default,
    a literal passed where a function takes `code`, or a (code, message) pair yielded or
    collected into a list of problems."""
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(src.rglob("*.py"))}
    code_index: dict[str, int] = {}
    found: dict[str, str] = {}

    def add(value: ast.AST, where: str) -> None:
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
            found.setdefault(value.value, where)

    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                if "code" in names:
                    code_index[node.name] = names.index("code") - (1 if names[0] == "self" else 0)
                for arg, default in [*zip(reversed(node.args.args), reversed(node.args.defaults)), *zip(node.args.kwonlyargs, node.args.kw_defaults)]:
                    if arg.arg == "code" and default is not None:
                        add(default, f"{path.name}:{node.lineno}")
    for path, tree in trees.items():
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            pairs = []
            if isinstance(node, ast.Call):
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        add(keyword.value, where)
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if name in code_index and len(node.args) > code_index[name]:
                    add(node.args[code_index[name]], where)
                if name == "append" and "problem" in ast.unparse(node.func.value):
                    pairs += [a for a in node.args if isinstance(a, ast.Tuple)]
            if isinstance(node, ast.Yield) and isinstance(node.value, ast.Tuple):
                pairs.append(node.value)
            if isinstance(node, ast.AugAssign) and "problem" in ast.unparse(node.target) and isinstance(node.value, ast.ListComp) \
                    and isinstance(node.value.elt, ast.Tuple):
                pairs.append(node.value.elt)
            for pair in (p for p in pairs if len(p.elts) == 2):
                for this, other in (pair.elts, pair.elts[::-1]):
                    message_like = not isinstance(other, ast.Constant) or isinstance(other.value, str) and " " in other.value
                    if isinstance(this, ast.Constant) and isinstance(this.value, str) and _KEBAB.match(this.value) and message_like:
                        add(this, where)
    return found


def codes_in_readme() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Diagnostic codes", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^\| `([a-z0-9-]+)` \| (.+?) \|$", section, re.MULTILINE)}


def test_the_code_scan_finds_codes_of_every_kind():
    found = codes_in_source()
    # One of each way a code is written: keyword, forwarded argument, default, yielded pair, collected pair.
    for code in ("schema", "gift-essay", "qti-loss", "canvas-credit", "alt-text", "math"):
        assert code in found, code


def test_every_code_the_code_base_emits_is_documented_with_its_meaning():
    documented = codes_in_readme()
    missing = {code: where for code, where in codes_in_source().items() if code not in documented}
    assert not missing, f"codes not in the README's list: {missing}"
    assert all(len(meaning) > 10 for meaning in documented.values())


def test_the_readme_lists_no_code_that_is_never_emitted():
    stale = set(codes_in_readme()) - set(codes_in_source())
    assert not stale, stale


def test_every_code_seen_on_the_test_corpus_is_documented(corpus_report):
    seen = {d["code"] for d in corpus_report["diagnostics"]}
    assert len(seen) > 15
    assert seen <= set(codes_in_readme()), seen - set(codes_in_readme())


# --- standard input and output ----------------------------------------------------------------

def test_validate_reads_a_quiz_from_standard_input():
    quiz = (CONTENT / "model-pipeline-parallelism.json").read_bytes()
    result = lmsexport("validate", "-", stdin=quiz)
    assert result.returncode == 0 and b"1 quiz, 8 questions" in result.stdout
    broken = b'{\n  "id": "Bad Id",\n  "title": "t",\n  "language": "en",\n  "questions": []\n}\n'
    result = lmsexport("validate", "-", "--output-format", "json", stdin=broken)
    report = json.loads(result.stdout)
    assert result.returncode == 1
    assert {(d["file"], d["line"], d["pointer"]) for d in report["diagnostics"]} >= {("<stdin>", 2, "/id")}
    result = lmsexport("validate", "-", str(CONTENT), stdin=quiz)  # stdin and files together
    assert b"5 quizzes" in result.stdout


def test_validate_refuses_an_endless_standard_input_at_the_size_limit():
    result = subprocess.run(f'head -c 21000000 /dev/zero | "{sys.executable}" -m lmsexport validate -', shell=True,
                            capture_output=True, timeout=120, cwd=ROOT)
    assert result.returncode == 1 and b"over the 20 MB limit" in result.stdout


@pytest.mark.parametrize("format_name, start", [("moodle", b"<?xml"), ("gift", b"// quiz: model-pipeline-parallelism")])
def test_text_formats_write_one_quiz_to_standard_output(tmp_path, format_name, start):
    result = lmsexport(format_name, str(CONTENT / "model-pipeline-parallelism.json"), "-o", "-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(start)
    built = lmsexport(format_name, str(CONTENT / "model-pipeline-parallelism.json"), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert built.returncode == 0
    [written] = [p for p in (tmp_path / "out").iterdir() if not p.name.startswith(".")]  # not the build's own records
    assert written.read_bytes() == result.stdout  # the same bytes as the file
    assert not (tmp_path / "-").exists()


def test_standard_output_is_refused_where_it_makes_no_sense(tmp_path):
    assert lmsexport("qti", str(CONTENT / "model-pipeline-parallelism.json"), "-o", "-", cwd=tmp_path).returncode == 2
    several = lmsexport("moodle", str(CONTENT), "-o", "-", cwd=tmp_path)
    assert several.returncode == 2 and b"4 quiz files" in several.stderr and several.stdout == b""
    broken = lmsexport("gift", str(DATA / "bad" / "bad_quiz_id.json"), "-o", "-", cwd=tmp_path)
    assert broken.returncode == 1 and broken.stdout == b"" and b"error" in broken.stderr

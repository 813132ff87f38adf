"""lmsexport installed the ways a team installs it: its pre-commit hooks, the README's
pre-commit snippet, the lowest dependency versions it allows, and its sdist.

The hooks' entries run in the default suite. The rest installs packages from the package index
and takes minutes: it runs with LMSEXPORT_SLOW_CHECKS=1, which `make install-checks` sets (CI
runs it).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import DATA, ROOT
from repos import content_repository, git as _git

BIN = Path(sys.executable).parent
slow = pytest.mark.skipif(not os.environ.get("LMSEXPORT_SLOW_CHECKS"),
                          reason="installs from the package index and takes minutes: run `make install-checks`")


def hooks() -> dict[str, dict[str, str]]:
    """.pre-commit-hooks.yaml, read as pre-commit reads it (the file is a flat list of maps)."""
    found: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8").splitlines():
        match = re.match(r"^(- |  )(\w+): (.*)$", line)
        if match:
            if match.group(1) == "- ":
                current = {}
            current[match.group(2)] = match.group(3)
            if match.group(2) == "id":
                found[match.group(3)] = current
    return found


@pytest.fixture
def content_repo(tmp_path):
    """A content repository as a team has one: content/, its exports, committed."""
    repo = content_repository(tmp_path / "quizzes")
    shutil.copy(ROOT / ".gitattributes", repo / ".gitattributes")
    _git("add", "-A", cwd=repo)
    _git("commit", "-qm", "quizzes", cwd=repo)
    return repo


def run_hook(hook: dict[str, str], repo: Path) -> subprocess.CompletedProcess:
    """The hook's entry as pre-commit runs it: split like a shell, file names appended unless
    pass_filenames is false, the output of stdout and stderr together."""
    files = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True).stdout.split()
    pattern = hook.get("files")
    names = [f for f in files if pattern is None or re.search(pattern, f)]
    argv = shlex.split(hook["entry"]) + ([] if hook.get("pass_filenames") == "false" else names)
    argv[0] = str(BIN / argv[0])
    return subprocess.run(argv, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)


def test_both_hooks_pass_on_a_clean_repository(content_repo):
    for hook in hooks().values():
        result = run_hook(hook, content_repo)
        assert result.returncode == 0, (hook["id"], result.stdout)


def test_check_exports_gives_one_verdict_once_on_a_broken_quiz(content_repo):
    shutil.copy(DATA / "bad" / "single_two_correct.json", content_repo / "content")
    _git("add", "-A", cwd=content_repo)
    validate = run_hook(hooks()["lmsexport-validate"], content_repo)
    assert validate.returncode == 1 and validate.stdout.count("2 are marked correct") == 1
    check = run_hook(hooks()["lmsexport-check-exports"], content_repo)
    assert check.returncode == 1
    lines = check.stdout.splitlines()
    assert len(lines) == 1, check.stdout  # no repeated errors or warnings: validate lists those
    assert "up to date" not in lines[0] and "1 quiz with errors cannot be checked" in lines[0]


def test_check_exports_names_a_stale_export_in_its_verdict(content_repo):
    stale = content_repo / "exports" / "gift" / "model-pipeline-parallelism.gift.txt"
    stale.write_bytes(stale.read_bytes() + b"\n")
    check = run_hook(hooks()["lmsexport-check-exports"], content_repo)
    assert check.returncode == 1 and f"stale: {Path('exports/gift/model-pipeline-parallelism.gift.txt')}" in check.stdout
    assert check.stdout.strip().endswith("exports are out of date")


# --- installs from the package index --------------------------------------------------------

def _source_repository(tmp_path: Path, branch: str) -> Path:
    """This source tree, uncommitted changes included, as a git repository with `branch`."""
    source = tmp_path / "lmsexport-source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", ".cache", "*.egg-info", "build", "dist", "__pycache__", ".hypothesis"))
    _git("init", "-q", cwd=source)
    _git("add", "-A", cwd=source)
    _git("commit", "-qm", "source", cwd=source)
    _git("checkout", "-q", "-B", branch, cwd=source)
    return source


def _pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    pre_commit = shutil.which("pre-commit", path=str(BIN)) or shutil.which("pre-commit")
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[checks]')")
    return subprocess.run([pre_commit, *args], cwd=cwd, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PRE_COMMIT_HOME": str(home)})


@slow
def test_pre_commit_try_repo(content_repo, tmp_path):
    result = _pre_commit("try-repo", str(_source_repository(tmp_path, "main")), "--all-files", cwd=content_repo, home=tmp_path / "home")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"validate quizzes\.+Passed", result.stdout) and re.search(r"exports match content\.+Passed", result.stdout)


@slow
def test_the_readme_pre_commit_snippet_works_as_written(content_repo, tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = re.search(r"```yaml\n(repos:\n.*?)```", readme, re.DOTALL).group(1)
    url = re.search(r"repo: (\S+)", snippet).group(1)
    rev = re.search(r"rev: (\S+)", snippet).group(1)
    # The published repository is this source tree; the snippet's rev must name a revision in it.
    source = _source_repository(tmp_path, rev)
    (content_repo / ".pre-commit-config.yaml").write_text(snippet.replace(url, str(source)), encoding="utf-8")
    home = tmp_path / "home"
    result = _pre_commit("run", "--all-files", cwd=content_repo, home=home)
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.copy(DATA / "bad" / "single_two_correct.json", content_repo / "content")
    _git("add", "-A", cwd=content_repo)
    result = _pre_commit("run", "--all-files", cwd=content_repo, home=home)
    assert result.returncode == 1
    assert result.stdout.count("2 are marked correct") == 1  # listed once, by the validate hook
    assert "exports are up to date" not in result.stdout


@slow
def test_the_lowest_allowed_dependency_versions_work():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "lowest_deps.py")], capture_output=True, text=True, timeout=1500)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "lowest versions work" in result.stdout


@slow
def test_the_sdist_carries_tests_that_run(tmp_path):
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "dist"), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    if built.returncode and "No module named build" in built.stderr:
        pytest.skip("the build package is not installed (pip install -e '.[checks]')")
    assert built.returncode == 0, built.stderr[-3000:]
    [sdist] = (tmp_path / "dist").glob("lmsexport-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    [unpacked] = (tmp_path / "unpacked").iterdir()
    # The unpacked sdist's own code and tests, not this tree's.
    result = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", "tests/test_schema_authority.py",
                             "tests/test_validate.py", "tests/test_api.py::test_the_api_as_a_user_calls_it", "-x"],
                            cwd=unpacked, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(unpacked / "src")})
    assert result.returncode == 0, result.stdout[-4000:]
    assert re.search(r"\d+ passed", result.stdout)
    probe = subprocess.run([sys.executable, "-c", "import lmsexport.api; print(lmsexport.api.__file__)"], cwd=unpacked,
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(unpacked / "src")})
    assert probe.stdout.strip().startswith(str(unpacked))


def test_every_third_party_import_is_a_declared_dependency():
    import ast
    import tomllib
    from importlib.metadata import packages_distributions

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    # A dependency or an extra (an optional feature imports its package only when used).
    requirements = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
    declared = {re.match(r"[A-Za-z0-9._-]+", r).group(0).lower().replace("_", "-") for r in requirements}
    distributions = packages_distributions()
    undeclared = {}
    for path in (ROOT / "src" / "lmsexport").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == "lmsexport":
                    continue
                owners = {d.lower().replace("_", "-") for d in distributions.get(top, [top])}
                if not owners & declared:
                    undeclared[top] = str(path.relative_to(ROOT))
    assert not undeclared, undeclared


@pytest.mark.parametrize("command", ["", "validate", "build", "qti", "moodle", "new", "schema", "stats"])
def test_help_shows_no_python_type_placeholders(command):
    result = subprocess.run([str(BIN / "lmsexport"), *([command] if command else []), "--help"], capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "200"}, timeout=60)
    assert result.returncode == 0 and "Usage:" in result.stdout
    for placeholder in ("<bool>", "list[", "<list"):
        assert placeholder not in result.stdout, (command, result.stdout)


def test_the_sdist_manifest_takes_every_folder_of_the_tree():
    # A new top-level folder the tests read (examples/, docs/) must ship in the sdist too.
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    folders = {name.split("/")[0] for name in tracked if "/" in name and not name.startswith(".")} - {"src"}
    grafted = set(re.findall(r"^graft (\S+)$", (ROOT / "MANIFEST.in").read_text(encoding="utf-8"), re.MULTILINE))
    assert folders <= grafted, folders - grafted

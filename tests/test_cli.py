"""The CLI driven as a user drives it: build, --check, the single-format commands, new, schema, stats."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cli_runs import invoke
from conftest import CONTENT, DATA, ROOT

FORMAT_FILES = {
    "qti": "{}.zip",
    "canvas": "{}.zip",
    "moodle": "{}.xml",
    "gift": "{}.gift.txt",
}
QUIZZES = sorted(json.loads(p.read_text(encoding="utf-8"))["id"] for p in CONTENT.glob("*.json"))


@pytest.fixture
def bank(tmp_path, monkeypatch):
    """A working copy of content/ in a fresh folder, as a user's repository would be."""
    shutil.copytree(CONTENT, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def exported_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def export_names(folder: Path) -> list[str]:
    """The files and folders in an output folder, but the build cache (.lmsexport/)."""
    return sorted(p.name for p in folder.iterdir() if p.name != ".lmsexport")


def test_build_writes_every_format_for_every_quiz(bank):
    result = invoke("build")
    assert result.exit_code == 0, result.output
    for format_name, pattern in FORMAT_FILES.items():
        for quiz_id in QUIZZES:
            assert (bank / "exports" / format_name / pattern.format(quiz_id)).is_file()
    table = result.stdout.splitlines()
    assert table[0].split() == ["quiz", "qti", "canvas", "moodle", "gift", "warnings"]
    assert any(line.startswith("model-pipeline-parallelism") and line.count("written") == 4 for line in table)
    assert "4 quizzes: 0 errors" in result.stdout


def test_no_arguments_builds_content_into_exports(bank):
    result = invoke()
    assert result.exit_code == 0, result.output
    assert len([p for p in (bank / "exports").rglob("*.*") if ".lmsexport" not in p.parts]) == 4 * len(QUIZZES)


def test_check_on_fresh_export_passes_and_writes_nothing(bank):
    assert invoke("build").exit_code == 0
    before = exported_files(bank / "exports")
    result = invoke("build", "--check")
    assert result.exit_code == 0, result.output
    assert "exports are up to date" in result.stdout
    assert exported_files(bank / "exports") == before


def test_check_after_content_edit_names_the_stale_files(bank):
    assert invoke("build").exit_code == 0
    quiz_file = bank / "content" / "model-pipeline-parallelism.json"
    quiz_file.write_text(quiz_file.read_text(encoding="utf-8").replace("Megatron-LM", "Megatron-LM 2"), encoding="utf-8")
    before = exported_files(bank / "exports")
    result = invoke("build", "--check")
    assert result.exit_code == 1
    for format_name, pattern in FORMAT_FILES.items():
        assert f"stale: {Path('exports', format_name, pattern.format('model-pipeline-parallelism'))}" in result.stdout
    assert "optimizer-offload-cpu-nvme" not in "".join(l for l in result.stdout.splitlines() if l.startswith("stale"))
    assert exported_files(bank / "exports") == before  # --check never writes


def test_check_reports_extra_and_missing_files_and_prune_removes_extras(bank):
    assert invoke("build").exit_code == 0
    (bank / "exports" / "qti" / "old-quiz.zip").write_bytes(b"left over")
    (bank / "exports" / "gift" / "optimizer-offload-cpu-nvme.gift.txt").unlink()
    result = invoke("build", "--check")
    assert result.exit_code == 1
    assert f"extra: {Path('exports/qti/old-quiz.zip')}" in result.stdout
    assert f"missing: {Path('exports/gift/optimizer-offload-cpu-nvme.gift.txt')}" in result.stdout
    assert invoke("build", "--prune").exit_code == 0
    assert not (bank / "exports" / "qti" / "old-quiz.zip").exists()
    assert invoke("build", "--check").exit_code == 0


def test_prune_and_check_leave_alone_what_the_tool_did_not_write(bank):
    """Only files named as a format names its exports, directly in that format's folder, are
    the tool's: a README, photos, other folders, anything outside the format folders survive
    --prune and do not fail --check."""
    assert invoke("build", "-o", ".").exit_code == 0
    mine = {"README.md": b"# my quizzes", "photo.jpg": b"\xff\xd8\xff photo", "qti/README.md": b"what these are",
            "qti/old/kept.zip": b"an older package", "moodle/notes.txt": b"notes", "other/x.xml": b"<x/>"}
    for name, data in mine.items():
        (bank / name).parent.mkdir(parents=True, exist_ok=True)
        (bank / name).write_bytes(data)
    (bank / "gift" / "gone.gift.txt").write_text("an export of a quiz that is gone")
    result = invoke("build", "-o", ".", "--check")
    assert result.exit_code == 1
    extras = [line for line in result.stdout.splitlines() if line.startswith("extra: ")]
    assert extras == [f"extra: {Path('gift/gone.gift.txt')} (no quiz produces it; remove it or run with --prune)"]
    assert invoke("build", "-o", ".", "--prune").exit_code == 0
    assert not (bank / "gift" / "gone.gift.txt").exists()
    assert {name: (bank / name).read_bytes() for name in mine} == mine
    assert (bank / "content" / "model-pipeline-parallelism.json").is_file()
    assert invoke("build", "-o", ".", "--check").exit_code == 0


def test_single_format_prune_deletes_only_what_an_earlier_run_recorded(bank):
    """A single-format command may write into any folder (even `.`): there, a file named like
    an export is deleted only when the tool's record says it wrote it."""
    old = json.loads((bank / "content" / "optimizer-offload-cpu-nvme.json").read_text(encoding="utf-8"))
    old["id"] = "retired-quiz"
    (bank / "content" / "retired.json").write_text(json.dumps(old), encoding="utf-8")
    assert invoke("moodle", "-o", ".").exit_code == 0
    assert (bank / "retired-quiz.xml").is_file()
    (bank / "pom.xml").write_text("<project/>")
    (bank / "content" / "retired.json").unlink()
    assert invoke("moodle", "-o", ".").exit_code == 0  # a build without --prune keeps the record
    result = invoke("moodle", "-o", ".", "--check")
    assert result.exit_code == 1
    assert f"extra: retired-quiz.xml" in result.stdout and "pom.xml" not in result.stdout
    assert invoke("moodle", "-o", ".", "--prune").exit_code == 0
    assert not (bank / "retired-quiz.xml").exists()
    assert (bank / "pom.xml").read_text() == "<project/>"
    assert invoke("moodle", "-o", ".", "--check").exit_code == 0


def test_a_single_format_command_into_a_folder_it_never_wrote_leaves_a_like_named_file_alone(bank):
    """No record of any earlier run: a file named like an export there is someone else's."""
    (bank / "out").mkdir()
    (bank / "out" / "pom.xml").write_text("<project/>")
    for options in (["--check"], ["--prune", "--verbose"]):
        result = invoke("moodle", "-o", "out", *options)
        assert result.exit_code == (1 if options == ["--check"] else 0), result.output
        assert "extra:" not in result.stdout and "pom.xml" not in result.stdout
    assert f"note: {Path('out/pom.xml')} was not written by lmsexport; it is left alone" in result.stderr
    assert (bank / "out" / "pom.xml").read_text() == "<project/>"
    assert invoke("moodle", "-o", "out", "--check").exit_code == 0


def test_build_without_prune_keeps_extra_files_and_warns(bank):
    (bank / "exports" / "moodle").mkdir(parents=True)
    (bank / "exports" / "moodle" / "notes.xml").write_text("mine")
    result = invoke("build")
    assert result.exit_code == 0
    assert (bank / "exports" / "moodle" / "notes.xml").read_text() == "mine"
    assert "produced by no quiz (run with --prune to remove it)" in result.stderr


def test_format_option_selects_formats(bank):
    result = invoke("build", "--format", "qti,gift")
    assert result.exit_code == 0
    assert export_names(bank / "exports") == ["gift", "qti"]
    assert invoke("build", "--format", "qti,pdf").exit_code == 2


def test_errors_in_one_quiz_do_not_stop_the_others(bank):
    shutil.copy(DATA / "bad" / "single_two_correct.json", bank / "content")
    result = invoke("build")
    assert result.exit_code == 1
    assert "exactly one correct option" in result.stderr
    assert (bank / "exports" / "qti" / "model-pipeline-parallelism.zip").is_file()
    assert not list((bank / "exports").rglob("single-two-correct*"))
    assert any(line.startswith("single-two-correct") and "errors" in line for line in result.stdout.splitlines())


def test_quiz_with_only_drafts_gets_no_file_and_a_note(bank):
    drafts = {"id": "only-drafts", "title": "Later", "language": "en", "questions": [
        {"id": "q1", "type": "essay", "stem": "Not ready.", "draft": True}]}
    (bank / "content" / "only-drafts.json").write_text(json.dumps(drafts))
    result = invoke("build", "--verbose")
    assert result.exit_code == 0, result.output
    assert not [p for p in (bank / "exports").rglob("only-drafts*") if ".lmsexport" not in p.parts]
    assert "every question is a draft" in result.stderr
    assert invoke("build", "--check").exit_code == 0


def test_jobs_give_identical_bytes(bank):
    assert invoke("build", "-o", "one").exit_code == 0
    assert invoke("build", "-o", "two", "--jobs", "2").exit_code == 0
    assert exported_files(bank / "one") == exported_files(bank / "two")


def test_two_builds_are_byte_identical(bank):
    assert invoke("build", "-o", "first").exit_code == 0
    assert invoke("build", "-o", "second").exit_code == 0
    assert exported_files(bank / "first") == exported_files(bank / "second")


def test_quiet_prints_no_table_and_verbose_lists_files(bank):
    quiet = invoke("build", "--quiet")
    assert quiet.exit_code == 0 and quiet.stdout == ""
    verbose = invoke("build", "--verbose", "-o", "elsewhere")
    assert f"wrote {Path('elsewhere/qti/model-pipeline-parallelism.zip')}" in verbose.stderr


@pytest.mark.parametrize("format_name", list(FORMAT_FILES))
def test_single_format_commands(bank, format_name):
    result = invoke(format_name)
    assert result.exit_code == 0, result.output
    names = export_names(bank / "exports" / format_name)
    assert names == sorted(FORMAT_FILES[format_name].format(q) for q in QUIZZES)
    other = invoke(format_name, "content/optimizer-offload-cpu-nvme.json", "-o", "single")
    assert other.exit_code == 0
    assert export_names(bank / "single") == [FORMAT_FILES[format_name].format("optimizer-offload-cpu-nvme")]
    assert invoke(format_name, "--check").exit_code == 0


def test_output_folder_that_is_a_file_is_refused(bank):
    (bank / "exports").write_text("not a folder")
    result = invoke("build")
    assert result.exit_code == 2
    assert "is a file, not a folder" in result.stderr


def test_output_inside_content_is_refused(bank):
    result = invoke("qti", "-o", "content/exports")
    assert result.exit_code == 2
    assert "inside the content folder" in result.stderr
    assert not (bank / "content" / "exports").exists()


def test_new_scaffolds_a_valid_quiz_of_every_type(bank):
    types = ["single_choice", "multiple_response", "true_false", "short_answer", "numerical", "matching", "essay", "description"]
    args = ["new", "my-quiz", "--title", "Mine", "--language", "wo"]
    for kind in types:
        args += ["--type", kind]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    created = json.loads((bank / "content" / "my-quiz.json").read_text())
    assert [q["type"] for q in created["questions"]] == types and created["language"] == "wo"
    # The schema is placed where $schema points, so editors complete the file out of the box.
    assert created["$schema"] == "../schema/quiz.schema.json"
    assert json.loads((bank / "schema" / "quiz.schema.json").read_text()) == json.loads((ROOT / "schema" / "quiz.schema.json").read_text())
    assert invoke("validate", "content/my-quiz.json").exit_code == 0
    assert invoke("build", "content/my-quiz.json").exit_code == 0
    assert invoke("new", "my-quiz").exit_code == 2  # never overwrites
    assert invoke("new", "with-schema").exit_code == 0
    assert json.loads((bank / "content" / "with-schema.json").read_text())["$schema"] == "../schema/quiz.schema.json"
    assert invoke("new", "Not A Slug").exit_code == 2
    assert invoke("new", "other", "--type", "fill_in").exit_code == 2
    assert invoke("new", "other", "--language", "en-").exit_code == 2
    assert not (bank / "content" / "other.json").exists()


def test_schema_prints_the_packaged_schema():
    result = invoke("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads((ROOT / "schema" / "quiz.schema.json").read_text())
    path = Path(invoke("schema", "--path").stdout.strip())
    assert path.is_file() and path.name == "quiz.schema.json"


def test_stats_table_and_json(bank):
    result = invoke("stats", "--format", "json")
    assert result.exit_code == 0
    rows = {r["quiz"]: r for r in json.loads(result.stdout)["quizzes"]}
    assert rows["ai-hardware-software-stack"] == {
        "quiz": "ai-hardware-software-stack", "questions": 6, "by_type": {"single_choice": 6},
        "drafts": 5, "languages": ["nl"], "points": 1}
    assert rows["sequence-parallelism-ring-attention"]["languages"] == ["en", "wo"]
    table = invoke("stats").stdout.splitlines()
    assert table[0].split()[:4] == ["quiz", "questions", "drafts", "points"]
    assert len(table) == 1 + len(QUIZZES)


def test_committed_exports_match_content():
    """exports/ in the repository is what `build` writes from content/."""
    result = subprocess.run([sys.executable, "-m", "lmsexport", "build", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_exports_are_real_packages(bank):
    assert invoke("build").exit_code == 0
    for path in (bank / "exports").rglob("*.zip"):
        with zipfile.ZipFile(path) as archive:
            assert archive.testzip() is None
            assert "imsmanifest.xml" in archive.namelist()
            assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def _run_with_terminal_stderr(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run the CLI with standard error on a pseudo-terminal, as in a user's shell."""
    import os
    import pty

    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "lmsexport", *args], cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=follower, env={**os.environ, "COLUMNS": "100", "TERM": "xterm"})
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the process ends
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.wait(), b"".join(chunks).decode("utf-8", "replace")


def test_progress_bar_on_a_terminal_for_a_large_bank(bank):
    source = json.loads((bank / "content" / "optimizer-offload-cpu-nvme.json").read_text(encoding="utf-8"))
    for i in range(30):
        source["id"] = f"copy-{i:02d}"
        (bank / "content" / f"copy-{i:02d}.json").write_text(json.dumps(source, ensure_ascii=False), encoding="utf-8")
    code, shown = _run_with_terminal_stderr(["build", "--format", "gift"], bank)
    assert code == 0
    assert "exporting" in shown and "\x1b[" in shown
    code, shown = _run_with_terminal_stderr(["build", "--format", "gift", "--quiet"], bank)
    assert code == 0 and "exporting" not in shown


def test_range_near_the_largest_double_exports(bank):
    quiz = {"id": "huge-range", "title": "Huge", "language": "en", "questions": [
        {"id": "n", "type": "numerical", "stem": "Any number?", "answers": [{"min": -1e308, "max": 1e308}]}]}
    (bank / "content" / "huge-range.json").write_text(json.dumps(quiz))
    result = invoke("build")
    assert result.exit_code == 0, result.output
    moodle = (bank / "exports" / "moodle" / "huge-range.xml").read_text()
    assert "<tolerance>1e+308</tolerance>" in moodle


def test_a_defect_in_one_writer_fails_that_quiz_only(bank, monkeypatch):
    from lmsexport.writers.moodle import gift

    real = gift.render

    def broken(quiz, options, family=None):
        if quiz.id == "optimizer-offload-cpu-nvme":
            raise RuntimeError("simulated defect")
        return real(quiz, options, family)

    monkeypatch.setattr(gift, "render", broken)
    result = invoke("build")
    assert result.exit_code == 1
    assert "internal error while writing gift (RuntimeError: simulated defect)" in result.stderr
    assert "Traceback" not in result.output
    assert not list((bank / "exports").rglob("optimizer-offload-cpu-nvme*"))
    assert (bank / "exports" / "gift" / "model-pipeline-parallelism.gift.txt").is_file()


def test_exports_may_go_below_the_folder_of_a_single_quiz_file(bank):
    shutil.copy(bank / "content" / "optimizer-offload-cpu-nvme.json", bank / "quiz.json")
    result = invoke("gift", "quiz.json", "-o", "out")  # the quiz's folder is not read as content
    assert result.exit_code == 0, result.output
    assert (bank / "out" / "optimizer-offload-cpu-nvme.gift.txt").is_file()


def test_new_writes_every_type_by_default_and_builds_without_a_warning(bank):
    from lmsexport.model import QUESTION_TYPES

    result = invoke("new", "fresh")
    assert result.exit_code == 0, result.output
    created = json.loads((bank / "content" / "fresh.json").read_text())
    # Every type but those a default format cannot carry whole (GIFT has no ordering question).
    assert [q["type"] for q in created["questions"]] == [t for t in QUESTION_TYPES if t != "ordering"]
    every = invoke("new", "every", "--all-types")
    assert every.exit_code == 0 and "cannot carry ordering whole" in every.stdout
    assert [q["type"] for q in json.loads((bank / "content" / "every.json").read_text())["questions"]] == list(QUESTION_TYPES)
    assert invoke("validate", "content/every.json", "--format", "qti,canvas,moodle").exit_code == 0
    built = invoke("build", "content/fresh.json", "-o", "out", "--verbose")
    assert built.exit_code == 0
    assert "warning" not in built.stderr and built.stdout.strip().endswith("1 quiz: 0 errors, 0 warnings; done")
    validated = invoke("validate", "content/fresh.json", "--verbose")
    assert validated.stdout.strip().endswith("0 errors, 0 warnings"), validated.stdout


def test_new_type_lists_its_values():
    shown = invoke("new", "--help").stdout
    assert "single_choice" in shown and "multiple_response" in shown and "description" in shown
    assert invoke("new", "x", "--type", "fill_in").exit_code == 2


@pytest.mark.parametrize("title", ["bell\x07here", "line\nbreak", "   "])
def test_new_refuses_a_title_no_export_can_carry(bank, title):
    result = invoke("new", "bad-title", "--title", title)
    assert result.exit_code == 2
    assert not (bank / "content" / "bad-title.json").exists()


@pytest.mark.parametrize("title", ["tab\there", "delete\x7fhere", "next line\x85here"])
def test_new_takes_a_title_that_validates_and_builds_without_a_warning(bank, title):
    """The characters `new` refuses are those XML cannot carry (model.NOT_XML, which validate
    checks) and line breaks (a warning for Moodle's category): a tab or a C1 control is neither."""
    assert invoke("new", "odd-title", "--title", title).exit_code == 0
    assert json.loads((bank / "content" / "odd-title.json").read_text())["title"] == title
    checked = invoke("validate", "content/odd-title.json")
    assert checked.exit_code == 0 and "0 errors, 0 warnings" in checked.stdout + checked.stderr


def test_schema_write_places_the_packaged_schema(bank):
    (bank / "folder").mkdir()
    refused = invoke("schema", "--write", "folder")
    assert refused.exit_code == 2 and "cannot write folder" in refused.stderr
    result = invoke("schema", "--write", "schema/quiz.schema.json")
    assert result.exit_code == 0
    assert (bank / "schema" / "quiz.schema.json").read_bytes() == (ROOT / "schema" / "quiz.schema.json").read_bytes()


def test_readme_new_and_examples_agree_on_the_schema_reference():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert '"$schema": "../schema/quiz.schema.json"' in readme
    for example in sorted((ROOT / "examples").glob("*.json")):
        assert json.loads(example.read_text(encoding="utf-8"))["$schema"] == "../schema/quiz.schema.json", example


# -- options: only those that act on a command, from the project file too -----------------------

def test_each_command_offers_only_its_options():
    qti = invoke("qti", "--help").stdout
    assert "--nearest-grade" not in qti and "--media-base-url" not in qti
    moodle = invoke("moodle", "--help").stdout
    assert "--nearest-grade" in moodle and "--media-base-url" not in moodle
    gift = invoke("gift", "--help").stdout
    assert "--nearest-grade" in gift and "--media-base-url" in gift
    assert invoke("qti", "--nearest-grade").exit_code == 2


def test_shell_completion_is_offered():
    shown = invoke("--help").stdout
    assert "--install-completion" in shown and "--show-completion" in shown


@pytest.mark.parametrize("base", ["javascript:alert(1)//", " javascript:alert(1)", "data:text/html,x", "file:///etc/", 'https://x.org/" onerror="x'])
def test_an_unsafe_media_base_url_is_a_usage_error(bank, base):
    result = invoke("gift", "-o", "out", "--media-base-url", base)
    assert result.exit_code == 2
    assert not (bank / "out").exists()
    assert invoke("validate", "--media-base-url", base).exit_code == 2


@pytest.mark.parametrize("base", ["https://cdn.example.org/quiz/", "http://x.org", "media/", "../published", "//cdn.example.org/"])
def test_http_and_relative_media_base_urls_are_accepted(bank, base):
    assert invoke("gift", "-o", "out", "--media-base-url", base).exit_code == 0


def test_project_file_settings_and_command_line_wins(bank):
    (bank / "pyproject.toml").write_text(
        '[project]\nname = "bank"\n\n[tool.lmsexport]\nout = "published"\nformats = ["gift", "moodle"]\nstrict = true\n', encoding="utf-8")
    # A question worth 2 points: GIFT cannot carry points, a loss.
    quiz_file = bank / "content" / "model-pipeline-parallelism.json"
    quiz_file.write_text(quiz_file.read_text(encoding="utf-8").replace('"type": "single_choice",', '"type": "single_choice", "points": 2,', 1), encoding="utf-8")
    result = invoke("build")
    # strict: that GIFT loss is an error, so nothing is written
    assert result.exit_code == 1 and "(an error under --strict)" in result.stderr
    assert invoke("build", "--no-strict").exit_code == 0
    assert export_names(bank / "published") == ["gift", "moodle"]
    assert invoke("build", "--format", "qti", "--no-strict").exit_code == 0
    assert (bank / "published" / "qti").is_dir()
    assert invoke("canvas", "--no-strict").exit_code == 0  # a single-format command: out/<format>
    assert (bank / "published" / "canvas").is_dir()
    # validate reads the same file, from a subfolder too
    (bank / "content" / "sub").mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(bank / "content" / "sub")
        assert invoke("validate", "..").exit_code == 1
        assert invoke("validate", "..", "--no-strict").exit_code == 0


def test_lmsexport_toml_wins_over_pyproject_and_bad_settings_are_usage_errors(bank):
    (bank / "pyproject.toml").write_text('[tool.lmsexport]\nformats = "gift"\n', encoding="utf-8")
    (bank / "lmsexport.toml").write_text('formats = "qti"\nout = "from-toml"\n', encoding="utf-8")
    assert invoke("build").exit_code == 0
    assert export_names(bank / "from-toml") == ["qti"]
    (bank / "lmsexport.toml").write_text('formts = "qti"\n', encoding="utf-8")
    result = invoke("build")
    assert result.exit_code == 2 and "unknown setting 'formts'" in result.stderr
    (bank / "lmsexport.toml").write_text('media-base-url = "javascript:alert(1)"\n', encoding="utf-8")
    assert invoke("gift").exit_code == 2


# -- interrupts ------------------------------------------------------------------------------------

def _interrupt_at(monkeypatch, module, name):
    import signal

    target = __import__(module, fromlist=[name])
    real = getattr(target, name)

    def interrupted(*args, **kwargs):
        result = real(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return result

    monkeypatch.setattr(target, name, interrupted)


@pytest.mark.parametrize("module, name", [
    ("lmsexport.commands.export", "write_atomic"),  # after the first file is written
    ("lmsexport.commands.export", "_print_table"),  # after every file is written
    ("lmsexport.pipeline", "settle"),  # while a quiz is checked
    ("lmsexport.commands.export", "remove_stale_temporaries"),  # before anything is read
])
def test_ctrl_c_at_any_moment_of_a_single_process_build_exits_130(bank, monkeypatch, capsys, module, name):
    import signal

    from lmsexport.cli import main

    previous = signal.getsignal(signal.SIGINT)
    _interrupt_at(monkeypatch, module, name)
    monkeypatch.setattr(sys, "argv", ["lmsexport", "build"])
    try:
        with pytest.raises(SystemExit) as finished:
            main()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert finished.value.code == 130
    assert "interrupted" in capsys.readouterr().err


def test_ctrl_c_that_a_library_swallows_still_exits_130(monkeypatch, capsys):
    import signal

    import lmsexport.cli as cli

    def swallowing_app():
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass  # as a library's broad handler would
        sys.exit(0)

    previous = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(cli, "app", swallowing_app)
    try:
        with pytest.raises(SystemExit) as finished:
            cli.main()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert finished.value.code == 130


def test_ctrl_c_while_the_interpreter_shuts_down_exits_130(bank):
    script = ("import atexit, signal, sys\n"
              "from lmsexport.cli import main\n"
              "atexit.register(lambda: signal.raise_signal(signal.SIGINT))\n"
              "sys.argv = ['lmsexport', 'build', '--quiet']\n"
              "main()\n")
    process = subprocess.run([sys.executable, "-c", script], cwd=bank, capture_output=True, timeout=120)
    assert process.returncode == 130, process.stderr
    assert (bank / "exports" / "gift" / "model-pipeline-parallelism.gift.txt").is_file()


def test_progress_for_one_large_quiz(bank):
    import lmsexport.commands.export as export

    source = json.loads((bank / "content" / "optimizer-offload-cpu-nvme.json").read_text(encoding="utf-8"))
    questions = [q for q in source["questions"] if not q.get("draft")]
    source["questions"] = [{**q, "id": f"{q['id']}-{i}"} for i in range(3000 // len(questions) + 1) for q in questions]
    text = json.dumps(source, ensure_ascii=False, indent=2)
    assert len(text.encode()) >= export.LARGE_QUIZ_BYTES
    shutil.rmtree(bank / "content")
    (bank / "content").mkdir()
    (bank / "content" / "large.json").write_text(text, encoding="utf-8")
    code, shown = _run_with_terminal_stderr(["build", "--format", "gift,moodle"], bank)
    assert code == 0
    assert "exporting optimizer-offload-cpu-nvme" not in shown  # steps are named by the file
    assert "exporting large.json: checked gift" in shown or "exporting large.json: rendered" in shown, shown[-2000:]
    code, shown = _run_with_terminal_stderr(["validate"], bank)
    assert code == 0 and "validating large.json: " in shown


def test_shell_completion_completes_commands_and_options():
    import os

    env = {**os.environ, "_LMSEXPORT_COMPLETE": "complete_bash", "COMP_WORDS": "lmsexport val", "COMP_CWORD": "1"}
    completed = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'lmsexport'; from lmsexport.cli import main; main()"],
                               env=env, capture_output=True, text=True, timeout=60)
    assert completed.stdout.split() == ["validate"]
    env.update(COMP_WORDS="lmsexport gift --media", COMP_CWORD="2")
    completed = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'lmsexport'; from lmsexport.cli import main; main()"],
                               env=env, capture_output=True, text=True, timeout=60)
    assert "--media-base-url" in completed.stdout.split()


def test_the_readme_quiz_validates_and_builds_like_the_one_new_writes(bank):
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The content format", 1)[1]
    example = json.loads(re.search(r"```json\n(.*?)\n```", section, re.DOTALL).group(1))
    (bank / "content" / "readme.json").write_text(json.dumps(example), encoding="utf-8")
    assert invoke("new", "scaffolded").exit_code == 0
    scaffolded = json.loads((bank / "content" / "scaffolded.json").read_text())
    assert example["$schema"] == scaffolded["$schema"] == "../schema/quiz.schema.json"
    assert (bank / "content" / example["$schema"]).resolve().is_file()  # where both point, new put the schema
    for name in ("readme.json", "scaffolded.json"):
        assert invoke("validate", f"content/{name}").exit_code == 0
        assert invoke("build", f"content/{name}", "-o", "out").exit_code == 0


def test_new_into_a_place_it_cannot_write_is_a_usage_error(bank):
    (bank / "blocked").write_text("a file where a folder would go")
    result = invoke("new", "fresh", "--out", "blocked/fresh.json")
    assert result.exit_code == 2 and "cannot write" in result.stderr and "Traceback" not in result.output

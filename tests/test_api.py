"""The Python API used as a user would: a script in a fresh process, in a folder of its own,
importing the installed package."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import zipfile

from conftest import CONTENT, DATA, ROOT

USER_SCRIPT = textwrap.dedent('''
    import io, json, sys, zipfile
    from pathlib import Path
    import lmsexport
    from lmsexport import Severity, load, validate, export, FORMATS

    out = {"version": lmsexport.__version__, "formats": sorted(FORMATS)}

    # A str path, a Path, JSON text and a dict load to the same quiz.
    text = Path("content/model-pipeline-parallelism.json").read_text(encoding="utf-8")
    loaded = [load("content/model-pipeline-parallelism.json"), load(Path("content/model-pipeline-parallelism.json")),
              load(text), load(json.loads(text))]
    out["ok"] = [r.ok for r in loaded]
    out["same"] = len({len(r.quiz.questions) for r in loaded}) == 1 and len({r.quiz.id for r in loaded}) == 1

    # Export to bytes, per format, from a loaded quiz or straight from a source.
    quiz = loaded[0].quiz
    gift = export(quiz, "gift")
    out["gift"] = gift.data.decode("utf-8").count("::") // 2
    out["gift_name"] = gift.filename
    qti = export("content/model-pipeline-parallelism.json", "qti")
    out["qti_entries"] = "imsmanifest.xml" in zipfile.ZipFile(io.BytesIO(qti.data)).namelist()
    moodle = export(text, "moodle")
    out["moodle_starts"] = moodle.data[:5].decode()

    # Diagnostics are values with a place.
    broken = {"id": "Not A Slug", "title": "t", "language": "en",
              "questions": [{"id": "q1", "type": "true_false", "stem": "S?", "answer": "yes"}]}
    problems = validate(broken, name="broken.json")
    out["problems"] = [[d.severity.value, d.file, d.line, d.pointer, d.code] for d in problems]
    out["is_error"] = all(d.is_error and d.severity is Severity.ERROR for d in problems)
    out["broken_export"] = export(broken, "gift").data is None

    # Media beside a path are found; for a dict, in media_folder.
    media_quiz = json.loads(Path("media/media_and_math.json").read_text(encoding="utf-8"))
    out["media_by_path"] = len(load("media/media_and_math.json").quiz.media)
    out["media_by_dict"] = len(load(media_quiz, media_folder="media").quiz.media)
    out["media_missing"] = [d.code for d in load(media_quiz).diagnostics if d.is_error][:1]

    # A format's own refusals, as build finds them: GIFT cannot carry '->' in a short answer.
    arrow = {"id": "arrow", "title": "Arrow", "language": "en", "questions": [
        {"id": "q1", "type": "short_answer", "stem": "Type it.", "answers": [{"text": "a->b"}]}]}
    out["arrow_plain"] = [d.code for d in validate(arrow) if d.is_error]
    out["arrow_gift"] = [d.code for d in validate(arrow, formats=["gift"]) if d.is_error]
    out["arrow_gift_bytes"] = export(arrow, "gift").data is None and export(arrow, "moodle").data is not None
    essay = {"id": "essay", "title": "Essay", "language": "en", "questions": [
        {"id": "q1", "type": "essay", "stem": "Explain.", "grader_info": "Look for the reason."}]}
    out["strict"] = export(essay, "gift", strict=True).data is None and export(essay, "gift").data is not None
    try:
        export(quiz, "pdf")
    except ValueError as problem:
        out["bad_format"] = str(problem)
    print(json.dumps(out))
''')


def test_the_api_as_a_user_calls_it(tmp_path):
    shutil.copytree(CONTENT, tmp_path / "content")
    shutil.copytree(DATA / "media", tmp_path / "media")
    (tmp_path / "use_lmsexport.py").write_text(USER_SCRIPT, encoding="utf-8")
    result = subprocess.run([sys.executable, "use_lmsexport.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    project_version = next(line.split('"')[1] for line in (ROOT / "pyproject.toml").read_text().splitlines() if line.startswith("version"))
    assert out["version"] == project_version
    assert out["formats"] == ["canvas", "gift", "moodle", "qti"]
    assert out["ok"] == [True] * 4 and out["same"]
    assert out["gift"] == 8 and out["gift_name"] == "model-pipeline-parallelism.gift.txt"
    assert out["qti_entries"] and out["moodle_starts"] == "<?xml"
    assert ["error", "broken.json", 2, "/id", "schema"] in out["problems"]
    assert any(p[3] == "/questions/0/answer" and p[2] == 10 for p in out["problems"])
    assert out["is_error"] and out["broken_export"]
    assert out["media_by_path"] == 4 and out["media_by_dict"] == 4 and out["media_missing"] == ["media"]
    assert "unknown format 'pdf'" in out["bad_format"]
    assert out["arrow_plain"] == [] and out["arrow_gift"] == ["gift-unwritable"] and out["arrow_gift_bytes"]
    assert out["strict"]  # a loss is an error under strict, so no bytes


def test_version_has_one_source():
    init = (ROOT / "src" / "lmsexport" / "__init__.py").read_text(encoding="utf-8")
    assert "0.1.0" not in init and 'version("lmsexport")' in init
    result = subprocess.run([sys.executable, "-m", "lmsexport", "--version"], capture_output=True, text=True)
    import lmsexport

    assert result.stdout.strip() == f"lmsexport {lmsexport.__version__}"


def test_the_wheel_ships_py_typed_and_the_report_schema(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(ROOT), "-w", str(tmp_path)],
                   check=True, capture_output=True)
    [wheel] = tmp_path.glob("lmsexport-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert "lmsexport/py.typed" in names and "lmsexport/report.schema.json" in names and "lmsexport/api.py" in names
        metadata = archive.read(next(n for n in names if n.endswith("METADATA"))).decode()
    for field in ("Classifier: Typing :: Typed", "Keywords:", "Project-URL: Source", "Requires-Dist: rich"):
        assert field in metadata, field

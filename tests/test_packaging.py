"""The wheel carries the schema and the command, so `lmsexport schema` works from any install."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from conftest import ROOT


def test_wheel_ships_schema_and_console_script(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(ROOT), "-w", str(tmp_path)],
                   check=True, capture_output=True)
    [wheel] = tmp_path.glob("lmsexport-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("lmsexport/quiz.schema.json") == (ROOT / "schema" / "quiz.schema.json").read_bytes()
        entry_points = next(n for n in archive.namelist() if n.endswith("entry_points.txt"))
        assert "lmsexport = lmsexport.launch:main" in archive.read(entry_points).decode()


def test_python_dash_m_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "lmsexport", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("lmsexport ")


def test_readme_example_is_a_valid_quiz(tmp_path):
    import re

    from lmsexport.loader import load_quiz

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", readme, re.DOTALL).group(1)
    (tmp_path / "schema").mkdir()
    quiz = tmp_path / "content" / "example.json"
    quiz.parent.mkdir()
    quiz.write_text(example, encoding="utf-8")
    result = load_quiz(quiz)
    assert result.ok, [d.message for d in result.diagnostics]

"""The registry of import formats (lmsexport.readers) is the one list of them: the README's import
table and command line, `import --format`, reading and auto-detection all follow it."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from conftest import ROOT
from lmsexport.cli import app
from lmsexport.importers import read_source
from lmsexport.importers.detect import detect
from lmsexport.readers import READERS, reader_titles

# One export of this repository per reader, which auto-detection must recognise as that reader's.
SAMPLES = {
    "moodle": ROOT / "exports" / "moodle" / "model-pipeline-parallelism.xml",
    "gift": ROOT / "exports" / "gift" / "model-pipeline-parallelism.gift.txt",
    "qti": ROOT / "exports" / "qti" / "model-pipeline-parallelism.zip",
    "canvas": ROOT / "exports" / "canvas" / "model-pipeline-parallelism.zip",
}


def _readme_import_table() -> list[list[str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("| `--format` | reads | one quiz file per |", 1)[1].split("\n\n", 1)[0]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in table.strip().splitlines()[1:]]


def test_the_readme_import_table_is_the_registry():
    rows = _readme_import_table()
    assert [(name, per) for name, _, per in rows] == [(f"`{r.name}`", r.quiz_per) for r in READERS.values()]
    for (_, reads, _), reader in zip(rows, READERS.values()):
        assert reads.startswith(reader.title), (reads, reader.title)


def test_the_readme_import_command_offers_the_registered_formats():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    offered = re.findall(r"lmsexport import FILE\.\.\. .*?--format ([a-z|\\]+)\]", readme)
    assert offered and all(o.replace("\\|", "|") == "|".join(("auto", *READERS)) for o in offered), offered


def test_the_import_command_offers_and_names_the_registered_formats(tmp_path):
    runner = CliRunner()
    for name, path in SAMPLES.items():
        result = runner.invoke(app, ["import", str(path), "--format", name, "--out", str(tmp_path / name), "--quiet"])
        assert result.exit_code == 0 and list((tmp_path / name).glob("*.json")), (name, result.output)
    assert runner.invoke(app, ["import", str(SAMPLES["gift"]), "--format", "docx", "--out", str(tmp_path / "docx")]).exit_code == 2
    shown = " ".join(runner.invoke(app, ["import", "--help"]).stdout.split())
    assert f"{reader_titles()} export files." in shown


def test_every_registered_reader_is_detected_and_reads_its_format():
    assert set(SAMPLES) == set(READERS)
    for name, path in SAMPLES.items():
        data = path.read_bytes()
        assert detect(data, path.name) == name
        source = read_source(data, path.name)
        assert source.format == name and source.banks and source.banks[0].questions

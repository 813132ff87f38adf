"""`lmsexport moodle -o -` and `lmsexport gift -o -`: one quiz's export on standard output.

Only the text formats, and only one quiz: two Moodle XML documents one after the other are not a
document, and a zip on a terminal helps no one. Diagnostics go to standard error, so that the
output can be piped straight into a file or another tool.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..formats import FORMATS
from ..pipeline import process_files
from ..report import print_diagnostics
from ..startup import release_collector
from ..writers.shared import ExportOptions
from .common import quiz_files

TEXT_FORMATS = tuple(name for name, f in FORMATS.items() if f.to_stdout)


def run_to_stdout(paths: list[Path], format_name: str, options: ExportOptions, max_media_bytes: int) -> int:
    release_collector()  # see startup.py
    if format_name not in TEXT_FORMATS:
        sys.stderr.write(f"error: -o - (standard output) is for {' and '.join(TEXT_FORMATS)} only; {format_name} writes a zip package\n")
        return 2
    files, problems = quiz_files(paths)
    print_diagnostics(problems, "text", sys.stderr)
    if problems:
        return 1
    if len(files) != 1:
        sys.stderr.write(f"error: -o - writes one quiz to standard output, but {len(files)} quiz files were given: name one file\n")
        return 2
    [outcome] = process_files(files, (format_name,), options, max_media_bytes=max_media_bytes)
    print_diagnostics(outcome.diagnostics, "text", sys.stderr, show_notes=False)
    if outcome.failed or not outcome.exports or outcome.exports[0][1].data is None:
        return 1
    sys.stdout.flush()
    sys.stdout.buffer.write(outcome.exports[0][1].data)
    sys.stdout.buffer.flush()
    return 0

"""What a `--jobs` worker sends back reads back the same: a quiz's outcome, its diagnostics
pickled as the arguments that make them (`Diagnostic.__reduce__`), every field included."""

from __future__ import annotations

import dataclasses
import pickle
from multiprocessing.reduction import ForkingPickler

from conftest import CONTENT

from lmsexport.diagnostics import Diagnostic, Severity
from lmsexport.formats import FORMATS
from lmsexport.pipeline import process_quiz
from lmsexport.writers.shared import ExportOptions


def test_a_diagnostic_with_every_field_set_reads_back_the_same():
    values = {"severity": Severity.ERROR, "message": "m", "file": "f.json", "pointer": "/questions/0", "line": 3,
              "column": 7, "code": "c", "formats": ("qti", "gift"), "loss": True}
    assert set(values) == {f.name for f in dataclasses.fields(Diagnostic)}  # a new field is set here too
    diagnostic = Diagnostic(**values)
    copied = pickle.loads(pickle.dumps(diagnostic))
    assert copied == diagnostic and repr(copied) == repr(diagnostic) and copied.severity is Severity.ERROR


def test_an_outcome_reads_back_as_it_was_sent():
    path = sorted(CONTENT.glob("*.json"))[0]
    outcome = process_quiz(path, tuple(FORMATS), ExportOptions())
    assert outcome.diagnostics and outcome.exports
    copied = pickle.loads(bytes(ForkingPickler.dumps(outcome)))
    assert copied == outcome and [repr(d) for d in copied.diagnostics] == [repr(d) for d in outcome.diagnostics]

# Two entry points, both idempotent: `make build` sets up and exports content/ into exports/;
# `make test` sets up and runs the test suite.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

.PHONY: setup build test check bench
setup: $(STAMP)

build: $(STAMP)
	$(VENV)/bin/lmsexport build

test: $(STAMP)
	$(VENV)/bin/pytest

# What CI checks on content: it validates and the committed exports are current.
check: $(STAMP)
	$(VENV)/bin/lmsexport validate
	$(VENV)/bin/lmsexport build --check --quiet

# Timings of every command at 2,000 / 20,000 / 100,000 questions, side by side with text2qti.
bench: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet -e '.[test,bench]'
	$(VENV)/bin/python bench/run

# Mutation testing of the escaping, writer, check and output modules (setup.cfg lists them):
# minutes, not part of CI. Tests that run lmsexport in a child process see the original code.
.PHONY: mutation
mutation: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet 'mutmut>=3.8,<4'
	rm -rf mutants
	LMSEXPORT_SHARED=$${LMSEXPORT_SHARED:-$(abspath ../shared)} nice -n 19 $(VENV)/bin/mutmut run --max-children 2
	$(VENV)/bin/mutmut results

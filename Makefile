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

.PHONY: setup build test check bench lowest-deps install-checks
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

# The lowest dependency versions pyproject.toml allows, installed exactly in a throw-away venv
# and driven through the CLI and its tests (needs the package index; a few minutes).
lowest-deps:
	$(PYTHON) tools/lowest_deps.py

# Installed as teams install it (needs the package index; a few minutes): the lowest dependency
# versions, pre-commit try-repo and the README's pre-commit snippet, and the sdist's own tests.
install-checks: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet -e '.[test,checks]'
	LMSEXPORT_SLOW_CHECKS=1 $(VENV)/bin/pytest tests/test_install.py
# What the browser tests need: Debian's Chromium (apt) and Playwright's Python package, which
# drives that system browser (nothing downloads a browser). Without them those tests skip.
.PHONY: browser
browser: $(STAMP)
	command -v chromium >/dev/null || { SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }
	$(VENV)/bin/python -m pip install --quiet -e '.[test,browser]'

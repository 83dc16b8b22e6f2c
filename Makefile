# cardhall developer commands. Every target bootstraps .venv by itself when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Packages held to mypy --strict (the rest of src/ to the settings in pyproject.toml).
STRICT := src/cardhall/engine src/cardhall/games

.PHONY: run test test-fast test-browser bench lint clean

# Install output goes to stderr so that `make bench > out.json` stays valid JSON.
$(STAMP): pyproject.toml
	@echo "bootstrapping $(VENV) (first run or pyproject.toml changed)" >&2
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) >&2
	@$(BIN)/python -m pip install -q --upgrade pip >&2
	@$(BIN)/python -m pip install -q -e '.[dev]' >&2
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardhall serve

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m 'not slow'

test-browser: $(STAMP)
	$(BIN)/python -m pytest -q -m browser tests/web

bench: $(STAMP)
	@$(BIN)/python bench/run.py $(if $(QUICK),--quick)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/mypy --strict $(STRICT)
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# cardhall developer commands. Every target bootstraps .venv by itself when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Packages held to mypy --strict (the rest of src/ to the settings in pyproject.toml).
STRICT := src/cardhall/engine src/cardhall/games

.PHONY: run test test-fast test-leak test-browser bench lint lock clean schemas

# Install output goes to stderr so that `make bench > out.json` stays valid JSON.
# Every install is held to requirements.lock (the exact versions CI and the image use);
# `make lock` writes it anew from pyproject.toml after a dependency changes.
$(STAMP): pyproject.toml requirements.lock
	@echo "bootstrapping $(VENV) (first run, or pyproject.toml or requirements.lock changed)" >&2
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) >&2
	@$(BIN)/python -m pip install -q --upgrade pip >&2
	@$(BIN)/python -m pip install -q -c requirements.lock -e '.[dev]' >&2
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardhall serve

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The two leak-by-construction files at CI depth: 200 random games per game (make test plays 50).
test-leak: $(STAMP)
	CARDHALL_LEAK_GAMES=200 $(BIN)/python -m pytest -q -o timeout=1200 \
	  tests/tables/test_leak_by_construction.py tests/tables/test_leak_after_game_by_construction.py

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

# The published wire documents, built from the registry (each game's wire.py): run it after
# a wire message or a game's view, entry or event shape changes (tests compare them).
schemas: $(STAMP)
	$(BIN)/python -m cardhall.protocol.messages > docs/protocol.schema.json
	$(BIN)/python -m cardhall.server.asyncapi > docs/asyncapi.json

# Resolve pyproject.toml (with the dev extra) in a throw-away venv and pin what it installed.
lock:
	@rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	@.lock-venv/bin/python -m pip install -q --upgrade pip >&2
	@.lock-venv/bin/python -m pip install -q '.[dev]' >&2
	@( echo "# Exact versions of every dependency (runtime and dev), from \`make lock\`."; \
	   echo "# make, .ci/run and the Dockerfile install with -c requirements.lock."; \
	   .lock-venv/bin/python -m pip freeze | grep -v '^cardhall' ) > requirements.lock
	@rm -rf .lock-venv
	@echo "requirements.lock: $$(grep -vc '^#' requirements.lock) packages" >&2

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

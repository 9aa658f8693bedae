# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Each creates .venv (and installs the project with its test extra) when missing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test test-fast lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## Open the app on this repository's own memory (initialised on first run).
run: $(STAMP)
	$(BIN)/memory-tui

## Lint, type-check and run the whole test suite (slow tests included).
test: $(STAMP) lint
	$(BIN)/pytest -q

## The same without the tests marked slow (real model, long property runs).
test-fast: $(STAMP) lint
	$(BIN)/pytest -q -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache bench/.cache

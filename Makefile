# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Each creates .venv (and installs the project with its test extra) when missing.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test test-fast lint bench clean

# uv installs the same packages several times faster than pip (bench/RESULTS.md, "Install");
# it is used when on PATH, pip otherwise (`make install UV=` forces pip). uv does not read
# pip's configuration: where pip is set to other indexes (`pip config list`, PIP_* index
# variables), say the same to uv through UV_INDEX_URL / UV_EXTRA_INDEX_URL / UV_FIND_LINKS.
UV ?= $(shell command -v uv 2>/dev/null)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || { echo "Creating $(VENV) with $(PYTHON)…"; $(PYTHON) -m venv $(VENV); }
ifneq ($(strip $(UV)),)
	@echo "Installing memory-tui and its dependencies with uv (first time about 40 s on 2 cores)…"
	@start=$$(date +%s); \
	PYTHONWARNINGS=ignore $(UV) pip install --quiet --python $(BIN)/python -e '.[test]' && \
	echo "  done in $$(( $$(date +%s) - start )) s"
else
	@echo "Installing memory-tui and its dependencies with pip (first time about 2 min on 2 cores; uv on PATH makes it about 3× faster)…"
	@start=$$(date +%s); \
	$(BIN)/python -m pip install --quiet --upgrade pip && \
	PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet -e '.[test]' && \
	echo "  done in $$(( $$(date +%s) - start )) s"
endif
	@touch $(STAMP)
	@echo "Installed: $(BIN)/memory-tui"

install: $(STAMP)

## Open the app on this repository's own memory (initialised on first run).
run: $(STAMP)
	$(BIN)/memory-tui

# Test processes: one per core (pytest-xdist; `make test WORKERS=0` runs in this process,
# as plain `pytest` does). Work-stealing keeps both cores busy to the end.
WORKERS ?= auto
PYTEST := $(BIN)/pytest -q -n $(WORKERS) --dist worksteal

## Lint, type-check and run the whole test suite (slow tests included).
test: $(STAMP) lint
	$(PYTEST)

## The same without the tests marked slow (real model, long property runs).
test-fast: $(STAMP) lint
	$(PYTEST) -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache bench/.cache

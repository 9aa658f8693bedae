# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Each creates .venv when missing: `make run` installs the project alone, `make test`
# adds its test extra and Claude Code's CLI.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install claude-code run test test-fast lint bench clean

# uv installs the same packages several times faster than pip (bench/RESULTS.md, "Install");
# it is used when on PATH, pip otherwise (`make install UV=` forces pip). uv does not read
# pip's configuration: where pip is set to other indexes (`pip config list`, PIP_* index
# variables), say the same to uv through UV_INDEX_URL / UV_EXTRA_INDEX_URL / UV_FIND_LINKS.
UV ?= $(shell command -v uv 2>/dev/null)
# Bytecode is written here, at install (pip compiles the wheels it installs; uv when told,
# --compile-bytecode), never by memory-tui at run time: a command that finds none compiles
# in memory, and writes it only where Python may (PYTHONDONTWRITEBYTECODE unset).

# Two installs: `make install` / `make run` install memory-tui alone (no torch); the
# test, lint and bench targets add the test extra (pytest, linters, and the reference
# model on torch that the ONNX vectors are checked against) and Claude Code's CLI.
TEST_STAMP := $(VENV)/.test-stamp
define pip_install
	@start=$$(date +%s); \
	$(if $(strip $(UV)),PYTHONWARNINGS=ignore $(UV) pip install --quiet --compile-bytecode --python $(BIN)/python -e '$(1)',$(BIN)/python -m pip install --quiet --upgrade pip && PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet -e '$(1)') && \
	echo "  done in $$(( $$(date +%s) - start )) s"
endef

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || { echo "Creating $(VENV) with $(PYTHON)…"; $(PYTHON) -m venv $(VENV); }
	@echo "Installing memory-tui and its dependencies with $(if $(strip $(UV)),uv,pip) (no torch)…"
	$(call pip_install,.)
	@touch $(STAMP)
	@echo "Installed: $(BIN)/memory-tui"

$(TEST_STAMP): $(STAMP) tests/claude_code/package.json
	@echo "Installing the test tools and the reference model (torch's CPU build) with $(if $(strip $(UV)),uv,pip)…"
	$(call pip_install,.[test])
	@$(MAKE) --no-print-directory claude-code
	@touch $(TEST_STAMP)

install: $(STAMP)

## Claude Code's CLI, at the version tests/claude_code/package.json pins, into that folder
## (never globally); the tests that run it skip, saying why, where npm is missing.
claude-code:
	@if command -v npm >/dev/null 2>&1; then \
		echo "Installing Claude Code's CLI (tests/claude_code/package.json) with npm…"; \
		npm install --prefix tests/claude_code --no-audit --no-fund --no-package-lock --loglevel=error; \
	else \
		echo "npm not found: the tests that run Claude Code's CLI will be skipped"; \
	fi

## Open the app on this repository's own memory (initialised on first run).
run: $(STAMP)
	$(BIN)/memory-tui

# Test processes: one per core (pytest-xdist; `make test WORKERS=0` runs in this process,
# as plain `pytest` does). Work-stealing keeps both cores busy to the end.
WORKERS ?= auto
PYTEST := $(BIN)/pytest -q -n $(WORKERS) --dist worksteal

## Lint, type-check and run the whole test suite (slow tests included).
test: $(TEST_STAMP) lint
	$(PYTEST)

## The same without the tests marked slow (real model, long property runs).
test-fast: $(TEST_STAMP) lint
	$(PYTEST) -m "not slow"

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

bench: $(TEST_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache bench/.cache tests/claude_code/node_modules

# The two commands of the README: `make demo` and `make test`. Both do all set-up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
PROCURA := $(BIN)/procura
CORPUS ?= .procura/demo-corpus
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export DBT_PROFILES_DIR := $(CURDIR)

.PHONY: venv db demo test lint bench clean

$(VENV)/.installed: pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "need $(PYTHON)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# torch first, from the CPU wheel on this disk: a bare resolve would pull a multi-GB CUDA build.
	$(BIN)/pip install -q 'torch==2.13.0'
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

venv: $(VENV)/.installed

db: venv
	$(PROCURA) db up
	# dbt's manifest (no database needed) is the column schema the semantic layer validates templates against.
	$(BIN)/dbt parse --quiet --no-send-anonymous-usage-stats

demo: db
	$(PROCURA) demo run --corpus $(CORPUS)
	$(PROCURA) ask "What was Company A's total spend on monitoring products supplied by its approved vendors during the last quarter?" --as-of 2026-05-15 --tenant tenant-42

# Two workers on two cores: one takes the database tests that share the session's databases, in order; the other
# first the database modules that build their own (CONCURRENT_MODULES), then the database-free unit tier; whichever
# is free takes the rest of the unit tier (tests/conftest.py, the xdist scheduler).
test: db
	$(BIN)/pytest -q -n 2

lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy procura

bench: db
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) target logs

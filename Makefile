# Two commands: `make demo` sets up and plays a game; `make test` sets up and runs every check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup demo test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,ray]'
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/killhouse play scenarios/execute/embassy.yaml --seed 7

lint: setup
	$(BIN)/ruff check src tests benchmarks scripts

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest -n 2 -p no:cacheprovider

test: lint typecheck unit

bench: setup
	$(BIN)/python benchmarks/bench_fov.py
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

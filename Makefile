# `make play` sets up and starts the web table; `make demo` plays a text game between AI sides;
# `make test` sets up and runs every check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup play demo test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,ray]'
	touch $(STAMP)

setup: $(STAMP)

play: setup
	mkdir -p data
	@echo "open http://127.0.0.1:8000/ in your browser (Ctrl-C stops the server)"
	$(BIN)/killhouse serve --host 127.0.0.1 --port 8000 --db data/killhouse.sqlite3

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
	$(BIN)/python benchmarks/bench_server.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

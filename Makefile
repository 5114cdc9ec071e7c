# The two commands of the README work on a fresh machine with Python 3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench fuzz install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# the package alone (demo), and with the test, benchmark and cluster extras (test, bench)
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,bench,clusters]"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/perceptrons demo

# SCIPY_ARRAY_API lets scikit-learn's array-API estimator check run instead of skipping
test: $(VENV)/.installed-dev
	SCIPY_ARRAY_API=1 $(BIN)/python -m pytest -n 2 -q

bench: $(VENV)/.installed-dev
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

# 10,000 mutated model files of every estimator, loaded and used in worker subprocesses
fuzz: $(VENV)/.installed-dev
	$(BIN)/python tests/model_fuzz.py --cases 10000

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info demo-output

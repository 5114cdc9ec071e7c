# The two commands of the README work on a fresh machine with Python 3 and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test check docs bench fuzz install clean browser aot pretrained

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# the package alone (demo), and with the test, benchmark, cluster and docs extras (test, bench, docs)
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,bench,clusters,docs,stream,distributed]"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/perceptrons demo

# SCIPY_ARRAY_API lets scikit-learn's array-API estimator check run instead of skipping
# the gates first (formatting, lint with import order, pyupgrade, bugbear and numpydoc-style
# docstrings of the public API), then the docs (the tests open every page in Chromium), then the
# tests (docstring examples included)
test: $(VENV)/.installed-dev browser aot
	$(BIN)/ruff format --check --quiet .
	$(BIN)/ruff check --quiet .
	$(MAKE) --no-print-directory docs
	SCIPY_ARRAY_API=1 $(BIN)/python -m pytest -n 2 -q

# the fast loop (under 3 minutes): the gates, then the tests not marked slow, browser, cluster, fuzz, aot or data
check: $(VENV)/.installed-dev
	$(BIN)/ruff format --check --quiet .
	$(BIN)/ruff check --quiet .
	SCIPY_ARRAY_API=1 $(BIN)/python -m pytest -n 2 -q -m "not slow and not browser and not cluster and not fuzz and not aot and not data"

# the tagger's kernels compiled ahead of time (setup.py builds them at install), built again when
# a kernel's source changed since: a stale module is never used, but the tests expect a current one
aot: $(VENV)/.installed
	$(BIN)/python -m perceptrons._compile.aot_build --if-stale

# the report's tests drive the operating system's Chromium (Debian's package), never a downloaded
# build; installed through apt-get when missing (as root), so a fresh machine needs nothing else
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" != 0 ]; then echo "make browser: chromium is missing; install it as root (apt-get install chromium)" >&2; exit 1; fi; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || \
	  { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; }; }
	@command -v chromium >/dev/null

# the HTML site in docs/_build/html: user guide, API reference, gallery (examples/ run afresh).
# -W: a warning (numpydoc validation included) fails the build; -E: every page re-read, so an
# earlier build's pages cannot hide a warning.  No network needed.
docs: $(VENV)/.installed-dev
	$(BIN)/python -m sphinx -W --keep-going -E -q -b html docs docs/_build/html

bench: $(VENV)/.installed-dev
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

# in worker subprocesses: 10,000 mutated model files of every estimator, loaded and used;
# 20,000 mutated data files of every format, read by every reader; 2,000 given to the commands
fuzz: $(VENV)/.installed-dev
	$(BIN)/python tests/model_fuzz.py --cases 10000
	$(BIN)/python tests/data_fuzz.py --cases 20000
	$(BIN)/python tests/data_fuzz.py --cases 2000 --cli --seed 1

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info demo-output docs/_build docs/auto_examples docs/generated docs/sg_execution_times.rst src/perceptrons/_compile/prebuilt*.so

# the packaged English tagger (src/perceptrons/pretrained), fitted again on ../shared/data's UD
# English EWT; its figures are written into the README
pretrained: $(VENV)/.installed-dev aot
	$(BIN)/python tools/build_pretrained.py

"""The kernels' plain-Python bodies (NUMBA_DISABLE_JIT=1) pass the same oracle tests, and those
tests cover every ``_jit`` module: a gate with a floor, as stumpy's.

This keeps the fallbacks in ``_jit/rows.py`` honest and lets coverage see inside the compiled
loops (the ``@overload`` bodies, which only numba runs, are excluded by pragma).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]

#: the share of each ``_jit`` module's lines the oracle tests must run without the JIT
FLOOR = 90.0

#: small-data tests that reach every compiled loop (about 30 s without the JIT)
SELECTION = [
    "linear/test_oracle_linear.py",
    "linear/test_gormley.py",
    "kernel/test_kernel.py",
    "kernel/test_kernel_budget.py",
    "structured/test_sequence.py",
    "structured/test_confidence.py",
    "theory/test_theory_lp.py::test_perceptron_phase_matches_reference",
    "theory/test_theory_lp.py::test_improvement_phase_matches_reference",
    "structured/test_tagger.py::test_features_equal_per_token_oracle",
    "structured/test_feature_fit.py::test_small_corpora_same_dictionary_and_matrix",
    "structured/test_feature_fit.py::test_attribute_table_equals_python",
    "structured/test_feature_fit.py::test_lookup_equals_python",
    "structured/test_tagger_cache.py::test_small_data_every_path",
    "structured/test_nltk_api.py",
    "core/test_warm_start_and_overflow.py",
    "io/test_libsvm_parser.py",
    "io/test_conllu_scan.py::test_whitespace_is_pythons",
    "io/test_conllu_scan.py::test_the_compiled_pass_reads_what_the_reader_reads",
    "io/test_conllu_scan.py::test_fuzz_same_sentences_or_the_readers_error",
    # the Vowpal Wabbit parser and MurmurHash3 (about 12 s): the 200,000-line test is left out
    "io/test_vw.py::test_murmur_matches_sklearn_on_10000_strings",
    "io/test_vw.py::test_numbers_equal_python_float",
    "io/test_vw.py::test_syntax",
    "io/test_vw.py::test_random_lines_match_the_oracle",
    "io/test_vw.py::test_long_rows_grow_the_row_buffer",
    "io/test_vw.py::test_errors_name_the_line_and_byte",
    # the online family and the scikit-learn-equal passive-aggressive
    "online/test_oracle_online.py",
    "online/test_sklearn_pa.py::test_the_same_weights_as_scikit_learn",
    "online/test_sklearn_pa.py::test_partial_fit_and_warm_start_as_scikit_learn",
    # the streamed scaling's max-abs fit and its scaled blocks
    "io/test_block_scaling.py",
    # training in threads: the compiled mix, the structured loop's update log and its replay
    "threads/test_mixing.py",
    "threads/test_rounds.py::test_another_copy_makes_the_same_updates",
    "threads/test_rounds.py::test_threads_equal_the_delayed_update_oracle",
]


@pytest.mark.slow
def test_oracles_without_jit_cover_every_compiled_module(tmp_path):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    data = str(tmp_path / ".coverage")
    run = [sys.executable, "-m", "coverage", "run", f"--data-file={data}", "--source=perceptrons._jit", "-m", "pytest"]
    done = subprocess.run(
        [*run, "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *(str(TESTS / t) for t in SELECTION)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
    report = tmp_path / "coverage.json"
    subprocess.run(
        [sys.executable, "-m", "coverage", "json", f"--data-file={data}", "-o", str(report), "-q"],
        check=True,
        cwd=tmp_path,
    )
    files = json.loads(report.read_text())["files"]
    covered = {Path(name).name: f["summary"]["percent_covered"] for name, f in files.items()}
    modules = {p.name for p in (TESTS.parent / "src" / "perceptrons" / "_jit").glob("*.py")}
    assert modules <= set(covered), f"not imported by the selection: {sorted(modules - set(covered))}"
    low = {name: round(pct, 1) for name, pct in covered.items() if pct < FLOOR}
    assert not low, f"_jit modules under {FLOOR} % of lines without the JIT: {low}"

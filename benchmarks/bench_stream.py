"""Streaming from files larger than memory, against scikit-learn's reader and Vowpal Wabbit.

On a generated text-like LIBSVM file (``BENCH_STREAM_GB``, default 4 GB; Zipf columns over 1M,
~40 non-zeros a row, half the values 1 and half floats; see ``_zipf.py``), all in one run:

1. first pass (parse + write the epoch cache) in MB/s against scikit-learn's
   ``load_svmlight_file`` on a 1 GB slice of the file, interleaved, median of 3;
2. cached epochs against in-memory epochs (samples/s, 5 epochs) on that slice;
3. the whole ``perceptrons train --stream --epochs 5`` run on the full file against Vowpal
   Wabbit's own driver on the same rows in VW format (``-d FILE -c -k --passes 5
   --loss_function hinge --holdout_off``), wall time and peak RSS measured from outside
   (``wait4``), interleaved, median of 2; test accuracy of both on a held-out file;
4. the same two on a9a (converted), test accuracy on a9a.t.

Our models on the large file: ``BENCH_STREAM_MODELS`` (default ``perceptron,averaged,pa,arow``:
the PLA, the averaged perceptron, PA-I and AROW with its diagonal covariance).

Files go to ``PERCEPTRONS_BENCH_DATA`` (default: a directory in the system's temp dir) and are
reused by later runs.  Needs ``pip install 'perceptrons[bench,stream]'``.
"""

import os
import re
import statistics
import sys
import tempfile
import warnings
from pathlib import Path

from _common import DATA, interleaved, table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the data generator lives with the tests
from zipf_data import head_slice, run_with_peak_rss, write_zipf_libsvm  # noqa: E402

WORK = Path(os.environ.get("PERCEPTRONS_BENCH_DATA", Path(tempfile.gettempdir()) / "perceptrons-bench"))
SIZE = float(os.environ.get("BENCH_STREAM_GB", "4")) * 1e9
#: the --model of our runs on the large file (the online family's: pa, arow, ...)
MODELS = tuple(os.environ.get("BENCH_STREAM_MODELS", "perceptron,averaged,pa,arow").split(","))
SLICE = min(1e9, SIZE)


def files():
    WORK.mkdir(parents=True, exist_ok=True)
    big, test = WORK / f"zipf-{SIZE / 1e9:g}g.svm", WORK / "zipf-test.svm"
    if not big.exists():
        write_zipf_libsvm(big, SIZE)
    if not test.exists():
        write_zipf_libsvm(test, 100e6, part=1)
    piece = WORK / f"zipf-{SLICE / 1e9:g}g-head.svm"
    if not piece.exists():
        head_slice(big, piece, int(SLICE))
    return big, test, piece


def vw_copy(path):
    from perceptrons.io.vw import libsvm_to_vw

    out = path.with_suffix(".vw")
    if not out.exists():
        libsvm_to_vw(path, out)
    return out


def run_measured(module, args):
    """(wall seconds, peak RSS in MiB, stdout) of ``python -m module args``, the peak being the
    kernel's high-water mark of that process (see ``run_with_peak_rss``)."""
    code, wall, peak, out, err = run_with_peak_rss(module, args)
    if code != 0:
        raise RuntimeError(f"{module} {' '.join(map(str, args))} failed ({code}):\n{err[-2000:]}")
    return wall, peak, out


def first_pass(path):
    from perceptrons.io.cache import CacheWriter, fingerprint
    from perceptrons.io.sources import Source

    src = Source(path)
    cache = WORK / "first-pass.cache"
    with CacheWriter(cache, fingerprint(src.paths, src.options())) as w:
        for block in src.blocks():
            w.append(block)
    cache.unlink()


def parse_and_epochs(piece):
    from sklearn.datasets import load_svmlight_file

    from perceptrons import Perceptron, stream
    from perceptrons.io.libsvm import read_libsvm

    mb = piece.stat().st_size / 1e6
    ours, sk = interleaved([lambda: first_pass(piece), lambda: load_svmlight_file(str(piece))], 3)
    parse_rows = [
        ("perceptrons first pass (parse + cache)", f"{ours:.2f}", f"{mb / ours:.0f}", f"{sk / ours:.2f}"),
        ("scikit-learn load_svmlight_file", f"{sk:.2f}", f"{mb / sk:.0f}", "1.00"),
    ]
    X, y, _ = read_libsvm(piece)
    cache = WORK / "slice.cache"
    warnings.simplefilter("ignore")
    stream.fit(Perceptron(max_epochs=1), piece, cache=cache)  # builds the cache (and compiles)

    def in_memory():
        Perceptron(max_epochs=5).fit(X, y)

    def cached():
        stream.fit(Perceptron(max_epochs=5), piece, cache=cache)

    mem, cac = interleaved([in_memory, cached], 3)
    n = 5 * X.shape[0]
    epoch_rows = [
        ("in memory (CSR, 5 epochs)", f"{mem:.2f}", f"{n / mem / 1e6:.2f}", "1.00"),
        ("from the epoch cache (5 epochs)", f"{cac:.2f}", f"{n / cac / 1e6:.2f}", f"{mem / cac:.2f}"),
    ]
    cache.unlink()
    return mb, X.shape, parse_rows, epoch_rows


def accuracy_vw(model, test_vw, labels_from):
    preds = WORK / "vw-preds.txt"
    run_measured("vowpalwabbit", ["-t", "-i", model, "-d", test_vw, "-p", preds, "--quiet"])
    p = [float(v.split()[0]) for v in preds.read_text().split("\n") if v.strip()]
    y = [float(line.split(None, 1)[0]) for line in open(labels_from) if line.strip()]
    return sum((a >= 0) == (b > 0) for a, b in zip(p, y)) / len(y)


def accuracy_ours(model, test):
    _, _, out = run_measured("perceptrons", ["evaluate", model, test, "--stream"])
    return float(re.search(r"accuracy\s+([0-9.]+)", out).group(1))


def whole_runs(train, test, bits, repeats, models=("perceptron", "averaged")):
    """Our CLI and VW's driver on the same rows: wall time, peak RSS, test accuracy."""
    train_vw, test_vw = vw_copy(train), vw_copy(test)
    cache, vw_cache = WORK / "run.cache", WORK / "run.vwcache"
    runs = {m: [] for m in models} | {"vw": []}

    def ours(m):
        cache.unlink(missing_ok=True)  # the run pays for its first pass
        args = ["train", train, "--stream", "--epochs", 5, "--model", m, "--cache", cache, "-o", WORK / f"{m}.npz"]
        runs[m].append(run_measured("perceptrons", args))

    def vw():
        vw_cache.unlink(missing_ok=True)
        args = ["-d", train_vw, "-c", "--cache_file", vw_cache, "-k", "--passes", 5, "--loss_function", "hinge"]
        args += ["--holdout_off", "-b", bits, "-f", WORK / "vw.model", "--quiet"]
        runs["vw"].append(run_measured("vowpalwabbit", args))

    for _ in range(repeats):
        for m in models:
            ours(m)
        vw()
    vw_wall = statistics.median(r[0] for r in runs["vw"])
    rows = []
    for m in models:
        wall = statistics.median(r[0] for r in runs[m])
        rss = max(r[1] for r in runs[m])
        rows.append(
            (
                f"perceptrons --model {m}",
                f"{wall:.1f}",
                f"{rss:.0f}",
                f"{wall / vw_wall:.2f}",
                f"{accuracy_ours(WORK / f'{m}.npz', test):.4f}",
            )
        )
    rss = max(r[1] for r in runs["vw"])
    rows.append(
        (
            "Vowpal Wabbit (hinge)",
            f"{vw_wall:.1f}",
            f"{rss:.0f}",
            "1.00",
            f"{accuracy_vw(WORK / 'vw.model', test_vw, test):.4f}",
        )
    )
    cache.unlink(missing_ok=True)
    vw_cache.unlink(missing_ok=True)
    return rows


def main():
    big, test, piece = files()
    mb, shape, parse_rows, epoch_rows = parse_and_epochs(piece)
    table(
        f"First pass on a {mb:,.0f} MB slice ({shape[0]:,} rows x {shape[1]:,} columns), median of 3",
        ("reader", "seconds", "MB/s", "x scikit-learn"),
        parse_rows,
    )
    table(
        "Epochs on the same slice (data that fits in memory), median of 3",
        ("epochs", "seconds", "M samples/s", "x in memory"),
        epoch_rows,
    )
    size = big.stat().st_size / 1e9
    table(
        f"Whole 5-epoch runs on {size:.1f} GB (parse + cache + epochs), median of 2; test: 100 MB held out",
        ("run", "wall s", "peak RSS MB", "x VW", "test acc"),
        whole_runs(big, test, 20, 2, MODELS),
    )
    a9a = WORK / "a9a.svm"
    a9a_t = WORK / "a9a.t.svm"
    for src, dst in ((DATA / "a9a" / "a9a", a9a), (DATA / "a9a" / "a9a.t", a9a_t)):
        if not dst.exists():
            dst.write_bytes(src.read_bytes())
    table(
        "a9a (32,561 rows; test a9a.t), median of 3",
        ("run", "wall s", "peak RSS MB", "x VW", "test acc"),
        whole_runs(a9a, a9a_t, 18, 3, MODELS),
    )


if __name__ == "__main__":
    main()

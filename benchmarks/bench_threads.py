"""Training in threads (``n_jobs``) against one thread, in the same run, on this machine.

Every figure is a median of interleaved runs (one thread, then S threads, then one thread, ...),
so that a busy spell of the shared machine slows both alike.

* **Tagger, EWT, 10 epochs** (``Tagger(n_jobs=S)``): the whole ``fit`` and its epochs alone
  (the epochs' time from the fit's callback; the features are learnt in one thread), the
  test accuracy of four seeds, and the mean over them against one thread's.  ``--rounds``
  also measures the sentences a thread trains on between two exchanges of updates.
* **AveragedPerceptron, 2M x 1M Zipf CSR, 10 epochs**: binary rows of ~40 columns, labels from a
  hidden weight vector with 5 % of them flipped (never separable), 200,000 rows held out.
* **Perceptron, 4M x 100 dense float32, 10 epochs**, against the read bandwidth of one and of two
  threads measured in the same run (a compiled read loop in each thread): memory-bound, so
  two threads cannot beat the ratio of the two bandwidths.
* **a9a** (AveragedPerceptron, 10 epochs): test accuracy with 1, 2 and 4 threads.

The projection beyond this machine's cores is a model fitted to these runs (see the printed
table): an epoch of S threads takes ``t₁·(1−f)/S + t₁·f + o·r`` with ``f`` the share that every
thread repeats (the other threads' updates for the tagger, the mix for the linear fits), ``o`` a
round's hand-over and ``r`` the rounds of an epoch.

Run:  python benchmarks/bench_threads.py [--data ../shared/data] [--repeats 5] [--quick] [--rounds]
"""

import argparse
import statistics
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from _common import DATA, machine_line, table

sys.path.insert(0, str(Path(__file__).resolve().parent))


def median_runs(fns, repeats):
    """Each function's results over ``repeats`` interleaved runs: a list per function."""
    out = [[] for _ in fns]
    for _ in range(repeats):
        for o, fn in zip(out, fns):
            o.append(fn())
    return out


# ---------------------------------------------------------------------- the tagger
def tagger_section(data, repeats, S, quick, rounds):
    from perceptrons.io.conllu import read_conllu
    from perceptrons.structured.tagging import Tagger

    ewt = Path(data) / "ud-english-ewt"
    train, test = (
        read_conllu(ewt / f"{p}.conllu", "upos", require_tags=True, keep_lines=False) for p in ("train", "test")
    )
    if quick:
        train = train[:3000]
    words, tags = [s.words for s in train], [s.tags for s in train]
    tw, tt = [s.words for s in test], [s.tags for s in test]
    Tagger(n_jobs=S, max_epochs=1).fit(words, tags)  # compiled before any timing
    Tagger(max_epochs=1).fit(words, tags)

    def run(n_jobs, seed=0):
        def fn():
            seconds = []
            t0 = time.perf_counter()
            tagger = Tagger(n_jobs=n_jobs, random_state=seed).fit(
                words, tags, callback=lambda e, m, el: seconds.append(el)
            )
            return time.perf_counter() - t0, seconds[-1], tagger

        return fn

    one, many = median_runs([run(1), run(S)], repeats)
    fit1, fitS = statistics.median(r[0] for r in one), statistics.median(r[0] for r in many)
    ep1, epS = statistics.median(r[1] for r in one), statistics.median(r[1] for r in many)
    acc = {1: [], S: []}
    for seed in range(4):
        for n_jobs in (1, S):
            acc[n_jobs].append(Tagger(n_jobs=n_jobs, random_state=seed).fit(words, tags).score(tw, tt))
    rows = [
        ["fit (features in one thread)", f"{fit1:.2f}", f"{fitS:.2f}", f"{fit1 / fitS:.2f}x", "≥ 1.6x"],
        ["10 epochs", f"{ep1:.2f}", f"{epS:.2f}", f"{ep1 / epS:.2f}x", "≥ 1.6x"],
    ]
    table(
        f"Tagger on EWT train ({len(words):,} sentences), 10 epochs, 1 vs {S} threads, medians of {repeats} interleaved runs",
        ["what", "1 thread s", f"{S} threads s", "speed-up", "target"],
        rows,
    )
    a1, aS = np.mean(acc[1]), np.mean(acc[S])
    table(
        "Tagger test accuracy, seeds 0-3",
        ["threads", "seed 0", "seed 1", "seed 2", "seed 3", "mean", "against 1 thread"],
        [
            [str(k)]
            + [f"{x:.4f}" for x in acc[k]]
            + [f"{np.mean(acc[k]):.4f}", f"{(np.mean(acc[k]) - a1) * 100:+.2f} pt"]
            for k in (1, S)
        ],
    )
    if rounds:
        import perceptrons.structured._sequence_model as SM

        default = SM.mix_every
        sizes = [256, 1024, 3136, len(words) // S]
        fns = []
        for m in sizes:

            def fn(m=m):
                SM.mix_every = lambda threads: m
                return run(S)()[1]

            fns.append(fn)
        fns.append(lambda: run(1)()[1])
        times = median_runs(fns, repeats)
        SM.mix_every = default
        base = statistics.median(times[-1])
        table(
            f"Sentences a thread trains on between two exchanges of updates ({S} threads; 10 epochs)",
            ["sentences a round", "epochs s", "speed-up"],
            [
                [f"{m:,}", f"{statistics.median(t):.2f}", f"{base / statistics.median(t):.2f}x"]
                for m, t in zip(sizes, times[:-1])
            ],
        )
    return ep1, epS, a1, aS


# ---------------------------------------------------------------------- linear
def csr_section(repeats, S, quick):
    from bench_linear import zipf_csr

    from perceptrons import AveragedPerceptron

    rng = np.random.default_rng(0)
    n, d = (400_000, 1_000_000) if quick else (2_200_000, 1_000_000)
    A = zipf_csr(n, d, 40, rng, binary=True)
    w = rng.standard_normal(d)
    y = np.where((A @ w) * (1 - 2 * (rng.random(n) < 0.05)) > 0, 1, -1)
    held = n // 11
    Xte, yte, A, y = A[-held:], y[-held:], A[:-held], y[:-held]
    for k in (1, S):  # compiled before any timing
        AveragedPerceptron(n_jobs=k, max_epochs=1).fit(A[:50_000], y[:50_000])

    def run(n_jobs):
        def fn():
            seconds = []
            model = AveragedPerceptron(n_jobs=n_jobs, max_epochs=10)
            model.fit(A, y, callback=lambda e, m, el: seconds.append(el))
            return seconds[-1], model

        return fn

    one, many = median_runs([run(1), run(S)], repeats)
    t1, tS = statistics.median(r[0] for r in one), statistics.median(r[0] for r in many)
    acc1, accS = one[0][1].score(Xte, yte), many[0][1].score(Xte, yte)
    return [
        f"AveragedPerceptron, CSR {A.shape[0]:,} x {d:,} Zipf, 10 epochs",
        f"{t1:.2f}",
        f"{tS:.2f}",
        f"{t1 / tS:.2f}x",
        f"{acc1:.4f} / {accS:.4f}",
        "≥ 1.5x",
    ]


def _read_loop():
    from numba import njit

    @njit(fastmath=True, nogil=True)
    def read(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s

    read(np.ones(16))
    return read


def bandwidths(S, repeats, mib=512):
    """Read bandwidth (bytes/s) of one thread and of S threads reading their own arrays at once."""
    read = _read_loop()
    arrays = [np.ones(mib * 2**20 // 8) for _ in range(S)]
    pool = ThreadPoolExecutor(S)
    ones, alls = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        read(arrays[0])
        ones.append(arrays[0].nbytes / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        list(pool.map(read, arrays))
        alls.append(S * arrays[0].nbytes / (time.perf_counter() - t0))
    return statistics.median(ones), statistics.median(alls)


def dense_section(repeats, S, quick):
    from perceptrons import Perceptron

    rng = np.random.default_rng(1)
    n = 400_000 if quick else 4_000_000
    X = rng.standard_normal((n, 100), dtype=np.float32)
    y = np.where(X[:, :5].sum(axis=1) + rng.standard_normal(n) > 0, 1, -1)
    for k in (1, S):  # compiled before any timing
        Perceptron(n_jobs=k, max_epochs=1).fit(X[:20_000], y[:20_000])

    def run(n_jobs):
        def fn():
            seconds = []
            Perceptron(n_jobs=n_jobs, max_epochs=10).fit(X, y, callback=lambda e, m, el: seconds.append(el))
            return seconds[-1]

        return fn

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the last iterate on noisy data: ConvergenceWarning
        one, many = median_runs([run(1), run(S)], repeats)
    t1, tS = statistics.median(one), statistics.median(many)
    bw1, bwS = bandwidths(S, repeats)
    limit = bwS / bw1
    return [
        f"Perceptron, dense {n:,} x 100 float32, 10 epochs",
        f"{t1:.2f}",
        f"{tS:.2f}",
        f"{t1 / tS:.2f}x",
        "",
        f"≥ {0.9 * limit:.2f}x (0.9 x {limit:.2f}, read {bw1 / 1e9:.1f} → {bwS / 1e9:.1f} GB/s)",
    ]


def a9a_section(data):
    from perceptrons import AveragedPerceptron
    from perceptrons.io.libsvm import read_libsvm

    a9a = Path(data) / "a9a"
    Xtr, ytr = read_libsvm(str(a9a / "a9a"))[:2]
    Xte, yte = read_libsvm(str(a9a / "a9a.t"), n_features=Xtr.shape[1])[:2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 4 threads on fewer cores: the model is the same, only slower
        scores = {k: AveragedPerceptron(n_jobs=k).fit(Xtr, ytr).score(Xte, yte) for k in (1, 2, 4)}
    return [
        [f"{k}", f"{s:.4f}", f"{(s - scores[1]) * 100:+.2f} pt", "within 0.1 pt" if k > 1 else ""]
        for k, s in scores.items()
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="smaller data (a smoke run)")
    parser.add_argument("--rounds", action="store_true", help="also time the tagger's round sizes")
    parser.add_argument("--only", choices=["tagger", "linear"], default=None)
    args = parser.parse_args()
    S = args.threads
    print(machine_line())
    if args.only in (None, "tagger"):
        tagger_section(args.data, args.repeats, S, args.quick, args.rounds)
    if args.only in (None, "linear"):
        rows = [csr_section(args.repeats, S, args.quick), dense_section(args.repeats, S, args.quick)]
        table(
            f"Linear fits, 1 vs {S} threads (epochs only), medians of {args.repeats} interleaved runs",
            ["data", "1 thread s", f"{S} threads s", "speed-up", "test acc 1 / S", "target"],
            rows,
        )
        table(
            "a9a, AveragedPerceptron, 10 epochs: test accuracy",
            ["threads", "accuracy", "against 1", "target"],
            a9a_section(args.data),
        )


if __name__ == "__main__":
    main()

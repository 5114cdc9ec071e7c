"""Iterative parameter mixing on a Dask LocalCluster against the serial in-process fit.

Sections (each prints its anchor, measured in the same run):

* accuracy: a9a (AveragedPerceptron) and UD English EWT (Tagger), serial and S = 2, 8 shards at
  the same epoch count (8 workers on 2 cores simulate a larger cluster: accuracy, not speed);
* speed, the one-time load (scatter or read on the workers) reported apart from the epochs:
  - text-like CSR 2M x 1M, ~40 Zipf columns a row, binary, 10 epochs, Perceptron;
  - the EWT tagger, 5 epochs;
  - dense 4M x 100 float32, 10 epochs, against the limit two processes can read here: numpy
    ``sum`` in 1 and in 2 concurrent processes;
* the per-epoch overhead (scheduling + weight traffic) against S = 1..8 and the width d, with a
  least-squares model t = a + b·S + c·bytes moved fitted to it, and a projection to 8, 32 and
  100 workers from it.

Epoch times are medians over the epochs of a fit; fits alternate serial / distributed.
``--quick`` shrinks every size for a smoke run.
"""

import argparse
import multiprocessing as mp
import statistics
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from _common import DATA, table  # noqa: E402
from bench_linear import zipf_csr  # noqa: E402

from perceptrons import AveragedPerceptron, Perceptron, Tagger, distributed  # noqa: E402


def cluster(n):
    from distributed import Client, LocalCluster

    lc = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
    return lc, Client(lc)


def quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


def serial_epochs(est, X, y):
    """Seconds per epoch of the in-process fit (median over its epochs) and its whole time."""
    marks = []
    t0 = time.perf_counter()
    quiet(est.fit, X, y, callback=lambda e, m, s: marks.append(s))
    total = time.perf_counter() - t0
    return statistics.median(np.diff([0.0, *marks])), total


# ---------------------------------------------------------------------- accuracy
def accuracy_section(quick):
    from perceptrons.io.conllu import read_conllu
    from perceptrons.io.readers import read_data

    X, y = read_data(DATA / "a9a" / "a9a")
    Xt, yt = read_data(DATA / "a9a" / "a9a.t", n_features=X.shape[1])
    ewt = DATA / "ud-english-ewt"
    train = read_conllu(str(ewt / "train.conllu"))
    test = read_conllu(str(ewt / "test.conllu"))
    if quick:
        train = train[:2000]
    words, tags = [s.words for s in train], [s.tags for s in train]
    tw, tt = [s.words for s in test], [s.tags for s in test]

    def tag_acc(t):
        pred = t.predict(tw)
        return float(np.mean([a == b for p, g in zip(pred, tt) for a, b in zip(p, g)]))

    E = 10
    serial = quiet(AveragedPerceptron(max_epochs=E).fit, X, y)
    base_a9a = serial.score(Xt, yt)
    rows = [["a9a averaged", "serial", E, f"{base_a9a:.4f}", "-"]]
    base_tag = {}
    for TE in (5, 10):
        base_tag[TE] = tag_acc(Tagger(max_epochs=TE).fit(words, tags))
        rows.append(["EWT tagger", "serial", TE, f"{base_tag[TE]:.4f}", "-"])
    for S in (2, 8):
        lc, c = cluster(S)
        with lc, c:
            m = quiet(distributed.fit, AveragedPerceptron(max_epochs=E), X, y, shards=S, client=c)
            acc = m.score(Xt, yt)
            rows.append(["a9a averaged", f"IPM S={S}", m.n_epochs_, f"{acc:.4f}", f"{100 * (acc - base_a9a):+.2f}"])
            for TE in (5, 10):
                for R in (1, 4) if S == 2 else (1,):
                    t = distributed.fit_tagger(Tagger(max_epochs=TE), words, tags, shards=S, client=c, rounds=R)
                    acc = tag_acc(t)
                    name = f"IPM S={S}" + (f", rounds={R}" if R > 1 else "")
                    rows.append(
                        ["EWT tagger", name, t.model_.n_epochs_, f"{acc:.4f}", f"{100 * (acc - base_tag[TE]):+.2f}"]
                    )
    table(
        "accuracy at the same epoch count (error-weighted mixing; test sets a9a.t, EWT test)",
        ["data", "fit", "epochs", "accuracy", "points vs serial"],
        rows,
    )


# ---------------------------------------------------------------------- speed
def speed(name, make_est, X, y, rounds, fit=None):
    """Serial vs 2 workers, alternating; returns the table row and the speed-up."""
    fit = fit or (lambda est, c: quiet(distributed.fit, est, X, y, shards=2, client=c))
    lc, c = cluster(2)
    s_epochs, d_epochs, loads = [], [], []
    with lc, c:
        for _ in range(rounds):
            s_epochs.append(serial_epochs(make_est(), X, y)[0])
            t0 = time.perf_counter()
            m = fit(make_est(), c)
            total = time.perf_counter() - t0
            model = getattr(m, "model_", m)
            d_epochs.append(statistics.median(model.seconds_per_epoch_))
            loads.append(total - sum(model.seconds_per_epoch_))
    s, d = statistics.median(s_epochs), statistics.median(d_epochs)
    row = [
        name,
        f"{s:.3f}",
        f"{d:.3f}",
        f"{statistics.median(loads):.2f}",
        f"{model.bytes_per_epoch_ / 1e6:.1f}",
        f"{s / d:.2f}x",
    ]
    return row, s / d, (s, model.bytes_per_epoch_)


def _sum_worker(n_bytes, repeats, barrier, out):
    a = np.ones(n_bytes // 8)
    a.sum()
    barrier.wait()
    t0 = time.perf_counter()
    for _ in range(repeats):
        a.sum()
    out.put(repeats * a.nbytes / (time.perf_counter() - t0))


def read_bandwidth(processes, n_bytes=256 << 20, repeats=20):
    """Aggregate numpy ``sum`` bandwidth of ``processes`` processes reading at once (bytes/s)."""
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(processes), ctx.Queue()
    ps = [ctx.Process(target=_sum_worker, args=(n_bytes, repeats, barrier, out)) for _ in range(processes)]
    for p in ps:
        p.start()
    rates = [out.get() for _ in ps]
    for p in ps:
        p.join()
    return sum(rates)


def speed_section(quick, rounds):
    rng = np.random.default_rng(0)
    rows = []
    # text-like CSR: binary Zipf columns, labels from a hidden w with 5 % noise (never separable)
    n, d = (200_000, 1_000_000) if quick else (2_000_000, 1_000_000)
    A = zipf_csr(n, d, 40, rng, binary=True)
    w = rng.standard_normal(d)
    y = np.where((A @ w) * (1 - 2 * (rng.random(n) < 0.05)) > 0, 1, -1)
    row, csr_x, csr_load = speed(f"CSR {n:,} x {d:,} binary, Zipf", lambda: Perceptron(max_epochs=10), A, y, rounds)
    rows.append(row + ["≥ 1.6x"])
    del A

    from perceptrons.io.conllu import read_conllu

    train = read_conllu(str(DATA / "ud-english-ewt" / "train.conllu"))[: 2000 if quick else None]
    words, tags = [s.words for s in train], [s.tags for s in train]
    tagger_fit = lambda est, c: distributed.fit_tagger(est, words, tags, shards=2, client=c)  # noqa: E731
    row, tag_x, tag_load = speed("EWT tagger", lambda: Tagger(max_epochs=5), words, tags, rounds, fit=tagger_fit)
    rows.append(row + ["≥ 1.5x"])

    n = 400_000 if quick else 4_000_000
    X = rng.standard_normal((n, 100), dtype=np.float32)
    y = np.where(X[:, :5].sum(axis=1) + rng.standard_normal(n) > 0, 1, -1)
    bw1, bw2 = read_bandwidth(1), read_bandwidth(2)
    limit = bw2 / bw1
    row, dense_x, dense_load = speed(f"dense {n:,} x 100 float32", lambda: Perceptron(max_epochs=10), X, y, rounds)
    rows.append(row + [f"≥ {0.9 * limit:.2f}x (0.9 x limit)"])
    table(
        f"2 workers vs the serial in-process fit, epoch medians over {rounds} alternating rounds "
        f"(read bandwidth: 1 process {bw1 / 1e9:.1f} GB/s, 2 processes {bw2 / 1e9:.1f} GB/s, limit {limit:.2f}x)",
        ["data", "serial s/epoch", "IPM s/epoch", "IPM load s", "MB moved/epoch", "speed-up", "target"],
        rows,
    )
    return {"CSR 2M x 1M": csr_load, "EWT tagger": tag_load, "dense 4M x 100": dense_load}


# ---------------------------------------------------------------------- overhead
def overhead_section(quick, repeats=3):
    """Per-epoch time of IPM on 8 rows per shard (nothing to compute) against S and d: the
    median over ``repeats`` passes over the grid (a pass visits every (d, S) once, so a burst
    of load on the shared machine hits one cell of each pass, not one cell three times)."""
    import scipy.sparse as sp
    from scipy.optimize import nnls

    widths = (1_000, 100_000, 1_000_000)
    shards = (1, 2, 4, 8)
    lc, c = cluster(8)
    rng = np.random.default_rng(1)
    runs = {(d, S): [] for d in widths for S in shards}
    moved = {}
    with lc, c:
        for _ in range(1 if quick else repeats):
            for d in widths:
                for S in shards:
                    X = sp.random(8 * S, d, density=min(1.0, 5 / d), format="csr", random_state=1, dtype=np.float64)
                    y = rng.integers(0, 2, 8 * S)
                    m = quiet(distributed.fit, Perceptron(max_epochs=5 if quick else 20), X, y, shards=S, client=c)
                    runs[d, S].append(statistics.median(m.seconds_per_epoch_[1:] or m.seconds_per_epoch_))
                    moved[d, S] = m.bytes_per_epoch_
    t = {k: statistics.median(v) for k, v in runs.items()}
    rows = [[f"{d:,}", *(f"{1000 * t[d, S]:.1f}" for S in shards)] for d in widths]
    table(
        f"per-epoch overhead (ms, medians of {1 if quick else repeats}): scheduling + weights out and back, "
        "no rows to speak of",
        ["d \\ S", *map(str, shards)],
        rows,
    )
    keys = list(t)
    A = np.array([[1.0, S, moved[d, S]] for d, S in keys])
    (a, bS, cB), _ = nnls(A, np.array([t[k] for k in keys]))  # no negative cost
    print(
        f"\nfit: t_epoch ≈ {1000 * a:.1f} ms + {1000 * bS:.2f} ms·S + bytes moved / {1 / cB / 1e6 if cB > 0 else float('inf'):,.0f} MB/s"
    )
    return a, bS, cB


def projection(model, loads):
    """An epoch on S workers from the measured model: each shard's share of the serial epoch
    (T/S), plus the client's messages, a + b·S, plus the bytes through the worker that mixes,
    S·(bytes a shard moved at S=2) / bandwidth (it sends the state to every shard's worker and
    reads their parts).  The last two grow with S while the shards' share shrinks: past
    S* = √(T / (b + B/bw)) more workers make an epoch slower."""
    a, bS, cB = model
    rows = []
    for name, (T, moved2) in loads.items():
        per_shard = moved2 / 2
        cells = []
        for S in (2, 8, 32, 100):
            client, mixer = a + bS * S, S * per_shard * cB
            epoch = T / S + client + mixer
            cells.append(f"{T / epoch:.2f}x ({100 * client / epoch:.0f} % / {100 * mixer / epoch:.0f} %)")
        best = (T / (bS + per_shard * cB)) ** 0.5 if bS + per_shard * cB > 0 else float("inf")
        rows.append([name, f"{1000 * T:.0f}", f"{per_shard / 1e6:.1f}", *cells, f"{best:.0f}"])
    table(
        "projection from the model: speed-up against the serial epoch (the client's share of an epoch / the mixing worker's)",
        ["data", "serial ms/epoch", "MB a shard moves", "S=2", "S=8", "S=32", "S=100", "S* (the fastest)"],
        rows,
    )
    print(
        "\nThe states no longer pass through the client: a state of 1 MB or more stays on the workers and is\n"
        "mixed there (in a tree past 8 shards), and the client sends the tasks (b·S) and receives the counts,\n"
        "and the state every 5 epochs while the next one runs.  The bytes term is now the mixing worker's:\n"
        "it sends the state to every shard's worker.  A broadcast tree of the mixed state, or shards\n"
        "keeping their copy and receiving its changed rows only, would take that term off it."
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--only",
        choices=["accuracy", "speed", "overhead", "timing"],
        default=None,
        help="one section; timing: speed, overhead and the projection",
    )
    args = ap.parse_args()
    if args.only in (None, "accuracy"):
        accuracy_section(args.quick)
    loads = None
    if args.only in (None, "speed", "timing"):
        loads = speed_section(args.quick, 1 if args.quick else args.rounds)
    if args.only in (None, "overhead", "timing"):
        model = overhead_section(args.quick)
        if loads:
            projection(model, loads)


if __name__ == "__main__":
    main()

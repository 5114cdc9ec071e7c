"""is_separable against one direct HiGHS solve of the feasibility LP, and LP by perceptron.

Table 1: for separable and inseparable sets of the sizes in the issue (20k × 100, 100k × 50,
3k × 1000) plus the real a9a set, the median time of ``is_separable`` (method "auto": a short
PLA run, else cutting planes) and of the anchor — ``linprog(0, A_ub=-Z, b_ub=-1,
method="highs")`` over all examples, Z the signed augmented rows — measured in the same run.
Every answer of ours is checked: a separator must separate every example, a witness must close
(‖Σλᵢyᵢzᵢ‖ ≤ 1e-6 R); it must agree with the anchor whenever the anchor answers.

Table 2: updates the PLA and the rescaled perceptron (Dunagan & Vempala) need to find a point
of a polytope of shrinking width (``solve_feasibility``).

    python benchmarks/bench_theory.py [--repeat 3] [--quick]
"""

import argparse
import statistics
import time
import warnings

import numpy as np


def separable(n, d, rng):
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    s = X @ w + 0.5
    # keep a margin of 5% of the score spread: a realistic, PLA-friendly separable set
    gap = 0.05 * np.std(s)
    X = X[np.abs(s) > gap][:n]
    return X, np.where(X @ w + 0.5 > 0, 1, -1)


def inseparable(n, d, rng, noise=0.10):
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    y = np.where(X @ w + 0.5 > 0, 1, -1)
    flip = rng.random(n) < noise
    y[flip] = -y[flip]
    return X, y


def a9a(n=None):
    from pathlib import Path

    from sklearn.datasets import load_svmlight_file

    path = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "a9a" / "a9a"
    if not path.exists():
        return None
    X, y = load_svmlight_file(str(path), n_features=123)
    X = X.toarray()
    return (X[:n], y[:n]) if n else (X, y)


def anchor(X, y):
    from scipy.optimize import linprog

    Z = np.hstack([X, np.ones((X.shape[0], 1))]) * y[:, None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = linprog(np.zeros(Z.shape[1]), A_ub=-Z, b_ub=-np.ones(Z.shape[0]), bounds=(None, None), method="highs")
    return {0: True, 2: False}.get(res.status)  # None: HiGHS gave no answer


def check(r, X, y):
    Z = np.hstack([X, np.ones((X.shape[0], 1))]) * np.where(y == r.classes[1], 1.0, -1.0)[:, None]
    if r.separable:
        return bool((Z @ np.r_[r.coef, r.intercept]).min() > 0)
    R = np.linalg.norm(Z, axis=1).max()
    return bool(np.linalg.norm(r.multipliers @ Z) <= 1e-6 * R and r.multipliers.min() >= 0)


def timed(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def table_separability(repeat, quick):
    from perceptrons.theory import is_separable

    rng = np.random.default_rng(0)
    sizes = [(2000, 100), (10000, 50), (600, 300)] if quick else [(20000, 100), (100000, 50), (3000, 1000)]
    cases = []
    for n, d in sizes:
        cases.append((f"separable {n}x{d}", *separable(n, d, rng)))
        cases.append((f"10% label noise {n}x{d}", *inseparable(n, d, rng)))
    real = a9a(5000 if quick else None)
    if real is not None:
        cases.append((f"a9a {real[0].shape[0]}x123", *real))
    is_separable(*separable(200, 5, rng))  # compile the PLA kernel outside the timings

    print("| data | answer | ours (s) | HiGHS direct (s) | speed-up | how ours answered | certificate ok |")
    print("| --- | --- | ---: | ---: | ---: | --- | --- |")
    for name, X, y in cases:
        t_ours, r = timed(lambda: is_separable(X, y), repeat)
        t_anchor, a = timed(lambda: anchor(X, y), repeat)
        ok = check(r, X, y) and (a is None or a == r.separable)
        how = r.method + (f", {r.n_lp_solves} LPs, {r.n_lp_rows} rows" if r.n_lp_solves else "")
        anchor_txt = f"{t_anchor:.3f}" + ("" if a is not None else " (no answer)")
        print(
            f"| {name} | {'separable' if r.separable else 'not separable'} | {t_ours:.3f} | {anchor_txt} | "
            f"{t_anchor / t_ours:.1f}x | {how} | {'yes' if ok else 'NO'} |",
            flush=True,
        )


def thin_polytope(width, d, m, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((m, d))
    x0 = rng.uniform(-1, 1, d)
    return A, A @ x0 + width * rng.uniform(0.5, 1.0, m)


def table_lp(quick):
    from perceptrons.theory import solve_feasibility

    cap = 10_000_000
    print()
    print(f"| width | (R/γ)² bound | PLA updates (cap {cap:.0e}) | rescaled: updates + improvement steps | rounds |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for width in (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6):
        A, b = thin_polytope(width, d=3, m=8, seed=0)
        p = solve_feasibility(A, b, max_updates=cap)
        r = solve_feasibility(A, b, method="rescaled", report_bound=False)
        pla = f"{p.updates}" if p.feasible else f"> {p.updates} (not found)"
        resc = f"{r.updates} + {r.improvement_steps}" if r.feasible else "not found"
        print(f"| {width:.0e} | {p.bound:.3g} | {pla} | {resc} | {r.rounds} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per timing (median reported)")
    ap.add_argument("--quick", action="store_true", help="smaller sets, for a smoke run")
    args = ap.parse_args()
    table_separability(args.repeat, args.quick)
    table_lp(args.quick)


if __name__ == "__main__":
    main()

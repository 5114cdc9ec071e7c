"""The trace section of the report: every update of the cyclic PLA and the proof's quantities.

The run is :func:`perceptrons.trace_updates` itself.  Per update k the page shows the example,
y·(w_k·z), w_k → w_{k+1}, w*·w_{k+1}, ‖w_{k+1}‖ and the examples seen so far; all of them are
here, for every update, so stepping never shows a thinned number.

The weight vectors are the one quantity that grows with the dimension (K × (d + 1) numbers), so
they are stored every ``stride`` updates (stride 1 while they fit ``W_BUDGET`` numbers).  Between
two checkpoints the page adds y·z of the logged examples, in order: the very additions
:func:`~perceptrons.trace_updates` replays, on the same float64 values, so every w_k it shows is
bit for bit the one computed here (``tests/report/test_report_browser.py`` checks every step).
"""

import itertools
import math

import numpy as np

from perceptrons.linear.trace import trace_updates

#: weight-vector numbers stored before checkpoints thin out: 20,000 numbers ≈ 400 kB of JSON
W_BUDGET = 20_000


def trace_section(X, y, fit_intercept, max_epochs, max_updates, w_star):
    """The PLA's trace (cyclic order, zero start), truncated to ``max_updates`` updates.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), two labels
    fit_intercept : bool
    max_epochs : int
    max_updates : int
        Updates kept; the run itself goes on to convergence or ``max_epochs``.
    w_star : ndarray of shape (d + fit_intercept,) or None
        The unit max-margin separator (weights, then bias), for the proof's w*·w_k.

    Returns
    -------
    dict
        ``index``, ``epoch``, ``score``, ``t`` (examples seen), ``norm``, ``dot`` (None without
        w*), ``errors`` (training errors of each w_{k+1}), the checkpoints ``w`` every ``stride`` updates (``w[0]`` is w_1), and the run's
        ``n_updates``, ``n_epochs``, ``mistakes_per_epoch``, ``converged``, ``truncated``.
    """
    # only the kept updates are replayed: the run may have made millions
    est, updates = trace_updates(X, y, fit_intercept=fit_intercept, max_epochs=max_epochs, lazy=True)
    kept = list(itertools.islice(updates, max_updates))
    n, d = X.shape
    p = d + int(fit_intercept)
    W = np.empty((len(kept) + 1, p))
    # w_1, before any update: the estimator's own start (zeros), with the bias folded in
    W[0] = _augmented(kept[0].w_before, kept[0].b_before, fit_intercept) if kept else 0.0
    for k, u in enumerate(kept, start=1):
        W[k] = _augmented(u.w_after, u.b_after, fit_intercept)
    index = np.array([u.index for u in kept], dtype=np.int64)
    epoch = np.array([u.epoch for u in kept], dtype=np.int64)
    stride = max(1, math.ceil(W.size / W_BUDGET))
    return {
        "index": index,
        "epoch": epoch,
        "score": np.array([u.score for u in kept]),
        # cyclic order: update k happened at visit (epoch − 1)·n + index + 1
        "t": (epoch - 1) * n + index + 1,
        "norm": np.linalg.norm(W[1:], axis=1),
        "dot": None if w_star is None else W[1:] @ w_star,
        "errors": _errors(X, y == est.classes_[1], W[1:], fit_intercept),
        "stride": stride,
        "w": W[::stride],
        "n_updates": int(est.n_updates_),
        "n_epochs": int(est.n_epochs_),
        "mistakes_per_epoch": est.mistakes_per_epoch_,
        "converged": bool(est.converged_),
        "truncated": len(kept) < est.n_updates_,
        "max_epochs": int(max_epochs),
    }


def _errors(X, positive, W, fit_intercept):
    """Training errors of each w_{k+1} as a classifier (score ≥ 0 predicts the positive class),
    computed a block of updates at a time so the n × K scores never exist at once."""
    Z = np.hstack([X, np.ones((X.shape[0], 1))]) if fit_intercept else X
    out = np.empty(W.shape[0], dtype=np.int64)
    step = max(1, (1 << 21) // max(1, X.shape[0]))
    for start in range(0, W.shape[0], step):
        block = W[start : start + step]
        out[start : start + step] = np.count_nonzero((block @ Z.T >= 0) != positive, axis=1)
    return out


def _augmented(w, b, fit_intercept):
    return np.r_[w, b[0]] if fit_intercept else np.asarray(w, dtype=np.float64)

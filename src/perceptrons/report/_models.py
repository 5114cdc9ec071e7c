"""The estimators' sections of the report: training error per epoch, the chosen model, four runs.

Each estimator is the library's own (looked up through the registry by its ``--model`` name).
A separator is described for drawing as a line (w, b) when the model is linear, or, for the
voted perceptron, whose vote is not linear, by its predictions on a grid over the plot's domain.
"""

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from perceptrons._core.registry import CLI_NAMES, estimator_class

#: most epochs of the training-error curves: 100 show every curve settle, and the voted
#: perceptron's curve costs O(vectors · n), its vectors growing with every epoch's updates
CURVE_EPOCHS = 100
#: cells per side of the grid a non-linear decision rule is drawn from (2-D data only)
GRID = 64
#: PLA steps of each of the four runs (random-mistake order: one update per step)
RUN_STEPS = 5000
#: share of the examples held out to measure E_out in the four runs
TEST_SIZE = 0.3
#: below this many examples (or 2 per class) nothing is held out and E_out is not measured
MIN_SPLIT = 10


def make(model, **params):
    """A fresh estimator of the ``--model`` name ``model`` with ``params``."""
    return estimator_class(CLI_NAMES[model])(**params)


def _fit(est, X, y):
    with warnings.catch_warnings():  # inseparable data: not converging is what is shown
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y)


def errors(est, X, y):
    """Training mistakes of a fitted estimator on (X, y)."""
    return int(np.count_nonzero(est.predict(X) != y))


def epoch_errors(X, y, fit_intercept, n_epochs):
    """Training mistakes after each epoch (cyclic order) of the four estimators (Succinctly, Fig. 18).

    The PLA's, the averaged and the voted perceptron's come from one online pass per epoch
    (``partial_fit`` continues the same run); the pocket's are its own record, ``pocket_errors_``,
    since its ratchet counts runs across the whole fit.

    Returns
    -------
    dict
        ``perceptron``, ``pocket``, ``averaged``, ``voted``: lists of mistake counts.
    """
    classes = np.unique(y)
    out = {}
    for name in ("perceptron", "averaged"):
        est = make(name, fit_intercept=fit_intercept)
        curve = []
        for _ in range(n_epochs):
            est.partial_fit(X, y, classes=classes)
            curve.append(errors(est, X, y))
        out[name] = curve
    out["voted"] = _voted_curve(X, y, fit_intercept, n_epochs, classes)
    pocket = _fit(make("pocket", fit_intercept=fit_intercept, max_epochs=n_epochs), X, y)
    out["pocket"] = [int(round(e)) for e in pocket.pocket_errors_]
    return out


def _voted_curve(X, y, fit_intercept, n_epochs, classes):
    """The voted perceptron's training mistakes after each epoch, its vote kept per example.

    Scoring the whole vote after every epoch costs O(epochs² · n · d) (on 50,000 inseparable
    examples: over an hour).  But every vector except the run's current one is closed: its
    count no longer changes, and new vectors come after it (``vectors_`` is in the order the
    run made them).  So each example's vote over the closed vectors is kept, each vector is
    scored once, and only the current vector is scored again: O(vectors · n · d) in all.
    """
    est = make("voted", fit_intercept=fit_intercept)
    vote = np.zeros(X.shape[0])  # Σ c_k·sign(w_k·x + b_k) over the closed vectors
    closed = 0
    curve = []
    for _ in range(n_epochs):
        est.partial_fit(X, y, classes=classes)
        m = est.n_vectors_
        vote += est.vote_sum(X, closed, m - 1)
        closed = m - 1
        total = vote + est.vote_sum(X, closed, m)
        # a vote of exactly 0 goes to the positive class, as the estimator's predict does
        curve.append(int(np.count_nonzero(np.where(total >= 0, classes[1], classes[0]) != y)))
    return curve


def separator(est, domain):
    """How the page draws a fitted estimator's decision rule: a line, or a grid of predictions.

    Parameters
    ----------
    est : fitted binary estimator
    domain : sequence of 4 floats or None
        ``(x_min, x_max, y_min, y_max)`` of the 2-D plot; None for other dimensions.

    Returns
    -------
    dict
        ``{"coef", "intercept"}`` for a linear rule; for the voted perceptron also ``grid``,
        GRID × GRID predictions (1: the positive class) row by row from ``y_min``, as a string.
    """
    out = {"coef": est.coef_[0], "intercept": float(est.intercept_[0])}
    if type(est).__name__ == "VotedPerceptron" and domain is not None:
        x0, x1, y0, y1 = domain
        # cell centres
        gx = x0 + (np.arange(GRID) + 0.5) * (x1 - x0) / GRID
        gy = y0 + (np.arange(GRID) + 0.5) * (y1 - y0) / GRID
        P = np.column_stack([np.tile(gx, GRID), np.repeat(gy, GRID)])
        out["grid"] = "".join("1" if v else "0" for v in est.predict(P) == est.classes_[1])
    return out


def final_model(model, X, y, fit_intercept, max_epochs, domain):
    """The chosen model, fitted as ``perceptrons train`` would (cyclic order, zero start)."""
    est = _fit(make(model, fit_intercept=fit_intercept, max_epochs=max_epochs), X, y)
    return {
        "model": model,
        "estimator": type(est).__name__,
        "train_errors": errors(est, X, y),
        "n_updates": int(est.n_updates_),
        "n_epochs": int(est.n_epochs_),
        "converged": bool(est.converged_),
        **separator(est, domain),
    }


def four_runs(model, X, y, fit_intercept, seed, domain):
    """Four runs of the chosen model with random start and random misclassified example
    (Succinctly, Fig. 19), seeds ``seed`` … ``seed + 3``, with E_in and E_out.

    A stratified share ``TEST_SIZE`` of the examples is held out (split with ``seed``) and
    E_out measured on it; with fewer than ``MIN_SPLIT`` examples, or a class of one example,
    every example trains and E_out is None.

    Returns
    -------
    dict
        ``test`` (indices held out), ``steps``, and ``runs``: per run its ``seed``,
        separator, ``e_in``, ``e_out``, ``n_updates``, ``converged``.
    """
    n = X.shape[0]
    counts = np.unique(y, return_counts=True)[1]
    test = np.zeros(0, dtype=np.int64)
    if n >= MIN_SPLIT and counts.min() >= 2:
        from sklearn.model_selection import train_test_split

        _, test = train_test_split(np.arange(n), test_size=TEST_SIZE, stratify=y, random_state=seed)
        test = np.sort(test)
    train = np.setdiff1d(np.arange(n), test)
    runs = []
    for s in range(seed, seed + 4):
        est = make(
            model,
            fit_intercept=fit_intercept,
            order="random-mistake",
            init="random",
            max_epochs=RUN_STEPS,
            random_state=s,
        )
        _fit(est, X[train], y[train])
        runs.append(
            {
                "seed": s,
                "e_in": errors(est, X[train], y[train]) / train.shape[0],
                "e_out": errors(est, X[test], y[test]) / test.shape[0] if test.shape[0] else None,
                "n_updates": int(est.n_updates_),
                "converged": bool(est.converged_),
                **separator(est, domain),
            }
        )
    return {"test": test, "steps": RUN_STEPS, "runs": runs}

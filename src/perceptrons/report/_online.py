"""The online family's section of the report: PA, PA-I, PA-II and AROW, update by update, and
each one's mistake bound trial by trial beside its count.

Each run is the library's own learner, one trial at a time through the training protocol
(:func:`perceptrons.linear.trials.online_trials`).  Of each update the page shows what the paper's
rule is made of: the margin m = y·(w·z) before it, the hinge loss ℓ = max(0, 1 − m), and the
step the learner took, read off the weights themselves (PA: τ with w ← w + τ·y·z; AROW: α and β
with μ ← μ + α·y·Σz, Σ ← Σ − β·Σz zᵀΣ).  ``tests/report`` checks those steps against the papers'
formulas.  The bound is :func:`perceptrons.theory.mistake_bound`'s, on every prefix of the run.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.linear.trials import online_trials
from perceptrons.online.arow import AROW
from perceptrons.online.passive_aggressive import PassiveAggressive
from perceptrons.theory import NoBound, mistake_bound

#: the learners shown: (key, name, parameters); AROW's bound is for its full covariance
LEARNERS = (
    ("pa", "PA", {"variant": "pa"}),
    ("pa1", "PA-I", {"variant": "pa1", "C": 1.0}),
    ("pa2", "PA-II", {"variant": "pa2", "C": 1.0}),
    ("arow", "AROW", {"r": 1.0, "covariance": "full"}),
)
#: passes over the data, at most; fewer when they would pass MAX_TRIALS trials
PASSES = 5
#: trials of each run: enough to see a bound's curve bend, few enough to step through
MAX_TRIALS = 2000
#: the weights after each update are kept (and drawn) up to this many numbers per learner
W_BUDGET = 20_000
#: AROW's full Σ costs p² a trial: beyond this many features it is not run here
MAX_AROW_FEATURES = 100


def online_section(X, y, fit_intercept):
    """Each learner of ``LEARNERS`` run over the data in order, and its bound.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), two labels
    fit_intercept : bool

    Returns
    -------
    dict
        ``rows`` and ``passes`` (the sequence: the first ``rows`` examples, ``passes`` times),
        ``trials``, and ``learners``: per learner its ``key``, ``name``, ``params``, the
        ``updates`` (``t``, ``index``, ``margin``, ``loss``, ``step``, for AROW ``beta`` and
        ``variance``, and ``w`` after each update, weights then bias, or None past W_BUDGET),
        ``mistake_trials``, and ``bound`` (``theorem``, ``value``, ``assumptions``, ``curve``)
        or ``refused`` (why the theorem does not apply here).
    """
    n, d = X.shape
    rows = min(n, MAX_TRIALS)
    passes = max(1, min(PASSES, MAX_TRIALS // rows))
    Xs, ys = X[:rows], y[:rows]
    Z = np.hstack([Xs, np.ones((rows, 1))]) if fit_intercept else Xs
    s = np.where(ys == np.unique(y)[-1], 1.0, -1.0)  # the positive class is the larger label
    learners = []
    one_class = np.unique(ys).shape[0] < 2
    for key, name, params in LEARNERS:
        cls = AROW if key == "arow" else PassiveAggressive
        model = cls(fit_intercept=fit_intercept, **params)
        entry = {"key": key, "name": name, "params": {k: v for k, v in params.items() if k in ("C", "r")}}
        if one_class:
            entry["skipped"] = f"the first {rows} examples, the run's sequence, are all of one class"
        elif key == "arow" and d > MAX_AROW_FEATURES:
            entry["skipped"] = f"AROW's full covariance over {d} features is not run here (at most {MAX_AROW_FEATURES})"
        if "skipped" in entry:
            learners.append(entry)
            continue
        try:
            entry.update(_run(model, key, Z, s, Xs, ys, passes))
        except PerceptronsError as exc:  # an overflow on rows the rest of the report could take
            entry["skipped"] = str(exc)
        else:
            entry.update(_bound(model, Xs, ys, passes))
        learners.append(entry)
    return {"rows": rows, "passes": passes, "trials": rows * passes, "learners": learners}


def _run(model, key, Z, s, X, y, passes):
    """The updates of one run, with the rule's quantities of each."""
    p = Z.shape[1]
    w = np.zeros(p)
    # AROW's Σ, from Σ⁻¹ = I + Σ z zᵀ / r over the updates so far (Crammer et al. 2009, §3)
    precision = np.eye(p)
    out = {k: [] for k in ("t", "index", "margin", "loss", "step", "beta", "variance", "w")}
    mistakes = []
    for trial in online_trials(model, X, y, passes=passes):
        z, sign = Z[trial.row], s[trial.row]
        if trial.mistake:
            mistakes.append(trial.t)
        if not trial.updated:
            continue
        after = np.r_[trial.state.w, trial.state.b] if model.fit_intercept else trial.state.w.astype(np.float64)
        m = sign * float(w @ z)
        delta = after - w
        if key == "arow":
            g = np.linalg.solve(precision, z)  # Σz
            v = float(z @ g)
            out["step"].append(sign * float(delta @ z) / v)  # α: Δμ = α·y·Σz, so zᵀΔμ = α·y·v
            out["beta"].append(1.0 / (v + model.r))
            out["variance"].append(v)
            precision += np.outer(z, z) / model.r
        else:
            out["step"].append(sign * float(delta @ z) / float(z @ z))  # τ: Δw = τ·y·z
        out["t"].append(trial.t)
        out["index"].append(trial.row)
        out["margin"].append(m)
        out["loss"].append(max(0.0, 1.0 - m))
        out["w"].append(after)
        w = after
    if key != "arow":
        del out["beta"], out["variance"]
    if len(out["w"]) * p > W_BUDGET:
        out["w"] = None
    return {"updates": out, "mistake_trials": mistakes}


def _bound(model, X, y, passes):
    """The learner's mistake bound on the run's sequence, trial by trial, or why there is none."""
    try:
        mb = mistake_bound(model, X, y, passes=passes)
    except NoBound as exc:
        return {"bound": None, "refused": str(exc)}
    return {
        "bound": {
            "theorem": mb.theorem,
            "value": mb.bound,
            "assumptions": mb.assumptions,
            "curve": mb.curve,
            "observed": mb.observed,
        }
    }

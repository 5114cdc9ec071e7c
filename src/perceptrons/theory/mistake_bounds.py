"""Every algorithm's mistake bound, on the user's data, beside the count its run actually made.

:func:`mistake_bound` takes a model (fitted or not: only its class and parameters matter) and
data, runs the model's algorithm online over the data in their order (``passes`` times, from
zero, as the theorems do), and returns the bound its paper proves for that sequence next to the
count it limits.  Each bound is stated for the vectors the learner updates with: with
``fit_intercept=True`` the rows are ``z = (x, 1)``.  A bound whose assumptions the data or the
parameters do not meet is refused, saying which.

Where a bound holds for every comparison vector ``u`` (Freund–Schapire, PA-I, PA-II, the
second-order perceptron), the ``u`` used is found by a solver: the maximum-margin separator, or
scikit-learn's linear SVM for the soft-margin terms.  A better ``u`` would give a smaller bound;
any ``u`` gives a true one.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import Interval, check_param
from perceptrons.theory._common import augment, check_X, radius_of, signed_labels
from perceptrons.theory.bounds import fs_optimal_direction
from perceptrons.theory.margins import max_margin

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix
    from sklearn.base import BaseEstimator


@dataclass(frozen=True)
class MistakeBound:
    """A mistake bound on one data sequence, beside the count it limits.

    Attributes
    ----------
    algorithm : str
        The learner, as its class names it (with its variant).
    theorem : str
        The source of the bound.
    counts : {"mistakes", "updates"}
        What the bound limits: prediction mistakes, or every update (ALMA's corrections).
    bound : float
    observed : int
        What the run made, of ``counts``.
    assumptions : str
        What the theorem needs, which these data and parameters meet.
    quantities : dict
        The numbers the bound is made of (R, γ, the losses, ...).
    """

    algorithm: str
    theorem: str
    counts: str
    bound: float
    observed: int
    assumptions: str
    quantities: dict = field(default_factory=dict)

    @property
    def holds(self) -> bool:
        """Whether the count is within the bound."""
        return self.observed <= self.bound


def mistake_bound(
    model: BaseEstimator, X: ArrayLike | spmatrix | sparray, y: ArrayLike, *, passes: int = 1
) -> MistakeBound:
    """The mistake bound of ``model``'s algorithm on the sequence ``(X, y)``, and its actual count.

    Parameters
    ----------
    model : estimator of perceptrons
        Perceptron, AveragedPerceptron and VotedPerceptron (their training is the PLA's),
        PassiveAggressive, SecondOrderPerceptron (full covariance), ALMA, Winnow.  Its parameters
        set the algorithm; a fitted model is not changed.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two classes (more are refused: the bounds here are for two).
    passes : int, default=1
        The sequence is the rows in their order, this many times over.  A bound that holds on
        separable data holds for any number of passes; the loss sums of the others grow with it.

    Returns
    -------
    MistakeBound

    Raises
    ------
    PerceptronsError
        For more than two classes, a model without a bound here, or data and parameters that
        do not meet the theorem's assumptions (named in the message).

    References
    ----------
    Novikoff (1962); Freund & Schapire (1999), Theorem 2; Crammer, Dekel, Keshet,
    Shalev-Shwartz & Singer (2006), Theorems 2-5; Cesa-Bianchi, Conconi & Gentile (2005),
    Theorem 1; Gentile (2001), Theorem 3; Littlestone (1988), with the constants of Blum (1996).

    Examples
    --------
    >>> from perceptrons import PassiveAggressive
    >>> X = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, -1.0]]
    >>> mb = mistake_bound(PassiveAggressive(variant="pa"), X, [1, 1, 0, 0])
    >>> mb.theorem, mb.observed <= mb.bound
    ('Crammer et al. 2006, Theorem 2', True)
    """
    passes = check_param(passes, "passes", (Interval(Integral, 1, 10**6),), "mistake_bound")
    name = type(model).__name__
    if name not in _BOUNDS:
        raise PerceptronsError(f"no mistake bound for {name} here; mistake_bound takes {', '.join(sorted(_BOUNDS))}")
    X = check_X(X)
    classes, s = signed_labels(y, X.shape[0])  # two classes: the bounds here are binary
    params = model.get_params()
    Z = augment(X, params["fit_intercept"]) * s[:, None]  # each row times its label ±1
    run = _run(model, X, y, passes)
    return _BOUNDS[name](params, X, Z, s, run, passes)


# ---------------------------------------------------------------------- the run
@dataclass(frozen=True)
class _Run:
    mistakes: int
    updates: int
    mistake_rows: np.ndarray  # the rows (of the repeated sequence, as row indices) predicted wrong


def _run(model, X, y, passes):
    """The model's algorithm online over (X, y), ``passes`` times in order, from zero."""
    from sklearn.base import clone

    est = clone(model).set_params(max_epochs=1, order="cyclic", warm_start=False)
    classes = np.unique(np.asarray(y))
    rows, mistakes, updates = [], 0, 0
    for _ in range(passes):
        before = est.n_updates_ if hasattr(est, "n_updates_") else 0
        for i in range(X.shape[0]):  # one row at a time, so that the rows predicted wrong are known
            est.partial_fit(X[i : i + 1], np.asarray(y)[i : i + 1], classes=classes)
            if est.mistakes_per_epoch_[-1]:
                rows.append(i)
        mistakes = len(rows)
        updates += est.n_updates_ - before
    return _Run(mistakes, updates, np.array(rows, dtype=np.int64))


# ---------------------------------------------------------------------- the bounds
def _perceptron(params, X, Z, s, run, passes):
    if params.get("margin", 0.0) != 0.0:
        raise PerceptronsError("the perceptron's bounds here are for margin=0 (the PLA's own rule)")
    R = radius_of(Z)
    mm = max_margin(X, s, params["fit_intercept"])
    if mm.separable:
        return MistakeBound(
            "Perceptron",
            "Novikoff 1962",
            "mistakes",
            (R / mm.gamma) ** 2,
            run.mistakes,
            "separable data: some unit u has y·u·z ≥ γ > 0 on every row",
            {"R": R, "gamma": mm.gamma},
        )
    fs, _ = fs_optimal_direction(X, s, fit_intercept=params["fit_intercept"])
    D = fs.D * math.sqrt(passes)  # the deviations of every trial of the repeated sequence
    return MistakeBound(
        "Perceptron",
        "Freund & Schapire 1999, Theorem 2",
        "mistakes",
        ((R + D) / fs.gamma) ** 2,
        run.mistakes,
        "any data; u a unit vector, γ > 0, D the norm of the deviations max(0, γ − y·u·z)",
        {"R": R, "gamma": fs.gamma, "D": D},
    )


def _svm_direction(Z, C, loss):
    """A comparison vector u for the soft-margin bounds: scikit-learn's linear SVM of the signed
    rows (all labelled +1 by the sign already in them; a mirrored copy gives it two classes).
    """
    from sklearn.svm import LinearSVC

    both = np.vstack([Z, -Z])
    labels = np.r_[np.ones(Z.shape[0]), -np.ones(Z.shape[0])]
    svm = LinearSVC(C=C / 2.0, loss=loss, fit_intercept=False, dual=True, max_iter=20000, tol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unconverged u still gives a true bound
        svm.fit(both, labels)
    return svm.coef_.ravel()


def _hinge(Z, u):
    return np.maximum(0.0, 1.0 - Z @ u)


def _passive_aggressive(params, X, Z, s, run, passes):
    variant, C = params["variant"], params["C"]
    R = radius_of(Z)
    norms = np.sqrt(np.einsum("ij,ij->i", Z, Z))
    name = f"PassiveAggressive ({variant})"
    if variant == "pa":
        mm = max_margin(X, s, params["fit_intercept"])
        if mm.separable:
            # u of margin 1: the max-margin separator over γ*, ‖u‖ = 1/γ*; mistakes ≤ Σℓ² ≤ ‖u‖²R²
            return MistakeBound(
                name,
                "Crammer et al. 2006, Theorem 2",
                "mistakes",
                (R / mm.gamma) ** 2,
                run.mistakes,
                "separable data: some u has y·u·z ≥ 1 on every row; ‖z‖ ≤ R",
                {"R": R, "u_norm": 1.0 / mm.gamma},
            )
        if not np.allclose(norms, 1.0, rtol=1e-9, atol=0.0):
            raise PerceptronsError(
                "PA on data that are not separable: Theorem 3 needs ‖x‖ = 1 on every row (with the "
                "bias folded in, only rows of zeros have it); normalise the rows "
                "(sklearn.preprocessing.Normalizer) and fit without intercept, or use the PA-I or "
                "PA-II variant, whose bounds hold on any data"
            )
        best = None
        for c in (0.01, 0.1, 1.0, 10.0, 100.0):
            u = _svm_direction(Z, c, "squared_hinge")
            loss2 = passes * float(np.sum(_hinge(Z, u) ** 2))
            value = (float(np.linalg.norm(u)) + 2.0 * math.sqrt(loss2)) ** 2
            if best is None or value < best[0]:
                best = (value, float(np.linalg.norm(u)), loss2)
        return MistakeBound(
            name,
            "Crammer et al. 2006, Theorem 3",
            "mistakes",
            best[0],
            run.mistakes,
            "‖x‖ = 1 on every row; any u (here a squared-hinge SVM's), ℓ* its hinge losses",
            {"u_norm": best[1], "u_squared_loss": best[2]},
        )
    loss = "hinge" if variant == "pa1" else "squared_hinge"
    u = _svm_direction(Z, C, loss)
    u2 = float(u @ u)
    ell = _hinge(Z, u)
    if variant == "pa1":
        total = passes * float(ell.sum())
        value = max(R * R, 1.0 / C) * (2.0 * C * total + u2)
        theorem, what = "Crammer et al. 2006, Theorem 4", "any u (here a hinge SVM's), ℓ* its hinge losses; ‖z‖ ≤ R"
        quantities = {"R": R, "u_norm2": u2, "u_loss": total}
    else:
        total = passes * float(np.sum(ell**2))
        value = (R * R + 1.0 / (2.0 * C)) * (u2 + 2.0 * C * total)
        theorem, what = "Crammer et al. 2006, Theorem 5", "any u (here a squared-hinge SVM's); ‖z‖ ≤ R"
        quantities = {"R": R, "u_norm2": u2, "u_squared_loss": total}
    return MistakeBound(name, theorem, "mistakes", value, run.mistakes, what, quantities)


def _second_order_perceptron(params, X, Z, s, run, passes):
    cov = params["covariance"]
    if cov == "diagonal" or (cov == "auto" and Z.shape[1] - params["fit_intercept"] > 1000):
        raise PerceptronsError(
            "the second-order perceptron's bound is for its full covariance; fit with covariance='full'"
        )
    a = float(params["a"])
    M = Z[run.mistake_rows]  # the rows of the trials it erred on, repeats counted
    eig = np.linalg.eigvalsh(M.T @ M) if M.shape[0] else np.zeros(Z.shape[1])
    log_det = float(np.sum(np.log1p(np.maximum(eig, 0.0) / a)))
    mm = max_margin(X, s, params["fit_intercept"])
    u = np.r_[mm.coef, mm.intercept] if mm.separable and params["fit_intercept"] else mm.coef
    if u is None:
        u = _svm_direction(Z, 1.0, "hinge")
        u = u / np.linalg.norm(u)
    margins = Z @ u
    best = math.inf
    for gamma in np.unique(np.r_[margins[margins > 0], np.max(np.abs(margins))]):
        dev = passes * float(np.sum(np.maximum(0.0, gamma - margins)))
        spread = a * float(u @ u) + float(np.sum((M @ u) ** 2))
        best = min(best, dev / gamma + math.sqrt(spread * log_det) / gamma)
    return MistakeBound(
        "SecondOrderPerceptron",
        "Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1",
        "mistakes",
        best,
        run.mistakes,
        "any unit u and γ > 0 (here the max-margin or an SVM's u, the best γ of its margins); "
        "λᵢ the eigenvalues of Σ z zᵀ over the trials it erred on",
        {"a": a, "sum_log_1_plus_lambda_over_a": log_det},
    )


def _alma(params, X, Z, s, run, passes):
    alpha = float(params["alpha"])
    if params["B"] is not None and params["B"] != 1.0 / alpha or params["C"] != math.sqrt(2.0):
        raise PerceptronsError("ALMA's bound is for B = 1/α and C = √2, the defaults")
    norms = np.sqrt(np.einsum("ij,ij->i", Z, Z))
    if np.any(norms == 0):
        raise PerceptronsError("ALMA normalises every row: a row of zeros (without intercept) has no direction")
    unit = Z / norms[:, None] * s[:, None]  # the rows x̂ = z/‖z‖ as given (their labels are s)
    mm = max_margin(unit, s, False)
    if not mm.separable:
        raise PerceptronsError("ALMA's bound is for separable data; these are not (no separating hyperplane)")
    gamma = mm.gamma
    value = (2.0 / gamma**2) * (2.0 / alpha - 1.0) ** 2 + 8.0 / alpha - 4.0
    return MistakeBound(
        f"ALMA (alpha={alpha:g})",
        "Gentile 2001, Theorem 3 (p = 2)",
        "updates",
        value,
        run.updates,
        "separable data; γ the margin of the normalised rows; B = 1/α, C = √2",
        {"gamma": gamma, "alpha": alpha},
    )


def _winnow(params, X, Z, s, run, passes):
    d = X.shape[1]
    why = []
    if params["balanced"]:
        why.append("balanced=False (positive Winnow)")
    if params["alpha"] != 2.0:
        why.append("alpha=2")
    if params["threshold"] not in ("auto", float(d), d):
        why.append(f"threshold={d} (the number of features)")
    if params["fit_intercept"]:
        why.append("fit_intercept=False")
    if not np.all((X == 0) | (X == 1)):
        why.append("features of 0 and 1")
    if why:
        raise PerceptronsError(f"Winnow's bound is for {', '.join(why)}")
    # the variables a consistent monotone disjunction may use: those off in every negative row
    allowed = ~np.any(X[s < 0] == 1, axis=0)
    positives = X[s > 0] == 1
    if not np.all(np.any(positives[:, allowed], axis=1)):
        raise PerceptronsError(
            "Winnow's bound is for labels that a monotone disjunction gives: some positive row has "
            "no feature that is off in every negative row"
        )
    # a small disjunction covering every positive row (greedy set cover: its size r is at most
    # ln(n)+1 times the smallest; the bound holds for any disjunction that labels the data)
    uncovered = positives.copy()
    r = 0
    while uncovered.shape[0] and uncovered.any():
        j = int(np.argmax(np.where(allowed, uncovered.sum(axis=0), -1)))
        uncovered = uncovered[~uncovered[:, j]]
        r += 1
    value = 2.0 + 3.0 * r * (1.0 + math.log2(d))
    return MistakeBound(
        "Winnow (positive)",
        "Littlestone 1988; constants of Blum 1996",
        "mistakes",
        value,
        run.mistakes,
        "0/1 features labelled by a monotone disjunction of r of them; α = 2, θ = n",
        {"r": r, "n": d},
    )


_BOUNDS = {
    "Perceptron": _perceptron,
    "AveragedPerceptron": _perceptron,
    "VotedPerceptron": _perceptron,
    "PassiveAggressive": _passive_aggressive,
    "SecondOrderPerceptron": _second_order_perceptron,
    "ALMA": _alma,
    "Winnow": _winnow,
}

"""Every algorithm's mistake bound, on the user's data, beside the count its run actually made.

:func:`mistake_bound` takes a model (fitted or not: only its class and parameters matter) and
data, runs the model's algorithm online over the data in their order (``passes`` times, from
zero, as the theorems do), and returns the bound its paper proves for that sequence next to the
count it limits.  Each bound is stated for the vectors the learner updates with: with
``fit_intercept=True`` the rows are ``z = (x, 1)``.  A bound whose assumptions the data or the
parameters do not meet is refused, saying which.

Where a bound holds for every comparison vector ``u`` (Freund–Schapire, PA-I, PA-II, the
second-order perceptron, AROW), the ``u`` used is found by a solver: the maximum-margin
separator, or scikit-learn's linear SVM for the soft-margin terms.  A better ``u`` would give a
smaller bound; any ``u`` gives a true one.

Each theorem is about a sequence, so it also bounds the count on every prefix of the sequence:
with the same ``u`` and constants, its loss sums taken over the first t trials only.  That is the
result's ``curve``, the bound the count has to stay under trial by trial (the report draws it).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import check_allocation
from perceptrons._core.params import Interval, check_param
from perceptrons.theory._common import augment, check_X, radius_of, signed_labels, squared_ratio
from perceptrons.theory.bounds import fs_optimal_direction
from perceptrons.theory.margins import max_margin

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix
    from sklearn.base import BaseEstimator


#: the relative rounding a bound's computation may carry (a few operations on float64)
ROUNDING = 1e-9


class NoBound(PerceptronsError):
    """The theorem does not apply: these data or parameters do not meet its assumptions.

    A finding about the data, not an input error: the command line says it and goes on.
    """


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
    trials : ndarray of int
        The trials that made the count, as positions (from 0) in the sequence of
        ``passes × n_samples`` trials.
    curve : ndarray of float, shape (passes × n_samples,)
        ``curve[t]``: the theorem on the first t + 1 trials, with the same comparison vector
        and constants (the count among them, ``observed_curve[t]``, is within it); its last
        value is ``bound``.
    """

    algorithm: str
    theorem: str
    counts: str
    bound: float
    observed: int
    assumptions: str
    quantities: dict = field(default_factory=dict)
    trials: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False, compare=False)
    curve: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)

    @property
    def holds(self) -> bool:
        """Whether the count is within the bound, up to the rounding of its computation (a
        relative 1e-9: Novikoff's bound of exactly 2 mistakes came out 1.9999999999999996).
        """
        return self.observed <= self.bound * (1.0 + ROUNDING)

    @property
    def observed_curve(self) -> np.ndarray:
        """The count among the first t + 1 trials, for each t (beside ``curve``)."""
        counted = np.zeros(self.curve.shape[0], dtype=np.int64)
        counted[self.trials] = 1
        return np.cumsum(counted)


def mistake_bound(
    model: BaseEstimator, X: ArrayLike | spmatrix | sparray, y: ArrayLike, *, passes: int = 1
) -> MistakeBound:
    """The mistake bound of ``model``'s algorithm on the sequence ``(X, y)``, and its actual count.

    Parameters
    ----------
    model : estimator of perceptrons
        Perceptron, AveragedPerceptron, VotedPerceptron and PocketPerceptron (their training
        is the PLA's), KernelPerceptron (the PLA's in the feature space of its kernel; with
        ``margin=0`` and no ``budget``),
        PassiveAggressive, SecondOrderPerceptron and AROW (full covariance), ALMA, ROMMA (not
        aggressive), Winnow; without ``class_weight`` (the theorems are for unweighted steps).
        Its parameters set the algorithm; a fitted model is not changed.
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
    NoBound
        Data or parameters that do not meet the theorem's assumptions (named in the message),
        ``class_weight`` included.
    PerceptronsError
        For more than two classes, a model without a bound here, bad input, or more trials
        than memory holds.

    References
    ----------
    Novikoff (1962); Freund & Schapire (1999), Theorem 2; Crammer, Dekel, Keshet,
    Shalev-Shwartz & Singer (2006), Theorems 2-5; Cesa-Bianchi, Conconi & Gentile (2005),
    Theorem 1; Crammer, Kulesza & Dredze (2009), Theorem 2; Gentile (2001), Theorem 3; Li &
    Long (2002), §3; Littlestone (1988), with the constants of Blum (1996).

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
    if name not in _BOUNDS or not type(model).__module__.startswith("perceptrons."):
        raise PerceptronsError(
            f"no mistake bound for {type(model).__module__}.{name} here; mistake_bound takes the perceptrons "
            f"package's {', '.join(sorted(_BOUNDS))}"
        )
    X = check_X(X)
    classes, s = signed_labels(y, X.shape[0])  # two classes: the bounds here are binary
    params = model.get_params()
    if params.get("class_weight") is not None:
        raise NoBound("the mistake bounds are for unweighted steps: fit with class_weight=None")
    if params.get("init", "zeros") != "zeros":
        raise NoBound(
            f"the mistake bounds count the mistakes made from w = 0: fit with init='zeros', not {params['init']!r}"
        )
    # the curves and the per-trial sums: a few float64 arrays of one value a trial
    check_allocation(
        6 * 8 * passes * X.shape[0],
        f"the bound's curves over {passes:,} × {X.shape[0]:,} trials",
        "ask for fewer passes",
    )
    if name == "KernelPerceptron":
        return _kernel_perceptron(model, params, X, y, s, passes)
    Z = augment(X, params["fit_intercept"]) * s[:, None]  # each row times its label ±1
    run = _run(model, X, y, passes)
    return _BOUNDS[name](params, X, Z, s, run, passes)


def _kernel_perceptron(model, params, X, y, s, passes):
    """The perceptron's bounds on rows whose dot products are the kernel's values
    (:mod:`perceptrons.theory.kernel_bound`), beside the dual algorithm's own count.
    """
    from dataclasses import replace

    from perceptrons.theory import kernel_bound

    L, R, mistakes = kernel_bound.kernel_sequence(model, X, y, s, passes)
    run = _Run(X.shape[0], passes * X.shape[0], mistakes, mistakes)
    Z = augment(L, params["fit_intercept"]) * s[:, None]
    try:
        mb = _perceptron(params, L, Z, s, run, passes, R=R)
    except NoBound:
        raise
    except PerceptronsError:  # a separator too thin for the QP to stand behind: any u serves F–S
        mb = _perceptron(params, L, Z, s, run, passes, R=R, try_separable=False)
    return replace(
        mb,
        algorithm=f"KernelPerceptron ({params['kernel']!r} kernel)",
        quantities={**mb.quantities, "rank": L.shape[1]},
    )


# ---------------------------------------------------------------------- the run
@dataclass(frozen=True)
class _Run:
    n: int  # rows of the sequence
    trials: int  # passes × n
    mistake_trials: np.ndarray  # the trials (positions in the repeated sequence) predicted wrong
    update_trials: np.ndarray  # the trials that changed the weights

    @property
    def mistakes(self):
        return self.mistake_trials.shape[0]

    @property
    def updates(self):
        return self.update_trials.shape[0]

    @property
    def mistake_rows(self):
        return self.mistake_trials % self.n


def _run(model, X, y, passes):
    """The model's algorithm online over (X, y), ``passes`` times in order, from zero."""
    from perceptrons.linear.trials import online_trials

    mistakes, updates = [], []
    for trial in online_trials(model, X, y, passes=passes):
        if trial.mistake:
            mistakes.append(trial.t)
        if trial.updated:
            updates.append(trial.t)
    n = X.shape[0]
    return _Run(n, passes * n, np.array(mistakes, dtype=np.int64), np.array(updates, dtype=np.int64))


def _constant(run, value):
    """The curve of a bound with no loss term: the same value on every prefix."""
    return np.full(run.trials, float(value))


def _per_trial(run, per_row):
    """A per-row quantity over the trials of the repeated sequence, summed up to each trial."""
    return np.cumsum(np.tile(per_row, run.trials // run.n))


# ---------------------------------------------------------------------- the bounds
def _perceptron(params, X, Z, s, run, passes, R=None, try_separable=True):
    """Novikoff's bound where the max-margin QP finds a separator (unless not ``try_separable``),
    else Freund and Schapire's; ``R`` given where the rows of ``X`` are shorter than the vectors
    the learner saw (a kernel's feature rows without their smallest directions).
    """
    if params.get("margin", 0.0) != 0.0:
        raise NoBound("the perceptron's bounds here are for margin=0 (the PLA's own rule)")
    R = radius_of(Z) if R is None else R
    mm = max_margin(X, s, params["fit_intercept"]) if try_separable else None
    if mm is not None and mm.separable:
        return MistakeBound(
            "Perceptron",
            "Novikoff 1962",
            "mistakes",
            squared_ratio(R, mm.gamma),
            run.mistakes,
            "separable data: some unit u has y·u·z ≥ γ > 0 on every row",
            {"R": R, "gamma": mm.gamma},
            run.mistake_trials,
            _constant(run, squared_ratio(R, mm.gamma)),
        )
    try:
        fs, u = fs_optimal_direction(X, s, fit_intercept=params["fit_intercept"])
    except PerceptronsError:  # the SOCP did not solve (badly scaled rows): any u gives a true bound
        fs, u = fs_optimal_direction(X, s, fit_intercept=params["fit_intercept"], solver="lbfgs")
    # the deviations of every trial of the repeated sequence in units of γ, (D/γ)² summed trial by
    # trial: on rows of zeros the γ found is 1e-287, whose square underflowed to a bound of 0
    D2 = _per_trial(run, np.maximum(0.0, 1.0 - (Z @ u) / fs.gamma) ** 2)
    curve = (R / fs.gamma + np.sqrt(D2)) ** 2
    return MistakeBound(
        "Perceptron",
        "Freund & Schapire 1999, Theorem 2",
        "mistakes",
        float(curve[-1]),
        run.mistakes,
        "any data; u a unit vector, γ > 0, D the norm of the deviations max(0, γ − y·u·z)",
        {"R": R, "gamma": fs.gamma, "D": fs.gamma * math.sqrt(D2[-1])},
        run.mistake_trials,
        curve,
    )


def _svm_direction(Z, C, loss):
    """A comparison vector u for the soft-margin bounds: scikit-learn's linear SVM of the signed
    rows (all labelled +1 by the sign already in them; a mirrored copy gives it two classes).
    """
    from sklearn.svm import LinearSVC

    both = np.vstack([Z, -Z])
    labels = np.r_[np.ones(Z.shape[0]), -np.ones(Z.shape[0])]
    # seeded: its coordinate descent visits the examples in a random order
    svm = LinearSVC(C=C / 2.0, loss=loss, fit_intercept=False, dual=True, max_iter=20000, tol=1e-6, random_state=0)
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
                squared_ratio(R, mm.gamma),
                run.mistakes,
                "separable data: some u has y·u·z ≥ 1 on every row; ‖z‖ ≤ R",
                {"R": R, "u_norm": 1.0 / mm.gamma},
                run.mistake_trials,
                _constant(run, squared_ratio(R, mm.gamma)),
            )
        if not np.allclose(norms, 1.0, rtol=1e-9, atol=0.0):
            raise NoBound(
                "PA on data that are not separable: Theorem 3 needs ‖x‖ = 1 on every row (with the "
                "bias folded in, only rows of zeros have it); normalise the rows "
                "(sklearn.preprocessing.Normalizer) and fit without intercept, or use the PA-I or "
                "PA-II variant, whose bounds hold on any data"
            )
        best = None
        for c in (0.01, 0.1, 1.0, 10.0, 100.0):
            u = _svm_direction(Z, c, "squared_hinge")
            loss2 = _per_trial(run, _hinge(Z, u) ** 2)
            curve = (float(np.linalg.norm(u)) + 2.0 * np.sqrt(loss2)) ** 2
            if best is None or curve[-1] < best[0][-1]:
                best = (curve, float(np.linalg.norm(u)), float(loss2[-1]))
        return MistakeBound(
            name,
            "Crammer et al. 2006, Theorem 3",
            "mistakes",
            float(best[0][-1]),
            run.mistakes,
            "‖x‖ = 1 on every row; any u (here a squared-hinge SVM's), ℓ* its hinge losses",
            {"u_norm": best[1], "u_squared_loss": best[2]},
            run.mistake_trials,
            best[0],
        )
    loss = "hinge" if variant == "pa1" else "squared_hinge"
    u = _svm_direction(Z, C, loss)
    u2 = float(u @ u)
    ell = _hinge(Z, u)
    if variant == "pa1":
        total = _per_trial(run, ell)
        curve = max(R * R, 1.0 / C) * (2.0 * C * total + u2)
        theorem, what = "Crammer et al. 2006, Theorem 4", "any u (here a hinge SVM's), ℓ* its hinge losses; ‖z‖ ≤ R"
        quantities = {"R": R, "u_norm2": u2, "u_loss": float(total[-1])}
    else:
        total = _per_trial(run, ell**2)
        curve = (R * R + 1.0 / (2.0 * C)) * (u2 + 2.0 * C * total)
        theorem, what = "Crammer et al. 2006, Theorem 5", "any u (here a squared-hinge SVM's); ‖z‖ ≤ R"
        quantities = {"R": R, "u_norm2": u2, "u_squared_loss": float(total[-1])}
    return MistakeBound(
        name, theorem, "mistakes", float(curve[-1]), run.mistakes, what, quantities, run.mistake_trials, curve
    )


def _second_order_perceptron(params, X, Z, s, run, passes):
    cov = params["covariance"]
    if cov == "diagonal" or (cov == "auto" and Z.shape[1] - params["fit_intercept"] > 1000):
        raise NoBound("the second-order perceptron's bound is for its full covariance; fit with covariance='full'")
    a = float(params["a"])
    M = Z[run.mistake_rows]  # the rows of the trials it erred on, repeats counted
    steps = _log_det_steps(M, a)
    log_det = float(np.sum(steps))
    mm = max_margin(X, s, params["fit_intercept"])
    u = np.r_[mm.coef, mm.intercept] if mm.separable and params["fit_intercept"] else mm.coef
    if u is None:
        u = _svm_direction(Z, 1.0, "hinge")
        norm = float(np.linalg.norm(u))
        # the SVM's u is 0 when no direction has a positive margin on the rows (rows of zeros, a
        # row and its negation with opposite labels); the theorem holds for any unit u
        u = u / norm if norm > 0 else np.eye(Z.shape[1])[0]
    margins = Z @ u
    if not np.any(margins > 0):
        raise NoBound("no row has a positive margin along any direction tried (rows of zeros?): no γ > 0 to bound with")
    best = (math.inf, 1.0)
    for gamma in np.unique(np.r_[margins[margins > 0], np.max(np.abs(margins))]):
        dev = passes * float(np.sum(np.maximum(0.0, gamma - margins)))
        spread = a * float(u @ u) + float(np.sum((M @ u) ** 2))
        best = min(best, (dev / gamma + math.sqrt(spread * log_det) / gamma, gamma))
    gamma = best[1]  # the curve: that γ on every prefix
    dev = _per_trial(run, np.maximum(0.0, gamma - margins))
    spread = a * float(u @ u) + _at_trials(run, run.mistake_trials, margins[run.mistake_rows] ** 2)
    curve = dev / gamma + np.sqrt(spread * _at_trials(run, run.mistake_trials, steps)) / gamma
    return MistakeBound(
        "SecondOrderPerceptron",
        "Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1",
        "mistakes",
        float(curve[-1]),
        run.mistakes,
        "any unit u and γ > 0 (here the max-margin or an SVM's u, the best γ of its margins); "
        "λᵢ the eigenvalues of Σ z zᵀ over the trials it erred on",
        {"a": a, "gamma": gamma, "sum_log_1_plus_lambda_over_a": log_det},
        run.mistake_trials,
        curve,
    )


def _arow(params, X, Z, s, run, passes):
    if params["covariance"] == "diagonal" or (
        params["covariance"] == "auto" and Z.shape[1] - params["fit_intercept"] > 1000
    ):
        raise NoBound("AROW's bound is for its full covariance; fit with covariance='full'")
    r = float(params["r"])
    # A: the trials that updated (margin below 1), a mistake among them even where its zero row
    # left the weights as they were (the theorem's update of z = 0 is no change either)
    A = np.union1d(run.update_trials, run.mistake_trials)
    ZA = Z[A % run.n]
    steps = _log_det_steps(ZA, r)  # log det(I + X_A / r), a trial of A at a time
    # U(t): updates without a mistake so far; the theorem's bound falls by one for each
    U = _at_trials(run, A, 1.0) - _at_trials(run, run.mistake_trials, 1.0)
    log_det = _at_trials(run, A, steps)

    def curve_of(u):
        margins = ZA @ u
        spread = r * float(u @ u) + _at_trials(run, A, margins**2)  # r‖u‖² + uᵀX_A u
        g = _at_trials(run, A, np.maximum(0.0, 1.0 - margins))
        return np.sqrt(spread * (log_det + U)) + g - U

    # Any u gives a true bound, but not one to minimise over: at u = 0 every g is 1 and the
    # bound is the count itself.  So u is the batch problem AROW's update approximates
    # (Crammer et al. 2009, §3: ½‖u‖² + (1/2r) Σ squared hinge), solved once, fixed in advance.
    u = _svm_direction(Z, 1.0 / (2.0 * r), "squared_hinge")
    curve = curve_of(u)
    return MistakeBound(
        "AROW",
        "Crammer, Kulesza & Dredze 2009, Theorem 2",
        "mistakes",
        float(curve[-1]),
        run.mistakes,
        "any u (here the minimiser of ½‖u‖² + (1/2r)·Σ squared hinge), g = max(0, 1 − y·u·z) over "
        "the trials A that updated (margin below 1), U of them without a mistake, X_A = Σ z zᵀ over A",
        {
            "r": r,
            "u_norm2": float(u @ u),
            "u_spread": float(np.sum((ZA @ u) ** 2)),  # uᵀ X_A u
            "log_det": float(log_det[-1]),
            "U": int(U[-1]),
            "hinge_over_A": float(np.sum(np.maximum(0.0, 1.0 - ZA @ u))),
        },
        run.mistake_trials,
        curve,
    )


def _at_trials(run, trials, values):
    """Values that arrive at some trials, summed up to each trial of the run."""
    out = np.zeros(run.trials)
    np.add.at(out, trials, values)
    return np.cumsum(out)


def _log_det_steps(rows, c):
    """The increments of log det(I + Σ z zᵀ / c) as the rows are added in order.

    By the matrix determinant lemma the k-th row adds log(1 + zᵀ P z / c), with P the inverse of
    I + Σ_{j<k} z_j z_jᵀ / c, kept by Sherman–Morrison: O(p²) a row.  Their sum is the log det
    of the whole sum, which the theorems' bounds are made of.
    """
    p = rows.shape[1]
    P = np.eye(p)
    out = np.empty(rows.shape[0])
    for k, z in enumerate(rows):
        Pz = P @ z
        q = float(z @ Pz)
        out[k] = math.log1p(q / c)
        P -= np.outer(Pz, Pz) / (c + q)
    return out


def _alma(params, X, Z, s, run, passes):
    alpha = float(params["alpha"])
    if params["B"] is not None and params["B"] != 1.0 / alpha or params["C"] != math.sqrt(2.0):
        raise NoBound("ALMA's bound is for B = 1/α and C = √2, the defaults")
    norms = np.sqrt(np.einsum("ij,ij->i", Z, Z))
    if np.any(norms == 0):
        raise NoBound("ALMA normalises every row: a row of zeros (without intercept) has no direction")
    unit = Z / norms[:, None] * s[:, None]  # the rows x̂ = z/‖z‖ as given (their labels are s)
    mm = max_margin(unit, s, False)
    if not mm.separable:
        raise NoBound("ALMA's bound is for separable data; these are not (no separating hyperplane)")
    gamma = mm.gamma
    value = 2.0 * squared_ratio(1.0, gamma) * (2.0 / alpha - 1.0) ** 2 + 8.0 / alpha - 4.0
    return MistakeBound(
        f"ALMA (alpha={alpha:g})",
        "Gentile 2001, Theorem 3 (p = 2)",
        "updates",
        value,
        run.updates,
        "separable data; γ the margin of the normalised rows; B = 1/α, C = √2",
        {"gamma": gamma, "alpha": alpha},
        run.update_trials,
        _constant(run, value),
    )


def _romma(params, X, Z, s, run, passes):
    if params["aggressive"]:
        raise NoBound("ROMMA's bound here is for the plain variant, which updates on mistakes only: aggressive=False")
    R = radius_of(Z)
    mm = max_margin(X, s, params["fit_intercept"])
    if not mm.separable:
        raise NoBound("ROMMA's bound is for separable data; these are not (no separating hyperplane)")
    value = squared_ratio(R, mm.gamma)
    return MistakeBound(
        "ROMMA",
        "Li & Long 2002, §3 (the perceptron's bound)",
        "mistakes",
        value,
        run.mistakes,
        "separable data: some unit u has y·u·z ≥ γ > 0 on every row; ‖z‖ ≤ R",
        {"R": R, "gamma": mm.gamma},
        run.mistake_trials,
        _constant(run, value),
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
        raise NoBound(f"Winnow's bound is for {', '.join(why)}")
    # the variables a consistent monotone disjunction may use: those off in every negative row
    allowed = ~np.any(X[s < 0] == 1, axis=0)
    positives = X[s > 0] == 1
    if not np.all(np.any(positives[:, allowed], axis=1)):
        raise NoBound(
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
        run.mistake_trials,
        _constant(run, value),
    )


_BOUNDS = {
    "Perceptron": _perceptron,
    "AveragedPerceptron": _perceptron,
    "VotedPerceptron": _perceptron,
    "PocketPerceptron": _perceptron,  # the PLA's run; the pocket only keeps its best weights
    "KernelPerceptron": _perceptron,  # on rows of the kernel's feature space (_kernel_perceptron)
    "PassiveAggressive": _passive_aggressive,
    "SecondOrderPerceptron": _second_order_perceptron,
    "AROW": _arow,
    "ALMA": _alma,
    "ROMMA": _romma,
    "Winnow": _winnow,
}

"""Mistake bounds of the perceptron: Block–Novikoff (R/γ)² and Freund–Schapire ((R+D)/γ)².

Both bounds are stated for the vectors the PLA updates with: with ``fit_intercept=True`` the
bias is folded in (zᵢ = (xᵢ, 1)), R is the radius of the zᵢ and u, γ live in that space too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from perceptrons import Perceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_bool
from perceptrons.theory._common import (
    SCALE_HINT,
    check_option,
    check_scalar,
    check_vector,
    check_Xy,
    norm_of,
    radius_of,
    signed_labels,
    squared_ratio,
)
from perceptrons.theory.margins import max_margin

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix


@dataclass(frozen=True)
class NovikoffBound:
    """R, γ and (R/γ)²; ``bound`` is inf and ``gamma`` None when no separator exists.

    Attributes
    ----------
    radius : float
        R, the largest norm of the (augmented) examples.
    gamma : float or None
        The margin used: γ* of the data, or that of the separator given.
    bound : float
        (R/γ)², the largest number of mistakes the PLA can make.
    separable : bool
    coef : ndarray of shape (n_features,) or None
        The separator of margin γ, normalised with its intercept to unit length.
    intercept : float or None
    """

    radius: float
    gamma: float | None
    bound: float
    separable: bool
    coef: np.ndarray | None
    intercept: float | None


def novikoff_bound(
    X: ArrayLike | spmatrix | sparray,
    y: ArrayLike,
    *,
    fit_intercept: bool = True,
    coef: ArrayLike | None = None,
    intercept: float | None = None,
) -> NovikoffBound:
    """The Block–Novikoff bound: at most (R/γ)² mistakes of the PLA on separable data.

    Without ``coef`` the margin is the dataset's γ* (the largest over all separators, from
    :func:`~perceptrons.theory.max_margin`), which gives the tightest bound; with
    ``coef`` (and ``intercept``) it is that separator's margin, which must be positive.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    fit_intercept : bool, default=True
        R and γ over the augmented vectors (xᵢ, 1), as the PLA with a folded bias sees them.
    coef : array-like of shape (n_features,), optional
    intercept : float, optional
        Ignored (taken as 0) when ``fit_intercept=False``.

    Returns
    -------
    NovikoffBound

    References
    ----------
    Block (1962); Novikoff (1962); Har-Peled, Theorem 30.1.1; Gormley, the Block–Novikoff proof.

    Examples
    --------
    >>> nb = novikoff_bound([[1.0, 0.0], [-1.0, 0.0], [0.0, 3.0]], [1, -1, 1], fit_intercept=False)
    >>> round(nb.radius, 6), round(nb.gamma, 6), round(nb.bound, 6)
    (3.0, 0.948683, 10.0)
    """
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    X, classes, s, Z = check_Xy(X, y, fit_intercept)
    R = radius_of(Z)
    if coef is None and intercept is not None:
        raise PerceptronsError("intercept is the bias of a separator given by coef; pass coef too")
    if coef is None:
        mm = max_margin(X, np.where(s > 0, classes[1], classes[0]), fit_intercept)
        if not mm.separable:
            return NovikoffBound(R, None, math.inf, False, None, None)
        return NovikoffBound(R, mm.gamma, squared_ratio(R, mm.gamma), True, mm.coef, mm.intercept)
    w = check_vector(coef, "coef", X.shape[1])
    b = check_scalar(intercept, "intercept") if fit_intercept and intercept is not None else 0.0
    v = np.r_[w, b] if fit_intercept else w
    norm = np.linalg.norm(v)
    if norm == 0:
        raise PerceptronsError("coef (and intercept) are all zero: no separator")
    gamma = float((Z @ v).min() / norm)
    if gamma <= 0:
        raise PerceptronsError(
            f"the given separator does not separate the data (its margin is {gamma:.3g} ≤ 0): "
            "the Novikoff bound needs γ > 0"
        )
    return NovikoffBound(R, gamma, squared_ratio(R, gamma), True, w / norm, b / norm)


@dataclass(frozen=True)
class FreundSchapireBound:
    """((R + D)/γ)² for one direction u and margin γ, with the deviations dᵢ behind D.

    Attributes
    ----------
    radius : float
        R, the largest norm of the (augmented) examples.
    gamma : float
    D : float
        sqrt(Σ dᵢ²).
    bound : float
        ((R + D)/γ)², the largest number of mistakes of one online pass.
    deviations : ndarray of shape (n_samples,)
        dᵢ = max(0, γ − yᵢ u·zᵢ).
    """

    radius: float
    gamma: float
    D: float
    bound: float
    deviations: np.ndarray


def _unit_direction(u, p, fit_intercept):
    u = check_vector(u, "u (the weights, then the bias)" if fit_intercept else "u", p)
    norm = np.linalg.norm(u)
    if norm == 0:
        raise PerceptronsError("u is the zero vector; the theorem needs a direction (‖u‖ = 1)")
    return u / norm


def _margins_along(X, y, u, fit_intercept):
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    X, classes, s, Z = check_Xy(X, y, fit_intercept)
    u = _unit_direction(u, Z.shape[1], fit_intercept)
    R = radius_of(Z)
    return Z @ u, R


def freund_schapire_bound(
    X: ArrayLike | spmatrix | sparray, y: ArrayLike, u: ArrayLike, gamma: float, *, fit_intercept: bool = True
) -> FreundSchapireBound:
    """Freund & Schapire's mistake bound for one online pass on any (even inseparable) data.

    With dᵢ = max(0, γ − yᵢ u·zᵢ) and D = sqrt(Σ dᵢ²), the online perceptron makes at most
    ((R + D)/γ)² mistakes on the sequence, for every unit u and γ > 0 (Gormley's Theorem 2).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    u : array-like of shape (n_features + fit_intercept,)
        The direction (weights, then the bias coefficient when ``fit_intercept``); it is
        normalised, since the theorem takes ‖u‖ = 1.
    gamma : float
        Must be > 0.
    fit_intercept : bool, default=True

    Returns
    -------
    FreundSchapireBound

    References
    ----------
    Freund & Schapire (1999), "Large margin classification using the perceptron algorithm",
    Theorem 2; Gormley, lecture notes (Theorem 2).

    Examples
    --------
    >>> fs = freund_schapire_bound([[1.0], [-1.0], [0.5]], [1, -1, -1], [1.0], 0.5, fit_intercept=False)
    >>> fs.deviations.tolist(), fs.D, fs.bound
    ([0.0, 0.0, 1.0], 1.0, 16.0)
    """
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float, np.floating, np.integer)):
        raise PerceptronsError(f"gamma must be a positive number. Got {gamma!r} instead.")
    gamma = float(gamma)
    if not (gamma > 0 and math.isfinite(gamma)):
        raise PerceptronsError(
            f"gamma must be > 0 and finite (the margin the bound is stated for). Got {gamma!r} instead."
        )
    m, R = _margins_along(X, y, u, fit_intercept)
    dev = np.maximum(0.0, gamma - m)
    D = norm_of(dev)  # the deviations of rows of 1e300 square past float64
    return FreundSchapireBound(R, gamma, D, squared_ratio(R + D, gamma), dev)


def best_gamma(
    X: ArrayLike | spmatrix | sparray, y: ArrayLike, u: ArrayLike, *, fit_intercept: bool = True
) -> FreundSchapireBound:
    """The γ > 0 minimising the Freund–Schapire bound for a fixed direction u.

    ``g(γ) = (R + D(γ))/γ`` is quasi-convex (its sublevel sets ``{γ : R + D(γ) ≤ tγ}`` are
    intervals because D is convex), so a bounded scalar search on log γ finds the minimum.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    u : array-like of shape (n_features + fit_intercept,)
        The direction (weights, then the bias coefficient when ``fit_intercept``).
    fit_intercept : bool, default=True

    Returns
    -------
    FreundSchapireBound
        At the best γ found.

    Examples
    --------
    >>> fs = best_gamma([[1.0], [-1.0]], [1, -1], [1.0], fit_intercept=False)
    >>> round(fs.gamma, 4), round(fs.bound, 4)     # separable: γ = γ* = 1, bound (R/γ)² = 1
    (1.0, 1.0)
    """
    from scipy.optimize import minimize_scalar

    m, R = _margins_along(X, y, u, fit_intercept)
    scale = max(R, float(np.max(np.abs(m))), 1e-300)

    def g(log_gamma):
        gam = math.exp(log_gamma)
        return (R + norm_of(np.maximum(0.0, gam - m))) / gam

    lo, hi = math.log(scale) - 40.0, math.log(scale) + 30.0
    res = minimize_scalar(g, bounds=(lo, hi), method="bounded", options={"xatol": 1e-10})
    # Separable along u: the kink at γ = min margin is the optimum; check the breakpoints too.
    cands = [res.x] + [math.log(v) for v in np.unique(m) if v > 0]
    best = min(cands, key=g)
    gam = math.exp(best)
    return freund_schapire_bound(X, y, u, gam, fit_intercept=fit_intercept)


def fs_optimal_direction(
    X: ArrayLike | spmatrix | sparray,
    y: ArrayLike,
    *,
    fit_intercept: bool = True,
    solver: Literal["auto", "socp", "lbfgs"] = "auto",
) -> tuple[FreundSchapireBound, np.ndarray]:
    """The direction u minimising the Freund–Schapire bound over all u and γ.

    With v = u/γ, ``(R + D)/γ = R‖v‖ + ‖(1 − yᵢ v·zᵢ)₊‖``, convex in v: the soft-margin problem
    ``min R t + r  s.t. ‖v‖ ≤ t, ‖ξ‖ ≤ r, ξ ≥ 1 − Z v, ξ ≥ 0``, a second-order cone program
    (solved by Clarabel).  On separable data it is the hard-margin direction, with D = 0.  Where
    no direction beats the trivial bound of n mistakes in n trials (every row zero, say), the
    optimum is v = 0: the first axis is returned with the bound n, its limit along any u.
    On inseparable data the objective is continuously differentiable (the norm of a squared
    hinge that never vanishes), so for many examples L-BFGS on v (p unknowns instead of n + p)
    reaches the same optimum far faster.  Either way the bound returned is evaluated exactly
    for the u found, so it is a valid bound even where the optimiser stops short.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    fit_intercept : bool, default=True
    solver : {"auto", "socp", "lbfgs"}, default="auto"
        "auto": the SOCP up to 3000 examples, else L-BFGS.

    Returns
    -------
    FreundSchapireBound, ndarray of shape (n_features + fit_intercept,)
        The bound at the optimum and the unit direction u.

    References
    ----------
    Freund & Schapire (1999), Theorem 2; Gormley, Theorem 2; Liu & Nocedal (1989), L-BFGS.
    """
    import clarabel
    import scipy.sparse as sp

    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    check_option(solver, "solver", ("auto", "socp", "lbfgs"))
    X, classes, s, Z = check_Xy(X, y, fit_intercept)
    n, p = Z.shape
    R = radius_of(Z)
    if not fit_intercept and R > 0:
        # the same problem on rows of radius 1 (v scales by R): on rows of 1e90 the SOCP did not
        # solve.  A folded-in bias is not scaled with the rows: that problem changes with scale.
        Z, R = Z / R, 1.0
    labels = np.where(s > 0, classes[1], classes[0])
    if solver == "lbfgs" or (solver == "auto" and n > 3000):
        u = _fs_lbfgs(Z, R)
        return best_gamma(X, labels, u, fit_intercept=fit_intercept), u
    # variables: [v (p), ξ (n), t, r]
    N = p + n + 2
    it, ir = p + n, p + n + 1
    q = np.zeros(N)
    q[it], q[ir] = R, 1.0
    rows, blocks_b, cones = [], [], []
    # ξ + Z v ≥ 1  →  −Zv − ξ + s = −1
    rows.append(sp.hstack([sp.csr_matrix(-Z), -sp.identity(n), sp.csr_matrix((n, 2))]))
    blocks_b.append(-np.ones(n))
    # ξ ≥ 0
    rows.append(sp.hstack([sp.csr_matrix((n, p)), -sp.identity(n), sp.csr_matrix((n, 2))]))
    blocks_b.append(np.zeros(n))
    cones.append(clarabel.NonnegativeConeT(2 * n))
    # (t, v) ∈ SOC:  s = (t, v) = −A x with A = −[e_t; I_v]
    soc_v = sp.lil_matrix((p + 1, N))
    soc_v[0, it] = -1.0
    for j in range(p):
        soc_v[j + 1, j] = -1.0
    rows.append(soc_v.tocsr())
    blocks_b.append(np.zeros(p + 1))
    cones.append(clarabel.SecondOrderConeT(p + 1))
    soc_x = sp.lil_matrix((n + 1, N))
    soc_x[0, ir] = -1.0
    for i in range(n):
        soc_x[i + 1, p + i] = -1.0
    rows.append(soc_x.tocsr())
    blocks_b.append(np.zeros(n + 1))
    cones.append(clarabel.SecondOrderConeT(n + 1))
    A = sp.vstack(rows, format="csc")
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    sol = clarabel.DefaultSolver(sp.csc_matrix((N, N)), q, A, np.concatenate(blocks_b), cones, settings).solve()
    status = str(sol.status).split(".")[-1]
    if status not in ("Solved", "AlmostSolved"):
        raise PerceptronsError(f"the Freund–Schapire SOCP did not solve (Clarabel status {status}); {SCALE_HINT}")
    u = _unit_or_any(np.asarray(sol.x)[:p])
    return best_gamma(X, labels, u, fit_intercept=fit_intercept), u


def _unit_or_any(v):
    """v/‖v‖, or the first axis when the optimum is v = 0.

    v = 0 is the optimum when no direction beats the trivial bound: as γ → ∞ along any unit u,
    ((R + D)/γ)² → n, the number of examples (a row of zeros for every example, say).  Any u then
    gives that limit, and :func:`best_gamma` finds it with γ at the top of its search: a bound
    of n, valid, which says nothing more than n trials allow.
    """
    size = np.linalg.norm(v)
    if size == 0:
        u = np.zeros_like(v)
        u[0] = 1.0
        return u
    return v / size


def _fs_lbfgs(Z, R):
    """Minimise R‖v‖ + ‖(1 − Z v)₊‖ by L-BFGS from the least-squares direction; returns unit u."""
    from scipy.optimize import minimize

    def f(v):
        h = np.maximum(0.0, 1.0 - Z @ v)
        nh, nv = np.sqrt(h @ h), np.sqrt(v @ v)
        g = np.zeros_like(v)
        if nv > 0:
            g += R * v / nv
        if nh > 0:
            g -= Z.T @ h / nh
        return R * nv + nh, g

    v0 = np.linalg.lstsq(Z, np.ones(Z.shape[0]), rcond=None)[0]
    res = minimize(f, v0, jac=True, method="L-BFGS-B", options={"maxiter": 5000, "ftol": 1e-15, "gtol": 1e-10})
    return _unit_or_any(res.x)


def online_mistakes(X: ArrayLike | spmatrix | sparray, y: ArrayLike, *, fit_intercept: bool = True) -> int:
    """Mistakes of one online pass of the PLA (cyclic order, zero start) over (X, y).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    fit_intercept : bool, default=True

    Returns
    -------
    int
        The updates made: the quantity the Freund–Schapire bound limits.
    """
    # two classes, as every bound here: the multiclass perceptron's updates are no binary count
    classes, _ = signed_labels(y, X.shape[0] if hasattr(X, "shape") else len(X))
    clf = Perceptron(fit_intercept=check_bool(fit_intercept, "fit_intercept"))
    clf.partial_fit(X, y, classes=classes)
    return int(clf.n_updates_)


__all__ = [
    "novikoff_bound",
    "freund_schapire_bound",
    "best_gamma",
    "fs_optimal_direction",
    "online_mistakes",
    "NovikoffBound",
    "FreundSchapireBound",
]

"""Linear programming by the perceptron (Har-Peled §30.1: "any linear program can be written as
the problem of separating red points from blue points").

Homogenisation.  x satisfies ``A x < b`` iff ``(x, 1)`` satisfies ``(−aᵢ, bᵢ)·(x, t) > 0`` with
``t > 0`` — a separation through the origin of the points ``zᵢ = (−aᵢ, bᵢ)`` and ``e_t`` from
nothing, all labelled +1.  Any solution (x', t') of the homogeneous system gives ``x = x'/t'``.
The rows are normalised (R = 1), so the PLA needs at most 1/γ² updates where γ is the margin
of the homogeneous system: the roundness of the feasible cone.  Thin regions make γ small; the
rescaled perceptron of Dunagan & Vempala widens the cone by linear maps and needs a number of
rounds polynomial in the dimension and log(1/γ).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import Interval, check_param
from perceptrons._jit import lp as K
from perceptrons.theory._common import BUDGET, POSITIVE_INT, SEED, check_option, squared_ratio
from perceptrons.theory.separability import _elastic_lp

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from numpy.typing import ArrayLike

LP_METHODS = ("perceptron", "rescaled")


@dataclass(frozen=True)
class FeasibilityResult:
    """x with ``A x < b`` (None when not found), the work done and the Novikoff bound.

    ``bound`` is 1/γ² for the normalised homogeneous system (γ from the hard-margin QP), inf
    when it has no strictly feasible point, None when not computed.

    Attributes
    ----------
    feasible : bool
        Whether a point was found (within the budget).
    x : ndarray of shape (n,) or None
        A point with ``A x < b``, checked before it is returned.
    updates : int
        Perceptron updates made (over all rounds of the rescaled method).
    improvement_steps : int
        Rescaled method: steps of its improvement phases (0 for the plain perceptron).
    rounds : int
        Rescaled method: rescalings made before the answer.
    gamma : float or None
        Margin of the normalised homogeneous system (None when not computed or none exists).
    bound : float or None
        1/γ², the Novikoff bound on ``updates`` for the plain perceptron.
    method : str
        "perceptron" or "rescaled".
    """

    feasible: bool
    x: np.ndarray | None
    updates: int
    improvement_steps: int
    rounds: int
    gamma: float | None
    bound: float | None
    method: str


def _as_system(A: ArrayLike, b: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    A = np.asarray(A, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64).ravel()
    if A.ndim != 2 or A.shape[0] != b.shape[0] or A.shape[0] == 0:
        raise PerceptronsError(f"A must be (m, n) and b (m,); got shapes {A.shape} and {b.shape}")
    if not (np.all(np.isfinite(A)) and np.all(np.isfinite(b))):
        raise PerceptronsError("A and b must be finite (write infinite bounds as None in `bounds`)")
    return A, b


def homogenise(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Unit rows ``(−aᵢ, bᵢ)/‖·‖`` plus ``e_t``: shape (m + 1, n + 1); ``A x < b`` ⇔ rows·(x, 1) > 0."""
    H = np.hstack([-A, b[:, None]])
    top = np.max(np.abs(H), axis=1)
    keep = top > 0
    if np.any(~keep):
        # A zero row reads 0 < 0: no strictly feasible point.
        raise PerceptronsError(f"constraint {int(np.flatnonzero(~keep)[0])} is 0·x < 0: no strictly feasible point")
    # each row divided by its largest |entry| before its norm: squares of entries beyond ~1e154
    # overflowed (a feasible system called infeasible) and below ~1e-154 vanished ("0·x < 0")
    H = H / top[:, None]
    e_t = np.zeros((1, H.shape[1]))
    e_t[0, -1] = 1.0
    return np.ascontiguousarray(np.vstack([H / np.linalg.norm(H, axis=1)[:, None], e_t]))


def solve_feasibility(
    A: ArrayLike,
    b: ArrayLike,
    *,
    method: Literal["perceptron", "rescaled"] = "perceptron",
    max_updates: int = 1_000_000,
    sigma: float | None = None,
    max_rounds: int | None = None,
    random_state: int | None = 0,
    report_bound: bool = True,
) -> FeasibilityResult:
    """Find x with ``A x < b`` by running a perceptron on the homogenised system.

    Parameters
    ----------
    A : array-like of shape (m, n)
    b : array-like of shape (m,)
    method : {"perceptron", "rescaled"}, default="perceptron"
        The PLA (cyclic), or Dunagan & Vempala's rescaled perceptron.
    max_updates : int, default=1_000_000
        PLA budget.  By Novikoff, not finding x within it means the homogeneous margin γ is
        below 1/sqrt(max_updates) (or the system has no strictly feasible point).
    sigma : float, optional
        Rescaled method: the improvement threshold, default 1/(32 (n+1)) as in the paper.
    max_rounds : int, optional
        Rescaled method: rescalings allowed (default 50·(n+1)).
    random_state : int, default=0
        Seeds the random starts of the improvement phase.
    report_bound : bool, default=True
        Also solve the hard-margin QP for γ and report the bound 1/γ².

    Returns
    -------
    FeasibilityResult

    References
    ----------
    Har-Peled §30.1; Novikoff (1962); Dunagan & Vempala (2004), "A simple polynomial-time
    rescaling algorithm for solving linear programs" (STOC; Math. Program. 114, 2008).

    Examples
    --------
    >>> r = solve_feasibility([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]], [1.0, 1.0, 0.0])
    >>> r.feasible, bool(r.x[0] < 1 and r.x[1] < 1 and r.x.sum() > 0), r.updates <= r.bound
    (True, True, True)
    """
    A, b = _as_system(A, b)
    check_option(method, "method", LP_METHODS)
    check_param(max_updates, "max_updates", BUDGET)
    check_param(sigma, "sigma", (None, Interval(Real, 0, 1, closed="neither")))
    check_param(max_rounds, "max_rounds", (None, Interval(Integral, 0, None)))
    check_param(random_state, "random_state", SEED)
    H = homogenise(A, b)
    p = H.shape[1]
    gamma = bound = None
    if report_bound:
        from perceptrons.theory.margins import hard_margin_signed

        v, _, _ = hard_margin_signed(H)
        gamma = None if v is None else 1.0 / float(np.linalg.norm(v))
        bound = math.inf if gamma is None else squared_ratio(1.0, gamma)
    if method == "perceptron":
        v = np.zeros(p)
        updates, ok = K.perceptron_phase(H, v, int(max_updates))
        return _result(A, b, v if ok else None, updates, 0, 0, gamma, bound, method)
    sigma = 1.0 / (32.0 * p) if sigma is None else float(sigma)
    max_rounds = 50 * p if max_rounds is None else int(max_rounds)
    rng = np.random.default_rng(random_state)
    pla_cap = _budget(squared_ratio(1.0, sigma))
    improve_cap = _budget(math.log(max(p, 2)) * squared_ratio(1.0, sigma))
    Bm = np.eye(p)
    M = H.copy()
    updates = steps = 0
    for rnd in range(max_rounds + 1):
        v = np.zeros(p)
        u, ok = K.perceptron_phase(M, v, pla_cap)
        updates += u
        if ok:
            return _result(A, b, Bm @ v, updates, steps, rnd, gamma, bound, method)
        status = 0
        for _ in range(8):  # fresh random starts if a start runs out of steps
            z = rng.standard_normal(p)
            z /= np.linalg.norm(z)
            status, k = K.improvement_phase(M, z, sigma, improve_cap)
            steps += k
            if status:
                break
        if status == 1:
            return _result(A, b, Bm @ z, updates, steps, rnd, gamma, bound, method)
        if status == 0 or rnd == max_rounds:
            break
        # Rescale: stretch space along z, the direction the cone is thin in (A ← A(I + zzᵀ)).
        T = np.eye(p) + np.outer(z, z)
        M = M @ T
        M /= np.linalg.norm(M, axis=1)[:, None]
        M = np.ascontiguousarray(M)
        Bm = Bm @ T
    return _result(A, b, None, updates, steps, rnd, gamma, bound, method)


def _result(A, b, v, updates, steps, rounds, gamma, bound, method):
    x = None
    if v is not None and v[-1] > 0:
        x = v[:-1] / v[-1]
        if not np.all(A @ x < b):
            x = None  # rounding in the division: report honestly rather than a point outside
    return FeasibilityResult(x is not None, x, int(updates), int(steps), int(rounds), gamma, bound, method)


@dataclass(frozen=True)
class LinprogResult:
    """Result of :func:`linprog_perceptron`.

    ``x`` is a strictly feasible point and ``fun = c·x``; the optimum lies in
    ``[lower, fun]`` up to the oracle's resolution (a θ at which the oracle failed is only
    known to have homogeneous margin below 1/sqrt(max_updates) for the PLA).

    Attributes
    ----------
    x : ndarray of shape (n,)
        The best strictly feasible point found.
    fun : float
        ``c·x``.
    lower : float
        The lower end of the final bracket.
    oracle_calls : int
        Feasibility problems solved by the bisection.
    updates : int
        Perceptron updates (and improvement steps) over all calls.
    method : str
        "perceptron" or "rescaled".
    """

    x: np.ndarray
    fun: float
    lower: float
    oracle_calls: int
    updates: int
    method: str


def _budget(steps):
    """A step budget for the compiled loops (int64): ``ceil(steps)``, at most 2^62."""
    return int(math.ceil(steps)) if steps < 2.0**62 else 2**62


def _bounds_rows(bounds, n):
    if bounds is None:
        return np.zeros((0, n)), np.zeros(0)
    if isinstance(bounds, tuple) and len(bounds) == 2 and not isinstance(bounds[0], (tuple, list)):
        bounds = [bounds] * n
    try:
        bounds = [tuple(pair) for pair in bounds]
    except TypeError:
        bounds = None
    if bounds is None or len(bounds) != n or any(len(pair) != 2 for pair in bounds):
        raise PerceptronsError(f"bounds must be one (low, high) pair or {n} pairs, each end a number or None")
    for j, pair in enumerate(bounds):
        for end in pair:
            check_param(end, f"bounds[{j}]", (None, Interval(Real, None, None, allow_inf=True)))
        lo, hi = pair
        # -inf below and +inf above are no bound; +inf below or -inf above leave no x (SciPy refuses them too)
        if (lo is not None and lo == np.inf) or (hi is not None and hi == -np.inf):
            raise PerceptronsError(
                f"bounds[{j}] is ({lo}, {hi}): a lower bound of +inf or an upper bound of -inf leaves no x; "
                "write a missing bound as None"
            )
        if lo is not None and hi is not None and lo > hi:
            raise PerceptronsError(f"bounds[{j}] is ({lo}, {hi}): the lower bound is above the upper one")
    rows, rhs = [], []
    for j, (lo, hi) in enumerate(bounds):
        if lo is not None and np.isfinite(lo):
            r = np.zeros(n)
            r[j] = -1.0
            rows.append(r)
            rhs.append(-float(lo))
        if hi is not None and np.isfinite(hi):
            r = np.zeros(n)
            r[j] = 1.0
            rows.append(r)
            rhs.append(float(hi))
    return np.array(rows).reshape(-1, n), np.array(rhs)


def linprog_perceptron(
    c: ArrayLike,
    A_ub: ArrayLike,
    b_ub: ArrayLike,
    bounds: tuple[float | None, float | None] | Sequence[tuple[float | None, float | None]] | None = (0, None),
    *,
    method: Literal["perceptron", "rescaled"] = "perceptron",
    tol: float = 1e-3,
    max_updates: int = 200_000,
    random_state: int | None = 0,
    max_calls: int = 200,
) -> LinprogResult:
    """Minimise ``c·x`` subject to ``A_ub x ≤ b_ub`` and ``bounds``, by bisection over a perceptron.

    Each bisection step asks the feasibility oracle for x with ``A x < b`` and ``c·x < θ``;
    every point found is feasible and lowers the upper end to ``c·x``, a failure raises the
    lower end to θ.  Stops when ``fun − lower ≤ tol·max(1, |fun|)``.

    Parameters
    ----------
    c : array-like of shape (n,)
    A_ub : array-like of shape (m, n)
    b_ub : array-like of shape (m,)
    bounds : (low, high) or sequence of n pairs, default=(0, None)
        As in ``scipy.optimize.linprog`` (None is no bound); the default is x ≥ 0, as there.
    method : {"perceptron", "rescaled"}, default="perceptron"
    tol : float, default=1e-3
        Relative width of the final bracket.
    max_updates : int, default=200_000
        Budget of each PLA oracle call.
    random_state : int, default=0
    max_calls : int, default=200

    Returns
    -------
    LinprogResult

    Raises
    ------
    PerceptronsError
        When the LP has no strictly feasible point ("infeasible"), or is unbounded below.
        Infeasibility is decided exactly by the separation LP's Farkas multipliers and
        unboundedness by the recession LP ``min c·r, A r ≤ 0, |r| ≤ 1``: no finite perceptron run
        can prove either.

    References
    ----------
    Har-Peled §30.1; Dunagan & Vempala (2004).

    Examples
    --------
    >>> r = linprog_perceptron([-1.0, -1.0], [[1.0, 2.0], [3.0, 1.0]], [4.0, 6.0])
    >>> abs(r.fun - (-2.8)) <= 1e-3 * 2.8
    True
    """
    import warnings

    from scipy.optimize import linprog

    c = np.asarray(c, dtype=np.float64).ravel()
    A, b = _as_system(A_ub, b_ub)
    n = A.shape[1]
    if c.shape[0] != n or not np.all(np.isfinite(c)):
        raise PerceptronsError(f"c must have {n} finite entries (one per column of A_ub); got shape {c.shape}")
    check_option(method, "method", LP_METHODS)
    check_param(tol, "tol", (Interval(Real, 0, None, closed="neither"),))
    check_param(max_updates, "max_updates", BUDGET)
    check_param(max_calls, "max_calls", POSITIVE_INT)
    check_param(random_state, "random_state", SEED)
    Bl, bl = _bounds_rows(bounds, n)
    A = np.vstack([A, Bl])
    b = np.r_[b, bl]
    H = homogenise(A, b)
    v, lam = _elastic_lp(H)
    if v is None:
        rows = np.flatnonzero(lam[:-1] > 1e-9)
        raise PerceptronsError(
            f"the LP is infeasible (no strictly feasible point): a non-negative combination of constraints "
            f"{rows[:8].tolist()}{' ...' if rows.shape[0] > 8 else ''} reads 0 < 0 (Farkas)"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rec = linprog(c, A_ub=A, b_ub=np.zeros(A.shape[0]), bounds=[(-1, 1)] * n, method="highs")
    if rec.status == 0 and rec.fun < -1e-9 * max(1.0, np.abs(c).max()):
        raise PerceptronsError(
            f"the LP is unbounded: the direction r = {np.round(rec.x, 6).tolist()} keeps every constraint "
            f"and decreases c·x without end"
        )
    x0 = v[:-1] / v[-1]
    if not np.all(A @ x0 < b):
        x0 = None
    calls = updates = 0

    def oracle(theta):
        # Centred at the best point so far: the origin of the homogenisation then sits next to
        # the sliver {A x < b, c·x < θ}, which keeps its cone — hence the margin — as round as
        # the sliver allows (the PLA's bound depends on where the origin is).
        nonlocal calls, updates
        calls += 1
        r = solve_feasibility(
            np.vstack([A, c]),
            np.r_[b - A @ best, theta - c @ best],
            method=method,
            max_updates=max_updates,
            random_state=random_state,
            report_bound=False,
        )
        updates += r.updates + r.improvement_steps
        if r.x is None:
            return None
        x = best + r.x
        return x if np.all(A @ x < b) else None

    if x0 is None:
        x0 = solve_feasibility(A, b, method=method, max_updates=max_updates, report_bound=False).x
        if x0 is None:
            raise PerceptronsError("no strictly feasible starting point found within the update budget")
    best, hi = x0, float(c @ x0)
    # Walk down until the oracle fails: that θ brackets the optimum from below.
    step = max(1.0, abs(hi))
    lo = None
    while calls < max_calls:
        theta = hi - step
        x = oracle(theta)
        if x is None:
            lo = theta
            break
        best, hi = x, float(c @ x)
        step *= 2.0
    if lo is None:
        raise PerceptronsError(f"no lower bracket after {calls} oracle calls (is the LP unbounded?)")
    while hi - lo > tol * max(1.0, abs(hi)) and calls < max_calls:
        theta = 0.5 * (lo + hi)
        x = oracle(theta)
        if x is None:
            lo = theta
        else:
            best, hi = x, float(c @ x)
    return LinprogResult(best, hi, lo, calls, updates, method)

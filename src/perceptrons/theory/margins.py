"""Radius, margins and the maximum-margin separator of a labelled point set.

Geometry.  With ``fit_intercept=True`` the bias is folded in as a constant feature, exactly as
the PLA does (DESIGN §2), so the default ``geometry="augmented"`` measures a point
``z = (x, 1)`` against the unit vector ``(w, b)/‖(w, b)‖``: the quantities of Theorem 30.1.1
for the run the perceptron makes.  ``geometry="input"`` is the textbook distance to the
hyperplane, ``y(w·x + b)/‖w‖``, and its maximum is the hard-margin SVM with a free bias.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_bool, check_param
from perceptrons.theory._common import (
    POSITIVE_INT,
    SCALE_HINT,
    augment,
    check_option,
    check_scalar,
    check_vector,
    check_X,
    check_Xy,
    radius_of,
    signed_labels,
)
from perceptrons.theory.separability import is_separable

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix

GEOMETRIES = ("augmented", "input")


def radius(X: ArrayLike | spmatrix | sparray, fit_intercept: bool = True) -> float:
    """R = max ‖xᵢ‖, over the augmented vectors ``(xᵢ, 1)`` when the bias is folded in.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    fit_intercept : bool, default=True

    Returns
    -------
    float

    References
    ----------
    Har-Peled, Theorem 30.1.1 (R = max ‖x‖); Gormley, bias folded into θ.

    Examples
    --------
    >>> radius([[3.0, 4.0], [0.0, 1.0]], fit_intercept=False)
    5.0
    >>> round(radius([[3.0, 4.0]]), 4)   # sqrt(9 + 16 + 1)
    5.099
    """
    X = check_X(X)
    Z = augment(X, check_bool(fit_intercept, "fit_intercept"))
    return radius_of(Z)


class Margins(NamedTuple):
    """Per-example geometric margins (n,) and the margin of the set (their minimum).

    Attributes
    ----------
    per_example : ndarray of shape (n_samples,)
        yᵢ(w·xᵢ + b) divided by the norm the ``geometry`` chose.
    gamma : float
        Their minimum: positive exactly when (w, b) separates the set.
    """

    per_example: np.ndarray
    gamma: float


def margin(
    w: ArrayLike,
    b: float,
    X: ArrayLike | spmatrix | sparray,
    y: ArrayLike,
    *,
    geometry: Literal["augmented", "input"] = "augmented",
) -> Margins:
    """Geometric margin of each example, and of the set, with respect to the separator (w, b).

    ``geometry="augmented"``: ``yᵢ(w·xᵢ + b)/‖(w, b)‖`` — the margin the PLA with a folded bias
    sees; ``"input"``: ``yᵢ(w·xᵢ + b)/‖w‖``, the signed distance of xᵢ to the hyperplane.
    Negative for a misclassified example; the set's margin is the minimum.

    Parameters
    ----------
    w : array-like of shape (n_features,)
    b : float
        Use 0 for a separator through the origin.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two labels; the larger (``classes[1]``) is the positive side.
    geometry : {"augmented", "input"}, default="augmented"

    Returns
    -------
    Margins
        ``(per_example, gamma)``.

    References
    ----------
    Gormley, margins of a data set; Har-Peled §30.1.

    Examples
    --------
    >>> m = margin([1.0, 0.0], 0.0, [[2.0, 0.0], [-1.0, 5.0]], [1, -1])
    >>> m.per_example.tolist(), m.gamma
    ([2.0, 1.0], 1.0)
    """
    X = check_X(X)
    _, s = signed_labels(y, X.shape[0])
    w = check_vector(w, "w (one weight per feature)", X.shape[1])
    b = check_scalar(b, "b")
    check_option(geometry, "geometry", GEOMETRIES)
    # the margin is the same for (w, b) times any c > 0: divided by their largest |value| first,
    # so that w·w neither overflows (w of 1e200: γ read 0) nor vanishes (1e-200: "zero norm")
    top = max(float(np.max(np.abs(w), initial=0.0)), abs(b) if geometry == "augmented" else 0.0)
    if top > 0.0:
        w, b = w / top, b / top
    norm = np.sqrt(w @ w + b * b) if geometry == "augmented" else np.sqrt(w @ w)
    if norm == 0.0:
        raise PerceptronsError(
            "the separator has zero norm (w = 0"
            + (", b = 0" if geometry == "augmented" else "")
            + "): it defines no hyperplane"
        )
    per = s * (X @ w + b) / norm
    return Margins(per, float(per.min()))


@dataclass(frozen=True)
class MaxMarginResult:
    """The maximum-margin separator, or the statement that none exists.

    Attributes
    ----------
    separable : bool
    gamma : float or None
        γ*, the largest margin of any separator (None when not separable).
    coef : ndarray of shape (n_features,) or None
        Normalised so that ``margin(coef, intercept, X, y).gamma == gamma``.
    intercept : float or None
    support : ndarray of int
        Indices of the examples whose margin is within solver tolerance of γ*.
    status : str
        The solver's status ("Solved", "PrimalInfeasible", ...).
    n_working : int
        Constraints in the last QP solved (the working set).
    """

    separable: bool
    gamma: float | None
    coef: np.ndarray | None
    intercept: float | None
    support: np.ndarray
    status: str
    n_working: int


def max_margin(
    X: ArrayLike | spmatrix | sparray,
    y: ArrayLike,
    fit_intercept: bool = True,
    *,
    geometry: Literal["augmented", "input"] = "augmented",
    max_working: int = 2000,
) -> MaxMarginResult:
    """The dataset's margin γ* and the separator achieving it (hard-margin problem).

    Solves ``min ‖v‖² s.t. yᵢ(v·zᵢ) ≥ 1`` with ``zᵢ = (xᵢ, 1)`` when the bias is folded in
    (``geometry="augmented"``: ‖v‖ includes the bias, the γ of the PLA's bound), or
    ``min ‖w‖² s.t. yᵢ(w·xᵢ + b) ≥ 1`` with a free bias (``geometry="input"``: the SVM's
    margin).  γ* = 1/‖v*‖.

    The QP is solved by Clarabel, a maintained interior-point conic solver: HiGHS in scipy
    solves only LPs, and the dual has one variable per example where the primal has one per
    feature.  Clarabel reports primal infeasibility with a certificate, which is how a
    non-separable set is recognised here.  Large sets are solved on a working set of examples:
    the QP on a subset is a relaxation, so when its solution satisfies every constraint it is
    optimal for the whole set, and when the subset is infeasible so is the whole set;
    otherwise the most violated examples join and the QP is solved again.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two labels; ``classes[1]`` is the positive side.
    fit_intercept : bool, default=True
    geometry : {"augmented", "input"}, default="augmented"
        Only matters with an intercept; see :func:`margin`.
    max_working : int, default=2000
        Size of the first working set; all examples when n is at most this.

    Returns
    -------
    MaxMarginResult

    Raises
    ------
    PerceptronsError
        When the solver's answer cannot be stood behind: it did not solve, it calls the set
        inseparable where the exact LP finds a separator, or its hyperplane does not separate.
        The rows are solved scaled to radius 1, with the bias weighed so that the problem is
        the same (see the comment in the code); rows scaled by 2^-1000 to 2^1000 are solved in
        the tests, so this guards against a solver failure, not a range of inputs.

    References
    ----------
    Har-Peled, Theorem 30.1.1 (γ and w_opt); Kalyanakrishnan, remarks on the max-margin
    separator; Goulart & Chen (2024), "Clarabel: an interior-point solver for conic programs".

    Examples
    --------
    >>> r = max_margin([[1.0, 0.0], [-1.0, 0.0]], [1, -1], fit_intercept=False)
    >>> r.separable, round(r.gamma, 6), r.coef.round(6).tolist()
    (True, 1.0, [1.0, 0.0])
    """
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    check_option(geometry, "geometry", GEOMETRIES)
    check_param(max_working, "max_working", POSITIVE_INT)
    X, classes, s, Z = check_Xy(X, y, fit_intercept)
    d = X.shape[1]
    bias_in_norm = fit_intercept and geometry == "augmented"
    # Solved on rows of radius 1, with u = top·w: Clarabel's tolerances are absolute, and on rows
    # of size 1e-12 it called a separable set infeasible, on rows of 1e12 it did not solve.
    # Without the bias in the norm this is the same problem.  With it, ‖w‖² + b² is
    # (‖u‖² + (top·κ)²·c²) / top² for b = κ·c: the bias column is κ = min(1, 1/top) and its
    # weight in the norm (top·κ)², so neither exceeds 1 at any scale.  (Solved as given, rows of
    # 2^-16 did not solve, and on rows of 2^20 the QP stopped at a margin 15 % below γ*.)
    top = radius_of(X) or 1.0
    kappa = min(1.0, 1.0 / top) if bias_in_norm else 1.0
    bias_weight = (top * kappa) ** 2 if bias_in_norm else 0.0
    Zs = Z.copy()
    Zs[:, :d] /= top
    if fit_intercept:
        Zs[:, d] *= kappa
    v, status, n_working = hard_margin_signed(
        Zs, bias_weight=bias_weight if fit_intercept else None, max_working=max_working
    )
    if v is None:
        _check_inseparable(X, y, fit_intercept, status)
        return MaxMarginResult(False, None, None, None, np.zeros(0, dtype=np.intp), status, n_working)
    u, c = v[:d], float(v[d]) if fit_intercept else 0.0
    norm = float(np.sqrt(u @ u + bias_weight * c * c))  # top times the norm of (w, b) in the geometry
    w, b = u / norm, kappa * top * c / norm  # the unit separator of the rows as given
    per = margin(w, b, X, np.where(s > 0, classes[1], classes[0]), geometry=geometry).per_example
    gamma = float(per.min())
    if not gamma > 0:  # the solver's tolerance, not a separator: rows too small against the bias
        raise PerceptronsError(
            f"the max-margin QP returned a hyperplane that does not separate the rows (its margin is "
            f"{gamma:.3g}); {SCALE_HINT}"
        )
    # the rounding of a margin y·(w·x + b) is relative to the size of its terms
    support = np.flatnonzero(per <= gamma * (1 + 1e-6) + 1e-12 * (float(np.linalg.norm(w)) * top + abs(b)))
    return MaxMarginResult(True, gamma, w, b, support, status, n_working)


def _check_inseparable(X, y, fit_intercept, status):
    """Refuse the QP's "infeasible" when the exact separability LP finds a separator: a margin
    below the solvers' tolerance (badly scaled rows) is not the absence of one.
    """
    if is_separable(X, y, fit_intercept=fit_intercept, method="lp").separable:
        raise PerceptronsError(
            f"the separability LP found a separator but the max-margin QP reports {status}: "
            f"the margin is below the solvers' tolerance; {SCALE_HINT}"
        )


def hard_margin_signed(
    Z: np.ndarray,
    *,
    bias_weight: float | None = None,
    max_working: int = 2000,
    rng: np.random.Generator | None = None,
) -> tuple[np.ndarray | None, str, int]:
    """Solve ``min ‖v‖² s.t. Z v ≥ 1`` (rows already signed); ``(v or None, status, n_working)``.

    ``bias_weight`` weighs the last coordinate (a bias) in the norm: 0 leaves it out, None
    treats it as any other coordinate.
    """
    n = Z.shape[0]
    rng = np.random.default_rng(0) if rng is None else rng
    if n <= max_working:
        work = np.arange(n)
    else:
        # Start from the examples a least-squares direction finds hardest: they are the
        # likeliest support vectors, so few rounds are needed.
        v0 = np.linalg.lstsq(Z[rng.choice(n, max_working, replace=False)], np.ones(max_working), rcond=None)[0]
        work = np.sort(np.argsort(Z @ v0)[:max_working])
    while True:
        v, status = _solve_qp(Z[work], bias_weight)
        if v is None:
            return None, status, work.shape[0]
        scores = Z @ v
        # Rows already in the QP are met to the solver's tolerance; only new rows can change v.
        violated = np.setdiff1d(np.flatnonzero(scores < 1 - 1e-7), work, assume_unique=True)
        if violated.shape[0] == 0:
            return _polished(Z, v, bias_weight), status, work.shape[0]
        add = violated[np.argsort(scores[violated])[: max(100, work.shape[0] // 2)]]
        work = np.union1d(work, add)


#: the largest KKT system (features + support rows) the QP's answer is polished with
POLISH_MAX = 1500


def _polished(Z, v, bias_weight):
    """The QP's answer made exact where its active rows are known.

    An interior-point solver stops within its tolerance of the optimum: on one set of 30 rows
    its margin was 1.4e-6 below γ*, a fourth row of the support left at a margin 1.2e-6 above
    the other three.  The rows within 1e-5 of the active ones are taken as the support S, and
    the KKT system of ``min ½ vᵀPv s.t. Z_S v = 1`` (``P v = Z_Sᵀ α``) solved exactly.  Its
    answer replaces the solver's only if it is the optimum: every row at margin ≥ 1 and every
    α ≥ 0 (Boyd & Vandenberghe 2004, §5.5.3); else the solver's stands.
    """
    p = Z.shape[1]
    diag = np.ones(p)
    if bias_weight is not None:
        diag[-1] = bias_weight
    S = np.flatnonzero(Z @ v <= 1 + 1e-5)
    if p + S.shape[0] > POLISH_MAX:  # a dense KKT system that large costs more than the QP did
        return v
    ZS = Z[S]
    kkt = np.block([[np.diag(diag), ZS.T], [ZS, np.zeros((S.shape[0], S.shape[0]))]])
    sol = np.linalg.lstsq(kkt, np.r_[np.zeros(p), np.ones(S.shape[0])], rcond=None)[0]
    exact, alpha = sol[:p], -sol[p:]
    feasible = np.all(Z @ exact >= 1 - 1e-12) and np.allclose(ZS @ exact, 1.0, rtol=0, atol=1e-12)
    if feasible and np.all(alpha >= -1e-12 * max(1.0, float(np.abs(alpha).max()))):
        return exact
    return v


def _solve_qp(Zw, bias_weight):
    import clarabel
    import scipy.sparse as sp

    m, p = Zw.shape
    diag = np.ones(p)
    if bias_weight is not None:
        diag[-1] = bias_weight
    P = sp.diags(diag, format="csc")
    A = sp.csc_matrix(-Zw)
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    sol = clarabel.DefaultSolver(P, np.zeros(p), A, -np.ones(m), [clarabel.NonnegativeConeT(m)], settings).solve()
    status = str(sol.status).split(".")[-1]
    if status in ("Solved", "AlmostSolved"):
        return np.asarray(sol.x), status
    if status in ("PrimalInfeasible", "AlmostPrimalInfeasible"):
        return None, status
    # A free bias can make an inseparable problem look unbounded in the dual; anything else
    # is a numerical failure the caller must not mistake for an answer.
    raise PerceptronsError(f"the max-margin QP did not solve (Clarabel status {status}); {SCALE_HINT}")

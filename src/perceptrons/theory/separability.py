"""Is a labelled point set linearly separable?  Decided exactly, with a certificate either way.

Strict separability of signed, augmented rows ``zᵢ = yᵢ(xᵢ, 1)`` means some v has ``zᵢ·v > 0``
for every i, equivalently (scale v) ``Z v ≥ 1``.  By Farkas' lemma exactly one of two things
holds: such a v exists, or there are multipliers ``λ ≥ 0``, ``Σλ = 1`` with ``Σ λᵢ zᵢ = 0``.
With the bias folded in, the last coordinate of that sum says the positive and the negative
multipliers carry equal mass, so the first coordinates say *a convex combination of positive
points equals a convex combination of negative points* — a point in both convex hulls, which
no hyperplane can put on two sides.  Those multipliers are the dual solution of the LP
``min Σ sᵢ  s.t.  Z v + s ≥ 1, s ≥ 0`` whenever its optimum is positive.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_bool
from perceptrons._core.readonly import read_only
from perceptrons._jit.linear import epoch_binary
from perceptrons._jit.rows import dense_ahead
from perceptrons.theory._common import SCALE_HINT, check_option, check_Xy, radius_of
from perceptrons.theory._ipm import separation_ipm

if TYPE_CHECKING:
    from typing import Literal

    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix

METHODS = ("auto", "cutting-plane", "lp")


@dataclass(frozen=True)
class SeparabilityResult:
    """Answer and certificate of :func:`is_separable`.

    Attributes
    ----------
    separable : bool
    coef : ndarray of shape (n_features,) or None
        A strict separator when separable: ``yᵢ(coef·xᵢ + intercept) > 0`` for every i.
    intercept : float or None
        0.0 with ``fit_intercept=False``.
    margin : float or None
        The certificate's smallest margin ``min yᵢ(coef·xᵢ + intercept)/‖(coef, intercept)‖`` (> 0).
    multipliers : ndarray of shape (n_samples,) or None
        When not separable: λ ≥ 0 summing to 1 with ``Σ λᵢ yᵢ (xᵢ, 1) ≈ 0`` (dual multipliers).
    witness_point : ndarray of shape (n_features,) or None
        ``Σ_{pos} λᵢ xᵢ / Σ_{pos} λᵢ``: with an intercept it equals the same convex combination
        of negative points; through the origin the negative combination is a positive multiple.
    residual : float or None
        ``‖Σ λᵢ yᵢ zᵢ‖ / max ‖zᵢ‖`` — how exactly the witness closes (solver tolerance).
    classes : ndarray of shape (2,)
        ``classes[1]`` is the positive side.
    method : str
        "perceptron" (a PLA epoch without mistakes gave the certificate), "cutting-plane" or "lp".
    n_lp_rows : int
        Constraints in the last LP solved (0 when the perceptron answered).
    n_lp_solves : int
    """

    separable: bool
    coef: np.ndarray | None
    intercept: float | None
    margin: float | None
    multipliers: np.ndarray | None
    witness_point: np.ndarray | None
    residual: float | None
    classes: np.ndarray
    method: str
    n_lp_rows: int = 0
    n_lp_solves: int = 0

    def summary(self) -> str:
        """One line describing the certificate.

        Returns
        -------
        str
            "separable: …" with the method and the smallest margin, or "not separable: …" with
            the number of examples in the witness and its residual.
        """
        if self.separable:
            return f"separable: strict separator found by {self.method} (smallest margin {self.margin:.6g})"
        k = int(np.count_nonzero(self.multipliers > 1e-12))
        return (
            f"not separable: {k} examples whose positive and negative convex combinations "
            f"coincide (residual {self.residual:.2g}, {self.method})"
        )


def is_separable(
    X: ArrayLike | spmatrix | sparray,
    y: ArrayLike,
    *,
    fit_intercept: bool = True,
    method: Literal["auto", "cutting-plane", "lp"] = "auto",
    pla_epochs: int = 20,
    working_size: int | None = None,
) -> SeparabilityResult:
    """Decide linear separability of (X, y) exactly, returning a certificate.

    ``method="auto"`` first runs the PLA for at most ``pla_epochs`` epochs: an epoch without a
    mistake *is* a separator, so separable data with a fair margin is answered at the cost of a
    few passes.  Otherwise the LP is solved by cutting planes: an elastic LP on a working set of
    examples (seeded with those the PLA got wrong); a subset that cannot be separated proves
    the whole set cannot (its dual multipliers are the witness), and a separator of the subset
    that separates every example is the answer; else the violated examples join the set.
    Working sets are solved by a dense interior-point method whose answer is verified before
    it is returned (HiGHS when it does not verify).  ``"cutting-plane"`` skips the
    PLA; ``"lp"`` solves one elastic HiGHS LP over all examples.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Any two labels; ``classes[1]`` is the positive side.
    fit_intercept : bool, default=True
        Separate by an affine hyperplane (True) or one through the origin.
    method : {"auto", "cutting-plane", "lp"}, default="auto"
    pla_epochs : int, default=20
        PLA budget of ``"auto"``.
    working_size : int, optional
        First working set of the cutting-plane method (default ``2·(d+1) + 200``).

    Returns
    -------
    SeparabilityResult

    References
    ----------
    Har-Peled §30.1 (separation by linear programming); Novikoff (1962); Farkas' lemma;
    Huangfu & Hall (2018), HiGHS dual simplex; Mehrotra (1992), predictor–corrector
    interior-point method.

    Examples
    --------
    >>> r = is_separable([[0, 0], [1, 1], [0, 1], [1, 0]], [0, 0, 1, 1])    # XOR
    >>> r.separable, r.witness_point.round(3).tolist()
    (False, [0.5, 0.5])
    >>> is_separable([[0.0], [1.0]], ["no", "yes"]).separable
    True
    """
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    check_option(method, "method", METHODS)
    for name, value, low in (("pla_epochs", pla_epochs, 0), ("working_size", working_size, 1)):
        if value is None and name == "working_size":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise PerceptronsError(f"The {name!r} parameter must be an int >= {low}. Got {value!r} instead.")
    X, classes, s, Z = check_Xy(X, y, fit_intercept)
    Z = np.ascontiguousarray(Z)
    n, p = Z.shape
    order = None
    if method == "auto" and pla_epochs > 0:
        # on rows scaled by a power of two: the same run, its weights scaled exactly by it (on
        # rows of 1e300 the weights' sums overflowed)
        k = int(np.frexp(np.abs(Z).max())[1]) if Z.size else 0
        Zs = np.ldexp(Z, -k)
        v, order = _pla(Zs, pla_epochs)
        if v is not None:
            scores = Zs @ v
            # An epoch without a mistake is judged by the compiled loop's sums.  A row within
            # rounding of the hyperplane (its exact score 0) can pass there and fail in the
            # caller's own X @ coef: such a separator certifies nothing, and the LP decides.
            if scores.min() > 1e-9 * radius_of(Zs) * np.linalg.norm(v):
                unscaled = np.ldexp(v, k)  # the weights of the run on the rows as given, when finite
                return _separable(
                    X, Z, unscaled if np.all(np.isfinite(unscaled)) else v, fit_intercept, classes, "perceptron", 0, 0
                )
            order = np.argsort(scores, kind="stable")
    if method == "lp":
        work = np.arange(n)
    else:
        m0 = min(n, max(int(working_size or 2 * p + 200), 1))
        # A random sample: a noisy set's random subsets are usually inseparable already (the
        # examples the PLA gets wrong are not: flipped labels agree with the flipped teacher).
        # For separable sets the examples the PLA's last weights score lowest are the likely
        # support, so they join the sample.
        work = np.random.default_rng(0).choice(n, m0, replace=False)
        if order is not None:
            work = np.union1d(work, order[: m0 // 2])
        # A working set of most of the examples saves nothing and risks a second solve.
        work = np.sort(work) if work.shape[0] < 0.6 * n else np.arange(n)
    scale = np.max(np.abs(Z), axis=0)
    scale[scale == 0] = 1.0
    Zs = Z / scale
    solves = 0
    while True:
        solves += 1
        v, lam = _elastic_lp(Zs) if method == "lp" else _solve_working_set(Zs[work])
        if v is None:
            mult = np.zeros(n)
            mult[work] = lam
            return _inseparable(X, Z, s, mult, fit_intercept, classes, method_name(method), work.shape[0], solves)
        scores = Zs @ v
        # Scale v so that its worst working-set row scores 1, as the LP's normalisation reads.
        scores /= max(scores[work].min(), 1e-300)
        if scores.min() > 0:
            return _separable(X, Z, v / scale, fit_intercept, classes, method_name(method), work.shape[0], solves)
        violated = np.setdiff1d(np.flatnonzero(scores < 1 - 1e-7), work, assume_unique=True)
        if violated.shape[0] == 0:  # the LP's own rows are violated: only the full LP is trustworthy
            if work.shape[0] == n:
                raise PerceptronsError(
                    f"the separability LP returned an inconsistent solution (numerical trouble); {SCALE_HINT}"
                )
            work = np.arange(n)
            continue
        add = violated[np.argsort(scores[violated])[: max(200, work.shape[0])]]
        work = np.union1d(work, add)


def method_name(method: str) -> str:
    """The name a separability result reports for ``method``."""
    return "lp" if method == "lp" else "cutting-plane"


def _pla(Z, epochs):
    """PLA through the origin on signed rows; (v or None, examples ordered by last score)."""
    n, p = Z.shape
    rows = read_only(Z)  # as the estimators hand their rows: one specialisation for both
    w = np.zeros(p)
    b = np.zeros(1)
    ones = np.ones(n, dtype=np.int64)
    scale = np.ones(n)
    ahead = dense_ahead(rows)
    for _ in range(epochs):
        # in order (perm None), with no averaging sums and no log
        mistakes, _ = epoch_binary(
            rows, ones, scale, None, w, b, (False, 0.0), None, np.zeros(1), np.zeros(1, dtype=np.int64), None, ahead
        )
        if mistakes == 0:
            return w, None
    return None, np.argsort(Z @ w, kind="stable")


#: the largest normal matrix the dense interior-point solver builds (4,096 columns)
IPM_BYTES = 8 * 4097**2


def _solve_working_set(Zw):
    """(v, None) with ``Zw v > 0`` or (None, λ) with ``λ Zw ≈ 0``, by the fastest exact route.

    The dense interior-point solver goes first: a working set is a dense block, where one
    normal-matrix product per iteration beats the simplex method's sparse machinery (600 × 101:
    ~10 ms against ~0.2 s; 3000 × 1001: ~4 s against ~35 s).  Its answer is accepted only when
    it verifies (a separator scores every row > 0; a witness closes to 1e-9 of the radius);
    otherwise HiGHS solves the elastic LP.
    """
    # its normal matrix is (p+1)² dense: wide rows (hashed, 2^18 columns: 512 GiB) go to HiGHS,
    # which stores the working set's non-zeros only
    out = separation_ipm(Zw) if 8 * (Zw.shape[1] + 1) ** 2 <= IPM_BYTES else None
    if out is not None:
        v, _, lam = out
        if (Zw @ v).min() > 0:
            return v, None
        lam = np.maximum(lam, 0.0)
        lam /= lam.sum()
        R = np.sqrt(np.max(np.einsum("ij,ij->i", Zw, Zw)))
        if np.linalg.norm(lam @ Zw) <= 1e-9 * R:
            return None, lam
    return _elastic_lp(Zw)


def _elastic_lp(Zw):
    """``min Σ s  s.t.  Zw v + s ≥ 1, s ≥ 0``: (v, None) when the optimum is 0, else (None, λ)."""
    import scipy.sparse as sp
    from scipy.optimize import linprog

    m, p = Zw.shape
    A = sp.hstack([sp.csr_matrix(-Zw), -sp.identity(m, format="csr")], format="csr")
    c = np.r_[np.zeros(p), np.ones(m)]
    bounds = [(None, None)] * p + [(0, None)] * m
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = linprog(c, A_ub=A, b_ub=-np.ones(m), bounds=bounds, method="highs")
    if res.status != 0:
        raise PerceptronsError(
            f"the separability LP failed (HiGHS: {' '.join(str(res.message).split())}); {SCALE_HINT}"
        )
    if res.fun <= 1e-9 * max(1.0, m**0.5):
        return res.x[:p], None
    lam = np.maximum(-np.asarray(res.ineqlin.marginals), 0.0)
    return None, lam / lam.sum()


def _separable(X, Z, v, fit_intercept, classes, method, rows, solves):
    w = v[:-1].copy() if fit_intercept else v.copy()
    b = float(v[-1]) if fit_intercept else 0.0
    u = v / np.abs(v).max()  # the LP's v on rows of size 1e-300 has entries of 1e300: its norm overflowed
    gamma = float((Z @ u).min() / np.linalg.norm(u))
    return SeparabilityResult(True, w, b, gamma, None, None, None, classes, method, rows, solves)


def _inseparable(X, Z, s, mult, fit_intercept, classes, method, rows, solves):
    R = radius_of(Z)
    residual = float(np.linalg.norm(mult @ Z) / R) if R > 0 else 0.0
    pos = s > 0
    mass = mult[pos].sum()
    point = (mult[pos] @ X[pos]) / mass if mass > 0 else np.zeros(X.shape[1])
    return SeparabilityResult(False, None, None, None, mult, point, residual, classes, method, rows, solves)

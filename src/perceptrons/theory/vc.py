"""Shattering and VC dimension: which labelings of a point set a concept class realises.

For a point set X and a class R of ranges, ``U(X, R) = {r(X) : r ∈ R}`` with ``r(X)`` the
vector ``b_i = 1`` iff ``p_i`` lies in r (Har-Peled §30.3).  Each concept below decides whether
one labeling is realisable — exactly, by a linear program where one is needed — so
``|U(X, R)|`` is counted, not estimated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import Interval, check_param
from perceptrons.theory._common import POSITIVE_INT, SCALE_HINT, SEED, check_X
from perceptrons.theory.separability import is_separable

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import ArrayLike


def _trivial(mask):
    """The empty and the full labeling, which every class here realises (a range far away / a huge one)."""
    return not mask.any() or mask.all()


def _halfspaces(P, mask):

    if _trivial(mask):
        return True
    return is_separable(P, mask.astype(int), method="lp").separable


def _strictly_separable(Z, s, upper=None):
    """Exact LP: is there v with ``sᵢ v·zᵢ ≥ 1`` (and ``v ≤ upper`` componentwise)?"""
    import warnings

    from scipy.optimize import linprog

    p = Z.shape[1]
    bounds = [(None, None if upper is None or upper[j] is None else upper[j]) for j in range(p)]
    A = -(Z * s[:, None])
    if not np.all(np.isfinite(A)):
        raise PerceptronsError(
            f"the realisability LP has non-finite coefficients (the lift squares the coordinates); {SCALE_HINT}"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = linprog(np.zeros(p), A_ub=A, b_ub=-np.ones(Z.shape[0]), bounds=bounds, method="highs")
    if res.status not in (0, 2):
        raise PerceptronsError(
            f"the realisability LP failed (HiGHS: {' '.join(str(res.message).split())}); {SCALE_HINT}"
        )
    return res.status == 0


def _disks(P, mask):
    # Theorem 30.2.1: lift p → (x, y, x² + y²); a disk is the part of the plane under a plane
    # of the lift.  With the inside scoring positive, the lifted coordinate's weight must be
    # ≤ 0 (< 0 is a disk, = 0 a half-plane, which a huge disk reproduces on a finite set).
    if _trivial(mask):
        return True
    Z = np.column_stack([P, np.einsum("ij,ij->i", P, P), np.ones(P.shape[0])])
    return _strictly_separable(Z, np.where(mask, 1.0, -1.0), upper=[None, None, 0.0, None])


def _boxes(P, mask):
    if not mask.any():
        return True
    lo, hi = P[mask].min(axis=0), P[mask].max(axis=0)
    inside = np.all((P >= lo) & (P <= hi), axis=1)
    return not np.any(inside & ~mask)


def _in_hull(Q, q):
    """Is q a convex combination of the rows of Q?  (exact LP)"""
    import warnings

    from scipy.optimize import linprog

    k = Q.shape[0]
    A_eq = np.vstack([Q.T, np.ones((1, k))])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = linprog(np.zeros(k), A_eq=A_eq, b_eq=np.r_[q, 1.0], bounds=(0, None), method="highs")
    return res.status == 0


#: half the width, relative to the coordinates' size, of the band around a hull's boundary where
#: :func:`_convex` leaves the decision to the LP (whose feasibility tolerance is 1e-7)
_HULL_BAND = 1e-6


def _hull_ccw(Q):
    """The vertices of the convex hull of the 2-D points ``Q``, counter-clockwise, without
    collinear ones (Andrew's monotone chain: Andrew 1979, Inf. Process. Lett. 9(5)); fewer than
    3 when the points are collinear.  By hand: scipy's ``ConvexHull`` (Qhull) takes ~75 µs for
    8 points where this takes ~8, and it refuses collinear points, which labelings often make.
    """
    pts = sorted(set(map(tuple, Q.tolist())))
    if len(pts) < 3:
        return np.array(pts)

    def half(points):
        chain = []
        for p in points:
            while len(chain) >= 2:
                (ax, ay), (bx, by) = chain[-2], chain[-1]
                if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) > 0:  # a left turn: keep b
                    break
                chain.pop()
            chain.append(p)
        return chain

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])


def _convex(P, mask):
    # A convex polygon realises the labeling iff the hull of the positives holds no negative:
    # the hull itself is then the polygon (or a tiny one away from all points if none is positive).
    # A negative farther than a band of rounding from the positives' hull is outside it; one
    # inside it by as much is inside.  Only a negative within the band (on the boundary, or at a
    # point or segment the positives make) takes the exact LP, which decides as it always did:
    # 12 points on a circle took 66 s of LPs, one or more for each of 4,096 labelings.
    if not mask.any():
        return True
    Q, N = P[mask], P[~mask]
    band = _HULL_BAND * (1.0 + np.abs(P).max())  # P is normalised: ~1e-6 of the set's size
    N = N[np.all((N >= Q.min(axis=0) - band) & (N <= Q.max(axis=0) + band), axis=1)]
    if N.shape[0] == 0:
        return True
    depth = _depth(N, _hull_ccw(Q))
    if np.any(depth < -band):
        return False
    return not any(_in_hull(Q, q) for q in N[depth <= band])


def _depth(N, H):
    """How far each point of ``N`` lies outside the convex polygon ``H`` (counter-clockwise
    vertices): the largest signed distance to the lines of its edges, negative inside.  For a
    hull of one point or a segment, the distance to it (never negative).
    """
    if H.shape[0] == 1:
        return np.hypot(*(N - H[0]).T)
    if H.shape[0] == 2:
        a, e = H[0], H[1] - H[0]
        t = np.clip((N - a) @ e / (e @ e), 0.0, 1.0)
        return np.hypot(*(N - a - t[:, None] * e).T)
    edge = np.roll(H, -1, axis=0) - H
    outward = np.column_stack([edge[:, 1], -edge[:, 0]]) / np.hypot(edge[:, 0], edge[:, 1])[:, None]
    return np.einsum("nek,ek->ne", N[:, None, :] - H[None, :, :], outward).max(axis=1)


@dataclass(frozen=True)
class Concept:
    """A class of ranges: its realisability test, the dimensions it lives in, its VC dimension."""

    name: str
    realisable: Callable[[np.ndarray, np.ndarray], bool]  # (points, labeling as bools) -> realised?
    dims: tuple[int, ...]  # allowed point dimensions; () means any
    vc: float | Callable[[int], float]  # int, a callable of the dimension, or math.inf
    # realisability unchanged when the points are translated and uniformly scaled: they are then
    # given to ``realisable`` centred and scaled into [-1, 1] (see _normalised)
    similarity_invariant: bool = False

    def vc_dimension(self, d: int) -> float:
        """The concept class's VC dimension in ``d`` dimensions."""
        return self.vc(d) if callable(self.vc) else self.vc


CONCEPTS = {
    "halfspaces": Concept("halfspaces", _halfspaces, (), lambda d: d + 1, True),
    "halfplanes": Concept("halfplanes", _halfspaces, (2,), 3, True),
    "disks": Concept("disks", _disks, (2,), 3, True),
    # order comparisons only, exact on the coordinates as given (scaling could merge two of them)
    "rectangles": Concept("rectangles", _boxes, (), lambda d: 2 * d),
    "intervals": Concept("intervals", _boxes, (1,), 2),
    "convex-polygons": Concept("convex-polygons", _convex, (2,), math.inf, True),
}


def get_concept(name: str | Concept) -> Concept:
    """The :class:`Concept` called ``name``; the error lists the valid names."""
    if isinstance(name, Concept):
        return name
    if name not in CONCEPTS:
        raise PerceptronsError(f"unknown concept {name!r}; valid concepts are: {', '.join(CONCEPTS)}")
    return CONCEPTS[name]


def _check_points(points, concept, max_points):
    P = check_X(points, name="points")
    if concept.dims and P.shape[1] not in concept.dims:
        raise PerceptronsError(
            f"{concept.name} need points of dimension {concept.dims[0]}; got {P.shape[1]} coordinates per point"
        )
    if not (isinstance(max_points, int) and max_points >= 1):
        raise PerceptronsError(f"max_points must be a positive int. Got {max_points!r} instead.")
    if P.shape[0] > max_points:
        raise PerceptronsError(
            f"{P.shape[0]} points means up to 2^{P.shape[0]} = {2 ** P.shape[0]:,} labelings to test; the limit is "
            f"max_points={max_points} (raise it explicitly to accept the cost)"
        )
    return _normalised(P) if concept.similarity_invariant else P


def _normalised(P):
    """``P`` translated to the centre of its bounding box and scaled by one factor into [-1, 1].

    The linear programs and the hull's band have tolerances (1e-7, 1e-6) that are absolute: on
    points spread over 1e-8 every point was one point to them, and on points spread over 1e8 the
    lift's squares made HiGHS fail or answer "infeasible" (disks: 2 labelings of 32).  Scaled
    first, the tolerances are relative to the set's size, and the same set in other units gets
    the same answer.  Halves are taken before the difference, so that no step overflows.
    """
    lo, hi = P.min(axis=0), P.max(axis=0)
    centre = lo / 2 + hi / 2
    half = float((hi / 2 - lo / 2).max())
    Q = P - centre
    return Q / half if half > 0 else Q


def labelings(points: ArrayLike, concept: str | Concept, *, max_points: int = 20) -> frozenset[tuple[int, ...]]:
    """U(X, R): every labeling of ``points`` that a range of ``concept`` realises.

    Parameters
    ----------
    points : array-like of shape (m, d)
    concept : str
        One of :data:`CONCEPTS`: "halfspaces" (any d), "halfplanes", "disks",
        "convex-polygons" (d = 2), "rectangles" (axis-aligned boxes, any d), "intervals" (d = 1).
    max_points : int, default=20
        2^m labelings are tested; larger sets are refused unless this is raised.

    Returns
    -------
    frozenset of tuple of int
        Each tuple has m entries, ``1`` when the point is inside the range.

    References
    ----------
    Har-Peled §30.3 (U(X, R), shattering, the disks example) and Theorem 30.2.1 (lifting);
    Vapnik & Chervonenkis (1971).

    Examples
    --------
    >>> U = labelings([[0.0], [1.0], [2.0]], "intervals")
    >>> len(U), (1, 0, 1) in U
    (7, False)
    """
    c = get_concept(concept)
    P = _check_points(points, c, max_points)
    return frozenset(_realised(P, c))


def _realised(P, c, stop_short=False):
    """The labelings of ``P`` that ``c`` realises, grown one point at a time.

    A range that realises a labeling of the first k + 1 points realises its restriction to
    the first k, so only the labelings realised on k points are extended to k + 1: a class of
    VC dimension d tests O(m^(d+1)) labelings, not 2^m (16 points and half-planes: 4 minutes
    of linear programs before).  With ``stop_short``, stop at the first k whose 2^k
    labelings are not all realised (then the list returned is of those k points).
    """
    level = [()]
    for k in range(1, P.shape[0] + 1):
        Q = P[:k]
        level = [bits + (b,) for bits in level for b in (0, 1) if c.realisable(Q, np.array(bits + (b,), dtype=bool))]
        if stop_short and len(level) < 2**k:
            break
    return level


def shatters(points: ArrayLike, concept: str | Concept, *, max_points: int = 20) -> bool:
    """True when ``concept`` realises all 2^m labelings of ``points`` (stops at the first k points not shattered).

    Parameters
    ----------
    points : array-like of shape (m, d)
    concept : str
        One of :data:`CONCEPTS`, as in :func:`labelings`.
    max_points : int, default=20
        Larger sets are refused unless this is raised.

    Returns
    -------
    bool

    Examples
    --------
    >>> shatters([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], "halfplanes")
    True
    """
    c = get_concept(concept)
    P = _check_points(points, c, max_points)
    return len(_realised(P, c, stop_short=True)) == 2 ** P.shape[0]


#: the most terms × bits :func:`sauer_bound` sums (about 3 s here; 3·10^11 took 25 s)
MAX_SAUER_WORK = 4 * 10**10


def sauer_bound(d: int, m: int) -> int:
    """Sauer's lemma: a class of VC dimension d realises at most Σ_{i ≤ d} C(m, i) labelings of m points.

    Parameters
    ----------
    d : int
        The VC dimension.
    m : int
        The number of points.

    Returns
    -------
    int
        Σ_{i ≤ min(d, m)} C(m, i) (which is 2^m when m ≤ d).

    Examples
    --------
    >>> sauer_bound(3, 4), sauer_bound(3, 3), sauer_bound(0, 5)
    (15, 8, 1)
    """
    for name, v in (("d", d), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise PerceptronsError(f"{name} must be a non-negative int. Got {v!r} instead.")
    d, m = int(d), int(m)
    if d >= m:
        return 1 << m
    # the shorter of the two sums (C(m, i) = C(m, m − i)), each term from the one before:
    # math.comb afresh for every i made sauer_bound(m, m) cubic in m (10^4 took 7 s)
    k, rest = (d, False) if d < m - d else (m - d - 1, True)
    if k * m > MAX_SAUER_WORK:
        raise PerceptronsError(
            f"sauer_bound({d}, {m}) sums {k:,} binomials of up to {m:,} bits, minutes of work; "
            f"expected min(d, m − d) · m at most {MAX_SAUER_WORK:.0e}"
        )
    total = term = 1
    for i in range(k):
        term = term * (m - i) // (i + 1)
        total += term
    return (1 << m) - total if rest else total


@dataclass(frozen=True)
class GrowthResult:
    """The largest ``|U(X, R)|`` found over the point sets tried, and the set achieving it.

    Attributes
    ----------
    value : int
        The most labelings realised on one of the sets tried.
    points : ndarray of shape (m, d)
        A set realising them.
    n_sets : int
        The number of point sets tried.
    """

    value: int
    points: np.ndarray
    n_sets: int


def growth(
    concept: str | Concept,
    m: int,
    *,
    dim: int | None = None,
    n_sets: int = 30,
    random_state: int | None = 0,
    max_points: int = 20,
) -> GrowthResult:
    """A lower bound on the growth function: max ``|U(X, R)|`` over m-point sets searched.

    Tried: points in convex position (on a circle or moment curve), a diamond/cross pattern,
    and ``n_sets`` Gaussian random sets.  The true growth is a maximum over *all* sets, so this
    is a lower bound; it is exact whenever it reaches 2^m or Sauer's bound.

    Parameters
    ----------
    concept : str
    m : int
    dim : int, optional
        Dimension of the points (default: the concept's own, else 2).
    n_sets : int, default=30
    random_state : int, default=0
    max_points : int, default=20
        As in :func:`labelings`.

    Returns
    -------
    GrowthResult
    """
    c = get_concept(concept)
    check_param(m, "m", POSITIVE_INT)
    check_param(dim, "dim", (None, *POSITIVE_INT))
    check_param(n_sets, "n_sets", (Interval(Integral, 0, None),))
    check_param(random_state, "random_state", SEED)
    d = dim if dim is not None else (c.dims[0] if c.dims else 2)
    rng = np.random.default_rng(random_state)
    t = np.arange(m) / m
    cands = []
    if d == 1:
        cands.append(np.arange(m, dtype=float)[:, None])
    else:
        circ = np.column_stack([np.cos(2 * np.pi * t), np.sin(2 * np.pi * t)])
        cands.append(np.hstack([circ, np.zeros((m, d - 2))]) if d > 2 else circ)
        cands.append(np.column_stack([t ** (k + 1) for k in range(d)]) + 1e-3 * rng.standard_normal((m, d)))
    cands += [rng.standard_normal((m, d)) for _ in range(n_sets)]
    best, best_pts = -1, None
    cap = min(2**m, sauer_bound(c.vc_dimension(d), m) if math.isfinite(c.vc_dimension(d)) else 2**m)
    for P in cands:
        k = len(labelings(P, c, max_points=max_points))
        if k > best:
            best, best_pts = k, P
        if best >= cap:
            break
    return GrowthResult(best, best_pts, len(cands))

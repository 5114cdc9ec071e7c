"""Data generators and the seeds' worked examples.

Every generator is seeded and returns ``(X, y)`` with float64 X.
"""

from numbers import Real

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import check_allocation
from perceptrons._core.params import Interval, check_bool, check_param
from perceptrons.theory._common import POSITIVE_INT, SEED

#: rounds of ``4 · n_samples`` draws before a margin too rare to meet is refused
_MAX_ROUNDS = 200


def gormley_example():
    """The six points of Gormley's worked example (no bias): w goes (0,0) → (1,−2) → (2,−1) → (3,1).

    Returns
    -------
    X : ndarray of shape (6, 2)
    y : ndarray of shape (6,), labels −1/+1
    """
    X = np.array([[-1, 2], [1, 0], [1, 1], [-1, 0], [-1, -2], [1, -1]], dtype=np.float64)
    y = np.array([-1, 1, 1, -1, -1, 1])
    return X, y


def separable(n_samples=200, n_features=2, margin=0.1, *, bias=True, random_state=None):
    """Points in the unit ball labelled by a random unit separator, with a guaranteed margin.

    Points are drawn uniformly in the ball (a Gaussian direction, a radius ``U^(1/d)``), and
    those closer than ``margin`` to the hyperplane ``u·x + c = 0`` are rejected and redrawn, so
    ``(u, c)`` separates the set with geometric margin ≥ ``margin``.  In many dimensions the
    points of a ball lie within about ``1/√d`` of any hyperplane through its centre: a margin
    that almost every draw misses is refused, with the fraction that met it.

    Parameters
    ----------
    n_samples : int, default=200
    n_features : int, default=2
    margin : float in [0, 1), default=0.1
        Smallest distance of a point to the true hyperplane.
    bias : bool, default=True
        Draw an offset ``c`` in [−0.3, 0.3]; False: the hyperplane passes through the origin.
    random_state : int or numpy.random.Generator, optional

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), labels −1/+1
    u : ndarray of shape (n_features,), unit normal of the true separator
    c : float, its offset (0 when ``bias=False``)
    """
    check_param(n_samples, "n_samples", POSITIVE_INT, "separable")
    check_param(n_features, "n_features", POSITIVE_INT, "separable")
    check_param(margin, "margin", (Interval(Real, 0, 1, closed="left"),), "separable")
    bias = check_bool(bias, "bias")
    rng = np.random.default_rng(check_param(random_state, "random_state", SEED, "separable"))
    check_allocation(8 * 2 * 4 * n_samples * n_features, f"{n_samples} × {n_features} points and their draws")
    u = rng.standard_normal(n_features)
    u /= np.linalg.norm(u)
    c = float(rng.uniform(-0.3, 0.3)) if bias else 0.0
    out, kept, drawn = [], 0, 0
    while kept < n_samples:
        P = _in_ball(rng, 4 * n_samples, n_features)
        P = P[np.abs(P @ u + c) >= margin]
        out.append(P)
        kept, drawn = kept + len(P), drawn + 4 * n_samples
        if kept < n_samples and drawn >= _MAX_ROUNDS * 4 * n_samples:
            raise PerceptronsError(
                f"separable: {kept} of {drawn} points drawn in the unit ball of {n_features} dimensions lie "
                f"at least margin={margin} from the separator; expected {n_samples}: choose a smaller "
                "margin or fewer features"
            )
    X = np.vstack(out)[:n_samples]
    y = np.where(X @ u + c >= 0, 1, -1)
    return X, y, u, c


def _in_ball(rng, n, d):
    """``n`` points uniform in the unit ball of ``d`` dimensions (no rejection: a cube's share
    of the ball is 2.5e-8 in 20 dimensions).
    """
    G = rng.standard_normal((n, d))
    norms = np.linalg.norm(G, axis=1)
    norms[norms == 0] = 1.0  # probability 0; a zero row stays the centre
    return G * (rng.random(n) ** (1.0 / d) / norms)[:, None]


def noisy_blobs(n_samples=200, noise=0.15, *, random_state=None):
    """Two overlapping Gaussian blobs in 2-D plus flipped labels: not linearly separable.

    Parameters
    ----------
    n_samples : int, default=200
        Half in each blob (the second gets the odd one).
    noise : float, default=0.15
        The expected fraction of labels flipped (each flips with this probability).
    random_state : int or numpy.random.Generator, optional

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,), labels −1/+1
    """
    check_param(n_samples, "n_samples", POSITIVE_INT, "noisy_blobs")
    check_param(noise, "noise", (Interval(Real, 0, 1),), "noisy_blobs")
    rng = np.random.default_rng(check_param(random_state, "random_state", SEED, "noisy_blobs"))
    check_allocation(8 * 4 * n_samples, f"{n_samples} points")
    half = n_samples // 2
    X = np.vstack([rng.normal([-1, -1], 0.9, (half, 2)), rng.normal([1, 1], 0.9, (n_samples - half, 2))])
    y = np.r_[-np.ones(half, dtype=int), np.ones(n_samples - half, dtype=int)]
    flip = rng.random(n_samples) < noise
    y[flip] = -y[flip]
    return X, y

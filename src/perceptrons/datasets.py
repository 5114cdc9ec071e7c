"""Data generators and the seeds' worked examples.

Every generator is seeded and returns ``(X, y)`` with float64 X.
"""

import numpy as np


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

    Points closer than ``margin`` to the hyperplane ``u·x + c = 0`` are rejected and redrawn,
    so ``(u, c)`` separates the set with geometric margin ≥ ``margin``.

    Parameters
    ----------
    n_samples : int, default=200
    n_features : int, default=2
    margin : float, default=0.1
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
    rng = np.random.default_rng(random_state)
    u = rng.standard_normal(n_features)
    u /= np.linalg.norm(u)
    c = float(rng.uniform(-0.3, 0.3)) if bias else 0.0
    out = []
    while sum(len(o) for o in out) < n_samples:
        P = rng.uniform(-1, 1, size=(4 * n_samples, n_features))
        P = P[np.linalg.norm(P, axis=1) <= 1]
        P = P[np.abs(P @ u + c) >= margin]
        out.append(P)
    X = np.vstack(out)[:n_samples]
    y = np.where(X @ u + c >= 0, 1, -1)
    return X, y, u, c


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
    rng = np.random.default_rng(random_state)
    half = n_samples // 2
    X = np.vstack([rng.normal([-1, -1], 0.9, (half, 2)), rng.normal([1, 1], 0.9, (n_samples - half, 2))])
    y = np.r_[-np.ones(half, dtype=int), np.ones(n_samples - half, dtype=int)]
    flip = rng.random(n_samples) < noise
    y[flip] = -y[flip]
    return X, y

"""The kernel perceptron's mistake bound: the PLA's, in the feature space its kernel spans.

On a sequence of examples the kernel perceptron is the PLA run on vectors φ(xᵢ) whose dot
products are the kernel's values (Aizerman, Braverman & Rozonoer 1964; Freund & Schapire 1999,
§2).  Any rows ``L`` with ``L Lᵀ = K``, the Gram matrix of the data, are such vectors for these
examples: the radius (R² = max K(x, x), plus 1 with the bias folded in), the margin of a
separator in feature space and the deviations of Freund and Schapire's bound are those of the
rows of ``L``.  Novikoff's bound and Freund–Schapire's are therefore computed on ``L``, and the
count beside them is the dual algorithm's own run over ``K``.
"""

from __future__ import annotations

import math

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import check_allocation

#: the most rows the bound takes: the max-margin QP over rows of rank about n took 10 s at 1,000
#: rows, 42 s at 1,500 and more than 5 minutes at 3,000
MAX_ROWS = 1500

#: an eigenvalue of the Gram matrix below −this × its largest is not rounding: the kernel is
#: not a dot product on these data (the sigmoid kernel is not positive semi-definite)
NEGATIVE_EIGENVALUE = 1e-9


def kernel_sequence(model, X, y, s, passes):
    """What the perceptron's bounds need of a kernel perceptron's run over ``(X, y)``: rows ``L``
    of its feature space (:func:`feature_rows`), the radius R of the vectors it learns from, and
    the trials it erred on (:func:`dual_mistakes`).

    R is taken from K itself: ``L`` leaves out the directions of eigenvalues that are 0 up to
    rounding, and a unit vector in the directions kept has the same margins on the full rows, so
    the bounds computed on ``L`` with this R hold for the run.

    Parameters
    ----------
    model : KernelPerceptron
    X : ndarray of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    s : ndarray of shape (n_samples,)
        The labels as ±1.
    passes : int

    Returns
    -------
    tuple of (ndarray, float, ndarray)

    Raises
    ------
    NoBound
        For a budget, or a margin other than 0: the bounds are the PLA's.
    """
    from perceptrons.theory.mistake_bounds import NoBound

    if model.budget is not None:
        raise NoBound("the perceptron's bounds are for the kernel perceptron without a budget: fit with budget=None")
    if model.margin != 0:
        raise NoBound(
            f"the perceptron's bounds here are for margin=0 (the PLA's own rule), not margin={model.margin!r} "
            "(the kernel perceptron's 'auto' is 1 without a budget)"
        )
    K = gram_matrix(model, X, y)
    bias = 1.0 if model.fit_intercept else 0.0
    R = math.sqrt(max(float(np.max(np.diag(K))), 0.0) + bias)
    return feature_rows(K), R, dual_mistakes(K, s, model.fit_intercept, passes)


def gram_matrix(model, X, y):
    """The Gram matrix K of ``model``'s kernel on the rows of ``X``, float64.

    ``gamma="scale"`` and ``"auto"`` stand for the number a fit on ``X`` resolves (a clone of
    ``model`` is fitted for one epoch, which also checks its parameters); ``"precomputed"`` takes
    ``X`` as K.

    Parameters
    ----------
    model : KernelPerceptron
    X : ndarray of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
    """
    import warnings

    from sklearn.base import clone
    from sklearn.exceptions import ConvergenceWarning

    from perceptrons.kernel.kernels import USES_GAMMA, KernelBlock

    n = X.shape[0]
    if n > MAX_ROWS:
        raise PerceptronsError(
            f"the kernel perceptron's bound solves a quadratic program over its feature space, one dimension an "
            f"example: at most {MAX_ROWS:,} rows (a minute's solving), not {n:,}; give a sample of the data"
        )
    check_allocation(3 * 8 * n * n, f"the Gram matrix of {n:,} rows and its eigenvectors", "use fewer rows")
    if model.kernel == "precomputed":
        if X.shape[1] != n:
            raise PerceptronsError(f"kernel='precomputed' takes the (n, n) Gram matrix as X; got shape {X.shape}")
        return np.array(X, dtype=np.float64)
    with warnings.catch_warnings():  # one epoch, to check the parameters and resolve gamma, not to converge
        warnings.simplefilter("ignore", ConvergenceWarning)
        fitted = clone(model).set_params(max_epochs=1).fit(X, y)
    gamma = fitted.gamma_ if model.kernel in USES_GAMMA else None
    return KernelBlock(model.kernel, gamma, model.degree, float(model.coef0), np.float64).block(X, X)


def feature_rows(K):
    """Rows ``L`` with ``L Lᵀ = K`` (from the eigendecomposition of K; the eigenvectors of
    eigenvalues that are 0 up to rounding are left out).

    Parameters
    ----------
    K : ndarray of shape (n, n)
        A symmetric Gram matrix.

    Returns
    -------
    ndarray of shape (n, r)

    Raises
    ------
    NoBound
        When K is not symmetric, or has an eigenvalue clearly below 0: the kernel is no dot
        product on these data, and there is no feature space for the bound to speak of.
    """
    from perceptrons.theory.mistake_bounds import NoBound

    top = float(np.abs(K).max()) if K.size else 0.0
    if np.abs(K - K.T).max(initial=0.0) > NEGATIVE_EIGENVALUE * top:
        raise NoBound(
            "the kernel matrix is not symmetric, K(x, z) ≠ K(z, x): it is not a dot product in any feature space, "
            "so the perceptron's bounds do not apply"
        )
    values, vectors = np.linalg.eigh((K + K.T) / 2.0)
    top = max(float(np.abs(values).max()), np.finfo(float).tiny)
    if values[0] < -NEGATIVE_EIGENVALUE * top:
        raise NoBound(
            f"the kernel's Gram matrix on these data has the eigenvalue {values[0]:.3g} < 0: it is not "
            "a dot product in any feature space (as the sigmoid kernel may not be), so the perceptron's "
            "bounds do not apply"
        )
    keep = values > NEGATIVE_EIGENVALUE * top
    if not keep.any():  # K = 0: every row the zero vector, of a space of one dimension
        return np.zeros((K.shape[0], 1))
    return vectors[:, keep] * np.sqrt(values[keep])


def dual_mistakes(K, s, fit_intercept, passes):
    """The trials (positions in ``passes`` runs over the sequence) on which the dual PLA erred:
    ``f(xᵢ) = Σⱼ αⱼ sⱼ K(xⱼ, xᵢ) + b``, an error where ``sᵢ f(xᵢ) ≤ 0``, and then αᵢ += 1 and,
    with the bias, ``b += sᵢ`` (the constant feature 1 folded in).  A pass without an error
    ends the run: the passes after it repeat it.

    Parameters
    ----------
    K : ndarray of shape (n, n)
    s : ndarray of shape (n,)
        The labels as ±1.
    fit_intercept : bool
    passes : int

    Returns
    -------
    ndarray of int64
    """
    n = K.shape[0]
    coef = np.zeros(n)  # αⱼ sⱼ
    b = 0.0
    mistakes = []
    for p in range(passes):
        before = len(mistakes)
        for i in range(n):
            if s[i] * (coef @ K[:, i] + b) <= 0.0:
                coef[i] += s[i]
                b += s[i] if fit_intercept else 0.0
                mistakes.append(p * n + i)
        if len(mistakes) == before:
            break
    return np.array(mistakes, dtype=np.int64)

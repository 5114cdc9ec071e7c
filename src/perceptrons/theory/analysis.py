"""One call that measures a labelled data set the way the theory chapter does.

``analyze`` gathers what ``perceptrons analyze`` prints: R, the separability certificate, and
either γ* with the Block–Novikoff bound next to the PLA's actual mistakes, or — for data no
hyperplane separates — the Freund–Schapire bound for its best direction next to the mistakes
of one online pass.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from perceptrons import Perceptron
from perceptrons._core.params import check_bool
from perceptrons.theory._common import check_X, squared_ratio
from perceptrons.theory.bounds import fs_optimal_direction, online_mistakes
from perceptrons.theory.margins import max_margin, radius
from perceptrons.theory.separability import is_separable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix


@dataclass(frozen=True)
class Analysis:
    """Everything :func:`analyze` measured.

    Attributes
    ----------
    n_samples, n_features : int
    radius : float
        R over the augmented vectors when ``fit_intercept``.
    certificate : SeparabilityResult
    gamma : float or None
        γ* (separable) or the Freund–Schapire γ of the best direction (inseparable).
    D : float or None
        Freund–Schapire deviation (inseparable only).
    direction : ndarray or None
        The unit u of the Freund–Schapire bound (weights, then bias).
    bound : float
        (R/γ*)² or ((R + D)/γ)².
    mistakes : int
        PLA updates until convergence (separable) or in one online pass (inseparable).
    converged : bool or None
        Whether the PLA run converged within ``max_epochs`` (separable only).
    epochs : int or None
    n_support : int or None
        Examples at margin γ* (separable only).
    """

    n_samples: int
    n_features: int
    radius: float
    certificate: object
    gamma: float | None
    D: float | None
    direction: np.ndarray | None
    bound: float
    mistakes: int
    converged: bool | None
    epochs: int | None
    n_support: int | None


def analyze(
    X: ArrayLike | spmatrix | sparray, y: ArrayLike, *, fit_intercept: bool = True, max_epochs: int = 10000
) -> Analysis:
    """Radius, separability certificate, margin, mistake bound and the mistakes actually made.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two labels.
    fit_intercept : bool, default=True
    max_epochs : int, default=10000
        Limit of the PLA run on separable data (the bound says how many updates it needs).

    Returns
    -------
    Analysis

    References
    ----------
    Har-Peled, Theorem 30.1.1; Gormley, Theorem 2 (Freund & Schapire 1999).

    Examples
    --------
    >>> X = [[-1, 2], [1, 0], [1, 1], [-1, 0], [-1, -2], [1, -1]]
    >>> a = analyze(X, [-1, 1, 1, -1, -1, 1], fit_intercept=False)
    >>> a.certificate.separable, round(a.bound, 6), a.mistakes
    (True, 5.0, 3)
    """
    from sklearn.exceptions import ConvergenceWarning

    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    X = check_X(X)
    cert = is_separable(X, y, fit_intercept=fit_intercept)
    R = radius(X, fit_intercept=fit_intercept)
    n, d = X.shape
    if cert.separable:
        mm = max_margin(X, y, fit_intercept=fit_intercept)  # refuses a QP that contradicts the LP
        clf = Perceptron(fit_intercept=fit_intercept, max_epochs=max_epochs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(X, y)
        return Analysis(
            n,
            d,
            R,
            cert,
            mm.gamma,
            None,
            None,
            squared_ratio(R, mm.gamma),
            int(clf.n_updates_),
            bool(clf.converged_),
            int(clf.n_epochs_),
            int(len(mm.support)),
        )
    fs, u = fs_optimal_direction(X, y, fit_intercept=fit_intercept)
    return Analysis(
        n, d, R, cert, fs.gamma, fs.D, u, fs.bound, online_mistakes(X, y, fit_intercept=fit_intercept), None, None, None
    )

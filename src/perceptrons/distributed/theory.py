"""Theorem 3 of McDonald, Hall & Mann (2010) on a fitted IPM model: the mixed mistake sum next
to Novikoff's (R/γ*)².
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptrons._core.errors import PerceptronsError, shown
from perceptrons.theory import novikoff_bound


@dataclass(frozen=True)
class MixingBound:
    """Both sides of Theorem 3.

    Attributes
    ----------
    mistake_sum : float
        Σₙ Σᵢ μᵢ,ₙ kᵢ,ₙ over the epochs n and shards i of the fit.
    bound : float
        (R/γ*)², inf when the data are not separable.
    radius : float
    gamma : float or None
    holds : bool
        ``mistake_sum <= bound``.
    """

    mistake_sum: float
    bound: float
    radius: float
    gamma: float | None
    holds: bool


def mistake_sum(estimator) -> float:
    """Σₙ Σᵢ μᵢ,ₙ kᵢ,ₙ of a model fitted by :func:`perceptrons.distributed.fit` or
    :func:`~perceptrons.distributed.fit_tagger`.

    With error-weighted mixing (μᵢ = kᵢ/Σk) this is Σₙ Σᵢ kᵢ,ₙ² / Σᵢ kᵢ,ₙ.

    Parameters
    ----------
    estimator : fitted by IPM

    Returns
    -------
    float

    References
    ----------
    McDonald, Hall & Mann (2010), Theorem 3.
    """
    estimator = _mixed(estimator)
    k = np.asarray(estimator.shard_mistakes_, dtype=np.float64)
    mu = np.asarray(estimator.mixing_weights_, dtype=np.float64)
    return float((mu * k).sum())


def mixing_bound(estimator, X, y) -> MixingBound:
    """Theorem 3 on the training data of an IPM fit of a binary linear perceptron.

    Parameters
    ----------
    estimator : Perceptron or AveragedPerceptron fitted by :func:`perceptrons.distributed.fit`
    X : array-like of shape (n_samples, n_features)
        The training rows (all shards).
    y : array-like of shape (n_samples,)

    Returns
    -------
    MixingBound
        With R and γ* over the augmented rows when the model folds the bias in, as the PLA sees
        them (:func:`perceptrons.theory.novikoff_bound`).

    References
    ----------
    McDonald, Hall & Mann (2010), Theorem 3; Novikoff (1962).

    Examples
    --------
    >>> from perceptrons.distributed import MixingBound
    >>> MixingBound(3.0, 4.0, 1.0, 0.5, True).holds
    True
    """
    estimator = _mixed(estimator)
    nb = novikoff_bound(X, y, fit_intercept=estimator.fit_intercept)
    s = mistake_sum(estimator)
    return MixingBound(s, float(nb.bound), float(nb.radius), nb.gamma, bool(s <= nb.bound))


def _mixed(estimator):
    """The model a distributed fit trained: the estimator itself, or a tagger's ``model_``."""
    model = getattr(estimator, "model_", None)
    model = estimator if model is None else model
    if not hasattr(model, "shard_mistakes_"):
        raise PerceptronsError(
            "estimator: expected a model fitted by distributed.fit, fit_tagger or fit_sequences "
            f"(it holds each shard's mistakes); got {shown(estimator)}"
        )
    return model

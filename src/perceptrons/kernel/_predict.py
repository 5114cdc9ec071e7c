"""Prediction of a fitted kernel perceptron: one blocked kernel matrix against the support
examples only (BLAS), then the coefficients — or, for the voted perceptron, the replay of the
update log (:func:`perceptrons._jit.dual.voted_scores`)."""

from typing import NamedTuple

import numpy as np

from perceptrons._core.readonly import read_only
from perceptrons._jit.dual import voted_scores
from perceptrons.kernel.kernels import sq_norms

#: test rows per kernel block: 2048 × n_SV values, a few tens of MB at most for MNIST-sized models
PREDICT_BLOCK = 2048


class DualModel(NamedTuple):
    """What prediction reads of a fitted ``KernelPerceptron``: its fitted arrays (``support_``,
    ``support_vectors_``, ``dual_coef_``, ``intercept_``), its vote log and two of its parameters."""

    support: np.ndarray  # (n_SV,): with a precomputed kernel, the test matrix's columns to read
    support_vectors: np.ndarray  # (n_SV, n_features)
    dual_coef: np.ndarray  # (1, n_SV) or (n_classes, n_SV)
    intercept: np.ndarray  # (1,) or (n_classes,)
    votes: dict | None  # the voted perceptron's update log (``_support.model_arrays``), else None
    voted: bool  # the parameter: predict by the vote of the iterates, replayed from ``votes``
    binary: bool  # two classes
    fit_intercept: bool


def block_scores(X, kb, model):
    """Decision values of ``model`` (a :class:`DualModel`) on validated ``X``: (n,) binary, else
    (n, n_classes).  ``kb`` is the model's :class:`~perceptrons.kernel.kernels.KernelBlock`, or
    None when ``X`` holds precomputed kernel values."""
    binary = model.binary
    voted = model.voted
    n_cols = 2 if (binary and voted) else model.dual_coef.shape[0]
    out = np.empty((X.shape[0], n_cols))
    sv_sq = sq_norms(model.support_vectors) if kb is not None and kb.kernel == "rbf" else None
    # the votes read-only, fitted or loaded: one specialisation of the loop
    votes = tuple(read_only(model.votes[k]) for k in ("sv", "true", "runner", "step", "weights")) if voted else ()
    for lo in range(0, X.shape[0], PREDICT_BLOCK):
        Xb = X[lo : lo + PREDICT_BLOCK]
        if kb is None:
            Kb = np.ascontiguousarray(Xb[:, model.support], dtype=np.float64)
        else:
            Kb = kb.block(Xb, model.support_vectors, None, sv_sq)
        if voted:
            voted_scores(
                Kb,
                *votes,
                model.fit_intercept,
                binary,
                out[lo : lo + Xb.shape[0]],
            )
        else:
            out[lo : lo + Xb.shape[0]] = Kb @ model.dual_coef.T + model.intercept
    if voted:
        total = max(float(model.votes["weights"].sum()), 1.0)
        out /= total
        if binary:
            return out[:, 1] - out[:, 0]
    return out.ravel() if out.shape[1] == 1 else out

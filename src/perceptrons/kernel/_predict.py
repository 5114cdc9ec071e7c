"""Prediction of a fitted kernel perceptron: one blocked kernel matrix against the support
examples only (BLAS), then the coefficients — or, for the voted perceptron, the replay of the
update log (:func:`perceptrons._jit.kernel.voted_scores`)."""

import numpy as np

from perceptrons._jit.kernel import voted_scores
from perceptrons.kernel.kernels import sq_norms

#: test rows per kernel block: 2048 × n_SV values, a few tens of MB at most for MNIST-sized models
PREDICT_BLOCK = 2048


def block_scores(est, X):
    """Decision values of ``est`` on validated ``X``: (n,) binary, else (n, n_classes)."""
    kb = est._kernel_block(X.dtype if est.kernel != "precomputed" else np.float64)
    binary = len(est.classes_) == 2
    n_cols = 2 if (binary and est.voted) else est.dual_coef_.shape[0]
    out = np.empty((X.shape[0], n_cols))
    sv_sq = sq_norms(est.support_vectors_) if est.kernel == "rbf" else None
    for lo in range(0, X.shape[0], PREDICT_BLOCK):
        Xb = X[lo : lo + PREDICT_BLOCK]
        if est.kernel == "precomputed":
            Kb = np.ascontiguousarray(Xb[:, est.support_], dtype=np.float64)
        else:
            Kb = kb.block(Xb, est.support_vectors_, None, sv_sq)
        if est.voted:
            v = est._votes
            voted_scores(Kb, v["sv"], v["true"], v["runner"], v["step"], v["weights"],
                         est.fit_intercept, binary, out[lo : lo + Xb.shape[0]])
        else:
            out[lo : lo + Xb.shape[0]] = Kb @ est.dual_coef_.T + est.intercept_
    if est.voted:
        total = max(float(est._votes["weights"].sum()), 1.0)
        out /= total
        if binary:
            return out[:, 1] - out[:, 0]
    return out.ravel() if out.shape[1] == 1 else out

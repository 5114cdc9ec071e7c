"""A :class:`~perceptrons.structured.sequence.SequencePerceptron` to and from a model file.

Only the final (averaged) weights are stored, the emission matrix as its non-zero entries (most
of them stay 0 in tagging).  Reading checks every field before anything is built and returns
the restored values; the estimator sets its own attributes from them.
"""

import numpy as np

from perceptrons._core.visits import MAX_VISITS
from perceptrons.io.model_state import FLOATS, INTS

#: the fitted attributes restored besides the weights (set by the estimator under these names)
FITTED = (
    "classes_",
    "n_features_in_",
    "n_edge_features_in_",
    "n_epochs_",
    "best_epoch_",
    "converged_",
    "mistakes_per_epoch_",
    "token_mistakes_per_epoch_",
    "dev_scores_",
)


def to_state(model):
    """``(meta, arrays)`` of a fitted model, read through its public attributes only."""
    W = model.emission_weights()
    rows, cols = np.nonzero(W)
    ef, ea, eb = np.nonzero(model.coef_edge_)
    meta = {
        "n_features_in": int(model.n_features_in_),
        "n_edge_features_in": int(model.n_edge_features_in_),
        "n_epochs": int(model.n_epochs_),
        "best_epoch": int(model.best_epoch_),
        "converged": bool(model.converged_),
        "mistakes_per_epoch": model.mistakes_per_epoch_,
        "token_mistakes_per_epoch": model.token_mistakes_per_epoch_,
        "dev_scores": model.dev_scores_,
    }
    arrays = {
        "classes": model.classes_,
        "W_rows": rows.astype(np.int32 if len(rows) and rows[-1] < 2**31 else np.int64),
        "W_cols": cols.astype(np.int16 if len(model.classes_) < 2**15 else np.int32),
        "W_vals": W[rows, cols],
        "trans": model.coef_trans_,
        "start": model.coef_init_,
        "stop": model.coef_final_,
        "E_index": np.stack([ef, ea, eb]).astype(np.int64),
        "E_vals": model.coef_edge_[ef, ea, eb],
        "trans2": model.coef_trans2_,
    }
    return meta, arrays


def from_state(st, markov_order):
    """Read a model from a :class:`~perceptrons.io.model_state.ModelState`.

    The sparse weight entries must index inside their dense shapes, every weight be finite and
    the dense matrices they expand to fit in memory — all checked before anything is built.

    Returns
    -------
    fitted : dict
        The attributes named in :data:`FITTED`, by name.
    weights : tuple of ndarray
        ``(W, trans, E, trans2, start, stop)``: emissions (n_features, n_classes), transitions,
        edge weights, second-order transitions and the start / stop weights.
    """

    classes = st.labels("classes", min_count=1)
    T = len(classes)
    d = st.int("n_features_in", hi=2**31 - 1)
    n_edge = st.int("n_edge_features_in", hi=2**31 - 1)
    st.alloc("n_features_in", (d + n_edge * T) * T)
    rows = st.array("W_rows", INTS, (None,), lo=0, hi=d)
    nnz = rows.shape[0]
    cols = st.array("W_cols", INTS, (nnz,), lo=0, hi=T)
    vals = st.array("W_vals", FLOATS, (nnz,))
    E_index = st.array("E_index", ("int64",), (3, None), lo=0)
    for axis, (name, bound) in enumerate((("edge feature", n_edge), ("tag", T), ("tag", T))):
        st.require(bool(np.all(E_index[axis] < bound)), "E_index", f"row {axis}: {name} index beyond {bound}")
    E_vals = st.array("E_vals", FLOATS, (E_index.shape[1],))
    trans = st.array("trans", FLOATS, (T, T)).astype(np.float64)
    trans2 = st.array("trans2", FLOATS, (T, T, T) if markov_order == 2 else (0, 0, 0)).astype(np.float64)
    start, stop = (st.array(k, FLOATS, (T,)).astype(np.float64) for k in ("start", "stop"))
    n_epochs = st.int("n_epochs", hi=MAX_VISITS)
    best_epoch = st.int("best_epoch", hi=n_epochs)
    converged = st.bool("converged")
    mistakes = st.list("mistakes_per_epoch", "int", length=n_epochs)
    token_mistakes = st.list("token_mistakes_per_epoch", "int", length=n_epochs)
    dev_scores = st.list("dev_scores", "float")
    st.require(len(dev_scores) in (0, n_epochs), "dev_scores", "expected one score per epoch or none")
    W = np.zeros((d, T), dtype=vals.dtype)  # a tagger's float32, not a float64 copy to convert
    W[rows, cols] = vals
    E = np.zeros((n_edge, T, T))
    E[E_index[0], E_index[1], E_index[2]] = E_vals
    fitted = dict(
        zip(FITTED, (classes, d, n_edge, n_epochs, best_epoch, converged, mistakes, token_mistakes, dev_scores))
    )
    return fitted, (W, trans, E, trans2, start, stop)

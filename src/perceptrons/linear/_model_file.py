"""A linear estimator to and from a model file: its fitted attributes and its
:class:`~perceptrons.linear.trainer.LinearState`, as plain numbers and arrays (never objects).

Reading checks every field (type, dtype, shape against the others, finiteness) before it is kept,
and returns the values; the estimator sets its own attributes from them.
"""

import numpy as np

from perceptrons._core.visits import MAX_VISITS
from perceptrons.io.model_state import FLOATS
from perceptrons.linear.trainer import LinearState


def to_state(est, state):
    """``(meta, arrays)`` of a fitted linear estimator (its public attributes) and its ``state``."""
    meta = {
        "n_features_in": int(est.n_features_in_),
        "n_updates": int(est.n_updates_),
        "n_epochs": int(est.n_epochs_),
        "converged": bool(est.converged_),
        "mistakes_per_epoch": [int(m) for m in est.mistakes_per_epoch_],
        "binary": bool(state.binary),
    }
    arrays = {
        "classes": est.classes_,
        "coef": est.coef_,
        "intercept": est.intercept_,
        **{f"state_{k}": v for k, v in state._asdict().items() if k != "extra" or v.size},
    }
    return meta, arrays


def from_state(st, averaging, class_weight, extra_shape=None):
    """The fitted attributes (by name) and the :class:`LinearState` of a model file.

    ``averaging``: the estimator keeps averaging sums (their shape is checked);
    ``class_weight``: a dict of it must name only the file's classes; ``extra_shape``:
    ``extra_shape(d, k)`` is the shape of the state's ``extra`` array for ``d`` features and
    ``k`` classes (None: the estimator keeps none).
    """
    d = st.int("n_features_in", lo=1, hi=2**31 - 1)
    fitted = {"n_epochs_": st.int("n_epochs", hi=MAX_VISITS)}
    fitted["mistakes_per_epoch_"] = st.list("mistakes_per_epoch", "int", length=fitted["n_epochs_"])
    fitted["n_updates_"] = st.int("n_updates", hi=MAX_VISITS)
    fitted["converged_"] = st.bool("converged")
    binary = st.bool("binary")
    classes = fitted["classes_"] = st.labels("classes")
    k = classes.shape[0]
    st.require(binary == (k == 2), "binary", f"says {binary} for {k} classes")
    if isinstance(class_weight, dict):
        known = set(classes.tolist())
        st.require(all(c in known for c in class_weight), "classes", "class_weight names a class not in it")
    nb = 1 if binary else k  # the rows of the weights: one for two classes
    st.alloc("n_features_in", d * nb * (4 if averaging else 3))
    extra = None if extra_shape is None else extra_shape(d, k)
    if extra is not None:
        st.alloc("n_features_in", int(np.prod(extra)))
    state = LinearState.read(st, d, k, binary, averaging, extra)
    fitted["coef_"] = st.array("coef", FLOATS, (1 if binary else k, d))
    fitted["intercept_"] = st.array("intercept", FLOATS, (nb,))
    fitted["n_features_in_"] = d
    return fitted, state

"""Contract checks, run over every estimator of the registry (river's ``checks``, in spirit).

Each estimator has an :class:`Adapter`: how to build it, a small data set in the form its
``fit`` takes, and which of its attributes are its weights.  :func:`checks` yields the checks
that apply to an estimator; ``tests/core/test_contract.py`` runs them for every name in
:data:`perceptrons._core.registry.ESTIMATORS`, so an estimator added there is checked without
another line of test code — or fails for want of an adapter here.
"""

import contextlib
import inspect
import io
import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from perceptrons import load_model, save_model
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.registry import estimator_class


class Data(NamedTuple):
    args: tuple  # fit(*args, **kwargs); partial_fit(*args, classes=..., **kwargs)
    kwargs: dict
    predict: tuple  # predict(*predict)
    classes: np.ndarray


class Adapter(NamedTuple):
    params: dict  # constructor parameters that make every run short and seeded
    data: Callable  # data(dtype) -> Data
    weights: tuple  # attributes holding the learned weights
    float32: bool  # documents "float32 input stays float32" (weights in float32)


def _rows(dtype=np.float64, n=40, d=3, k=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)).astype(dtype)
    y = np.argmax(X[:, :k] + 0.5 * rng.standard_normal((n, k)), axis=1) if k > 2 else (X[:, 0] > 0).astype(int)
    return X, y


def _flat(dtype=np.float64):
    X, y = _rows(dtype)
    return Data((X, y), {}, (X,), np.array([0, 1]))


def _sequences(dtype=np.float64):
    rng = np.random.default_rng(0)
    lengths = np.array([3, 4, 5, 4])
    X = sp.csr_matrix((rng.random((16, 6)) > 0.5).astype(np.float64))
    y = np.array(["D", "N", "V"])[rng.integers(0, 3, 16)]
    return Data((X, y, lengths), {}, (X, lengths), np.array(["D", "N", "V"]))


def _sentences(dtype=np.float64):
    words = "the dog runs . a cat sleeps . dogs play here .".split()
    tags = {
        "the": "DET",
        "a": "DET",
        "dog": "NOUN",
        "cat": "NOUN",
        "dogs": "NOUN",
        ".": "PUNCT",
        "runs": "VERB",
        "sleeps": "VERB",
        "play": "VERB",
        "here": "ADV",
    }
    sents = [words[0:4], words[4:8], words[8:]]
    return Data((sents, [[tags[w] for w in s] for s in sents]), {}, (sents,), np.array(sorted(set(tags.values()))))


_LINEAR = ("coef_", "intercept_")
ADAPTERS = {
    "Perceptron": Adapter({"max_epochs": 5, "order": "shuffle", "random_state": 0}, _flat, _LINEAR, True),
    "PocketPerceptron": Adapter({"max_epochs": 5, "order": "shuffle", "random_state": 0}, _flat, _LINEAR, True),
    "AveragedPerceptron": Adapter({"max_epochs": 5, "order": "shuffle", "random_state": 0}, _flat, _LINEAR, True),
    "VotedPerceptron": Adapter(
        {"max_epochs": 5, "order": "shuffle", "random_state": 0}, _flat, _LINEAR + ("vectors_", "vector_counts_"), True
    ),
    "KernelPerceptron": Adapter(
        {"max_epochs": 5, "order": "shuffle", "budget": 10, "random_state": 0},
        _flat,
        ("dual_coef_", "intercept_", "support_"),
        False,
    ),
    "SequencePerceptron": Adapter(
        {"max_epochs": 3, "shuffle": True, "random_state": 0},
        _sequences,
        ("coef_", "coef_trans_", "coef_init_", "coef_final_"),
        False,
    ),
    "Tagger": Adapter({"max_epochs": 3, "shuffle": True, "random_state": 0}, _sentences, ("tags_",), False),
    # the online family: float64 weights whatever the input (their steps are fractions)
    **{
        name: Adapter({"max_epochs": 5, "order": "shuffle", "random_state": 0}, _flat, _LINEAR, False)
        for name in (
            "PassiveAggressive",
            "AROW",
            "ConfidenceWeighted",
            "SCW",
            "SecondOrderPerceptron",
            "ALMA",
            "ROMMA",
            "Winnow",
        )
    },
    # scikit-learn's class, its parameters: max_iter for max_epochs, shuffle for order
    "PassiveAggressiveClassifier": Adapter({"max_iter": 5, "tol": None, "random_state": 0}, _flat, _LINEAR, False),
}


def make(name, **params):
    return estimator_class(name)(**{**ADAPTERS[name].params, **params})


def fit(est, data, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # short runs on unseparable data
        return est.fit(*data.args, **{**data.kwargs, **kwargs})


def weights(name, est):
    """The learned weights of a fitted estimator, as arrays (a Tagger's: its model's)."""
    target = est.model_ if name == "Tagger" else est
    attrs = ADAPTERS["SequencePerceptron"].weights if name == "Tagger" else ADAPTERS[name].weights
    return [np.asarray(getattr(target, a)) for a in attrs]


def assert_same_weights(name, a, b):
    for wa, wb in zip(weights(name, a), weights(name, b)):
        assert wa.dtype == wb.dtype and wa.shape == wb.shape
        np.testing.assert_array_equal(wa, wb)


# ----------------------------------------------------------------------------- the checks
def check_same_seed_same_weights(name):
    data = ADAPTERS[name].data()
    assert_same_weights(name, fit(make(name), data), fit(make(name), data))


def check_callback_false_stops(name):
    calls = []

    def stop(epoch, mistakes, seconds):
        calls.append((epoch, mistakes, seconds))
        return False

    est = fit(make(name, max_epochs=5), ADAPTERS[name].data(), callback=stop)
    n_epochs = (est.model_ if name == "Tagger" else est).n_epochs_
    assert len(calls) == 1 and n_epochs == 1, (calls, n_epochs)
    assert calls[0][0] == 1 and calls[0][1] >= 0 and calls[0][2] >= 0


def check_partial_fit_is_one_epoch(name):
    """One ``partial_fit`` over the data equals ``fit`` with one epoch in the same (cyclic) order."""
    params = make(name).get_params()
    cyclic = {"order": "cyclic"} if "order" in params else {"shuffle": False}
    one_epoch = {"max_epochs": 1} if "max_epochs" in params else {"max_iter": 1}
    data = ADAPTERS[name].data()
    one = fit(make(name, **one_epoch, **cyclic), data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        online = make(name, **one_epoch, **cyclic).partial_fit(*data.args, classes=data.classes, **data.kwargs)
    assert_same_weights(name, one, online)


def check_round_trip(name, tmp_path):
    data = ADAPTERS[name].data()
    est = fit(make(name), data)
    path = tmp_path / f"{name}.npz"
    save_model(est, path)
    back = load_model(path)
    assert type(back) is type(est) and back.get_params() == est.get_params()
    a, b = est.predict(*data.predict), back.predict(*data.predict)
    assert (a.tolist() if hasattr(a, "tolist") else a) == (b.tolist() if hasattr(b, "tolist") else b)


def check_a_loaded_model_trains_on(name, tmp_path):
    """``partial_fit`` continues a model read from its file as it continues the model saved:
    everything a later pass needs (the state) is in the file.  In the rows' own order: a shuffled
    pass draws from the estimator's generator, whose position a file does not keep."""
    data = ADAPTERS[name].data()
    cyclic = {"order": "cyclic"} if "order" in make(name).get_params() else {"shuffle": False}
    est = fit(make(name, **cyclic), data)
    save_model(est, tmp_path / f"{name}.npz")
    back = load_model(tmp_path / f"{name}.npz")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for model in (est, back):
            model.partial_fit(*data.args, **data.kwargs)
    assert_same_weights(name, est, back)


def check_float32_stays_float32(name):
    """As documented: CSR input with float32 values gets float32 weights (half the bytes to
    gather per non-zero); float64 input keeps float64 weights."""
    X, y = _rows(np.float32)
    Xs = sp.csr_matrix(np.where(np.abs(X) > 0.3, X, 0).astype(np.float32))
    est = fit(make(name), Data((Xs, y), {}, (Xs,), None))
    assert Xs.dtype == np.float32 and est.coef_.dtype == np.float32, est.coef_.dtype
    assert est.predict(Xs).shape == (X.shape[0],)
    est = fit(make(name), _flat(np.float64))
    assert est.coef_.dtype == np.float64


def check_prints_nothing(name):
    data = ADAPTERS[name].data()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        est = fit(make(name), data)
        est.predict(*data.predict)
    assert out.getvalue() == "" and err.getvalue() == ""


def check_warm_start_refuses_changes(name):
    X, y = _rows()
    est = fit(make(name, warm_start=True), Data((X, y), {}, (X,), None))
    before = [w.copy() for w in weights(name, est)]
    X3, y3 = _rows(k=3)
    for bad_X, bad_y, what in ((X3, y3, "classes"), (X[:, :2], y, "features")):
        try:
            est.fit(bad_X, bad_y)
        except PerceptronsError as exc:
            assert what in str(exc) and "warm_start" in str(exc), str(exc)
        else:
            raise AssertionError(f"warm_start with changed {what} was accepted")
        for w, b in zip(weights(name, est), before):
            np.testing.assert_array_equal(w, b)  # the fitted model is untouched


def check_bad_parameters_are_named(name):
    for param in estimator_class(name)._parameter_constraints:
        est = make(name, **{param: object()})  # no constraint accepts a bare object
        try:
            fit(est, ADAPTERS[name].data())
        except PerceptronsError as exc:
            assert f"'{param}'" in str(exc) and "\n" not in str(exc), str(exc)
            # a TypeError too, as scikit-learn's InvalidParameterError is: code catching either works
            assert isinstance(exc, TypeError), type(exc)
        else:
            raise AssertionError(f"{name}({param}=object()) was accepted")


def _corrupted(X):
    """(what, matrix) pairs: X as CSR with its index arrays broken one way each, built by
    assigning the arrays (scipy checks nothing then, as for a matrix built by hand)."""
    X = sp.csr_matrix(X)
    n, d = X.shape
    rng = np.random.default_rng(0)
    out = []
    for what, value in (("one past the last column", d), ("int32 max", 2**31 - 1), ("negative", -1)):
        for dtype in (np.int32, np.int64):
            M = X.copy()
            M.indices = M.indices.astype(dtype)
            M.indices[rng.integers(M.nnz)] = value
            out.append((f"a column index {what} ({np.dtype(dtype).name})", M))
    steps = {
        "indptr decreasing": lambda p: np.concatenate([p[:2], p[1:2] - 1, p[3:]]),
        "indptr past the end": lambda p: np.concatenate([p[:-1], p[-1:] + 5]),
        "indptr not from 0": lambda p: p + 1,
        "indptr one entry short": lambda p: p[:-1],
    }
    for what, change in steps.items():
        M = X.copy()
        M.indptr = change(M.indptr).astype(M.indptr.dtype)
        out.append((what, M))
    return out


def check_hostile_sparse_indices(name):
    """A sparse X whose index arrays point outside it is refused in one line, in fit, partial_fit
    and predict alike, before scipy's or our compiled loops read through them (a crash before)."""
    data = ADAPTERS[name].data()
    clean = fit(make(name), data)
    calls = [("fit", lambda M: fit(make(name), data._replace(args=(M,) + data.args[1:])))]
    if hasattr(clean, "partial_fit"):
        kw = {"classes": data.classes}
        calls.append(("partial_fit", lambda M: make(name).partial_fit(M, *data.args[1:], **kw)))
    calls.append(("predict", lambda M: clean.predict(M, *data.predict[1:])))
    for what, M in _corrupted(data.args[0]):
        for call, run in calls:
            try:
                run(M)
            except PerceptronsError as exc:
                assert "\n" not in str(exc) and "X (CSR)" in str(exc), (call, what, str(exc))
            else:
                raise AssertionError(f"{name}.{call} accepted X with {what}")


def _split_and_shuffled(X):
    """X as CSR with each entry stored as two halves, in reverse order within each row: the
    same matrix to scipy (products add duplicates up), but not canonical."""
    A = sp.csr_matrix(X)
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    order = np.lexsort((-A.indices, rows))  # within a row: columns decreasing
    data, indices = np.repeat(A.data[order] / 2, 2), np.repeat(A.indices[order], 2)
    M = sp.csr_matrix((data, indices, A.indptr * 2), shape=A.shape)
    assert not M.has_canonical_format and (M != A).nnz == 0
    return M


def check_duplicate_entries_are_summed(name):
    """A CSR X with duplicate entries and unsorted columns trains the model of its canonical
    form, bit for bit, and is left as given (a step by ‖x‖² or a variance summed the squares
    of the parts before); predictions agree too."""
    data = ADAPTERS[name].data()
    canonical = sp.csr_matrix(data.args[0])
    odd = _split_and_shuffled(canonical)
    before = odd.data.copy(), odd.indices.copy()
    a = fit(make(name), data._replace(args=(canonical,) + data.args[1:]))
    b = fit(make(name), data._replace(args=(odd,) + data.args[1:]))
    assert_same_weights(name, a, b)
    np.testing.assert_array_equal(a.predict(canonical, *data.predict[1:]), b.predict(odd, *data.predict[1:]))
    np.testing.assert_array_equal(odd.data, before[0])
    np.testing.assert_array_equal(odd.indices, before[1])


def _with_labels(data, labels):
    """``data`` with other labels: the second argument of every fit."""
    return data._replace(args=(data.args[0], labels, *data.args[2:]))


def check_big_endian_labels_round_trip(name, tmp_path):
    """Labels in the other byte order give the same classes, and a model file that reads back
    (the reader takes little-endian arrays only: such a file was once refused after saving)."""
    data = ADAPTERS[name].data()
    y = np.asarray(data.args[1])
    est = fit(make(name), _with_labels(data, y.astype(y.dtype.newbyteorder(">"))))
    np.testing.assert_array_equal(est.classes_, fit(make(name), data).classes_)
    save_model(est, tmp_path / "m.npz")
    np.testing.assert_array_equal(load_model(tmp_path / "m.npz").classes_, est.classes_)


def _spoiled_labels(data):
    """(what, labels) pairs: the labels with one entry missing or of a kind that cannot be
    ordered with the others."""
    y = data.args[1]
    text = isinstance(y, list) or np.asarray(y).dtype.kind == "U"  # a Tagger's tags: lists of str
    spoilers = (
        ("None", None),
        ("NaN", float("nan")),
        ("an int among str", 7) if text else ("a str among numbers", "a"),
    )
    out = []
    for what, bad in spoilers:
        if isinstance(y, list):
            spoiled = [[bad, *y[0][1:]], *y[1:]]
        else:
            spoiled = np.asarray(y).astype(object)
            spoiled[0] = bad
        out.append((what, spoiled))
    return out


def check_spoiled_labels_are_refused(name):
    """A missing label (None, NaN), or one that cannot be ordered with the others, is refused in
    one line naming the labels: not numpy's bare TypeError, and never read as text ("7")."""
    data = ADAPTERS[name].data()
    for what, labels in _spoiled_labels(data):
        try:
            fit(make(name), _with_labels(data, labels))
        except ValueError as exc:  # PerceptronsError, or scikit-learn's target check
            assert "\n" not in str(exc), (what, str(exc))
            assert isinstance(exc, PerceptronsError) or "label" in str(exc).lower(), (what, str(exc))
        else:
            raise AssertionError(f"{name} accepted labels with {what}")


def check_overflow_is_refused(name):
    """Finite features so large that a score overflows are refused in fit, and in predict: a
    vote or a Viterbi over inf and NaN would be silent nonsense.

    Fit: features of 1e300.  Predict: the model fitted on the data, given its rows scaled up
    until their scores would pass float64's range (or as far as finite features go: the weights
    of a learner that normalises them, ALMA's, may never let a score overflow); it must refuse
    exactly when numpy's scores of those rows are not finite.
    """
    data = ADAPTERS[name].data()
    X = data.args[0]
    try:
        fit(make(name), data._replace(args=(X * 1e300, *data.args[1:])))
    except PerceptronsError as exc:
        assert "overflow" in str(exc) and "\n" not in str(exc), ("fit", str(exc))
    else:
        raise AssertionError(f"{name}.fit on features of 1e300 gave no error")
    model = fit(make(name), data)
    coef = weights(name, model)[0]
    dense = X.toarray() if sp.issparse(X) else np.asarray(X)
    top = float(np.max(np.abs(dense @ coef.T)))
    big = dense * min(1e310 / max(top, 1e-300), 1.7e308 / float(np.max(np.abs(dense))))
    with np.errstate(over="ignore", invalid="ignore"):
        overflows = not np.all(np.isfinite(big @ coef.T))
    try:
        model.predict(sp.csr_matrix(big) if sp.issparse(X) else big, *data.predict[1:])
    except PerceptronsError as exc:
        assert overflows and "overflow" in str(exc) and "\n" not in str(exc), ("predict", str(exc))
    else:
        assert not overflows, f"{name}.predict on rows whose scores overflow gave no error"


def check_training_resumes_off_a_memory_map(name, tmp_path):
    """A model loaded with ``joblib.load(..., mmap_mode="r")`` holds read-only arrays; training on
    (``partial_fit``) wrote into them and failed with numba's internal typing error."""
    import joblib

    data = ADAPTERS[name].data()
    est = make(name).partial_fit(*data.args, classes=data.classes, **data.kwargs)
    joblib.dump(est, tmp_path / "m.joblib")
    loaded = joblib.load(tmp_path / "m.joblib", mmap_mode="r")
    for model in (est, loaded):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.partial_fit(*data.args, **data.kwargs)
    assert_same_weights(name, est, loaded)


def _has(param):
    return lambda name: param in estimator_class(name)._get_param_names()


#: each check, with when it applies (an estimator without ``partial_fit`` has no such contract)
CHECKS = (
    (check_same_seed_same_weights, None),
    (check_callback_false_stops, lambda name: "callback" in inspect.signature(estimator_class(name).fit).parameters),
    (check_partial_fit_is_one_epoch, lambda name: hasattr(estimator_class(name), "partial_fit")),
    (check_round_trip, None),
    # a sequence model's file keeps its final (averaged) weights only, by design: a loaded model
    # restarts its average from them (SequenceModel._restart_from_final)
    (
        check_a_loaded_model_trains_on,
        lambda name: hasattr(estimator_class(name), "partial_fit") and name not in ("SequencePerceptron", "Tagger"),
    ),
    (check_float32_stays_float32, lambda name: ADAPTERS[name].float32),
    (check_prints_nothing, None),
    (check_warm_start_refuses_changes, _has("warm_start")),
    (check_bad_parameters_are_named, None),
    (check_hostile_sparse_indices, lambda name: name != "Tagger"),  # a Tagger takes words, not X
    (check_duplicate_entries_are_summed, lambda name: name != "Tagger"),
    (check_big_endian_labels_round_trip, lambda name: name != "Tagger"),  # its tags are lists of str
    (check_spoiled_labels_are_refused, None),
    (check_training_resumes_off_a_memory_map, lambda name: hasattr(estimator_class(name), "partial_fit")),
    # linear scores; a kernel's (rbf) are bounded, and a Tagger's features are words
    (check_overflow_is_refused, lambda name: name not in ("KernelPerceptron", "Tagger")),
)


def checks(name):
    """The contract checks that apply to the estimator ``name``."""
    if name not in ADAPTERS:
        raise AssertionError(f"{name} is registered but has no contract adapter in tests/contract.py")
    return [check for check, applies in CHECKS if applies is None or applies(name)]

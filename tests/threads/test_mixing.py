"""Linear fits in threads (perceptrons.threads.mixing): iterative parameter mixing of the
threads' copies every epoch, against its oracle, and the compiled mix against the general one."""

import warnings

import numpy as np
import pytest
import reference as ref
import scipy.sparse as sp

from perceptrons import AveragedPerceptron, Perceptron
from perceptrons.distributed._mixing import mix
from perceptrons.threads.jobs import rounds_of


def noisy(seed, n=90, d=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


@pytest.mark.parametrize(("S", "mix_every"), [(2, None), (3, None), (2, 20), (2, 45), (3, 7), (2, 1000)])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_threads_equal_parameter_mixing_of_an_epoch_split_in_s(S, mix_every, fit_intercept, seed):
    """Thread i trains the i-th of S contiguous parts of each epoch from the mixed weights; the
    copies are mixed by their mistakes (McDonald, Hall & Mann), and the average runs over every
    example visited by every thread.  ``mix_every`` m cuts each thread's part into ⌈n / (S·m)⌉
    consecutive pieces, the copies mixed after each round of them (the oracle's ``rounds``); m
    at least n/S is one round, the fit of ``mix_every=None``."""
    X, y = noisy(seed)
    rounds = 1 if mix_every is None else rounds_of(len(y), S, mix_every)
    shards = [(X[p].tolist(), y[p].tolist()) for p in np.array_split(np.arange(len(y)), S)]
    w, b, mean_w, mean_b, history = ref.ipm(shards, max_epochs=6, fit_intercept=fit_intercept, rounds=rounds)
    params = {"n_jobs": S, "max_epochs": 6, "fit_intercept": fit_intercept, "mix_every": mix_every}
    with warnings.catch_warnings():
        # noisy data: the last iterate's ConvergenceWarning; 3 threads on 2 cores: a note
        warnings.simplefilter("ignore")
        last = Perceptron(**params).fit(X, y)
        avg = AveragedPerceptron(**params).fit(X, y)
        once = Perceptron(**{**params, "mix_every": None}).fit(X, y)
    np.testing.assert_allclose(last.coef_[0], w, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(last.intercept_[0], b, rtol=1e-12, atol=1e-12)
    assert last.mistakes_per_epoch_ == [sum(k) for k in history]
    np.testing.assert_allclose(avg.coef_[0], mean_w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(avg.intercept_[0], mean_b, rtol=1e-9, atol=1e-12)
    assert np.array_equal(last.coef_, once.coef_) == (rounds == 1)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10", True])
def test_mix_every_must_be_a_positive_count(bad):
    X, y = noisy(6)
    with pytest.raises(Exception, match=r"The 'mix_every' parameter of Perceptron must be"):
        Perceptron(n_jobs=2, mix_every=bad).fit(X, y)


def test_threads_are_the_same_twice_multiclass_sparse_and_shuffled():
    rng = np.random.default_rng(7)
    X = sp.random(600, 50, density=0.1, random_state=8, format="csr", dtype=np.float32)
    y = rng.integers(0, 4, size=600)
    fits = [AveragedPerceptron(n_jobs=2, order="shuffle", random_state=3, max_epochs=4).fit(X, y) for _ in range(2)]
    assert np.array_equal(fits[0].coef_, fits[1].coef_)
    assert np.array_equal(fits[0].intercept_, fits[1].intercept_)
    serial = AveragedPerceptron(order="shuffle", random_state=3, max_epochs=4).fit(X, y)
    assert serial.coef_.shape == fits[0].coef_.shape
    assert not np.array_equal(serial.coef_, fits[0].coef_)


def test_one_thread_and_tiny_data_are_the_serial_fit():
    X, y = noisy(3, n=3)  # fewer rows than 2 threads need: one thread
    a = AveragedPerceptron(n_jobs=2).fit(X, y)
    b = AveragedPerceptron().fit(X, y)
    assert np.array_equal(a.coef_, b.coef_)
    X, y = noisy(3)
    assert np.array_equal(AveragedPerceptron(n_jobs=1).fit(X, y).coef_, AveragedPerceptron().fit(X, y).coef_)


def test_a_non_finite_row_in_a_thread_names_the_row():
    X, y = noisy(4)
    X[70, 2] = np.nan
    with pytest.raises(Exception, match=r"row 70"):
        Perceptron(n_jobs=2).fit(X, y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("S", [1, 2, 3])
def test_the_compiled_whole_mix_equals_the_mix_of_rows(dtype, S):
    """Shards that send their arrays whole are mixed in one compiled pass; sent as the rows that
    changed (every row), the same states mix to the very same bits."""
    rng = np.random.default_rng(S)
    d, k = 7, 3
    start = {
        "w": rng.standard_normal((d, k)).astype(dtype),
        "u": rng.standard_normal((d, k)),
        "b": rng.standard_normal(k),
        "ub": rng.standard_normal(k),
        "count": np.array([40], dtype=np.int64),
    }
    states = []
    for i in range(S):
        s = {key: (v + rng.standard_normal(v.shape)).astype(v.dtype) for key, v in start.items() if key != "count"}
        s["count"] = np.array([40 + 10 * (i + 1)], dtype=np.int64)
        states.append(s)
    pairs = [("w", "u"), ("b", "ub")]
    mu = rng.random(S)
    mu /= mu.sum()
    whole = mix(start, states, mu, pairs)
    as_rows = [{**s, "w": (np.arange(d), s["w"]), "b": (np.arange(k), s["b"])} for s in states]
    rows = mix(start, as_rows, mu, pairs)
    for key in ("w", "u", "b", "ub", "count"):
        assert whole[key].dtype == rows[key].dtype
        assert np.array_equal(whole[key], rows[key]), key

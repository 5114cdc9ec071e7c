"""Gormley's worked example: w = (0,0) → (1,−2) → (2,−1) → (3,1), by the estimator and by `trace`."""

import numpy as np

from perceptrons import Perceptron
from perceptrons.datasets import gormley_example
from perceptrons.linear.trace import trace_updates


def test_estimator_reproduces_the_lecture():
    X, y = gormley_example()
    clf = Perceptron(fit_intercept=False).fit(X, y)
    assert clf.coef_.tolist() == [[3.0, 1.0]]
    assert clf.n_updates_ == 3
    assert clf.mistakes_per_epoch_ == [3, 0]
    assert clf.converged_
    assert (clf.predict(X) == y).all()


def test_trace_gives_every_intermediate_vector():
    X, y = gormley_example()
    _, updates = trace_updates(X, y, fit_intercept=False)
    assert [u.w_before.tolist() for u in updates] == [[0, 0], [1, -2], [2, -1]]
    assert [u.w_after.tolist() for u in updates] == [[1, -2], [2, -1], [3, 1]]
    # the mistakes are examples 1, 3 and 5 (the ✗ of the slide), two of them on the hyperplane
    assert [u.index for u in updates] == [0, 2, 4]
    assert [u.score for u in updates] == [0.0, -1.0, 0.0]


def test_a_lazy_trace_replays_the_same_updates_one_at_a_time():
    # a non-separable run of many updates, in two and three classes: the iterator yields what
    # the list holds, and nothing is computed before it is asked for
    from collections.abc import Iterator

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 5))
    for y in (rng.integers(0, 2, 200), rng.integers(0, 3, 200)):
        est, listed = trace_updates(X, y, max_epochs=30, order="shuffle", random_state=1)
        est2, lazy = trace_updates(X, y, max_epochs=30, order="shuffle", random_state=1, lazy=True)
        assert isinstance(lazy, Iterator) and not isinstance(lazy, list)
        assert len(listed) == est.n_updates_ > 1000
        for a, b in zip(listed, lazy, strict=True):
            assert (a.k, a.epoch, a.index, a.label, a.score) == (b.k, b.epoch, b.index, b.label, b.score)
            for name in ("x", "w_before", "b_before", "w_after", "b_after"):
                np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        np.testing.assert_array_equal(listed[-1].w_after, est.coef_.ravel() if est.coef_.shape[0] == 1 else est.coef_)


def test_trace_cli_prints_the_lecture(run_cli):
    code, out, err = run_cli(["trace", "--example", "gormley"])
    assert code == 0, err
    assert "w_1 = (0, 0) -> w_2 = (1, -2)" in out
    assert "w_2 = (1, -2) -> w_3 = (2, -1)" in out
    assert "w_3 = (2, -1) -> w_4 = (3, 1)" in out
    assert "3 updates in 2 epochs" in out


def test_trace_cli_on_a_file(run_cli, tmp_path):
    X, y = gormley_example()
    path = tmp_path / "g.csv"
    path.write_text("x1,x2,label\n" + "".join(f"{a:g},{b:g},{c}\n" for (a, b), c in zip(X, y)))
    code, out, err = run_cli(["trace", str(path), "--no-intercept"])
    assert code == 0, err
    assert "w_3 = (2, -1) -> w_4 = (3, 1)" in out
    code, out, _ = run_cli(["trace", str(path)])  # with the bias folded in: a different, longer run
    assert code == 0 and "b=" in out
    est = Perceptron().fit(X, y)
    assert f"{est.n_updates_} updates" in out
    assert np.all(est.predict(X) == y)

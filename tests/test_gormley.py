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

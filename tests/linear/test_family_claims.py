"""The seeds' claims about the family, as tests that could fail."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, plotting
from perceptrons.datasets import noisy_blobs, separable
from perceptrons.io.readers import read_data

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(0.05, 0.3), st.sampled_from(["cyclic", "shuffle", "random-mistake"]))
def test_pocket_error_never_rises(seed, noise, order):
    """Succinctly, Figure 18: on noisy data the pocket's training error is non-increasing."""
    X, y = noisy_blobs(150, noise=noise, random_state=seed)
    est = PocketPerceptron(max_epochs=25, order=order, random_state=seed).fit(X, y)
    hist = est.pocket_errors_
    assert all(a >= b for a, b in zip(hist, hist[1:]))
    assert hist[-1] == np.sum(est.predict(X) != y)


def test_pla_last_iterate_oscillates_while_pocket_does_not():
    X, y = noisy_blobs(400, noise=0.1, random_state=0)
    pla = Perceptron(order="shuffle", random_state=0)
    errors = []
    for _ in range(40):
        pla.partial_fit(X, y, classes=[-1, 1])
        errors.append(int(np.sum(pla.predict(X) != y)))
    rises = sum(b > a for a, b in zip(errors, errors[1:]))
    assert rises >= 5  # the last iterate's error goes up again and again
    pocket = PocketPerceptron(max_epochs=40, order="shuffle", random_state=0).fit(X, y)
    assert pocket.pocket_errors_[-1] <= min(errors)


@pytest.mark.data
def test_averaged_and_voted_generalise_better_on_a9a(shared_data):
    """Gormley, "Extensions": on a9a after 10 epochs averaging and voting beat the last iterate."""
    X, y = read_data(shared_data("a9a") / "a9a")
    Xt, yt = read_data(shared_data("a9a") / "a9a.t", n_features=X.shape[1])
    last = Perceptron(max_epochs=10).fit(X, y).score(Xt, yt)
    avg = AveragedPerceptron(max_epochs=10).fit(X, y).score(Xt, yt)
    voted = VotedPerceptron(max_epochs=10, max_vectors=2000).fit(X, y).score(Xt, yt)
    assert avg > last + 0.02 and voted > last + 0.02
    assert avg >= 0.845  # scikit-learn's averaged SGD perceptron reaches 0.849-0.850 on this split


def test_figures_are_drawn(tmp_path):
    X, y, _, _ = separable(80, 2, margin=0.05, random_state=0)
    runs = []
    for s in range(4):
        est = Perceptron(order="random-mistake", init="random", random_state=s, max_epochs=5000).fit(X, y)
        runs.append((f"seed {s}", est.coef_[0], est.intercept_[0], 1 - est.score(X, y), 0.0))
        assert est.converged_
    for name, fig in [
        ("runs.png", plotting.plot_runs(runs, X, y)),
        ("sep.png", plotting.plot_separator(est, X, y)),
        ("err.png", plotting.plot_error_curves([5, 3, 6], [5, 3, 3], 80)),
    ]:
        path = plotting.save_figure(fig, tmp_path / name)
        assert path.read_bytes()[:4] == b"\x89PNG"

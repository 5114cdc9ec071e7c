"""A run of trials is the fit's run: the same mistakes, updates and final weights as ``fit``
with as many epochs, for every linear learner, one trial at a time."""

import numpy as np
import pytest

from perceptrons import (
    ALMA,
    AROW,
    AveragedPerceptron,
    PassiveAggressive,
    Perceptron,
    SecondOrderPerceptron,
    Winnow,
)
from perceptrons._core.errors import PerceptronsError
from perceptrons.datasets import noisy_blobs
from perceptrons.linear.trials import online_trials

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

MODELS = [
    Perceptron(),
    AveragedPerceptron(fit_intercept=False),
    PassiveAggressive(variant="pa2", C=0.3),
    AROW(r=0.5),
    AROW(covariance="diagonal"),
    SecondOrderPerceptron(),
    ALMA(),
    Winnow(),
    Perceptron(class_weight={-1: 3.0}),
]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: repr(m))
def test_trials_are_the_fits_run(model):
    X, y = noisy_blobs(60, random_state=3)
    passes = 3
    trials = list(online_trials(model, X, y, passes=passes))
    # the averaged perceptron's coef_ is its average; its run, and so its last iterate, the PLA's
    last = Perceptron(fit_intercept=False) if isinstance(model, AveragedPerceptron) else model
    fitted = last.set_params(max_epochs=passes, order="cyclic").fit(X, y)
    assert [tr.t for tr in trials] == list(range(passes * 60)) and [tr.row for tr in trials] == list(range(60)) * passes
    per_pass = [sum(tr.mistake for tr in trials[e * 60 : (e + 1) * 60]) for e in range(passes)]
    # the fit stops early only when an epoch made no update at all
    assert per_pass[: fitted.n_epochs_] == fitted.mistakes_per_epoch_
    if fitted.n_epochs_ == passes and not isinstance(model, Winnow):  # Winnow's state: w and negative weights
        assert sum(tr.updated for tr in trials) == fitted.n_updates_
        # ALMA folds its scale into the weights after each step, not each epoch: a rounding apart
        np.testing.assert_allclose(trials[-1].state.w, fitted.coef_.ravel(), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(trials[-1].state.b, fitted.intercept_, rtol=1e-12, atol=1e-15)


def test_the_model_given_is_not_fitted_or_changed():
    X, y = noisy_blobs(20, random_state=0)
    model = PassiveAggressive()
    for _ in online_trials(model, X, y):
        pass
    assert not hasattr(model, "coef_")


def test_bad_input_is_refused_as_fit_refuses_it():
    X, y = noisy_blobs(20, random_state=0)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):  # as scikit-learn's checks expect of fit
        list(online_trials(Perceptron(), X, y))
    with pytest.raises(PerceptronsError, match="C"):
        list(online_trials(PassiveAggressive(C=-1.0), X, y))

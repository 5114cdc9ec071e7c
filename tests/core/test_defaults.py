"""The estimators' defaults: what they are, that they give good results without tuning on
small bundled data, that the PLA's conventions did not move, and that model files saved with the
old defaults load with their stored parameters."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from perceptrons import (
    AveragedPerceptron,
    KernelPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
    load_model,
    save_model,
)
from perceptrons._core.errors import PerceptronsError
from perceptrons.datasets import gormley_example

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

#: the defaults that changed when they were tuned: (value before, value after)
CHANGED = {
    Perceptron: {},
    AveragedPerceptron: {"max_epochs": (1000, 10)},
    VotedPerceptron: {"max_epochs": (1000, 10)},
    PocketPerceptron: {"max_epochs": (1000, 20)},
    KernelPerceptron: {
        "averaged": (False, "auto"),
        "margin": (0.0, "auto"),
        "fit_intercept": (True, False),
        "max_epochs": (100, 10),
    },
}
ESTIMATORS = list(CHANGED)


def _split(loader):
    X, y = loader(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    scaler = StandardScaler().fit(Xtr)
    return scaler.transform(Xtr), ytr, scaler.transform(Xte), yte


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_the_defaults_are_the_documented_ones(cls):
    params = cls().get_params()
    for name, (_, new) in CHANGED[cls].items():
        assert params[name] == new
        assert f"{name} : " in cls.__doc__ and f"default={new!r}".replace("'", '"') in cls.__doc__


def test_perceptron_keeps_the_teaching_defaults():
    clf = Perceptron()
    assert (clf.max_epochs, clf.order, clf.margin, clf.init, clf.fit_intercept) == (1000, "cyclic", 0.0, "zeros", True)
    X, y = gormley_example()
    clf = Perceptron(fit_intercept=False).fit(X, y)
    assert clf.coef_.tolist() == [[3.0, 1.0]]
    assert clf.mistakes_per_epoch_ == [3, 0] and clf.converged_


@pytest.mark.parametrize("cls", [AveragedPerceptron, VotedPerceptron, PocketPerceptron], ids=lambda c: c.__name__)
def test_linear_defaults_still_stop_at_an_epoch_without_mistakes(cls):
    X, y = gormley_example()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = cls(fit_intercept=False).fit(X, y)
    assert clf.converged_ and clf.mistakes_per_epoch_[-1] == 0
    assert clf.mistakes_per_epoch_ == Perceptron(fit_intercept=False).fit(X, y).mistakes_per_epoch_


@pytest.mark.parametrize("cls", [AveragedPerceptron, VotedPerceptron, PocketPerceptron], ids=lambda c: c.__name__)
def test_linear_defaults_bound_the_epochs_without_a_warning(cls):
    # a fixed-epoch averaged, voted or pocket fit is the intended fit, not a convergence failure:
    # a warning there would ask the user to act where nothing is wrong (and floods cross-validation)
    X, y, _, _ = _split(load_breast_cancer)  # not linearly separable in its cyclic run
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = cls().fit(X, y)
    assert clf.n_epochs_ == cls().max_epochs and not clf.converged_


def test_an_unconverged_pla_warns_and_names_the_models_that_suit_the_data():
    X, y, _, _ = _split(load_breast_cancer)
    with pytest.warns(ConvergenceWarning, match="max_epochs=50.*AveragedPerceptron or PocketPerceptron"):
        Perceptron(max_epochs=50).fit(X, y)


@pytest.mark.parametrize(
    "cls,loader,floor",
    [
        (AveragedPerceptron, load_breast_cancer, 0.95),
        (VotedPerceptron, load_breast_cancer, 0.94),
        (PocketPerceptron, load_breast_cancer, 0.94),
        (KernelPerceptron, load_breast_cancer, 0.95),
        pytest.param(AveragedPerceptron, load_digits, 0.95, marks=pytest.mark.slow),
        (KernelPerceptron, load_digits, 0.97),
    ],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
def test_defaults_give_good_results_without_tuning(cls, loader, floor):
    # fixed split, deterministic (cyclic) fits: these are the figures of bench_defaults.py
    X, y, Xt, yt = _split(loader)
    assert np.mean(cls().fit(X, y).predict(Xt) == yt) >= floor


def test_kernel_averaged_auto():
    X, y, _, _ = _split(load_breast_cancer)
    X, y = X[:120], y[:120]
    assert KernelPerceptron()._averaging()
    assert not KernelPerceptron(voted=True)._averaging()
    assert not KernelPerceptron(budget=50)._averaging()
    assert KernelPerceptron(budget=50, averaged=True)._averaging()
    auto = KernelPerceptron(max_epochs=3).fit(X, y)
    explicit = KernelPerceptron(max_epochs=3, averaged=True).fit(X, y)
    np.testing.assert_array_equal(auto.dual_coef_, explicit.dual_coef_)
    last = KernelPerceptron(max_epochs=3, budget=50).fit(X, y)
    np.testing.assert_array_equal(
        last.dual_coef_, KernelPerceptron(max_epochs=3, budget=50, averaged=False).fit(X, y).dual_coef_
    )
    # the vote needs no averaged=False; asking for both is still refused
    KernelPerceptron(max_epochs=3, voted=True).fit(X, y)
    with pytest.raises(PerceptronsError, match="not both"):
        KernelPerceptron(voted=True, averaged=True).fit(X, y)


@pytest.mark.parametrize("cls", [c for c in ESTIMATORS if CHANGED[c]], ids=lambda c: c.__name__)
def test_model_files_with_the_old_defaults_keep_them(cls, tmp_path):
    """A file written with the old default values (as every earlier version wrote them: all
    parameters are stored) loads with those values, not today's defaults, and predicts alike."""
    X, y, Xt, _ = _split(load_breast_cancer)
    X, y = X[:150], y[:150]
    old = {name: before for name, (before, _) in CHANGED[cls].items()}
    fitted = cls(**old).fit(X, y)
    path = tmp_path / "old.npz"
    save_model(fitted, path)
    loaded = load_model(path)
    for name, value in old.items():
        assert loaded.get_params()[name] == value
        assert loaded.get_params()[name] != cls().get_params()[name]
    np.testing.assert_array_equal(loaded.predict(Xt), fitted.predict(Xt))
    np.testing.assert_array_equal(loaded.decision_function(Xt), fitted.decision_function(Xt))

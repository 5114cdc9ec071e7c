"""scikit-learn's calibration of our estimators in model files (``perceptrons.io.calibration_state``)."""

import warnings

import model_fuzz as mf
import numpy as np
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import make_pipeline
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

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


@pytest.fixture(scope="module")
def wine():
    return load_wine(return_X_y=True)


@pytest.mark.parametrize("method", ["sigmoid", "isotonic"])
@pytest.mark.parametrize("estimator", [AveragedPerceptron(), KernelPerceptron(), VotedPerceptron(max_epochs=3)])
@pytest.mark.parametrize("loader", [load_breast_cancer, load_wine], ids=["binary", "three classes"])
def test_probabilities_survive_the_file_exactly(tmp_path, method, estimator, loader):
    X, y = loader(return_X_y=True)
    model = make_pipeline(StandardScaler(), CalibratedClassifierCV(estimator, method=method, ensemble=False)).fit(X, y)
    save_model(model, tmp_path / "m.npz")
    again = load_model(tmp_path / "m.npz")
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    np.testing.assert_array_equal(again.predict(X), model.predict(X))
    assert np.allclose(again.predict_proba(X).sum(axis=1), 1)


def test_a_loaded_model_trains_again_as_the_original(tmp_path, wine):
    X, y = wine
    X = StandardScaler().fit_transform(X)
    model = CalibratedClassifierCV(AveragedPerceptron(), cv=3, ensemble=False).fit(X, y)
    save_model(model, tmp_path / "m.npz")
    again = load_model(tmp_path / "m.npz")
    assert again.get_params()["cv"] == 3 and type(again.estimator) is AveragedPerceptron
    np.testing.assert_array_equal(again.fit(X, y).predict_proba(X), model.predict_proba(X))


def test_a_frozen_estimator_stays_frozen(tmp_path, wine):
    X, y = wine
    order = np.random.default_rng(0).permutation(len(y))  # the rows come sorted by class
    X, y = StandardScaler().fit_transform(X)[order], y[order]
    ours = AveragedPerceptron().fit(X[:100], y[:100])
    model = CalibratedClassifierCV(FrozenEstimator(ours), method="isotonic").fit(X[100:], y[100:])
    save_model(model, tmp_path / "m.npz")
    again = load_model(tmp_path / "m.npz")
    assert type(again.estimator) is FrozenEstimator
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))


def test_uncalibrated_estimators_have_no_probabilities():
    # as scikit-learn's Perceptron: decision values are not probabilities
    for est in (Perceptron(), AveragedPerceptron(), PocketPerceptron(), VotedPerceptron(), KernelPerceptron()):
        assert not hasattr(est, "predict_proba"), type(est).__name__


@pytest.mark.parametrize(
    "model, fragment",
    [
        (CalibratedClassifierCV(AveragedPerceptron()), "one per fold (ensemble=True)"),
        (CalibratedClassifierCV(AveragedPerceptron(), method="temperature", ensemble=False), "method='temperature'"),
    ],
)
def test_what_a_file_cannot_hold_is_refused_before_writing(tmp_path, wine, model, fragment):
    X, y = wine
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(StandardScaler().fit_transform(X), y)
    with pytest.raises(PerceptronsError, match="CalibratedClassifierCV cannot be saved") as info:
        save_model(model, tmp_path / "m.npz")
    assert fragment in str(info.value) and not (tmp_path / "m.npz").exists()


def _edited(tmp_path, model, change):
    save_model(model, tmp_path / "m.npz")
    meta, arrays, _ = mf.read_raw(tmp_path / "m.npz")
    change(meta, arrays)
    mf.write_raw(tmp_path / "bad.npz", meta, arrays)
    return tmp_path / "bad.npz"


def _set(arrays, key, value):
    arrays[key] = value


@pytest.mark.parametrize(
    "method, change, fragment",
    [
        ("isotonic", lambda m, a: _set(a, "calibrator0.X", a["calibrator0.X"][::-1].copy()), "strictly increasing"),
        ("isotonic", lambda m, a: _set(a, "calibrator1.y", a["calibrator1.y"] * 2 + 0.1), "probabilities in [0, 1]"),
        ("isotonic", lambda m, a: _set(a, "calibrator2.y", a["calibrator2.y"][:-1].copy()), "calibrator2.y"),
        ("sigmoid", lambda m, a: _set(a, "calibrator0.ab", np.array([np.nan, 1.0])), "calibrator0.ab"),
        ("sigmoid", lambda m, a: m["state"].update(n_calibrators=2), "expected 3 for 3 classes"),
        ("sigmoid", lambda m, a: m["state"]["params"].update(cv=1), "number of folds"),
        ("sigmoid", lambda m, a: m["state"]["params"].update(ensemble="yes"), "ensemble"),
        ("sigmoid", lambda m, a: m["state"].update(method="temperature"), "method"),
        ("sigmoid", lambda m, a: _set(a, "calibrator3.ab", np.zeros(2)), "unexpected"),
    ],
)
def test_hostile_calibrators_are_refused(tmp_path, wine, method, change, fragment):
    X, y = wine
    model = CalibratedClassifierCV(AveragedPerceptron(), method=method, ensemble=False)
    model.fit(StandardScaler().fit_transform(X), y)
    bad = _edited(tmp_path, model, change)
    with pytest.raises(PerceptronsError) as info:
        load_model(bad)
    assert fragment in str(info.value) and str(bad) in str(info.value), str(info.value)

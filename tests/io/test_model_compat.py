"""Model files written by an earlier release load and predict the same: the fixtures in
tests/fixtures/models-0.1.0 were saved by the package before the training protocol and the
ground floor were redesigned (their README says how)."""

import json
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import load_model

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "models-0.1.0"
MANIFEST = json.loads((HERE / "manifest.json").read_text())
ESTIMATORS = sorted(name for name in MANIFEST if name != "tagger")


@pytest.mark.parametrize("name", ESTIMATORS)
def test_an_earlier_release_s_model_predicts_the_same(name):
    want = MANIFEST[name]
    X = np.load(HERE / f"{name}_X.npy")
    if want["sparse"]:
        X = sp.csr_matrix(X)
    est = load_model(HERE / f"{name}.npz")
    assert est.predict(X).tolist() == want["predict"]
    np.testing.assert_allclose(np.asarray(est.decision_function(X)), np.array(want["decision"]), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", [n for n in ESTIMATORS if not n.startswith("kernel")])
def test_an_earlier_release_s_model_trains_on(name):
    """partial_fit continues a loaded model through today's training protocol."""
    X = np.load(HERE / f"{name}_X.npy")
    est = load_model(HERE / f"{name}.npz")
    before = est.n_epochs_
    est.partial_fit(sp.csr_matrix(X) if MANIFEST[name]["sparse"] else X, est.predict(X))
    assert est.n_epochs_ == before + 1 and np.isfinite(est.coef_).all()


def test_an_earlier_release_s_tagger_tags_the_same():
    want = MANIFEST["tagger"]
    tagger = load_model(HERE / "tagger.npz")
    assert tagger.predict(want["sentences"]) == want["tags"]

"""Every online learner with its defaults fits a9a for ten epochs as ``docs/online.rst`` says
(``benchmarks/bench_online_accuracy.py`` measures the table): no overflow, and the test
accuracy the page quotes.  CW's weights once grew to overflow in the tenth epoch, after a
rewrite of its step that was the same number in exact arithmetic."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import ALMA, AROW, ROMMA, SCW, ConfidenceWeighted, PassiveAggressive, SecondOrderPerceptron, Winnow
from perceptrons.io.readers import read_data

#: the page's "a9a, 10 epochs" column
QUOTED = {
    "PassiveAggressive (PA-I, averaged)": (lambda: PassiveAggressive(average=True), 0.8504),
    "AROW": (AROW, 0.8495),
    "AROW (averaged)": (lambda: AROW(average=True), 0.8497),
    "SCW-I": (SCW, 0.8482),
    "SCW-II": (lambda: SCW(variant="II"), 0.8494),
    "PassiveAggressive (PA-I)": (PassiveAggressive, 0.7490),
    "SecondOrderPerceptron": (SecondOrderPerceptron, 0.8039),
    "ALMA": (ALMA, 0.8258),
    "ROMMA (aggressive)": (lambda: ROMMA(aggressive=True), 0.7968),
    "ConfidenceWeighted": (ConfidenceWeighted, 0.7141),
    "Winnow": (Winnow, 0.7812),
}


@pytest.fixture(scope="module")
def a9a(shared_data):
    folder = shared_data("a9a")
    X, y = read_data(folder / "a9a")
    Xt, yt = read_data(folder / "a9a.t")
    X = sp.csr_matrix(X, dtype=np.float64)
    Xt = sp.csr_matrix((Xt.data, Xt.indices, Xt.indptr), shape=(Xt.shape[0], X.shape[1]), dtype=np.float64)
    return X, y, Xt, yt


@pytest.mark.data
@pytest.mark.parametrize("name", list(QUOTED))
def test_ten_epochs_on_a9a_score_as_the_docs_say(a9a, name):
    X, y, Xt, yt = a9a
    make, quoted = QUOTED[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a learner that does not converge says so
        est = make().set_params(max_epochs=10).fit(X, y)
    assert est.score(Xt, yt) == pytest.approx(quoted, abs=5e-4), name

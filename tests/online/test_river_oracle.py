"""river's PAClassifier as a second oracle of PassiveAggressive, where the two definitions
coincide: river's squared norm leaves the intercept out (its intercept takes the step, as
scikit-learn's does), ours folds it in as a constant feature, so they are the same learner
without an intercept.

river's ALMAClassifier is not one: it updates on ``y·w·x < (1 − α)γ`` without normalising x,
and divides only the coordinates of x by the norm after an update, where ALMA (Gentile 2001,
Fig. 1) normalises x and projects the whole vector.
"""

import numpy as np
import pytest

from perceptrons import PassiveAggressive

river = pytest.importorskip("river")


@pytest.mark.parametrize("mode, variant", [(0, "pa"), (1, "pa1"), (2, "pa2")])
@pytest.mark.parametrize("seed", range(3))
def test_river_pa_gives_our_weights(mode, variant, seed):
    from river.linear_model import PAClassifier

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 6))
    y = (X @ rng.normal(size=6) + rng.normal(0, 0.7, 300) > 0).astype(int)
    theirs = PAClassifier(C=0.3, mode=mode, learn_intercept=False)
    for row, label in zip(X, y):
        theirs.learn_one(dict(enumerate(row)), bool(label))
    ours = PassiveAggressive(variant=variant, C=0.3, fit_intercept=False, max_epochs=1).fit(X, y)
    w = np.array([theirs.weights.get(j, 0.0) for j in range(6)])
    np.testing.assert_allclose(ours.coef_.ravel(), w, rtol=1e-12, atol=1e-12)

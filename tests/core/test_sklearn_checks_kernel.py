"""scikit-learn's estimator checks on the kernel perceptron and its variants."""

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptrons import KernelPerceptron

# scikit-learn's checks fit arbitrary data for a few epochs: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

# An integer sample weight k is not k copies of the example for an online learner: after an
# update on the first copy the second may no longer be a mistake (see the class docstring).
ONLINE_WEIGHTS = {
    "check_sample_weight_equivalence_on_dense_data": "online updates: weight k is not k copies",
    "check_sample_weight_equivalence_on_sparse_data": "online updates: weight k is not k copies",
}


@parametrize_with_checks(
    [
        KernelPerceptron(),
        # the dual PLA: the defaults before they were tuned
        KernelPerceptron(averaged=False, margin=0.0, fit_intercept=True, max_epochs=100),
        KernelPerceptron(averaged=True, margin=0.5),
        KernelPerceptron(voted=True, kernel="poly", degree=2, coef0=1.0),
        KernelPerceptron(budget=100, random_state=0),
        # With a bias: check_class_weight_classifiers' precomputed RBF matrix of blobs with
        # std 20 is nearly the identity, so test points score ~0 against every support example
        # and only a bias can carry the class weights to them.
        KernelPerceptron(budget=100, budget_policy="oldest", kernel="precomputed", fit_intercept=True),
        # projections onto the kept examples' span once the budget is full, and on margin errors
        KernelPerceptron(budget=20, budget_policy="projectron++", projection_tolerance=0.05),
    ],
    expected_failed_checks=lambda est: ONLINE_WEIGHTS,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)

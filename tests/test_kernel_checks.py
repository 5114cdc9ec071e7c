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
        KernelPerceptron(averaged=True, margin=0.5),
        KernelPerceptron(voted=True, kernel="poly", degree=2, coef0=1.0),
        KernelPerceptron(budget=100, random_state=0),
        KernelPerceptron(budget=100, budget_policy="oldest", kernel="precomputed"),
    ],
    expected_failed_checks=lambda est: ONLINE_WEIGHTS,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)

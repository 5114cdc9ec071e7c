"""Every estimator of the registry against the contract checks of ``tests/contract.py``."""

import inspect

import contract
import pytest

from perceptrons._core.registry import ESTIMATORS

CASES = [(name, check) for name in ESTIMATORS for check in contract.checks(name)]
#: the cases that take more than a few seconds
SLOW = {
    (name, "float32_stays_float32")
    for name in ("Perceptron", "AveragedPerceptron", "PocketPerceptron", "VotedPerceptron")
}
SLOW.add(("SequencePerceptron", "partial_fit_is_one_epoch"))


@pytest.mark.parametrize(
    "name,check",
    [
        pytest.param(n, c, id=f"{n}-{c.__name__[6:]}", marks=[pytest.mark.slow] if (n, c.__name__[6:]) in SLOW else [])
        for n, c in CASES
    ],
)
def test_contract(name, check, tmp_path):
    kwargs = {"tmp_path": tmp_path} if "tmp_path" in inspect.signature(check).parameters else {}
    check(name, **kwargs)


def test_every_estimator_is_checked():
    assert set(contract.ADAPTERS) == set(ESTIMATORS)
    assert len(CASES) >= 6 * len(ESTIMATORS) - 8  # the general checks apply to every estimator

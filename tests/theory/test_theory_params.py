"""Every parameter of a theory function is checked before any work: a value outside its range
is one line naming the parameter, never a ZeroDivisionError, a numba TypingError, a loop that
never ran (UnboundLocalError) or a silent answer to another question (sigma=-1 "infeasible")."""

import math

import numpy as np
import pytest

import perceptrons.theory as T
from perceptrons._core.errors import PerceptronsError

X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.5], [-2.0, -0.3], [0.5, 1.5], [-0.7, -2.0]])
Y = np.array([1, 1, 0, 0, 1, 0])
SYSTEM = ([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]], [1.0, 1.0, 0.0])
LP = ([1.0, 1.0], [[-1.0, 0.0], [0.0, -1.0]], [-1.0, -1.0])

NAN, INF = float("nan"), float("inf")
NOT_COUNTS = [0, -1, 0.5, NAN, INF, "x", True, None]

CASES = [
    # (call taking the bad value, its name in the message, bad values)
    (lambda v: T.max_margin(X, Y, max_working=v), "max_working", NOT_COUNTS),
    (lambda v: T.growth("halfplanes", v), "'m'", [0, -1, 0.5, NAN, "x", True, None]),
    (lambda v: T.growth("halfplanes", 4, dim=v), "dim", [0, -1, 0.5, NAN, "x", True]),
    (lambda v: T.growth("halfplanes", 4, n_sets=v), "n_sets", [-1, 0.5, NAN, "x", True, None]),
    (lambda v: T.growth("halfplanes", 4, random_state=v), "random_state", [-1, 0.5, NAN, "x", True]),
    (lambda v: T.solve_feasibility(*SYSTEM, max_updates=v), "max_updates", NOT_COUNTS + [10**30]),
    (lambda v: T.solve_feasibility(*SYSTEM, method="rescaled", sigma=v), "sigma", [0, -1, 1, 2, NAN, INF, "x", True]),
    (lambda v: T.solve_feasibility(*SYSTEM, method="rescaled", max_rounds=v), "max_rounds", [-1, 0.5, NAN, "x", True]),
    (lambda v: T.solve_feasibility(*SYSTEM, method="rescaled", random_state=v), "random_state", [-1, 0.5, "x", True]),
    (lambda v: T.linprog_perceptron(*LP, tol=v), "tol", [0, -1, NAN, INF, "x", True, None]),
    (lambda v: T.linprog_perceptron(*LP, max_updates=v), "max_updates", NOT_COUNTS + [10**30]),
    (lambda v: T.linprog_perceptron(*LP, max_calls=v), "max_calls", NOT_COUNTS),
    (lambda v: T.linprog_perceptron(*LP, method="rescaled", random_state=v), "random_state", [-1, 0.5, "x", True]),
    (lambda v: T.linprog_perceptron(*LP, bounds=v), "bounds", [-1, 0.5, "x", True, [(0, 1)], [(NAN, None)] * 2]),
    (lambda v: T.margin(v, 0.0, X, Y), "w", ["x", [1.0, NAN], [1.0], [[1.0, "a"]]]),
    (lambda v: T.margin([1.0, 0.5], v, X, Y), "'b'", ["x", NAN, INF, None, True, [1.0, 2.0]]),
    (lambda v: T.novikoff_bound(X, Y, coef=v), "coef", ["x", [1.0, NAN], [1.0, 2.0, 3.0]]),
    (lambda v: T.novikoff_bound(X, Y, coef=[1.0, 0.5], intercept=v), "intercept", ["x", NAN, INF, True]),
    (lambda v: T.novikoff_bound(X, Y, intercept=v), "intercept", [0.0, 1.0]),  # without coef it means nothing
    (lambda v: T.freund_schapire_bound(X, Y, v, 0.5), "u", ["x", [1.0, NAN, 0.0], [1.0]]),
    (lambda v: T.best_gamma(X, Y, v), "u", ["x", [INF, 1.0, 0.0]]),
]


@pytest.mark.parametrize(
    "call, name, value",
    [(call, name, value) for call, name, values in CASES for value in values],
    ids=lambda v: repr(v)[:20] if not callable(v) else "",
)
def test_a_bad_parameter_is_one_line_naming_it(call, name, value):
    with pytest.raises(PerceptronsError, match=name) as exc:
        call(value)
    assert "\n" not in str(exc.value)


def test_good_values_of_the_same_parameters_still_work():
    assert T.max_margin(X, Y, max_working=1).separable
    assert T.growth("halfplanes", 4, dim=2, n_sets=0, random_state=np.random.default_rng(1)).points.shape == (4, 2)
    assert T.solve_feasibility(*SYSTEM, method="rescaled", sigma=0.01, max_rounds=0, random_state=None).feasible
    assert T.linprog_perceptron(*LP, tol=1e-2, max_calls=50, bounds=[(0, INF), (None, 10)]).fun == pytest.approx(
        2.0, rel=0.05
    )
    assert T.margin([1.0, 0.5], np.array([0.25]), X, Y).gamma > 0  # an intercept_ array of one
    assert T.novikoff_bound(X, Y, coef=[1.0, 0.5], intercept=0).bound > 0


def test_a_bound_beyond_the_float_range_is_inf_not_an_overflow_error():
    """Rows of 2^-600 with the bias folded in: R ~ 1 and γ* ~ 1e-181, so (R/γ*)² is 1e362.
    Python's ** raised OverflowError, which `perceptrons report` showed as its only line."""
    nb = T.novikoff_bound(np.ldexp(X, -600), Y)
    assert nb.separable and nb.gamma > 0 and nb.bound == math.inf
    tiny = T.solve_feasibility(*SYSTEM, method="rescaled", sigma=1e-300)  # a budget of 2^62 steps
    assert tiny.feasible

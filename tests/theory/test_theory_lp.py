"""Linear programming by the perceptron (perceptrons.theory.lp) and its kernels."""

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from perceptrons._core.errors import PerceptronsError
from perceptrons._jit import lp as K
from perceptrons.theory import linprog_perceptron, solve_feasibility
from perceptrons.theory.lp import homogenise


def random_system(seed, m, n):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((m, n))
    x0 = rng.standard_normal(n)
    b = A @ x0 + rng.uniform(0.05, 1.0, m)  # x0 strictly inside
    return A, b


# ----------------------------------------------------------------------------- kernels vs oracles
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), m=st.integers(1, 12), n=st.integers(1, 5), cap=st.integers(0, 400))
def test_perceptron_phase_matches_reference(seed, m, n, cap):
    A, b = random_system(seed, m, n)
    H = homogenise(A, b)
    x = np.zeros(H.shape[1])
    updates, ok = K.perceptron_phase(H, x, cap)
    rx, rupdates, rok = ref.lp_perceptron_phase(H.tolist(), [0.0] * H.shape[1], cap)
    assert (updates, ok) == (rupdates, rok)
    assert x.tolist() == rx


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    m=st.integers(1, 12),
    n=st.integers(1, 5),
    sigma=st.floats(1e-3, 0.3),
    steps=st.integers(0, 300),
)
def test_improvement_phase_matches_reference(seed, m, n, sigma, steps):
    A, b = random_system(seed, m, n)
    H = homogenise(A, b)
    rng = np.random.default_rng(seed + 7)
    z = rng.standard_normal(H.shape[1])
    z /= np.linalg.norm(z)
    rz, rstatus, rsteps = ref.lp_improvement_phase(H.tolist(), z.tolist(), sigma, steps)
    status, k = K.improvement_phase(H, z, sigma, steps)
    assert (status, k) == (rstatus, rsteps)
    assert z.tolist() == rz


# ----------------------------------------------------------------------------- feasibility
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31), m=st.integers(1, 15), n=st.integers(1, 6))
def test_feasibility_within_the_novikoff_bound(seed, m, n):
    A, b = random_system(seed, m, n)
    for method in ("perceptron", "rescaled"):
        r = solve_feasibility(A, b, method=method)
        assert r.feasible and np.all(A @ r.x < b)
    r = solve_feasibility(A, b)
    assert r.updates <= r.bound  # the homogeneous system's (R/γ)², R = 1


def test_feasibility_reports_no_point_within_budget():
    # x < 0 and x > 0: no strictly feasible point, so no budget suffices and the bound is inf
    r = solve_feasibility([[1.0], [-1.0]], [0.0, 0.0], max_updates=1000)
    assert not r.feasible and r.x is None and r.bound == np.inf


def thin_polytope(width, d=3, m=8, seed=0):
    """m random constraints all within ``width`` of one point: a polytope of diameter ~width."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((m, d))
    x0 = rng.uniform(-1, 1, d)
    return A, A @ x0 + width * rng.uniform(0.5, 1.0, m)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rescaled_beats_the_pla_when_thin(seed):
    A, b = thin_polytope(1e-5, seed=seed)
    pla = solve_feasibility(A, b, max_updates=2_000_000)
    res = solve_feasibility(A, b, method="rescaled")
    assert res.feasible and np.all(A @ res.x < b) and res.rounds >= 1
    # the PLA's bound (R/γ)² is ~1e10 here; it does not finish within 2e6 updates
    assert pla.bound > 1e8 and not pla.feasible
    assert res.updates + res.improvement_steps < 2_000_000


def test_both_agree_when_round():
    A, b = thin_polytope(1.0)
    pla = solve_feasibility(A, b)
    res = solve_feasibility(A, b, method="rescaled")
    assert pla.feasible and res.feasible and pla.updates <= pla.bound


# ----------------------------------------------------------------------------- linprog
def random_lp(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 6))
    m = int(rng.integers(n + 1, 15))
    A, b = random_system(seed, m, n)
    c = rng.standard_normal(n)
    return c, A, b, [(-5.0, 5.0)] * n


@pytest.mark.slow
@pytest.mark.parametrize("method,tol,typical", [("perceptron", 1e-2, 2e-3), ("rescaled", 2e-3, 5e-4)])
def test_linprog_matches_highs_on_50_lps(method, tol, typical):
    errors = []
    for seed in range(50):
        c, A, b, bounds = random_lp(seed)
        h = linprog(c, A_ub=A, b_ub=b, bounds=bounds, method="highs")
        assert h.status == 0
        r = linprog_perceptron(c, A, b, bounds, method=method, tol=1e-3)
        assert np.all(A @ r.x < b) and np.all(np.abs(r.x) < 5)  # a genuine feasible point…
        assert r.fun >= h.fun - 1e-9 * max(1, abs(h.fun))  # …so never below the optimum
        errors.append((r.fun - h.fun) / max(1.0, abs(h.fun)))
    # Stated tolerance, relative to max(1, |optimum|): the PLA within 1e-2 on every LP (a thin
    # sliver near the optimum can exhaust its budget early), the rescaled perceptron within 2e-3.
    assert max(errors) <= tol
    assert np.median(errors) <= typical


def test_linprog_default_bounds_are_nonnegative_like_scipy():
    c, A, b = [-1.0, -1.0], [[1.0, 2.0], [3.0, 1.0]], [4.0, 6.0]
    r = linprog_perceptron(c, A, b)
    h = linprog(c, A_ub=A, b_ub=b, method="highs")
    assert r.fun == pytest.approx(h.fun, rel=1e-2)
    assert np.all(r.x > 0)


def test_linprog_infeasible_says_so():
    with pytest.raises(PerceptronsError, match="infeasible"):
        linprog_perceptron([1.0], [[1.0], [-1.0]], [-1.0, -1.0], bounds=(None, None))


def test_linprog_unbounded_says_so():
    with pytest.raises(PerceptronsError, match="unbounded"):
        linprog_perceptron([-1.0, 0.0], [[0.0, 1.0]], [1.0], bounds=(None, None))


def test_linprog_bad_input():
    with pytest.raises(PerceptronsError, match="finite"):
        linprog_perceptron([1.0], [[np.nan]], [1.0])
    with pytest.raises(PerceptronsError, match="c must have"):
        linprog_perceptron([1.0, 2.0], [[1.0]], [1.0])
    with pytest.raises(PerceptronsError, match="method"):
        linprog_perceptron([1.0], [[1.0]], [1.0], method="simplex")
    with pytest.raises(PerceptronsError, match="bounds"):
        linprog_perceptron([1.0, 1.0], [[1.0, 1.0]], [1.0], bounds=[(0, 1)] * 3)
    with pytest.raises(PerceptronsError, match="shapes"):
        solve_feasibility([[1.0, 2.0]], [1.0, 2.0])


@pytest.mark.parametrize("bounds", [(np.inf, np.inf), (np.inf, None), (None, -np.inf), (-np.inf, -np.inf), (2.0, 1.0)])
def test_bounds_that_leave_no_x_are_refused_not_dropped(bounds):
    """+inf below or -inf above were read as no bound at all, and an x returned."""
    with pytest.raises(PerceptronsError, match=r"bounds\[0\] is \("):
        linprog_perceptron([-1.0, -1.0], [[1.0, 0.0], [0.0, 1.0]], [1.0, 1.0], bounds=bounds)


@pytest.mark.parametrize("scale", [1e-200, 1e-100, 1e155, 1e300])
def test_a_system_scaled_by_any_positive_number_is_as_feasible(scale):
    """A x < b and (cA) x < cb are one system: b of 1e155 was called infeasible (a norm's square
    overflowed), and 1e-200 a row '0·x < 0'."""
    A, b = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]), np.ones(3)
    r = solve_feasibility(A * scale, b * scale)
    assert r.feasible and np.all(A @ r.x < b)

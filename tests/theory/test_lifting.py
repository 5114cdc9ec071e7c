"""Lifting (Har-Peled §30.2, Kalyanakrishnan §4): circles become planes, XOR becomes separable."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.preprocessing import PolynomialFeatures
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptrons import CircleLift, Perceptron
from perceptrons._core.errors import PerceptronsError
from perceptrons.lifting import circle_from_plane, plane_from_circle
from perceptrons.theory.separability import is_separable


def _circle_data(seed, n=80, gap=0.15):
    """Points in [-3, 3]² labelled 1 inside a random circle, 0 outside, none within ``gap``·r of it."""
    rng = np.random.default_rng(seed)
    center = rng.uniform(-1, 1, size=2)
    radius = rng.uniform(0.8, 2.0)
    X = rng.uniform(-3, 3, size=(20 * n, 2))
    dist = np.linalg.norm(X - center, axis=1)
    X = X[np.abs(dist - radius) > gap * radius][:n]
    y = (np.linalg.norm(X - center, axis=1) < radius).astype(int)
    # both classes always present: the centre itself, and a point 2.5 radii away
    X[0], y[0] = center, 1
    X[1], y[1] = center + [2.5 * radius, 0.0], 0
    return X, y, center, radius


@parametrize_with_checks([CircleLift()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_lift_appends_squared_norm_and_names_it():
    lift = CircleLift().fit(np.zeros((1, 2)))
    assert lift.transform([[3.0, -4.0]]).tolist() == [[3.0, -4.0, 25.0]]
    assert lift.get_feature_names_out().tolist() == ["x0", "x1", "x0^2+x1^2"]


@pytest.mark.parametrize("dtype, big", [(np.float64, 3e200), (np.float32, 3e20)])
def test_a_lift_that_overflows_is_refused_naming_the_row(dtype, big):
    """Before, the lift held inf, refused later as if the input had held it."""
    X = np.array([[1.0, 2.0], [big, 0.0]], dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(PerceptronsError, match=r"CircleLift: ‖x‖² of row 1 overflowed .*features up to 3e\+"):
            CircleLift().fit_transform(X)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000))
def test_perceptron_on_lifted_points_recovers_a_circle(seed):
    X, y, _, _ = _circle_data(seed)
    pla = Perceptron(max_epochs=20_000).fit(CircleLift().fit_transform(X), y)
    assert pla.converged_
    circle = circle_from_plane(pla.coef_, pla.intercept_)
    assert circle.positive_inside  # class 1 (inside) is the positive class
    np.testing.assert_array_equal(circle.predict_sign(X), np.where(y == 1, 1, -1))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000))
def test_separable_by_a_circle_implies_lift_separable_by_a_plane(seed):
    # Theorem 30.2.1, first half: the plane of the proof separates the lifts, and the exact test agrees.
    X, y, center, radius = _circle_data(seed, gap=0.01)
    coef, intercept = plane_from_circle(center, radius)
    h = CircleLift().fit_transform(X) @ coef + intercept
    assert (h[y == 1] < 0).all() and (h[y == 0] > 0).all()
    assert is_separable(CircleLift().fit_transform(X), y).separable


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000))
def test_lift_separable_by_a_plane_implies_separable_by_a_circle(seed):
    # Second half: any strict separator of the lifts, here the exact test's certificate, reads
    # back as a circle that puts every point on its side.
    X, y, _, _ = _circle_data(seed, gap=0.01)
    res = is_separable(CircleLift().fit_transform(X), y)
    assert res.separable
    circle = circle_from_plane(res.coef, res.intercept)
    positive = res.classes[1]
    np.testing.assert_array_equal(circle.predict_sign(X), np.where(y == positive, 1, -1))


def test_no_circle_separates_a_ring_and_no_plane_its_lift():
    # Positive points inside radius 1 and outside radius 3, negative in between: no circle
    # (nor complement of one) separates them, so by the theorem the lifts are not separable.
    t = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    ring = lambda r: np.column_stack([r * np.cos(t), r * np.sin(t)])  # noqa: E731
    X = np.vstack([ring(0.5), ring(2.0), ring(3.5)])
    y = np.repeat([1, 0, 1], 12)
    assert not is_separable(CircleLift().fit_transform(X), y).separable


def test_plane_and_circle_round_trip():
    circle = circle_from_plane(*plane_from_circle([1.5, -2.0], 0.75))
    np.testing.assert_allclose(circle.center, [1.5, -2.0])
    assert circle.radius == pytest.approx(0.75)
    assert not circle.positive_inside
    flipped = circle_from_plane(-plane_from_circle([0.0, 0.0], 2.0)[0], -plane_from_circle([0.0, 0.0], 2.0)[1])
    assert flipped.positive_inside and flipped.radius == pytest.approx(2.0)


def test_plane_parallel_to_the_lift_axis_is_a_line_not_a_circle():
    with pytest.raises(PerceptronsError, match="not a circle: its coefficient of x²\\+y² is 0"):
        circle_from_plane([1.0, 2.0, 0.0], 3.0)


def test_negative_squared_radius_is_not_a_circle():
    # x² + y² + 1 ≥ 1 > 0 everywhere: the plane puts the whole plane on one side
    with pytest.raises(PerceptronsError, match="squared radius is -1 < 0"):
        circle_from_plane([0.0, 0.0, 1.0], 1.0)


# ----------------------------------------------------------------------------- XOR
XOR_X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
XOR_Y = np.array([0, 1, 1, 0])


def test_xor_is_not_linearly_separable():
    assert not is_separable(XOR_X, XOR_Y).separable


def test_xor_with_product_feature_is_separable_and_pla_converges():
    lifted = PolynomialFeatures(degree=2, interaction_only=True, include_bias=False).fit_transform(XOR_X)
    np.testing.assert_array_equal(lifted[:, 2], XOR_X[:, 0] * XOR_X[:, 1])
    assert is_separable(lifted, XOR_Y).separable
    pla = Perceptron(max_epochs=1000).fit(lifted, XOR_Y)
    assert pla.converged_
    np.testing.assert_array_equal(pla.predict(lifted), XOR_Y)


# ----------------------------------------------------------------------------- figure
def test_circle_figure_is_written(tmp_path):
    from perceptrons.plotting import plot_circle_lift, save_figure

    X, y, _, _ = _circle_data(3)
    pla = Perceptron(max_epochs=20_000).fit(CircleLift().fit_transform(X), y)
    path = save_figure(plot_circle_lift(X, y, pla), tmp_path / "circle.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fig = plot_circle_lift(X, y, ([1.0, 0.0, 0.0], 0.0))  # a line: the figure says so
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert any("not a circle" in t for t in texts)


def test_a_matrix_of_coefficients_is_no_plane():
    """A multiclass coef_ was flattened into one 5-D 'circle'."""
    with pytest.raises(PerceptronsError, match=r"must be one vector; got an array of shape \(2, 3\)"):
        circle_from_plane([[-2.0, -4.0, 1.0], [-2.0, -4.0, 1.0]], 1.0)
    assert circle_from_plane([[-2.0, -4.0, 1.0]], 1.0).radius == 2.0  # one row, as coef_ of a binary fit


@pytest.mark.parametrize(
    "X, match",
    [
        (np.zeros((3, 1)), r"rows of 2 coordinates .*shape \(3, 1\)"),
        (np.zeros((3, 3)), r"shape \(3, 3\)"),
        ([1.0, 2.0], r"shape \(2,\)"),
        ([[np.nan, 1.0]], "NaN or infinity"),
        ("ab", "not numbers"),
    ],
)
def test_a_circle_reads_points_of_its_own_dimension_only(X, match):
    """A column of one coordinate was broadcast against the 2-D centre, silently."""
    c = circle_from_plane([-2.0, -4.0, 1.0], 1.0)
    for call in (c.contains, c.predict_sign):
        with pytest.raises(PerceptronsError, match=match):
            call(X)

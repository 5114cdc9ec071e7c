"""Feature lifting: learn a circle with a linear separator (Har-Peled §30.2).

The map ``(x, y) ↦ (x, y, x² + y²)`` turns "inside a circle" into "below a plane":
``(x − a)² + (y − b)² ≤ r²`` is ``−2a·x − 2b·y + z + a² + b² − r² ≤ 0`` with ``z = x² + y²``.
Theorem 30.2.1: two point sets are separable by a circle if and only if their lifts are
separable by a plane.  :class:`CircleLift` is the map (for any dimension: the sphere lift
``x ↦ (x, ‖x‖²)``) and :func:`circle_from_plane` is the way back, as in the theorem's proof.

For the XOR points the lift is the product feature ``x₁x₂`` (Kalyanakrishnan §4); use
``sklearn.preprocessing.PolynomialFeatures(degree=2, interaction_only=True, include_bias=False)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from perceptrons._core.data import validate_data
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import largest_magnitude, overflow_error
from perceptrons._core.params import Interval, check_param
from perceptrons.theory._common import check_scalar, check_vector

if TYPE_CHECKING:
    from typing import Any

    from numpy.typing import ArrayLike


class CircleLift(TransformerMixin, BaseEstimator):
    """Append the squared norm: ``(x, y) ↦ (x, y, x² + y²)`` (any d: ``x ↦ (x, ‖x‖²)``).

    A linear classifier on the lifted points is a circle (sphere) classifier on the original
    ones; recover the circle with :func:`~perceptrons.lifting.circle_from_plane`.

    Attributes
    ----------
    n_features_in_ : int
    feature_names_in_ : ndarray of str, when fitted on a DataFrame

    References
    ----------
    Har-Peled, ch. 30.2 "Learning a circle", Theorem 30.2.1.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptrons import CircleLift
    >>> CircleLift().fit_transform(np.array([[1.0, 2.0], [3.0, 0.0]])).tolist()
    [[1.0, 2.0, 5.0], [3.0, 0.0, 9.0]]
    """

    def fit(self, X: ArrayLike, y: Any = None) -> CircleLift:
        """Record the number of input features (the lift has no parameters to learn).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        validate_data(self, X, dtype=[np.float64, np.float32])
        return self

    def transform(self, X: ArrayLike) -> np.ndarray:
        """Lift ``X`` (n_samples, d) to (n_samples, d + 1): the last column is ‖x‖².

        Parameters
        ----------
        X : array-like of shape (n_samples, d)

        Returns
        -------
        ndarray of shape (n_samples, d + 1)
            Of ``X``'s dtype (float32 stays float32).
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        with np.errstate(over="ignore"):  # an overflow is refused just below
            z = np.einsum("ij,ij->i", X, X)
        if not np.isfinite(z).all():
            row = int(np.flatnonzero(~np.isfinite(z))[0])
            raise overflow_error(f"CircleLift: ‖x‖² of row {row}", largest_magnitude(X[row]))
        return np.hstack([X, z[:, None]])

    def get_feature_names_out(self, input_features: ArrayLike | None = None) -> np.ndarray:
        """Input names plus ``"x0^2+x1^2+..."`` for the lifted coordinate.

        Parameters
        ----------
        input_features : array-like of str, optional
            Names of the input features; default those seen in ``fit`` (a DataFrame's
            columns), else ``x0, x1, ...``.

        Returns
        -------
        ndarray of str (object) of shape (d + 1,)
        """
        check_is_fitted(self)
        if input_features is None:
            input_features = getattr(self, "feature_names_in_", None)
        if input_features is None:
            input_features = [f"x{i}" for i in range(self.n_features_in_)]
        names = [str(f) for f in input_features]
        if len(names) != self.n_features_in_:
            raise PerceptronsError(
                f"input_features has {len(names)} names; CircleLift was fitted on {self.n_features_in_} features"
            )
        return np.asarray(names + ["+".join(f"{n}^2" for n in names)], dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags


@dataclass(frozen=True)
class Circle:
    """A circle (sphere in d > 2) and which side of it a lifted separator calls positive.

    Attributes
    ----------
    center : ndarray of shape (d,)
    radius : float
    positive_inside : bool
        True when points inside (and on) the circle get a score ≥ 0, i.e. the positive class.
    """

    center: np.ndarray
    radius: float
    positive_inside: bool

    def contains(self, X: ArrayLike) -> np.ndarray:
        """Boolean mask: ‖x − center‖ ≤ radius.

        Parameters
        ----------
        X : array-like of shape (n, d)

        Returns
        -------
        ndarray of bool of shape (n,)
        """
        return np.sum((self._points(X) - self.center) ** 2, axis=1) <= self.radius**2

    def predict_sign(self, X: ArrayLike) -> np.ndarray:
        """+1 / −1 for each row of X, the class the lifted plane assigns (a point exactly on
        the circle scores 0, which is +1).

        Parameters
        ----------
        X : array-like of shape (n, d)

        Returns
        -------
        ndarray of int of shape (n,)
        """
        excess = self.radius**2 - np.sum((self._points(X) - self.center) ** 2, axis=1)
        score = excess if self.positive_inside else -excess
        return np.where(score >= 0, 1, -1)

    def _points(self, X):
        """X as rows of finite points of the circle's dimension, else one line (a column of
        one coordinate was broadcast against a 2-D centre, a NaN row called outside).
        """
        d = self.center.shape[0]
        try:
            points = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError):
            points = None
        if points is None or points.ndim != 2 or points.shape[1] != d:
            shape = "not numbers" if points is None else f"shape {points.shape}"
            raise PerceptronsError(f"X must be rows of {d} coordinates (shape (n, {d})); got {shape}")
        if not np.all(np.isfinite(points)):
            raise PerceptronsError(
                f"X holds NaN or infinity (row {int(np.flatnonzero(~np.isfinite(points).all(axis=1))[0])})"
            )
        return points


def circle_from_plane(coef: ArrayLike, intercept: ArrayLike) -> Circle:
    """The circle of a separating plane of lifted points, as in the proof of Theorem 30.2.1.

    With ``h(x, y, z) = a·x + b·y + c·z + d`` and ``z = x² + y²``, dividing by ``c`` and
    completing the squares gives ``(x + a/2c)² + (y + b/2c)² = (a² + b²)/4c² − d/c``: centre
    ``(−a/2c, −b/2c)`` and squared radius ``(a² + b²)/4c² − d/c``.  For ``c > 0`` the inside
    is where ``h < 0`` (negative class); for ``c < 0`` the inside is positive.

    Parameters
    ----------
    coef : array-like of shape (d + 1,) or (1, d + 1)
        The plane's normal on lifted points; the last entry multiplies ‖x‖².
    intercept : float or array-like of shape (1,)

    Returns
    -------
    Circle

    Raises
    ------
    PerceptronsError
        When the plane is not a circle: ``c = 0`` (the boundary is a line, or the plane is
        degenerate) or a negative squared radius (every point is on one side).

    References
    ----------
    Har-Peled, ch. 30.2, proof of Theorem 30.2.1.

    Examples
    --------
    >>> from perceptrons.lifting import circle_from_plane
    >>> c = circle_from_plane([-2.0, -4.0, 1.0], 1.0)   # (x-1)² + (y-2)² = 4, inside negative
    >>> c.center.tolist(), c.radius, c.positive_inside
    ([1.0, 2.0], 2.0, False)
    """
    w = check_vector(coef, "coef (d + 1 entries, the last for ‖x‖²)", None, min_size=2)
    d = check_scalar(intercept, "intercept")
    lin, c = w[:-1], w[-1]
    if c == 0.0:
        raise PerceptronsError(
            "the plane is not a circle: its coefficient of x²+y² is 0, so its trace on the "
            "plane is a line (or nothing), not a circle"
        )
    with np.errstate(over="ignore"):  # beyond the float range: refused just below
        center = -lin / (2.0 * c)
        r2 = float(np.sum(center * center)) - d / c
    if not (np.all(np.isfinite(center)) and np.isfinite(r2)):
        raise PerceptronsError(
            f"the circle of this plane is beyond the float64 range (coefficient of x²+y² {c:.3g}, "
            f"coefficients up to {largest_magnitude(w):.3g}); scale the plane's coefficients"
        )
    if r2 < 0:
        side = "positive" if c > 0 else "negative"
        raise PerceptronsError(
            f"the plane is not a circle: its squared radius is {r2:.6g} < 0, so it puts every "
            f"point of the plane on the {side} side"
        )
    return Circle(center=center, radius=float(np.sqrt(r2)), positive_inside=bool(c < 0))


def plane_from_circle(center: ArrayLike, radius: float) -> tuple[np.ndarray, float]:
    """The plane of the theorem's first half: ``h = −2a·x − 2b·y + z + a² + b² − r²``, which is
    ≤ 0 exactly on the lifts of the points inside the circle.

    Parameters
    ----------
    center : array-like of shape (d,)
    radius : float

    Returns
    -------
    coef : ndarray of shape (d + 1,)
    intercept : float
    """
    center = check_vector(center, "center", None)
    radius = float(check_param(radius, "radius", (Interval(Real, 0, None),), "plane_from_circle"))
    with np.errstate(over="ignore"):  # beyond the float range: refused just below
        intercept = float(np.sum(center * center) - radius * radius)
    if not np.isfinite(intercept) or not np.all(np.isfinite(2.0 * center)):
        raise PerceptronsError(
            f"the plane of this circle is beyond the float64 range (center up to {largest_magnitude(center):.3g}, "
            f"radius {radius:.3g}): a² + b² − r² overflows"
        )
    return np.append(-2.0 * center, 1.0), intercept

"""
Learning a circle by lifting (Har-Peled, Theorem 30.2.1)
=========================================================

Points labelled by whether they lie inside a circle are not linearly separable in the plane.
Lift every point to (x, y, x² + y²): the inside of the circle (x − a)² + (y − b)² ≤ r² becomes
the part of the paraboloid under the plane −2a·x − 2b·y + z + a² + b² − r² = 0, so the lifts
*are* separable by a plane (Theorem 30.2.1), and the PLA finds one.  Completing the squares, as
in the theorem's proof, turns the learned plane back into a circle.

:class:`perceptrons.CircleLift` is the lift, :func:`perceptrons.lifting.circle_from_plane` the way
back and :func:`perceptrons.plotting.plot_circle_lift` the figure.
"""

import matplotlib.pyplot as plt
import numpy as np

from perceptrons import CircleLift, Perceptron
from perceptrons.lifting import circle_from_plane
from perceptrons.plotting import plot_circle_lift
from perceptrons.theory import is_separable

rng = np.random.default_rng(0)
X = rng.uniform(-2, 2, size=(300, 2))
centre, radius = np.array([0.4, -0.3]), 1.1
distance = np.linalg.norm(X - centre, axis=1)
keep = np.abs(distance - radius) > 0.08  # a band around the circle, so that the lifts have a margin
X, y = X[keep], np.where(distance[keep] < radius, 1, -1)

Z = CircleLift().fit_transform(X)
print("in the plane:", is_separable(X, y).summary())
print("lifted:      ", is_separable(Z, y).summary())

clf = Perceptron(max_epochs=100_000).fit(Z, y)
circle = circle_from_plane(clf.coef_[0], clf.intercept_[0])
print(
    f"PLA on the lifts: {clf.n_updates_} updates in {clf.n_epochs_} epochs; circle centre "
    f"({circle.center[0]:.2f}, {circle.center[1]:.2f}), radius {circle.radius:.2f} "
    f"(true centre ({centre[0]}, {centre[1]}), radius {radius})"
)

# %%
# The data with the circle read off the plane, and the lifted points with the plane
# ---------------------------------------------------------------------------------

fig = plot_circle_lift(X, y, clf)
plt.show()

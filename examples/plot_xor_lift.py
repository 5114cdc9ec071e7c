"""
XOR made separable by the product x₁x₂ (Kalyanakrishnan §4)
============================================================

The four corners of a square labelled by XOR are the textbook set no line separates: the
midpoint of the two positive corners is also the midpoint of the two negative ones, and
:func:`perceptrons.theory.is_separable` returns exactly that as its certificate.  Adding the
feature x₁x₂ makes the data separable in three dimensions, and the perceptron then learns it.

The lift is scikit-learn's ``PolynomialFeatures(degree=2, interaction_only=True,
include_bias=False)``, which maps (x₁, x₂) to (x₁, x₂, x₁x₂).  Here the corners are (±1, ±1)
with a little noise, so the product alone carries the label.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from perceptrons import Perceptron
from perceptrons.theory import is_separable

rng = np.random.default_rng(0)
corners = np.array([[-1, -1], [1, 1], [-1, 1], [1, -1]], dtype=float)
labels = np.array([-1, -1, 1, 1])  # XOR: positive where exactly one coordinate is positive
X = np.repeat(corners, 25, axis=0) + rng.normal(0, 0.25, size=(100, 2))
y = np.repeat(labels, 25)

print("the four corners:", is_separable(corners, labels).summary())
lift = PolynomialFeatures(degree=2, interaction_only=True, include_bias=False)
Z = lift.fit_transform(X)
print("lifted data:     ", is_separable(Z, y).summary())

plain = Perceptron(max_epochs=50, order="shuffle", random_state=0)
with warnings.catch_warnings():  # the plain PLA cannot converge on XOR: that is the point
    warnings.simplefilter("ignore", ConvergenceWarning)
    plain.fit(X, y)
lifted = make_pipeline(lift, Perceptron(max_epochs=1000)).fit(X, y)
clf = lifted[-1]
print(f"PLA on (x1, x2): training accuracy {plain.score(X, y):.2f} after {plain.n_epochs_} epochs")
print(
    f"PLA on (x1, x2, x1·x2): training accuracy {lifted.score(X, y):.2f}, converged after "
    f"{clf.n_updates_} updates; weights {np.round(clf.coef_[0], 2).tolist()}, bias {clf.intercept_[0]:.2f}"
)

# %%
# Decision regions in the plane, and the lifted points with the separating plane
# ------------------------------------------------------------------------------

grid = np.linspace(-2, 2, 201)
gx, gy = np.meshgrid(grid, grid)
G = np.column_stack([gx.ravel(), gy.ravel()])
fig = plt.figure(figsize=(13, 4.3))
for k, (model, title) in enumerate(
    [(plain, "PLA on (x₁, x₂): no line works"), (lifted, "PLA on (x₁, x₂, x₁x₂), seen in the plane")], start=1
):
    ax = fig.add_subplot(1, 3, k)
    region = model.predict(G).reshape(gx.shape)
    ax.contourf(gx, gy, region, levels=[-2, 0, 2], colors=["tab:red", "tab:blue"], alpha=0.15)
    for label, marker, color in ((-1, "o", "tab:red"), (1, "s", "tab:blue")):
        ax.scatter(*X[y == label].T, marker=marker, c=color, s=14, label=f"y = {label:+d}")
    ax.set_title(title, fontsize=10)
    ax.set_aspect("equal")
    ax.set_xlabel("x₁")
    ax.set_ylabel("x₂")
    ax.legend(loc="upper right", fontsize=7)

ax3 = fig.add_subplot(1, 3, 3, projection="3d")
for label, marker, color in ((-1, "o", "tab:red"), (1, "s", "tab:blue")):
    ax3.scatter(*Z[y == label].T, marker=marker, c=color, s=10)
w, b = clf.coef_[0], clf.intercept_[0]
px, py = np.meshgrid(np.linspace(-2, 2, 10), np.linspace(-2, 2, 10))
ax3.plot_surface(px, py, -(w[0] * px + w[1] * py + b) / w[2], alpha=0.3, color="tab:gray")
ax3.set_xlabel("x₁")
ax3.set_ylabel("x₂")
ax3.set_zlabel("x₁x₂", labelpad=2)
ax3.set_title("lifted points and the learned plane", fontsize=10)
fig.tight_layout()
ax3.set_position([0.68, 0.1, 0.28, 0.8])  # the 3-D panel's labels stay inside the figure
plt.show()

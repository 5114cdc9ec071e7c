"""
Gormley's worked example: w₁ … w₄
==================================

Gormley's lecture runs the perceptron without a bias on six points and shows every weight
vector: w₁ = (0, 0), w₂ = (1, −2), w₃ = (2, −1), w₄ = (3, 1).  :func:`perceptrons.trace_updates`
runs the estimator's own kernel with its update log on and replays the intermediate vectors,
so the figure below is the fit of :class:`perceptrons.Perceptron`, not a re-implementation.

Each panel shows one weight vector (the arrow), its line w·x = 0 and the side it calls positive
(shaded; a score of exactly 0 is positive, so w₁ = 0 calls everything positive).  The ringed
point is the mistake that makes the next vector.
"""

import matplotlib.pyplot as plt
import numpy as np

from perceptrons import trace_updates
from perceptrons.datasets import gormley_example

X, y = gormley_example()
estimator, updates = trace_updates(X, y, fit_intercept=False)
weights = [updates[0].w_before] + [u.w_after for u in updates]
for k, u in enumerate(updates, start=1):
    x, w = ", ".join(f"{v:g}" for v in u.x), ", ".join(f"{v:g}" for v in u.w_after)
    print(
        f"w{k + 1} = w{k} {'+' if u.label > 0 else '-'} ({x}) = ({w})"
        f"   epoch {u.epoch}, example {u.index + 1}, y·(w·x) = {u.score:g}"
    )

# %%
# The four weight vectors
# -----------------------

grid = np.linspace(-2.5, 2.5, 201)
gx, gy = np.meshgrid(grid, grid)
fig, axes = plt.subplots(1, 4, figsize=(13, 3.6), sharey=True)
for k, (ax, w) in enumerate(zip(axes, weights), start=1):
    positive = (w[0] * gx + w[1] * gy) >= 0
    ax.contourf(gx, gy, positive, levels=[-0.5, 0.5, 1.5], colors=["tab:red", "tab:blue"], alpha=0.12)
    for label, marker, color in ((-1, "o", "tab:red"), (1, "s", "tab:blue")):
        m = y == label
        ax.scatter(*X[m].T, marker=marker, c=color, s=45, label=f"y = {label:+d}", zorder=3)
    for i, (px, py) in enumerate(X, start=1):
        ax.annotate(str(i), (px, py), textcoords="offset points", xytext=(5, 4), fontsize=8)
    if np.any(w):
        ax.plot(grid, -w[0] * grid / w[1], "k-", lw=1.2)
        ax.annotate(
            "", xy=w / np.linalg.norm(w) * 1.5, xytext=(0, 0), arrowprops={"arrowstyle": "->", "lw": 1.8, "color": "k"}
        )
    if k <= len(updates):  # the mistake that makes w_{k+1}
        ax.scatter(*updates[k - 1].x, s=260, facecolors="none", edgecolors="k", lw=1.5, zorder=4)
    ax.set_title(f"w{k} = ({w[0]:g}, {w[1]:g})")
    ax.set_xlim(-2.5, 2.5)
    ax.set_ylim(-2.5, 2.5)
    ax.set_aspect("equal")
    ax.axhline(0, color="0.8", lw=0.5, zorder=0)
    ax.axvline(0, color="0.8", lw=0.5, zorder=0)
axes[0].legend(loc="lower left", fontsize=7)
fig.suptitle(
    f"Perceptron without bias on Gormley's six points: {estimator.n_updates_} updates, "
    f"mistakes per epoch {estimator.mistakes_per_epoch_}"
)
fig.tight_layout()
plt.show()

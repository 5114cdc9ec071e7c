"""
Novikoff's bound against the mistakes the PLA makes
===================================================

The Block–Novikoff theorem (Har-Peled, Theorem 30.1.1) bounds the number of updates of the PLA
on separable data by (R/γ*)², R the radius of the data and γ* its largest margin.  Here the
margin of generated data shrinks from 0.3 to 0.01; for each data set
:func:`perceptrons.theory.novikoff_bound` computes R, γ* (an exact hard-margin QP) and the bound,
and :class:`perceptrons.Perceptron` counts its updates (``n_updates_``) in cyclic and in
shuffled order.  Every point lies under the bound, usually far under it: the theorem is a
worst case over all orders, and random data are not the worst case.
"""

import matplotlib.pyplot as plt
import numpy as np

from perceptrons import Perceptron
from perceptrons.datasets import separable
from perceptrons.theory import novikoff_bound

margins = [0.3, 0.2, 0.12, 0.08, 0.05, 0.03, 0.02, 0.01]
rows = []  # (gamma*, bound, cyclic updates, shuffled updates)
for margin in margins:
    for seed in range(3):
        X, y, _, _ = separable(200, 2, margin=margin, random_state=seed)
        nb = novikoff_bound(X, y)
        cyclic = Perceptron(max_epochs=100_000).fit(X, y)
        shuffled = Perceptron(max_epochs=100_000, order="shuffle", random_state=seed).fit(X, y)
        assert cyclic.converged_ and shuffled.converged_
        rows.append((nb.gamma, nb.bound, cyclic.n_updates_, shuffled.n_updates_))
gamma, bound, cyclic, shuffled = map(np.array, zip(*rows))
print(
    f"{len(rows)} data sets; largest ratio of updates to bound: "
    f"{max((cyclic / bound).max(), (shuffled / bound).max()):.3f}"
)

# %%
# Bound and updates against the margin, and against each other
# -------------------------------------------------------------

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
order = np.argsort(gamma)
left.loglog(gamma[order], bound[order], "k-", lw=1.5, label="bound (R/γ*)²")
left.loglog(gamma, cyclic, "o", ms=5, label="PLA updates, cyclic order")
left.loglog(gamma, shuffled, "s", ms=5, mfc="none", label="PLA updates, shuffled order")
left.set_xlabel("γ*  (largest margin, over the augmented vectors (x, 1))")
left.set_ylabel("updates")
left.set_title("The bound grows as 1/γ*²; the PLA stays under it")
left.legend(fontsize=8)

right.loglog(bound, cyclic, "o", ms=5, label="cyclic")
right.loglog(bound, shuffled, "s", ms=5, mfc="none", label="shuffled")
lim = [min(bound.min(), cyclic.min(), shuffled.min()) / 2, bound.max() * 2]
right.loglog(lim, lim, "k--", lw=1, label="updates = bound")
right.fill_between(lim, lim, lim[1], color="tab:red", alpha=0.08, label="forbidden by the theorem")
right.set_xlim(lim)
right.set_ylim(lim)
right.set_xlabel("Novikoff bound (R/γ*)²")
right.set_ylabel("PLA updates")
right.set_title("Every run is below the diagonal")
right.legend(fontsize=8, loc="upper left")
fig.tight_layout()
plt.show()

"""
The PLA oscillates, the pocket does not (Succinctly, Figure 18)
===============================================================

On data that no line separates, every update of the PLA fixes one example and may break
others, so the training error of its current weights jumps up and down from epoch to epoch and
the last iterate is as good or as bad as the epoch it stopped in.  The pocket algorithm
(Gallant 1990; :class:`perceptrons.PocketPerceptron`) runs the same PLA but keeps in its
"pocket" the weights with the fewest training errors seen so far, so its error never rises.

The PLA's per-epoch error is read by training :class:`perceptrons.Perceptron` one epoch at a
time with ``partial_fit`` (one online pass per call, shuffled as ``fit`` would);
the pocket's is its ``pocket_errors_``.  :func:`perceptrons.plotting.plot_error_curves` draws
both.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from perceptrons import Perceptron, PocketPerceptron
from perceptrons.datasets import noisy_blobs
from perceptrons.plotting import plot_error_curves
from perceptrons.theory import is_separable

X, y = noisy_blobs(300, noise=0.1, random_state=0)
print(is_separable(X, y).summary())

epochs = 60
pla = Perceptron(order="shuffle", random_state=0)
pla_errors = []
for _ in range(epochs):
    pla.partial_fit(X, y, classes=np.unique(y))
    pla_errors.append(int(np.sum(pla.predict(X) != y)))

with warnings.catch_warnings():  # inseparable data: not converging is the point
    warnings.simplefilter("ignore", ConvergenceWarning)
    pocket = PocketPerceptron(max_epochs=epochs, order="shuffle", random_state=0).fit(X, y)
best = pocket.pocket_errors_[-1]
late = pla_errors[epochs // 2 :]
print(
    f"PLA: between {min(late)} and {max(late)} training errors over the last {len(late)} epochs; "
    f"pocket: {best:g} errors, held since epoch {pocket.pocket_errors_.index(best) + 1}"
)

# %%
# Training error per epoch
# ------------------------

fig = plot_error_curves(pla_errors, pocket.pocket_errors_, len(y))
fig.tight_layout()
plt.show()

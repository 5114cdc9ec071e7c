"""
Four runs, four hyperplanes (Succinctly, Figure 19)
===================================================

The PLA of Succinctly starts from random weights and updates on a misclassified example chosen
at random.  On separable data every run converges — to a different separating line.  All four
have zero in-sample error; their out-of-sample errors, on a test set from the same source,
differ.  The convergence theorem promises a separator, not a good one (which is what the
maximum-margin separator of an SVM is about).

:class:`perceptrons.Perceptron` with ``init="random"`` and ``order="random-mistake"`` is that
algorithm; :func:`perceptrons.plotting.plot_runs` draws the four lines.
"""

import matplotlib.pyplot as plt
from sklearn.model_selection import train_test_split

from perceptrons import Perceptron
from perceptrons.datasets import separable
from perceptrons.plotting import plot_runs

X, y, _, _ = separable(400, 2, margin=0.04, random_state=3)
X_train, X_test, y_train, y_test = train_test_split(X, y, train_size=60, random_state=0, stratify=y)

runs = []
for seed in range(4):
    clf = Perceptron(init="random", order="random-mistake", max_epochs=10_000, random_state=seed)
    clf.fit(X_train, y_train)
    e_in, e_out = 1 - clf.score(X_train, y_train), 1 - clf.score(X_test, y_test)
    runs.append((f"seed {seed}", clf.coef_[0], clf.intercept_[0], e_in, e_out))
    print(f"seed {seed}: {clf.n_updates_:3d} updates, E_in = {e_in:.3f}, E_out = {e_out:.3f}")

# %%
# The training set and the four separators
# ----------------------------------------

fig = plot_runs(runs, X_train, y_train, title="Four runs of the PLA, four separating lines")
plt.show()

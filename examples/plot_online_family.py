"""
The online family on one data set
=================================

Eight online learners and the averaged perceptron on the same noisy two-class data: test
accuracy after each epoch (left), and each learner's hyperplane after ten (right).  The
first-order rules (the perceptron, PA) move by the example alone; the second-order ones (AROW,
SCW) keep a variance per direction and move less along directions they have seen often, which
on noisy labels steadies them from the first epoch.  See :doc:`/online` for the choice on real
data.

The second figure is the theory of each: :func:`perceptrons.theory.mistake_bound` runs a learner
over the training rows in order (three passes) and returns the bound its paper proves, trial by
trial (``curve``), beside the mistakes the run made so far (``observed_curve``).  The bounds of
PA-I and PA-II grow with the hinge losses of their comparison vector; AROW's and the second-order
perceptron's with a log-determinant of the rows they updated on.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np

from perceptrons import (
    ALMA,
    AROW,
    ROMMA,
    SCW,
    AveragedPerceptron,
    PassiveAggressive,
    Perceptron,
    SecondOrderPerceptron,
)
from perceptrons.theory import mistake_bound

warnings.simplefilter("ignore")
rng = np.random.default_rng(3)
n = 600
X = rng.normal(size=(n, 2)) * [1.0, 3.0]
y = (X @ [1.5, -0.4] + 0.2 > 0).astype(int)
flip = rng.random(n) < 0.1  # 10 % of the labels wrong
y[flip] = 1 - y[flip]
X_train, y_train, X_test, y_test = X[:400], y[:400], X[400:], y[400:]

learners = {
    "AveragedPerceptron": lambda e: AveragedPerceptron(max_epochs=e),
    "PA-I": lambda e: PassiveAggressive(max_epochs=e),
    "PA-I averaged": lambda e: PassiveAggressive(max_epochs=e, average=True),
    "AROW": lambda e: AROW(max_epochs=e),
    "SCW-II": lambda e: SCW(variant="II", max_epochs=e),
    "second-order perceptron": lambda e: SecondOrderPerceptron(max_epochs=e),
    "ALMA": lambda e: ALMA(max_epochs=e),
    "ROMMA": lambda e: ROMMA(max_epochs=e),
}
epochs = np.arange(1, 11)

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
for name, make in learners.items():
    scores = [make(e).fit(X_train, y_train).score(X_test, y_test) for e in epochs]
    left.plot(epochs, scores, marker="o", label=name)
    clf = make(10).fit(X_train, y_train)
    w, b = clf.coef_[0], clf.intercept_[0]
    xs = np.linspace(-3, 3, 2)
    right.plot(xs, -(w[0] * xs + b) / w[1], label=name)
left.set(xlabel="epochs", ylabel="test accuracy", title="Test accuracy after each epoch")
left.legend(fontsize=8)
right.scatter(*X_test.T, c=np.where(y_test == 1, "tab:blue", "tab:orange"), s=10, alpha=0.6)
right.set(xlim=(-3, 3), ylim=(-8, 8), title="Hyperplanes after 10 epochs", xlabel="x₁", ylabel="x₂")
fig.tight_layout()

# %%
# Each learner's mistakes so far against its paper's bound on the same trials (log scale: the
# bounds hold with room to spare).
bounded = {
    "perceptron (Freund & Schapire)": Perceptron(),
    "PA-I (C = 1)": PassiveAggressive(variant="pa1"),
    "PA-II (C = 1)": PassiveAggressive(variant="pa2"),
    "AROW (r = 1)": AROW(),
    "second-order perceptron": SecondOrderPerceptron(),
}
fig, ax = plt.subplots(figsize=(11, 4.5))
for (name, model), colour in zip(bounded.items(), plt.rcParams["axes.prop_cycle"].by_key()["color"]):
    mb = mistake_bound(model, X_train, y_train, passes=3)
    trials = np.arange(1, mb.curve.shape[0] + 1)
    ax.plot(trials, mb.observed_curve, color=colour, label=f"{name}: {mb.observed} mistakes")
    ax.plot(trials, mb.curve, color=colour, linestyle="--", label=f"its bound ({mb.theorem}): {mb.bound:.0f}")
ax.set(xlabel="trials (3 passes over the 400 training rows)", ylabel="mistakes so far", yscale="log")
ax.set_title("Mistakes (solid) under each paper's bound (dashed), trial by trial")
ax.legend(fontsize=7, ncol=2)
fig.tight_layout()
plt.show()

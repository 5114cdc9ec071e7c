"""Slow, readable reference versions of every algorithm: the oracles of the numba kernels.

Written for clarity, one obvious loop each, in plain Python floats.  Each section names the
kernel it checks.  Add new oracles at the end of the file, in their own section.
"""


def dot(w, x):
    return sum(wj * xj for wj, xj in zip(w, x))


# ----------------------------------------------------------------------------- PLA
def pla(X, y, *, fit_intercept=True, max_epochs=1000, margin=0.0, weights=None):
    """The Perceptron Learning Algorithm, cyclic order, binary labels y ∈ {-1, +1}.

    Returns (w, b, n_updates, mistakes_per_epoch).  A mistake is y·(w·x + b) ≤ margin.
    """
    d = len(X[0])
    w, b = [0.0] * d, 0.0
    weights = weights or [1.0] * len(X)
    n_updates, history = 0, []
    for _ in range(max_epochs):
        mistakes = 0
        for x, label, a in zip(X, y, weights):
            if a == 0:
                continue
            if label * (dot(w, x) + b) <= margin:
                mistakes += 1
                w = [wj + a * label * xj for wj, xj in zip(w, x)]
                if fit_intercept:
                    b += a * label
        n_updates += mistakes
        history.append(mistakes)
        if mistakes == 0:
            break
    return w, b, n_updates, history


def multiclass_pla(X, y, n_classes, *, fit_intercept=True, max_epochs=1000, margin=0.0, weights=None):
    """One weight vector per class, cyclic order, y ∈ {0..K-1}.

    A mistake is score[y] − max_{k≠y} score[k] ≤ margin (ties: lowest index is the runner-up);
    the update adds x to class y and subtracts it from the runner-up.
    Returns (W as K lists, b as K floats, n_updates, mistakes_per_epoch).
    """
    d = len(X[0])
    W = [[0.0] * d for _ in range(n_classes)]
    b = [0.0] * n_classes
    weights = weights or [1.0] * len(X)
    n_updates, history = 0, []
    for _ in range(max_epochs):
        mistakes = 0
        for x, k, a in zip(X, y, weights):
            if a == 0:
                continue
            scores = [dot(W[c], x) + b[c] for c in range(n_classes)]
            others = [c for c in range(n_classes) if c != k]
            r = max(others, key=lambda c: (scores[c], -c))
            if scores[k] - scores[r] <= margin:
                mistakes += 1
                W[k] = [wj + a * xj for wj, xj in zip(W[k], x)]
                W[r] = [wj - a * xj for wj, xj in zip(W[r], x)]
                if fit_intercept:
                    b[k] += a
                    b[r] -= a
        n_updates += mistakes
        history.append(mistakes)
        if mistakes == 0:
            break
    return W, b, n_updates, history

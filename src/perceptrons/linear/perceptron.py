"""The classic Perceptron Learning Algorithm (Rosenblatt 1957; Block 1962; Novikoff 1962)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from perceptrons.linear._base import LinearPerceptronBase
from perceptrons.threads.jobs import MIX_EVERY, N_JOBS

if TYPE_CHECKING:
    from typing import Any, Literal

    import numpy as np


class Perceptron(LinearPerceptronBase):
    """The Perceptron Learning Algorithm, binary and multiclass.

    For each example in turn, predict with the current weights; on a mistake
    (``y·(w·x + b) ≤ margin``) move the weights towards the example: ``w ← w + y·x``,
    ``b ← b + y``.  An epoch without a mistake ends training.  With more than two classes there
    is one weight vector per class, prediction is the argmax (ties to the lowest class index),
    and a mistake adds ``x`` to the true class's vector and subtracts it from the best wrong
    class's (Kalyanakrishnan §4).

    Parameters
    ----------
    fit_intercept : bool, default=True
        Fold the bias in as a constant feature ``x₀ = 1`` (the θ trick of Gormley's notes).
    max_epochs : int, default=1000
        Upper bound on passes over the data; hitting it raises a ``ConvergenceWarning``.
    order : {"cyclic", "shuffle", "random-mistake"}, default="cyclic"
        ``"cyclic"`` visits examples in the order given (deterministic, the seeds' algorithm);
        ``"shuffle"`` draws a new permutation every epoch; ``"random-mistake"`` scans the whole
        set and updates on one misclassified example drawn uniformly — one scan and one update
        per epoch, as in the Succinctly chapter's listing.
    init : {"zeros", "random"}, default="zeros"
        Initial weights: zero, or uniform on [0, 1) from ``random_state``.
    margin : float, default=0.0
        Update whenever ``y·f(x) ≤ margin`` (multiclass: true score minus best other score);
        0 is the classic rule, > 0 the perceptron with margin (Krauth & Mézard 1987).
    class_weight : dict, "balanced" or None, default=None
        Multiplies each example's update by its class's weight.
    random_state : int, RandomState or None, default=None
        Seeds ``"shuffle"``, ``"random-mistake"`` and ``init="random"``.  Two fits with the same
        seed give identical weights.
    warm_start : bool, default=False
        Continue from the previous fit's weights (and, for the averaged and voted perceptrons,
        its running average or vote).  The data must have the same classes and number of
        features as before; otherwise ``fit`` raises rather than restarting silently.
    n_jobs : int or None, default=None
        Threads to train in (:doc:`/threads`): None or 1, one; −1, every core.  Thread i
        trains its own copy of the weights on the i-th of S parts of each epoch, and the copies
        are mixed after it by their mistakes, as on a cluster (McDonald, Hall & Mann 2010).  The
        result depends on ``n_jobs``, and is the same for a given ``n_jobs`` and
        ``random_state``; 1 is the serial fit.  ``order="random-mistake"``, ``partial_fit`` and
        fewer than 2·S rows train in one thread.
    mix_every : int or None, default=None
        Rows each thread trains on between two mixes, on average: each thread's part of an
        epoch of n rows is cut into ⌈n / (S·mix_every)⌉ consecutive pieces, and the copies are
        mixed after each round of pieces.  None: once an epoch.  :func:`perceptrons.distributed.fit`
        reads it too: rows each shard trains on between two mixes, the same schedule.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    classes_ : ndarray of shape (n_classes,)
        ``classes_[1]`` is the positive class of a binary problem.
    n_features_in_ : int
    n_updates_ : int
        Number of updates — the *k* of Novikoff's theorem, bounded by (R/γ)² on separable data.
    mistakes_per_epoch_ : list of int
    n_epochs_ : int
    converged_ : bool
        True when the last epoch made no mistake.

    Notes
    -----
    A score of exactly 0 predicts the positive class (sign(0) = +1, Gormley); scikit-learn's
    ``Perceptron`` predicts the negative class there.  Training uses no learning rate: the PLA
    is invariant to scaling the data, so the sequence of mistakes does not depend on it.

    scikit-learn's ``check_sample_weight_equivalence_on_dense_data`` does not apply: it expects
    an integer weight k to equal k copies of the example, but an online algorithm that sees a
    copy right after an update may not err on it again, so the two runs legitimately differ.
    Weight 0 does equal removal.  Likewise ``check_class_weight_classifiers`` expects a class of
    weight 1000 to be predicted on 87 % of *all* points of three noisy blobs; a mistake-driven
    learner stops moving once that class's training points are right, so it does not claim the
    other classes' points (the binary variant of that check passes).

    References
    ----------
    Rosenblatt (1958), "The perceptron: a probabilistic model for information storage".
    Novikoff (1962), "On convergence proofs on perceptrons".
    Gormley, lecture notes on the perceptron (worked example, bias folding).
    Har-Peled, ch. 30 (Theorem 30.1.1).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptrons import Perceptron
    >>> X = np.array([[-1, 2], [1, 0], [1, 1], [-1, 0], [-1, -2], [1, -1]], dtype=float)
    >>> y = np.array([-1, 1, 1, -1, -1, 1])
    >>> clf = Perceptron(fit_intercept=False).fit(X, y)
    >>> clf.coef_.tolist(), clf.n_updates_, clf.mistakes_per_epoch_
    ([[3.0, 1.0]], 3, [3, 0])
    """

    _parameter_constraints = {**LinearPerceptronBase._parameter_constraints, "n_jobs": N_JOBS, "mix_every": MIX_EVERY}

    def __init__(
        self,
        *,
        fit_intercept: bool = True,
        max_epochs: int = 1000,
        order: Literal["cyclic", "shuffle", "random-mistake"] = "cyclic",
        init: Literal["zeros", "random"] = "zeros",
        margin: float = 0.0,
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
        n_jobs: int | None = None,
        mix_every: int | None = None,
    ) -> None:
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.init = init
        self.margin = margin
        self.class_weight = class_weight
        self.random_state = random_state
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.mix_every = mix_every

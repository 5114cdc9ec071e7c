"""The kernel perceptron: the perceptron in dual form (Aizerman, Braverman & Rozonoer 1964)."""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import TYPE_CHECKING

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import finite_scores
from perceptrons._core.labels import check_classes, check_same_classes, encode_labels, sample_scale
from perceptrons._core.params import (
    CALLBACK,
    RANDOM_STATE,
    Interval,
    Kind,
    Options,
    check_param,
    seed_of,
    validate_params,
)
from perceptrons._core.visits import check_visit_room
from perceptrons.kernel import _budget, _support
from perceptrons.kernel._gram_rows import make_gram_rows
from perceptrons.kernel._inputs import scoring_rows, training_rows
from perceptrons.kernel._predict import DualModel, block_scores
from perceptrons.kernel._train import DualState, run_epochs, training_overflow
from perceptrons.kernel.kernels import (
    KERNEL_NAMES,
    USES_GAMMA,
    KernelBlock,
    resolve_gamma,
    sq_norms,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Literal

    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix

    _KernelName = Literal["linear", "poly", "rbf", "sigmoid", "precomputed"]

#: highest polynomial degree accepted (see the constraint's comment)
_MAX_DEGREE = 100


class KernelPerceptron(ClassifierMixin, BaseEstimator):
    r"""Kernel perceptron: ``f(x) = Σᵢ αᵢ yᵢ K(xᵢ, x) + b``, binary and multiclass.

    The dual form of the PLA: αᵢ counts the updates made on example i, so the weight vector is
    never formed and any kernel can stand in for the dot product.  With more than two classes
    there is one coefficient row per class; a mistake (true score minus best other score
    ``≤ margin``, ties to the lowest index) adds the example to the true class with +1 and to
    the runner-up with −1 (Crammer–Singer style, as :class:`perceptrons.Perceptron`).  With
    ``kernel="linear"`` and the same ``fit_intercept``, ``margin`` and ``max_epochs`` it makes
    exactly the mistakes of the primal ``Perceptron``.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf", "sigmoid", "precomputed"} or callable, default="rbf"
        As in :class:`sklearn.svm.SVC`.  A callable is called as ``kernel(X, Y)`` and must
        return an array of shape (len(X), len(Y)).  ``"precomputed"``: ``fit`` takes the
        (n, n) training kernel matrix, ``predict`` the (n_test, n_train) matrix.
    degree : int in [0, 100], default=3
        Degree of ``"poly"``.
    gamma : {"scale", "auto"} or finite float > 0, default="scale"
        Coefficient of ``"poly"``, ``"rbf"`` and ``"sigmoid"``; ``"scale"`` is
        ``1 / (n_features · X.var())``, ``"auto"`` is ``1 / n_features``.
    coef0 : finite float, default=0.0
        Constant term of ``"poly"`` and ``"sigmoid"``.
    margin : finite float ≥ 0 or "auto", default="auto"
        Update whenever ``y·f(x) ≤ margin`` (multiclass: true minus runner-up score); 0 is the
        classic rule, > 0 the perceptron with margin (Krauth & Mézard 1987; Li et al. 2002).
        ``"auto"``: 1, one kernel value of RBF, without a ``budget``; 0 with one, whose drops keep
        pushing examples back inside a margin (MNIST 8k/2k at budget 1000, BPA: 12,344 updates
        at margin 1, 4,375 at 0, for 0.951 and 0.9525).  ``margin_`` holds the value used.
    averaged : bool or "auto", default="auto"
        Predict with the mean of all intermediate hypotheses, each weighted by the visits it
        survived (Freund & Schapire 1999), kept lazily (Daumé's trick).  ``"auto"`` averages
        unless ``voted=True`` or a ``budget`` is set (it was ``False`` before).
    voted : bool, default=False
        Predict by the survival-weighted vote of the intermediate hypotheses' predictions
        (Freund & Schapire 1999), replayed from the update log (one record per update).
    budget : int in [1, 10⁷] or None, default=None
        Keep at most this many support examples: when a new one is needed and the budget is
        full, one is dropped (``budget_policy``) with its share of the bias.  Averaging then
        runs over the kept examples only, so a budget predicts with the last iterate.
    budget_policy : {"random", "oldest", "forgetron", "bpa", "projectron", "projectron++"}, default="bpa"
        Which support example a full budget drops: the one whose removal changes the hypothesis
        least once its coefficients are carried over to the new example,
        ``‖A_r‖²·(K(r, r) − K(r, i)²/K(i, i))`` (BPA-S, Wang & Vucetic 2010; the default, it was
        random); the oldest, the hypothesis then shrunk (the self-tuned Forgetron, Dekel et al.
        2008; with more classes σ is the example's largest coefficient and μ its margin over the
        runner-up; its running Q restarts with each ``partial_fit``); one at random (Cavallanti
        et al. 2007); or the oldest.  MNIST 8k/2k at budget 1000: BPA 0.9525, Forgetron 0.9135,
        random 0.894, oldest 0.853 (unbudgeted: 0.970, 2,458 support examples).

        The Projectron and Projectron++ (Orabona, Keshet & Caputo 2009) drop none: an update on
        an example not kept is projected onto the kept ones' span once the budget is full, or
        when the example lies within ``projection_tolerance`` of it (else it is kept, and
        ``K_S⁻¹`` grows by a block update):

        .. math::

            d = K_S^{-1} k_S(x), \quad \delta^2 = K(x, x) - k_S(x)^\top d, \quad
            A_S \leftarrow A_S + a\,y\,d.

        Projectron++ also updates, by projection, on a margin error (0 < margin < 1) with the
        step ``min(1, ℓ/‖Pφ‖², 2(ℓ − δ²/η)/‖Pφ‖²)`` when ``ℓ − δ²/η > 0`` (ℓ the hinge loss,
        ‖Pφ‖² = k·d, both norms doubled with more classes), as the authors' DOGMA computes it;
        these count in ``mistakes_per_epoch_``.  A projected update costs O(budget · n).
    projection_tolerance : float ≥ 0 or None, default=None
        The projectrons' η: the largest squared distance (in feature space) from a new example
        to the kept ones' span at which it is projected rather than kept, and Projectron++'s
        trade-off of a margin update's gain against its error; None: 0.1.
    fit_intercept : bool, default=False
        Learn a bias updated like a weight of a constant feature 1 (``b += a·y``).  An RBF
        feature space needs none, and on the digits sets none was more accurate (it was
        ``True``); set ``True`` for ``"linear"`` and ``"poly"`` separators off the origin.
    max_epochs : int, default=10
        Upper bound on passes (it was 100); the averaged accuracy levels off within 5–10 epochs
        on the data sets of ``benchmarks/bench_defaults.py``.
    order : {"cyclic", "shuffle"}, default="cyclic"
    class_weight : dict, "balanced" or None, default=None
        Multiplies each example's update by its class's weight.
    cache_size : float in (0, 2²⁰], default=200
        Megabytes of kernel rows kept between uses (an LRU cache), as in ``SVC``.  A projectron
        keeps at least ``budget + 2`` rows whatever this says: its update reads every kept
        example's row.
    random_state : int, RandomState or None, default=None
        Seeds ``order="shuffle"`` and ``budget_policy="random"``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    support_ : ndarray of shape (n_SV,)
        Indices of the support examples in the training set (sorted); after ``partial_fit``,
        positions in the stream of all examples seen.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support examples (empty for ``kernel="precomputed"``).
    dual_coef_ : ndarray of shape (1, n_SV) or (n_classes, n_SV)
        Binary: ``αᵢ·yᵢ`` (times the example's weight); multiclass: one row per class
        (not SVC's one-vs-one layout).  Averaged models hold the averaged coefficients.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    alpha_ : ndarray of shape (n_samples,) or (n_SV,)
        Number of updates on each training example (αᵢ of the dual form); after
        ``partial_fit``, on each support example (aligned with ``support_``).
    n_updates_, n_epochs_ : int
    converged_ : bool
    n_removed_ : int
        Support examples dropped to stay within ``budget``.
    n_kernel_rows_ : int
        Kernel rows computed (n when the whole matrix fits in ``cache_size``).
    mistakes_per_epoch_ : list of int
        One entry per epoch of ``fit``, or per ``partial_fit`` call.
    support_size_per_epoch_ : list of int
        Support examples kept after each epoch or ``partial_fit`` call: the model's memory over
        time, bounded by ``budget``.
    gamma_ : float
        The gamma used (``"scale"`` / ``"auto"`` resolved on the training data).
    margin_ : float
        The margin used (``"auto"`` resolved).
    n_features_in_ : int

    Notes
    -----
    The epoch keeps the current score of every training example and adds one kernel row per
    update, so a visit costs O(n_classes) and an update O(n).  When ``cache_size`` holds the
    n × n matrix it is computed at once (one BLAS ``X·Xᵀ`` and the kernel's map); otherwise rows
    are computed in blocks when an update needs them (with the rows of upcoming examples that
    are inside the margin) and kept in an LRU cache.  ``partial_fit`` streams batches with
    memory bounded by the support (``budget``) plus the batch; it does not exist for
    ``kernel="precomputed"``.  Sparse input is densified.  A score of exactly 0 predicts the
    positive class (sign(0) = +1, Gormley); scikit-learn predicts the negative one.
    ``voted=True`` with ``budget`` is refused: the vote log grows with every update.

    The defaults were chosen on validation splits (``benchmarks/bench_defaults.py``: MNIST 8k/2k
    about 0.970 in half of ``SVC``'s fit time); ``averaged=False, margin=0.0, fit_intercept=True,
    max_epochs=100`` is the dual PLA of earlier versions.  scikit-learn's sample-weight
    equivalence checks do not apply, as for :class:`perceptrons.Perceptron`.

    References
    ----------
    Aizerman, Braverman & Rozonoer (1964), "Theoretical foundations of the potential function method".
    Freund & Schapire (1999), "Large margin classification using the perceptron algorithm".
    Krauth & Mézard (1987), "Learning algorithms with optimal stability in neural networks".
    Li, Zaragoza, Herbrich, Shawe-Taylor & Kandola (2002), "The Perceptron Algorithm with Uneven Margins".
    Cavallanti, Cesa-Bianchi & Gentile (2007), "Tracking the best hyperplane with a simple budget perceptron".
    Dekel, Shalev-Shwartz & Singer (2008), "The Forgetron: A Kernel-Based Perceptron on a Budget".
    Wang & Vucetic (2010), "Online Passive-Aggressive Algorithms on a Budget".
    Orabona, Keshet & Caputo (2009), "Bounded Kernel-Based Online Learning", JMLR 10.
    Gormley, lecture notes ("Kernel Perceptron", voted and averaged perceptron).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptrons import KernelPerceptron
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    >>> y = np.array([0, 1, 1, 0])                      # XOR: no line separates it
    >>> # margin=0: the classic rule, which stops at the first epoch that separates XOR
    >>> clf = KernelPerceptron(kernel="poly", degree=2, gamma=1.0, coef0=1.0, margin=0.0).fit(X, y)
    >>> clf.predict(X).tolist(), clf.converged_
    ([0, 1, 1, 0], True)
    """

    _parameter_constraints = {
        "kernel": (Options(*KERNEL_NAMES), Kind(callable, "a callable")),
        # Bounded: numpy refuses an exponent beyond int64 (degree=10**20) with an OverflowError,
        # and at degree d every base above 1.8e308**(1/d) overflows: ~1200 at d = 100, already
        # far beyond data scaled to ~1, while higher degrees only shrink that limit towards 1.
        "degree": (Interval(Integral, 0, _MAX_DEGREE),),
        # Interval refuses NaN and ±inf for gamma, coef0 and margin (they would give NaN scores).
        "gamma": (Options("scale", "auto"), Interval(Real, 0.0, None, closed="neither")),
        "coef0": (Interval(Real, None, None),),
        "margin": (Options("auto"), Interval(Real, 0.0, None)),
        "averaged": (Kind(bool, "a bool"), Options("auto")),
        "voted": (Kind(bool, "a bool"),),
        # Bounded: the budget's age ring is allocated up front (8 bytes per slot).
        "budget": (None, Interval(Integral, 1, 10**7)),
        "budget_policy": (Options(*_budget.POLICIES),),
        "projection_tolerance": (None, Interval(Real, 0.0, None)),
        "fit_intercept": (Kind(bool, "a bool"),),
        "max_epochs": (Interval(Integral, 1, None),),
        "order": (Options("cyclic", "shuffle"),),
        "class_weight": (None, Options("balanced"), Kind(dict, "a dict")),
        # megabytes, up to 1 TiB: beyond, the row capacity computed from it is not a number
        "cache_size": (Interval(Real, 0.0, 2.0**20, closed="right"),),
        "random_state": RANDOM_STATE,
    }

    def __init__(
        self,
        *,
        kernel: _KernelName | Callable[[np.ndarray, np.ndarray], ArrayLike] = "rbf",
        degree: int = 3,
        gamma: Literal["scale", "auto"] | float = "scale",
        coef0: float = 0.0,
        margin: float | Literal["auto"] = "auto",
        averaged: bool | Literal["auto"] = "auto",
        voted: bool = False,
        budget: int | None = None,
        budget_policy: Literal["random", "oldest", "forgetron", "bpa", "projectron", "projectron++"] = "bpa",
        projection_tolerance: float | None = None,
        fit_intercept: bool = False,
        max_epochs: int = 10,
        order: Literal["cyclic", "shuffle"] = "cyclic",
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        cache_size: float = 200,
        random_state: int | np.random.RandomState | None = None,
    ) -> None:
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.margin = margin
        self.averaged = averaged
        self.voted = voted
        self.budget = budget
        self.budget_policy = budget_policy
        self.projection_tolerance = projection_tolerance
        self.fit_intercept = fit_intercept
        self.max_epochs = max_epochs
        self.order = order
        self.class_weight = class_weight
        self.cache_size = cache_size
        self.random_state = random_state

    # ------------------------------------------------------------------ fit
    def fit(
        self,
        X: ArrayLike | spmatrix | sparray,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        callback: Callable[[int, int, float], object] | None = None,
        progress: Callable[[int, int, int], object] | None = None,
    ) -> KernelPerceptron:
        """Run the dual PLA for up to ``max_epochs`` epochs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) if precomputed
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Each update is scaled by its example's weight; weight 0 removes the example.
        callback : callable, default=None
            ``callback(epoch, mistakes, elapsed_seconds)`` after each epoch; ``False`` stops.
        progress : callable, default=None
            ``progress(epoch, visited, n_samples)`` within an epoch, each time the loop stops to
            compute a kernel row (an epoch costs up to n² kernel evaluations, so on a large set
            it can take minutes); its return value is ignored, and an exception it raises (an
            interrupt) ends the fit.

        Returns
        -------
        self

        Raises
        ------
        PerceptronsError
            Also when a training decision value overflows (finite features or kernel values too
            large): the fit is refused rather than reporting convergence on NaN scores.
        """
        self._validate()
        check_param(callback, "callback", CALLBACK, type(self).__name__)
        check_param(progress, "progress", CALLBACK, type(self).__name__)
        X, y = training_rows(self, X, y, reset=True)
        n = X.shape[0]
        if self.kernel == "precomputed" and X.shape[1] != n:
            raise PerceptronsError(
                f"kernel='precomputed' needs the square training kernel matrix at fit: "
                f"expected shape ({n}, {n}), got {X.shape}"
            )
        self.classes_ = check_classes(y)
        yi = encode_labels(y, self.classes_)
        scale = sample_scale(sample_weight, self.class_weight, yi, self.classes_, n)
        self.gamma_ = resolve_gamma(self.gamma, X) if self.kernel in USES_GAMMA else float("nan")
        state = DualState(n, self._n_cols(), self._averaging(), self.budget, self.voted)
        self.mistakes_per_epoch_, self.support_size_per_epoch_ = [], []
        self.n_updates_ = self.n_removed_ = self.n_kernel_rows_ = 0
        self._rng = np.random.default_rng(seed_of(self.random_state))
        stopped = self._run(X, yi, scale, state, None, self.max_epochs, self._rng, callback, progress)
        self.n_epochs_ = len(self.mistakes_per_epoch_)
        self.alpha_ = state.alpha
        if not self.converged_ and not stopped and self.predicts_last_iterate:
            warnings.warn(
                f"KernelPerceptron made {self.mistakes_per_epoch_[-1]} mistakes (margin "
                f"{self.margin_}) in its last epoch and stopped at max_epochs={self.max_epochs}: "
                "the data may not be separable in this kernel's feature space; averaged=True "
                "predicts with the averaged hypothesis, which suits such data.",
                ConvergenceWarning,
                stacklevel=2,
            )
        self._support = _support.export(state, X, yi, np.arange(n), keep_x=self.kernel != "precomputed")
        self._n_seen = n
        self._finalize()
        return self

    @available_if(_support.extensible)
    def partial_fit(
        self,
        X: ArrayLike | spmatrix | sparray,
        y: ArrayLike,
        classes: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
    ) -> KernelPerceptron:
        """One online pass over a batch, continuing from the support examples kept so far.

        Memory is the support (at most ``budget`` examples) plus the batch: a stream of calls
        makes exactly the mistakes of one cyclic epoch over the concatenated stream.  The first
        call must pass ``classes``; ``gamma="scale"`` is resolved on the first batch.
        ``alpha_`` then counts the updates of each support example, and ``support_`` holds
        positions in the stream.  Not available with ``kernel="precomputed"``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of shape (n_classes,), default=None
            Every label that will ever be seen; required on the first call.
        sample_weight : array-like of shape (n_samples,), default=None
            Each update is scaled by its example's weight.

        Returns
        -------
        self
        """
        self._validate()
        first = getattr(self, "_support", None) is None
        X, y = training_rows(self, X, y, reset=first)
        if first:
            if classes is None:
                raise PerceptronsError(
                    "classes must be passed on the first call to partial_fit (all labels that will be seen)"
                )
            self.classes_ = check_classes(classes, what="classes")
            self.gamma_ = resolve_gamma(self.gamma, X) if self.kernel in USES_GAMMA else float("nan")
            self._support = _support.empty(X.shape[1], self._n_cols(), X.dtype, self._averaging(), self.voted)
            self._n_seen = 0
            self._rng = np.random.default_rng(seed_of(self.random_state))
            self.mistakes_per_epoch_, self.support_size_per_epoch_ = [], []
            self.n_updates_ = self.n_removed_ = self.n_kernel_rows_ = self.n_epochs_ = 0
        else:
            check_same_classes(classes, self.classes_)
        yi = encode_labels(y, self.classes_)
        scale = sample_scale(sample_weight, self.class_weight, yi, self.classes_, X.shape[0])
        S = self._support
        check_visit_room(int(S["count"][0]), X.shape[0])  # one epoch over the new rows
        s = S["X"].shape[0]
        Xc = np.ascontiguousarray(np.vstack([S["X"], X]))
        state = _support.preload(S, Xc.shape[0], self._averaging(), self.budget, self.voted)
        if s:
            kb = self._kernel_block(Xc.dtype)
            state.Ft[:] = (kb.block(Xc, S["X"]) @ S["A"]).T
        self._run(
            Xc,
            np.concatenate([S["y"], yi]),
            np.concatenate([np.zeros(s), scale]),
            state,
            np.arange(s, Xc.shape[0], dtype=np.int64),
            1,
            self._rng,
            None,
        )
        self.n_epochs_ += 1
        index = np.concatenate([S["index"], self._n_seen + np.arange(X.shape[0])])
        self._support = _support.export(state, Xc, np.concatenate([S["y"], yi]), index)
        self._n_seen += X.shape[0]
        self.alpha_ = self._support["alpha"]
        self._finalize()
        return self

    def _run(self, X, yi, scale, state, visit, epochs, rng, callback, progress=None):
        self.margin_ = self._margin()
        kb = self._kernel_block(X.dtype)
        x_sq = sq_norms(X) if self.kernel == "rbf" else None
        precomputed = self.kernel == "precomputed"
        min_rows = _budget.rows_needed(self.budget, self.budget_policy)
        cache = make_gram_rows(kb, X, self.cache_size, precomputed, x_sq, min_rows=min_rows)
        _budget.prepare(
            state,
            self.budget,
            self.budget_policy,
            self.projection_tolerance,
            lambda: np.diag(X) if precomputed else kb.diagonal(X, x_sq),
            lambda kept: X[np.ix_(kept, kept)] if precomputed else kb.block(X[kept], X[kept]),
        )
        before = (int(state.stats[0]), int(state.stats[1]))
        mistakes, sizes, stopped = run_epochs(
            state,
            cache,
            yi,
            scale,
            binary=len(self.classes_) == 2,
            fit_intercept=self.fit_intercept,
            margin=self.margin_,
            max_epochs=epochs,
            order=self.order,
            policy=_budget.POLICIES[self.budget_policy],
            rng=rng,
            block=256,
            callback=callback,
            visit=visit,
            progress=progress,
        )
        finite = np.isfinite(state.Ft).all(axis=0) & np.isfinite(state.b).all()
        if not finite.all():
            self.converged_ = False
            raise training_overflow(
                self.kernel, X, int(np.flatnonzero(~finite)[0]), 0 if visit is None else int(visit[0])
            )
        self.mistakes_per_epoch_ += mistakes
        self.support_size_per_epoch_ += sizes
        self.converged_ = mistakes[-1] == 0
        self.n_updates_ += int(state.stats[0]) - before[0]
        self.n_removed_ += int(state.stats[1]) - before[1]
        self.n_kernel_rows_ += int(cache.rows_computed)
        return stopped

    def _finalize(self):
        S = self._support
        self.dual_coef_, bias, self._votes = _support.model_arrays(S, self._averaging(), self.voted)
        self.intercept_ = bias if self.fit_intercept else np.zeros_like(bias)
        self.support_ = S["index"]
        self.support_vectors_ = S["X"]

    @property
    def predicts_last_iterate(self) -> bool:
        """Whether predictions come from the last hypothesis alone (neither averaged nor voted):
        only then is stopping at ``max_epochs`` with mistakes left a failure worth a
        ConvergenceWarning; an averaged or voted fit of a fixed number of epochs is the
        algorithm as Freund & Schapire (1999) give it.
        """
        return not self._averaging() and not self.voted

    def _margin(self):
        """The margin used: ``margin``, or with ``"auto"`` 1 without a budget and 0 with one."""
        if self.margin == "auto":
            return 0.0 if self.budget is not None else 1.0
        return float(self.margin)

    def _averaging(self):
        """Whether this model keeps and predicts with the average: ``averaged="auto"`` averages
        unless ``voted=True`` (the vote is asked for) or a ``budget`` is set (the average then
        forgets the removed examples' share of the run; see ``budget``).
        """
        if self.averaged == "auto":
            return not self.voted and self.budget is None
        return bool(self.averaged)

    def _n_cols(self):
        return 1 if len(self.classes_) == 2 else len(self.classes_)

    def _kernel_block(self, dtype):
        gamma = self.gamma_ if self.kernel in USES_GAMMA else None
        return KernelBlock(self.kernel, gamma, self.degree, float(self.coef0), dtype)

    # ------------------------------------------------------------------ predict
    def decision_function(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Scores: shape (n,) for two classes (≥ 0 predicts ``classes_[1]``), else (n, n_classes).

        Voted models return the survival-weighted votes divided by the number of visits
        (binary: positive minus negative votes).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_train) if precomputed

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = scoring_rows(self, X)
        kb = None if self.kernel == "precomputed" else self._kernel_block(X.dtype)
        model = DualModel(
            self.support_,
            self.support_vectors_,
            self.dual_coef_,
            self.intercept_,
            self._votes,
            self.voted,
            len(self.classes_) == 2,
            self.fit_intercept,
        )
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused just below
            return finite_scores(block_scores(X, kb, model), self.dual_coef_, X=X)

    def predict(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Labels; a score of exactly 0 predicts ``classes_[1]`` (sign(0) = +1), multiclass ties
        go to the lowest class index.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_train) if precomputed

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    # ------------------------------------------------------------------ helpers
    def _validate(self):
        validate_params(self, self._parameter_constraints)
        if self.averaged is True and self.voted:
            raise PerceptronsError("KernelPerceptron takes averaged=True or voted=True, not both; got both")
        _budget.check(self.budget, self.budget_policy, self.projection_tolerance, self.voted)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = True
        return tags

    # ------------------------------------------------------------------ persistence
    def _to_state(self):
        """(metadata, arrays) for a model file: the support examples and everything a later
        ``partial_fit`` continues from; kernel numbers, never code.
        """
        check_is_fitted(self)
        return _support.to_state(
            self.kernel,
            _support.Stored(
                self.n_features_in_,
                self.gamma_,
                self._n_seen,
                self.n_updates_,
                self.n_removed_,
                self.n_epochs_,
                self.converged_,
                self.mistakes_per_epoch_,
                self.support_size_per_epoch_,
                self.classes_,
                self._support,
                self._rng,
            ),
        )

    def _from_state(self, st):
        s = _support.from_state(st, self.kernel, self._averaging(), self.voted, self.budget)
        self.n_features_in_, self.gamma_, self.classes_ = s.n_features_in, s.gamma, s.classes
        self.n_updates_, self.n_removed_, self.n_epochs_ = s.n_updates, s.n_removed, s.n_epochs
        self.converged_, self.mistakes_per_epoch_ = s.converged, s.mistakes_per_epoch
        self.support_size_per_epoch_, self.n_kernel_rows_ = s.support_size_per_epoch, 0
        self._support, self._n_seen, self._rng, self.alpha_ = s.support, s.n_seen, s.rng, s.support["alpha"]
        self.margin_ = self._margin()
        self._finalize()
        return self

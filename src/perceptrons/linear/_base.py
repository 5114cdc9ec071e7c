"""The machinery the linear estimators share: validation, labels, the training protocol, state.

Every way of training goes through the protocol of :mod:`perceptrons.linear.trainer`.  A concrete
estimator names its parameters and overrides, where it differs from the PLA, ``_averaging``,
``_log_updates`` (the voted perceptron), ``_loop`` (the pocket's) or ``_finalize``.
"""

from __future__ import annotations

import time
import warnings
from numbers import Integral, Real
from typing import TYPE_CHECKING

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from perceptrons._core.data import check_warm_width, linear_rows
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import assert_finite, finite_scores, underflow_error
from perceptrons._core.labels import check_classes, check_same_classes, encode_labels, fit_labels, sample_scale
from perceptrons._core.operands import is_binary, to_operand, weight_dtype
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
from perceptrons._jit import linear as K
from perceptrons.linear import _model_file as model_file
from perceptrons.linear.trainer import (
    MIXED,
    LinearState,
    StepParams,
    nonfinite_score_error,
    overflow_in_training,
    row_sizes,
    run_epoch,
    threaded,
    top_of,
)
from perceptrons.threads.jobs import threads_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from numpy.typing import ArrayLike
    from scipy.sparse import csr_matrix, sparray, spmatrix

    #: rows as the compiled loops read them (:func:`perceptrons._core.operands.to_operand`)
    Operand = np.ndarray | tuple[np.ndarray, ...]

    _Linear = TypeVar("_Linear", bound="LinearPerceptronBase")


class LinearPerceptronBase(ClassifierMixin, BaseEstimator):
    """Base of the linear perceptron family; see :class:`perceptrons.Perceptron`."""

    _parameter_constraints = {
        "fit_intercept": (Kind(bool, "a bool"),),
        "max_epochs": (Interval(Integral, 1, None),),
        "order": (Options("cyclic", "shuffle", "random-mistake"),),
        "init": (Options("zeros", "random"),),
        "margin": (Interval(Real, 0.0, None),),
        "class_weight": (None, Options("balanced"), Kind(dict, "a dict")),
        "random_state": RANDOM_STATE,
        "warm_start": (Kind(bool, "a bool"),),
    }
    _averaging = False
    _log_updates = False
    #: whether the model predicts with the PLA's last weight vector.  Only such a model is left
    #: with a poor hypothesis when ``max_epochs`` ends with mistakes, so only it warns then: an
    #: averaged, voted or pocket model stopped after a fixed number of epochs is the intended fit
    #: (Freund & Schapire 1999; Gallant 1990), not a convergence failure.
    predicts_last_iterate = True

    # ------------------------------------------------------------------ public API
    def fit(
        self: _Linear,
        X: ArrayLike | spmatrix | sparray,
        y: ArrayLike,
        sample_weight: ArrayLike | None = None,
        callback: Callable[[int, int, float], object] | None = None,
    ) -> _Linear:
        """Run the PLA for up to ``max_epochs`` epochs, stopping at the first epoch without mistakes.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            float32 input stays float32; CSR with int32 or int64 indices is used as is.
        y : array-like of shape (n_samples,)
            Any two or more labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Each update is scaled by its example's weight; weight 0 removes the example.
        callback : callable, default=None
            Called after every epoch as ``callback(epoch, mistakes, elapsed_seconds)``;
            returning ``False`` ends the fit cleanly after that epoch.

        Returns
        -------
        self

        Raises
        ------
        PerceptronsError
            With ``warm_start=True``, when ``y`` has other classes or ``X`` another number of
            features than the previous fit: refused, as scikit-learn's ``SGDClassifier`` does,
            rather than silently restarting (the fitted model is left as it was).  Also when a
            score overflows (finite features too large).
        """
        self._validate_params()
        check_param(callback, "callback", CALLBACK, type(self).__name__)
        warm = self.warm_start and getattr(self, "_state", None) is not None
        if warm:
            check_warm_width(X, self.n_features_in_, type(self).__name__)
        # A cold fit needs no separate pass to find NaN/inf: its first epoch scores every row and
        # stops at the first non-finite score before any update (see _jit.linear).  A warm fit
        # keeps n_features_in_ (reset=False): its columns must be those of the previous fit.
        X, y = linear_rows(self, X, y, reset=not warm, finite=warm)
        classes, yi = fit_labels(y)
        if warm and not np.array_equal(classes, self.classes_):
            raise PerceptronsError(
                "warm_start can only be used where `y` has the same classes as in the previous "
                f"call to fit. Previous classes: {self.classes_.tolist()}, current: {classes.tolist()}; "
                "set warm_start=False to start afresh"
            )
        self.classes_ = classes
        scale = sample_scale(sample_weight, self.class_weight, yi, self.classes_, X.shape[0])
        if not warm and np.any(scale == 0):  # skipped rows are never scored
            assert_finite(X)
        rng = self._rng = np.random.default_rng(seed_of(self.random_state))
        Xop = to_operand(X)
        if warm:
            self._state = self._state.writable()  # a model loaded off a memory map
        else:
            self._init_state(X.shape[1], rng, weight_dtype(Xop))
        self._widen_unless_exact(Xop, scale)
        self._reset_history()
        self._start_fit(X, Xop, yi, scale)
        self._train(Xop, yi, scale, self.max_epochs, rng, callback, online=False)
        self.finish(top_of(Xop))
        if (
            self.predicts_last_iterate
            and not self.converged_
            and not self._stopped_by_callback
            and self.n_epochs_ >= self.max_epochs
        ):
            warnings.warn(
                f"{type(self).__name__} made {self.mistakes_per_epoch_[-1]} mistakes in its last "
                f"epoch and stopped at max_epochs={self.max_epochs}: the data may not be "
                "linearly separable (with this margin); AveragedPerceptron or PocketPerceptron "
                "give a good hypothesis on such data.",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def partial_fit(
        self: _Linear,
        X: ArrayLike | spmatrix | sparray,
        y: ArrayLike,
        classes: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
    ) -> _Linear:
        """One online pass over the examples given, counting mistakes.

        The first call must pass ``classes`` (every label that will ever be seen).  Unlike
        scikit-learn, ``class_weight`` (including ``"balanced"``, computed on each batch) is
        honoured here too.  ``order="random-mistake"`` has no meaning for a single online pass,
        so partial_fit visits examples cyclically in that case.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The examples of this pass, in the order they are visited (``order="shuffle"``
            shuffles them).
        y : array-like of shape (n_samples,)
            Labels, each one of ``classes``.
        classes : array-like of shape (n_classes,), default=None
            Every label that will ever be seen; required on the first call, and if given
            later it must be the same.
        sample_weight : array-like of shape (n_samples,), default=None
            Each update is scaled by its example's weight; weight 0 skips the example.

        Returns
        -------
        self
            The estimator, with ``n_updates_``, ``mistakes_per_epoch_`` and ``n_epochs_``
            counting this pass too.
        """
        self._validate_params()
        first = not hasattr(self, "classes_") or getattr(self, "_state", None) is None
        if first:
            if classes is None:
                raise PerceptronsError(
                    "classes must be passed on the first call to partial_fit (all labels that will be seen)"
                )
            X, y = linear_rows(self, X, y, reset=True)
            self.classes_ = check_classes(classes, what="classes")
            self._init_state(X.shape[1], np.random.default_rng(seed_of(self.random_state)), weight_dtype(to_operand(X)))
            self._reset_history()
            self._rng = np.random.default_rng(seed_of(self.random_state))
        else:
            check_same_classes(classes, self.classes_)
            X, y = linear_rows(self, X, y)
        check_classification_targets(y)
        yi = encode_labels(y, self.classes_)
        scale = sample_scale(sample_weight, self.class_weight, yi, self.classes_, X.shape[0])
        Xop = to_operand(X)
        self._state = self._state.writable()  # a model loaded off a memory map
        self._widen_unless_exact(Xop, scale)
        self._start_fit(X, Xop, yi, scale)
        self._train(Xop, yi, scale, 1, self._rng, None, online=True)
        self.finish(top_of(Xop))
        return self

    def decision_function(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Scores w·x + b of each class.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            One score per example for two classes (≥ 0 predicts ``classes_[1]``), one per
            class otherwise.
        """
        check_is_fitted(self)
        X = linear_rows(self, X)
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused just below
            scores = finite_scores(X @ self.coef_.T + self.intercept_, self.coef_)
        return scores.ravel() if scores.shape[1] == 1 else scores

    def predict(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Labels; a score of exactly 0 predicts the positive class ``classes_[1]`` (sign(0) = +1,
        as in Gormley's notes — scikit-learn's Perceptron picks the negative class there).
        Multiclass ties go to the lowest class index.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores >= 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    # ------------------------------------------------------------------ the loop
    def _train(self, Xop, yi, scale, n_epochs, rng, callback, online):
        n = yi.shape[0]
        check_visit_room(int(self._state.count[0]), n * n_epochs)  # ≤ one visit per example an epoch
        self._stopped_by_callback = False
        self.converged_ = False
        random_mistake = self.order == "random-mistake" and not online
        buf = np.empty(n, dtype=np.int64) if random_mistake else None
        S = 1 if online or random_mistake else self._threads()
        if S == 1 or n < 2 * S:
            self._epochs(Xop, yi, scale, n_epochs, rng, callback, online, buf, None)
            return
        from perceptrons.threads.mixing import MixedCopies

        train = threaded(self.step_params(0), Xop, yi, scale)
        # each thread trains an S-th of every epoch; the copies are mixed after it (or every
        # mix_every rows a thread), an online learner's extra state with them, as on a cluster
        with MixedCopies(self._state._asdict(), MIXED, S, "error", row_sizes(Xop), self.mix_every) as mixed:
            self._epochs(Xop, yi, scale, n_epochs, rng, callback, online, buf, lambda o: mixed.epoch(o, train))

    def _threads(self):
        """The threads a fit trains in: ``n_jobs``'s where the estimator takes it, else one."""
        if "n_jobs" not in self._parameter_constraints:
            return 1
        return threads_of(self.n_jobs, type(self).__name__)

    def _epochs(self, Xop, yi, scale, n_epochs, rng, callback, online, buf, in_threads):
        """The epochs of a fit: each one pass of :meth:`epoch` (or of ``in_threads(order) ->
        (mistakes, updates)``, a fit in threads), then its book-keeping."""
        n = yi.shape[0]
        start = time.perf_counter()
        for epoch in range(1, n_epochs + 1):
            if buf is not None:
                mistakes, updates = self._random_mistake_step(Xop, yi, scale, buf, rng.random())
            else:
                perm = rng.permutation(n) if self.order == "shuffle" else None  # None: in order
                if in_threads is None:
                    mistakes, updates = self.epoch(Xop, yi, scale, perm), None  # None: one update a mistake
                else:
                    mistakes, updates = in_threads(np.arange(n) if perm is None else perm)
            if mistakes < 0:
                raise nonfinite_score_error(Xop, -1 - int(mistakes), scale)
            self._after_epoch(Xop, yi, scale)
            self.end_epoch(mistakes, updates)
            if callback is not None and callback(epoch, int(mistakes), time.perf_counter() - start) is False:
                self._stopped_by_callback = True
                break
            if self.converged_ and not online:
                break

    def _random_mistake_step(self, Xop, yi, scale, buf, r):
        s = self._state
        count_before = int(s.count[0])
        step = K.random_mistake_binary if s.binary else K.random_mistake_multiclass
        m, i, runner = step(
            Xop, yi, scale, s.w, s.b, self.fit_intercept, float(self.margin), s.u, s.ub, s.count, buf, r
        )
        if i >= 0 and self._log_updates:
            self._record_updates(np.array([[i, count_before, runner]], dtype=np.int64), Xop, yi, scale)
        return m, int(i >= 0)

    # ------------------------------------------------------------------ the training protocol
    #: why this estimator cannot train from a stream (every row at hand is needed), or None
    _needs_every_row = None

    def check_training(self, how: str) -> None:
        """Refuse, before any work, a way of training these parameters cannot take.

        Part of the training protocol (:mod:`perceptrons.linear.trainer`).

        Parameters
        ----------
        how : {"memory", "stream", "mixing"}
            ``fit`` / ``partial_fit`` on rows in memory, a streamed fit (each epoch one pass over
            blocks of rows, :mod:`perceptrons.stream`), or parameter mixing
            (:mod:`perceptrons.distributed`).

        Raises
        ------
        PerceptronsError
            A parameter out of its range, or the reason this estimator cannot train that way.
        """
        self._validate_params()
        if how == "memory":
            return
        name = type(self).__name__
        way = "train from a stream" if how == "stream" else "be trained by parameter mixing"
        if how == "mixing" and self._log_updates:
            raise PerceptronsError(
                f"{name} cannot be trained by parameter mixing: its state is not a weight vector to "
                "average; use Perceptron or AveragedPerceptron"
            )
        if self._needs_every_row is not None:
            raise PerceptronsError(f"{name} cannot {way}: {self._needs_every_row}")
        if self.order == "random-mistake":
            raise PerceptronsError(
                f"order='random-mistake' cannot {way}: each step scans every row for the mistakes to "
                "draw from; use order='cyclic' or 'shuffle'"
            )

    def begin(self, n_features: int, classes: np.ndarray, w_dtype: type = np.float64) -> LinearState:
        """Start a fit afresh: fresh weights for ``n_features`` columns and these classes.

        Part of the training protocol (:mod:`perceptrons.linear.trainer`); the parameters are
        checked first.

        Parameters
        ----------
        n_features : int
        classes : ndarray of shape (n_classes,)
            Sorted, as :func:`numpy.unique` gives them.
        w_dtype : {numpy.float64, numpy.float32}
            The weights' type: float32 for CSR rows with float32 or binary values.

        Returns
        -------
        LinearState
            The state this estimator now trains (its arrays are the estimator's own).
        """
        self._validate_params()
        self.classes_ = classes
        self.n_features_in_ = n_features
        self._rng = np.random.default_rng(seed_of(self.random_state))
        self._init_state(n_features, self._rng, w_dtype)
        self._reset_history()
        self._stopped_by_callback = False
        self.converged_ = False
        return self._state

    def epoch(self, Xop: Operand, yi: np.ndarray, scale: np.ndarray, perm: np.ndarray | None = None) -> int:
        """One epoch's pass over one block of rows, from the current state.

        Part of the training protocol (:mod:`perceptrons.linear.trainer`).

        Parameters
        ----------
        Xop : ndarray or tuple of ndarray
            The rows as a compiled loop reads them (:func:`perceptrons._core.operands.to_operand`).
        yi : ndarray of shape (n_rows,), int64
            Class indices into ``classes_``.
        scale : ndarray of shape (n_rows,), float64
            Each row's update scale (sample weight × class weight; 0 skips the row).
        perm : ndarray of shape (m,), int64, optional
            The rows to visit, in order; None visits them all in order.

        Returns
        -------
        int
            The pass's mistakes, or ``−1 − i`` when row ``i``'s score is not finite.
        """
        log = self._log_buffer(yi.shape[0] if perm is None else perm.shape[0])
        mistakes, n_log = self._loop(Xop, yi, scale, perm, log)
        if n_log:
            self._record_updates(log[:n_log], Xop, yi, scale)
        return mistakes

    def _loop(self, Xop, yi, scale, perm, log):
        """The compiled epoch loop of this variant: (mistakes, rows logged)."""
        return run_epoch(self.fit_intercept, self.margin, self._averaging, self._state, Xop, yi, scale, perm, log)

    def end_epoch(self, mistakes: int, updates: int | None = None) -> None:
        """The book-keeping of one finished epoch: its mistakes and updates (``updates`` None: one
        update a mistake) join the histories, and ``converged_`` says whether it had none.

        Part of the training protocol (:mod:`perceptrons.linear.trainer`).

        Parameters
        ----------
        mistakes : int
        updates : int, optional
        """
        self.n_epochs_ += 1
        self.mistakes_per_epoch_.append(int(mistakes))
        self.n_updates_ += int(mistakes if updates is None else updates)
        self.converged_ = mistakes == 0

    def finish(self: _Linear, top_feature: Callable[[], float], state: LinearState | None = None) -> _Linear:
        """End a fit: ``coef_`` and ``intercept_`` from the state.

        Part of the training protocol (:mod:`perceptrons.linear.trainer`).

        Parameters
        ----------
        top_feature : callable
            Gives the largest ``|x|`` of the training rows; called only for a model whose
            weights overflowed, or are so small that its scores may have lost their features.
        state : LinearState, optional
            The state to adopt first: the one parameter mixing ended with.

        Returns
        -------
        self

        Raises
        ------
        PerceptronsError
            The weights overflowed, or every score lost its features to underflow.
        """
        if state is not None:
            self._state = LinearState(*state)
        self._finalize()
        self._check_finite_model(top_feature)
        return self

    def step_params(self, seed: int) -> StepParams:
        """The parameters of the pure step :func:`perceptrons.linear.trainer.step`, with the
        shuffles' ``seed``.

        Parameters
        ----------
        seed : int

        Returns
        -------
        StepParams
        """
        return StepParams(bool(self.fit_intercept), float(self.margin), bool(self._averaging), self.order, int(seed))

    def check_data(
        self, X: ArrayLike | spmatrix | sparray, y: ArrayLike, reset: bool = True, finite: bool = True
    ) -> tuple[np.ndarray | csr_matrix, np.ndarray]:
        """The checks ``fit`` makes of ``X`` and ``y``, for a caller that trains on them otherwise.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        reset, finite : bool
            Set ``n_features_in_`` from ``X`` (else ``X`` must have that many columns); refuse
            NaN and infinity in ``X``.

        Returns
        -------
        (X, y)
            C-ordered float32/float64 arrays or CSR, as the compiled loops take them.
        """
        return linear_rows(self, X, y, reset=reset, finite=finite)

    # ------------------------------------------------------------------ hooks
    def _reset_history(self):  # fit, and the first partial_fit
        self.n_updates_ = 0
        self.mistakes_per_epoch_ = []
        self.n_epochs_ = 0

    def _start_fit(self, X, Xop, yi, scale):
        """Called before the epochs of a fit / partial_fit call (X as given, Xop as the compiled loops see it)."""

    def _after_epoch(self, Xop, yi, scale):
        """Called after every epoch."""

    def _record_updates(self, log, Xop, yi, scale):
        """Receives rows (example index, visit counter, runner-up class or −1) when ``_log_updates``,
        with the block of rows they index."""

    def _log_buffer(self, n):
        return np.empty((n, 3), dtype=np.int64) if self._log_updates else None

    def _finalize(self):
        """Turn the running state into ``coef_`` (n_vectors, d) and ``intercept_``."""
        w, b = self._weights()
        self._set_coef(w, b)

    def _check_finite_model(self, top_feature):
        """The scores seen in training were finite, but the model may still not be: the last
        update can overflow w, and the averaging sum u grows up to T times faster than w.  Nor
        may its scores have lost their features (see :meth:`_check_features_kept`; the largest
        feature of the training rows is ``top_feature()``)."""
        if not (np.isfinite(self.coef_).all() and np.isfinite(self.intercept_).all()):
            self.converged_ = False
            raise overflow_in_training("the weights (coef_)", top_feature())
        self._check_features_kept(top_feature)

    def _check_features_kept(self, top_feature):
        """Refuse a model whose scores lost their features to underflow (:func:`underflow_error`):
        the weights that scored the training rows, or the model's own (an average, the pocket's),
        the products in the weights' type."""
        w = self._state.w
        for weights in (w, self.coef_):
            lost = underflow_error(weights, w.dtype, top_feature)
            if lost is not None:
                self.converged_ = False
                raise lost

    # ------------------------------------------------------------------ state
    def _init_state(self, d, rng, dtype=np.float64):
        self._state = LinearState.start(
            d, len(self.classes_), dtype, self._averaging, self.fit_intercept, rng if self.init == "random" else None
        )

    def _widen_unless_exact(self, Xop, scale):
        """float64 weights from here on, unless float32 ones stay exact or were asked for: binary
        CSR's updates are whole numbers, but not with a sample or class weight that is not whole,
        or random initial weights (float32 rounded them ~1e-5 off the dense fit).  The float32
        weights so far are exact, so widening changes none; float32 CSR values keep float32."""
        if not is_binary(Xop) or (self.init == "zeros" and bool(np.all(scale == np.round(scale)))):
            return
        self._state = self._state.widened()
        self._widen_extra()

    def _widen_extra(self):
        """Widen what a variant keeps beside the state (the pocket's weights) as the state was."""

    def _weights(self):
        """Current (last-iterate) weights as (w, b) with w of shape (d,) or (d, K)."""
        return self._state.w, self._state.b

    def _set_coef(self, w, b):
        if self._state.binary:
            self.coef_ = w.reshape(1, -1).copy()
            self.intercept_ = b.copy()
        else:
            self.coef_ = np.ascontiguousarray(w.T)
            self.intercept_ = b.copy()

    # ------------------------------------------------------------------ validation
    def _validate_params(self):
        validate_params(self, self._parameter_constraints)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # ------------------------------------------------------------------ persistence
    def _to_state(self):
        """(metadata, arrays) for the model file: plain numbers and arrays, never objects."""
        check_is_fitted(self)
        return model_file.to_state(self, self._state)

    def _from_state(self, st):
        """Restore from a :class:`~perceptrons.io.model_state.ModelState`: every field is
        checked (type, dtype, shape against the others, finiteness) before it is kept."""
        fitted, self._state = model_file.from_state(st, self._averaging, self.class_weight)
        for name, value in fitted.items():
            setattr(self, name, value)
        self._rng = np.random.default_rng(seed_of(self.random_state))
        return self

"""scikit-learn's ``PassiveAggressiveClassifier``, its parameters and its results, kept here.

scikit-learn deprecated the class in 1.8 and removes it in 1.10 (its users are told to rewrite
with ``SGDClassifier``).  This one is a drop-in: the same parameters, attributes and methods,
and the same weights on the same data, down to its order of visits (the one-vs-rest binary
fits, each shuffled by its own seed drawn as scikit-learn draws it), its intercept (decayed by
0.01 on sparse rows), its averaging and its stopping rule.  The epoch itself is a compiled loop
(:mod:`perceptrons._jit.sgd_pa`); what surrounds it follows scikit-learn's
``BaseSGDClassifier`` step for step, its quirks included (a second ``partial_fit`` of an
averaged binary model continues from the intercept of the first call's start).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.utils import check_random_state, compute_class_weight
from sklearn.utils.multiclass import unique_labels
from sklearn.utils.validation import check_is_fitted, column_or_1d

from perceptrons._core.data import validate_data
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import finite_scores, largest_magnitude
from perceptrons._core.labels import sorted_labels
from perceptrons._core.operands import operand_values, to_operand
from perceptrons._core.params import RANDOM_STATE, Interval, Kind, Options, validate_params
from perceptrons._jit import sgd_pa as K
from perceptrons.io.model_state import FLOATS

if TYPE_CHECKING:
    from typing import Any, Literal

    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix

#: scikit-learn's bound of its seeds (a C long on every platform)
MAX_INT = np.iinfo(np.int32).max
#: scikit-learn's intercept step on sparse rows
SPARSE_INTERCEPT_DECAY = 0.01


class PassiveAggressiveClassifier(ClassifierMixin, BaseEstimator):
    """Passive-aggressive classifier with scikit-learn's parameters and results.

    PA-I (``loss="hinge"``) or PA-II (``loss="squared_hinge"``) of Crammer et al. (2006), one
    binary classifier per class (one-vs-rest), run as scikit-learn's ``PassiveAggressiveClassifier``
    runs it.  For the passive-aggressive family with its multiclass update, streaming, parameter
    mixing and the command line, see :class:`~perceptrons.PassiveAggressive`.

    Parameters
    ----------
    C : float, default=1.0
        The largest step (PA-I) or the step's regularization (PA-II); > 0.
    fit_intercept : bool, default=True
    max_iter : int, default=1000
        Passes over the data, at most (``fit``; ``partial_fit`` makes one).
    tol : float or None, default=1e-3
        Stop when the epoch's mean hinge loss is not below the best by ``tol`` for
        ``n_iter_no_change`` epochs in a row (None: never).
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the rows (stratified) and stop when their accuracy
        has not improved by ``tol`` for ``n_iter_no_change`` epochs.
    validation_fraction : float, default=0.1
    n_iter_no_change : int, default=5
    shuffle : bool, default=True
        Shuffle the rows before every epoch (each binary fit by its own seed).
    verbose : int, default=0
        Accepted for compatibility; nothing is printed (the library never prints).
    loss : {"hinge", "squared_hinge"}, default="hinge"
        PA-I or PA-II.
    n_jobs : int or None, default=None
        Accepted for compatibility; the one-vs-rest fits run one after another (their results
        do not depend on it).
    random_state : int, RandomState or None, default=None
    warm_start : bool, default=False
    class_weight : dict, "balanced" or None, default=None
    average : bool or int, default=False
        Predict with the averaged weights (scikit-learn's averaged SGD), from visit ``average``
        on when an int.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    n_iter_ : int
        Epochs run (the most of the binary fits).
    t_ : int
        Updates' visit counter, scikit-learn's ``(n_iter_ * n_samples + 1)``.

    Notes
    -----
    A score of exactly 0 predicts ``classes_[0]``, as scikit-learn's does (the perceptrons of
    this package predict ``classes_[1]`` there).  Training runs in float64 whatever the input, and
    ``coef_`` is float64; scikit-learn trains float32 input in float32, so the two agree to
    float32's precision there, and to the last digit on float64 input.  ``densify`` and
    ``sparsify`` are not offered (no L1 penalty here makes sparse weights).

    References
    ----------
    Crammer, K., Dekel, O., Keshet, J., Shalev-Shwartz, S. and Singer, Y. (2006). "Online
    Passive-Aggressive Algorithms". Journal of Machine Learning Research 7, 551-585.
    scikit-learn, ``sklearn/linear_model/_passive_aggressive.py`` and ``_stochastic_gradient.py``
    (1.9): the procedure reproduced.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from perceptrons import PassiveAggressiveClassifier
    >>> X, y = make_classification(n_features=4, random_state=0)
    >>> clf = PassiveAggressiveClassifier(max_iter=1000, random_state=0, tol=1e-3).fit(X, y)
    >>> clf.coef_.round(8).tolist(), clf.intercept_.round(8).tolist()
    ([[0.26642044, 0.45070924, 0.67251877, 0.64185414]], [1.84127814])
    """

    _parameter_constraints = {
        "C": (Interval(Real, 0.0, None, closed="neither"),),
        "fit_intercept": (Kind(bool, "a bool"),),
        "max_iter": (Interval(Integral, 1, None),),
        "tol": (None, Interval(Real, 0.0, None)),
        "early_stopping": (Kind(bool, "a bool"),),
        "validation_fraction": (Interval(Real, 0.0, 1.0, closed="neither"),),
        "n_iter_no_change": (Interval(Integral, 1, None),),
        "shuffle": (Kind(bool, "a bool"),),
        "verbose": (Interval(Integral, 0, None), Kind(bool, "a bool")),
        "loss": (Options("hinge", "squared_hinge"),),
        "n_jobs": (None, Kind(Integral, "an int")),
        "random_state": RANDOM_STATE,
        "warm_start": (Kind(bool, "a bool"),),
        "class_weight": (None, Options("balanced"), Kind(dict, "a dict")),
        "average": (Kind(bool, "a bool"), Interval(Integral, 1, None)),
    }

    def __init__(
        self,
        *,
        C: float = 1.0,
        fit_intercept: bool = True,
        max_iter: int = 1000,
        tol: float | None = 1e-3,
        early_stopping: bool = False,
        validation_fraction: float = 0.1,
        n_iter_no_change: int = 5,
        shuffle: bool = True,
        verbose: int = 0,
        loss: Literal["hinge", "squared_hinge"] = "hinge",
        n_jobs: int | None = None,
        random_state: int | np.random.RandomState | None = None,
        warm_start: bool = False,
        class_weight: dict[Any, float] | Literal["balanced"] | None = None,
        average: bool | int = False,
    ) -> None:
        self.C = C
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.verbose = verbose
        self.loss = loss
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.average = average

    # ------------------------------------------------------------------ public API
    def fit(
        self,
        X: ArrayLike | spmatrix | sparray,
        y: ArrayLike,
        coef_init: ArrayLike | None = None,
        intercept_init: ArrayLike | None = None,
    ) -> PassiveAggressiveClassifier:
        """Fit the model, one binary classifier per class.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        coef_init : ndarray of shape (n_classes, n_features), default=None
            The weights to start from.
        intercept_init : ndarray of shape (n_classes,), default=None

        Returns
        -------
        self
        """
        validate_params(self, self._parameter_constraints)
        if hasattr(self, "classes_"):
            del self.classes_  # a first call of _partial_fit
        if y is None:
            raise PerceptronsError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        y = column_or_1d(y, warn=True)  # scikit-learn's: a column of labels is raveled, with a warning
        classes = sorted_labels(y)  # None, NaN or unorderable labels refused in one line
        if self.warm_start and getattr(self, "coef_", None) is not None:
            rows = 1 if len(classes) == 2 else len(classes)
            if self.coef_.shape[0] != rows or self.coef_.size != rows * np.shape(X)[1]:
                raise PerceptronsError(
                    "warm_start can only continue a fit of the same classes and features; "
                    f"the previous fit has coef_ of shape {self.coef_.shape}, these data "
                    f"{len(classes)} classes and {np.shape(X)[1]} features: set warm_start=False"
                )
        if self.warm_start and getattr(self, "coef_", None) is not None:
            coef_init = self.coef_ if coef_init is None else coef_init
            intercept_init = self.intercept_ if intercept_init is None else intercept_init
        else:
            self.coef_ = None
            self.intercept_ = None
        if self.average > 0:
            self._standard_coef, self._standard_intercept = self.coef_, self.intercept_
            self._average_coef = self._average_intercept = None
        self.t_ = 1.0
        self._partial_fit(X, y, self.max_iter, classes, coef_init, intercept_init)
        if self.tol is not None and self.n_iter_ == self.max_iter:
            warnings.warn(
                "Maximum number of iteration reached before convergence. Consider increasing "
                "max_iter to improve the fit.",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def partial_fit(
        self, X: ArrayLike | spmatrix | sparray, y: ArrayLike, classes: ArrayLike | None = None
    ) -> PassiveAggressiveClassifier:
        """One epoch over the rows given.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : ndarray of shape (n_classes,), default=None
            Every label that will be seen: required on the first call.

        Returns
        -------
        self
        """
        if not hasattr(self, "classes_"):
            validate_params(self, self._parameter_constraints)
            if self.early_stopping:
                raise PerceptronsError("early_stopping should be False with partial_fit")
            if self.class_weight == "balanced":
                raise PerceptronsError(
                    "class_weight 'balanced' is not supported for partial_fit: compute the weights "
                    "with sklearn.utils.compute_class_weight and pass them as a dict"
                )
        return self._partial_fit(X, y, 1, classes, None, None)

    # ------------------------------------------------------------------ scikit-learn's procedure
    def _partial_fit(self, X, y, max_iter, classes, coef_init, intercept_init):
        first = not hasattr(self, "classes_")
        X = _int32_indices(X)
        X, y = validate_data(
            self,
            X,
            y,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            order="C",
            accept_large_sparse=False,
            reset=first,
        )
        n_samples, n_features = X.shape
        if classes is not None:
            if getattr(self, "classes_", None) is None:
                self.classes_ = unique_labels(classes)
            elif not np.array_equal(self.classes_, unique_labels(classes)):
                raise PerceptronsError(
                    f"classes={classes!r} is not the same as on the last call to partial_fit, was: {self.classes_!r}"
                )
        elif getattr(self, "classes_", None) is None:
            raise PerceptronsError("classes must be passed on the first call to partial_fit.")
        n_classes = self.classes_.shape[0]
        self._expanded_class_weight = compute_class_weight(self.class_weight, classes=self.classes_, y=y)
        sample_weight = np.ones(n_samples)
        if getattr(self, "coef_", None) is None or coef_init is not None:
            self._allocate(n_classes, n_features, coef_init, intercept_init)
        elif not self.coef_.flags.writeable:  # a model loaded off a memory map (joblib mmap_mode="r")
            self._link(copy=True)
        elif n_features != self.coef_.shape[-1]:
            raise PerceptronsError(
                f"Number of features {n_features} does not match previous data {self.coef_.shape[-1]}."
            )
        if not hasattr(self, "t_"):
            self.t_ = 1.0
        if n_classes == 2:
            self._fit_binary(X, y, sample_weight, max_iter)
        elif n_classes > 2:
            self._fit_multiclass(X, y, sample_weight, max_iter)
        else:
            raise PerceptronsError(f"The number of classes has to be greater than one; got {n_classes} class")
        return self

    def _allocate(self, n_classes, n_features, coef_init, intercept_init):
        """Fresh (or given) weights, in float64 (scikit-learn's are in the input's dtype)."""
        rows = n_classes if n_classes > 2 else 1
        if coef_init is not None:
            coef = np.array(coef_init, dtype=np.float64, order="C")
            if coef.size != rows * n_features:
                raise PerceptronsError("Provided coef_init does not match dataset.")
            coef = coef.reshape(rows, n_features) if rows > 1 else coef.ravel()
        else:
            coef = np.zeros((rows, n_features) if rows > 1 else n_features)
        if intercept_init is not None:
            intercept = np.array(intercept_init, dtype=np.float64).reshape(-1)
            if intercept.shape != (rows,):
                raise PerceptronsError("Provided intercept_init does not match dataset.")
        else:
            intercept = np.zeros(rows)
        self.coef_, self.intercept_ = coef, intercept
        if self.average > 0:
            self._standard_coef = self.coef_
            self._average_coef = np.zeros(self.coef_.shape)
            self._standard_intercept = self.intercept_
            self._average_intercept = np.zeros(self._standard_intercept.shape)

    def _link(self, copy=False):
        """``coef_`` and ``intercept_`` as the arrays scikit-learn's last call left them: the
        averaged arrays themselves (or the standard ones before averaging starts), so that a next
        ``partial_fit`` writes where it writes in scikit-learn; ``copy``: the arrays copied first.
        """
        if copy:
            for name in (
                "coef_",
                "intercept_",
                "_standard_coef",
                "_standard_intercept",
                "_average_coef",
                "_average_intercept",
            ):
                if getattr(self, name, None) is not None:
                    setattr(self, name, np.array(getattr(self, name)))
        if not self.average:
            if len(self.classes_) == 2:
                self.coef_ = self.coef_.reshape(1, -1)
            return
        averaged = self.average <= self.t_ - 1
        coef = self._average_coef if averaged else self._standard_coef
        self.coef_ = coef.reshape(1, -1) if len(self.classes_) == 2 else coef
        self.intercept_ = self._average_intercept if averaged else self._standard_intercept

    def _validation_mask(self, y, sample_mask):
        mask = np.zeros(y.shape[0], dtype=bool)
        if not self.early_stopping:
            return mask
        cv = StratifiedShuffleSplit(test_size=self.validation_fraction, random_state=self.random_state)
        idx_train, idx_val = next(cv.split(np.zeros((y.shape[0], 1)), y))
        if not np.any(sample_mask[idx_val]):
            raise PerceptronsError(
                "The sample weights for validation set are all zero, consider using a different random state."
            )
        if idx_train.shape[0] == 0 or idx_val.shape[0] == 0:
            raise PerceptronsError(
                f"Splitting {y.shape[0]} samples into a train set and a validation set with "
                f"validation_fraction={self.validation_fraction!r} led to an empty set; change "
                "validation_fraction, add samples, or set early_stopping=False"
            )
        mask[idx_val] = True
        return mask

    def _fit_binary(self, X, y, sample_weight, max_iter):
        cw = self._expanded_class_weight
        coef, intercept, n_iter = self._binary(X, y, 1, max_iter, cw[1], cw[0], sample_weight, None, self.random_state)
        self.t_ += n_iter * X.shape[0]
        self.n_iter_ = n_iter
        if self.average > 0:
            if self.average <= self.t_ - 1:
                self.coef_ = self._average_coef.reshape(1, -1)
                self.intercept_ = self._average_intercept
            else:
                self.coef_ = self._standard_coef.reshape(1, -1)
                self._standard_intercept = np.atleast_1d(intercept)
                self.intercept_ = self._standard_intercept
        else:
            self.coef_ = coef.reshape(1, -1)
            self.intercept_ = np.atleast_1d(intercept)

    def _fit_multiclass(self, X, y, sample_weight, max_iter):
        validation = self._validation_mask(y, sample_weight > 0)
        seeds = check_random_state(self.random_state).randint(MAX_INT, size=len(self.classes_))
        cw = self._expanded_class_weight
        results = [
            self._binary(X, y, i, max_iter, cw[i], 1.0, sample_weight, validation, seed) for i, seed in enumerate(seeds)
        ]
        n_iter = 0
        for i, (_, intercept, n_iter_i) in enumerate(results):
            self.intercept_[i] = intercept
            n_iter = max(n_iter, n_iter_i)
        self.t_ += n_iter * X.shape[0]
        self.n_iter_ = n_iter
        if self.average > 0:
            if self.average <= self.t_ - 1.0:
                self.coef_ = self._average_coef
                self.intercept_ = self._average_intercept
            else:
                self.coef_ = self._standard_coef
                self._standard_intercept = np.atleast_1d(self.intercept_)
                self.intercept_ = self._standard_intercept

    def _binary(self, X, y, i, max_iter, pos_weight, neg_weight, sample_weight, validation, random_state):
        """scikit-learn's ``fit_binary``: class ``i`` against the rest; (coef, intercept, n_iter)."""
        y_i = np.where(y == self.classes_[i], 1.0, -1.0)
        two = len(self.classes_) == 2
        if not self.average:
            coef = self.coef_.ravel() if two else self.coef_[i]
            intercept = self.intercept_[0 if two else i]
            avg_coef, avg_intercept = np.zeros(0), 0.0
        else:
            coef = self._standard_coef.ravel() if two else self._standard_coef[i]
            intercept = self._standard_intercept[0 if two else i]
            avg_coef = self._average_coef.ravel() if two else self._average_coef[i]
            avg_intercept = self._average_intercept[0 if two else i]
        rng = check_random_state(random_state)
        rng.randint(1, np.iinfo(np.int32).max)  # the dataset's own seed, drawn though unused, as make_dataset draws it
        decay = SPARSE_INTERCEPT_DECAY if sp.issparse(X) else 1.0
        if validation is None:
            validation = self._validation_mask(y_i, sample_weight > 0)
        score = self._validation_scorer(validation, X, y_i, sample_weight)
        seed = np.uint32(rng.randint(MAX_INT))
        tol = self.tol if self.tol is not None else -np.inf
        state = np.array([intercept, avg_intercept, 0.0, 1.0, self.t_, 0.0])
        params = np.array(
            [
                float(self.C),
                float(self.loss == "squared_hinge"),
                decay,
                float(pos_weight),
                float(neg_weight),
                float(self.fit_intercept),
                float(self.average),
            ]
        )
        Xop = to_operand(X)
        index = np.arange(X.shape[0], dtype=np.int64)
        train_count = X.shape[0] - int(np.sum(validation))
        no_improvement, best_loss, best_score = 0, np.inf, -np.inf
        epoch = 0
        for epoch in range(max_iter):
            if self.shuffle:
                K.shuffle(index, seed)
            outcome = K.pa_epoch(Xop, y_i, sample_weight, validation, index, coef, avg_coef, state, params)
            if outcome == K.NOT_FINITE:
                raise PerceptronsError(
                    f"Floating-point under-/overflow occurred at epoch #{epoch + 1}. Scaling input "
                    "data with StandardScaler or MinMaxScaler might help."
                )
            if outcome != K.OK:
                raise PerceptronsError(
                    f"row {outcome}: its squared norm overflowed float64 (features up to "
                    f"{largest_magnitude(operand_values(Xop, outcome)):.3g}); scale the features, e.g. "
                    "with sklearn.preprocessing.StandardScaler"
                )
            if score is not None:
                value = score(coef, state[K.INTERCEPT])
                no_improvement = no_improvement + 1 if tol > -np.inf and value < best_score + tol else 0
                best_score = max(best_score, value)
            else:
                mean = state[K.SUMLOSS] / train_count
                no_improvement = no_improvement + 1 if tol > -np.inf and mean > best_loss - tol else 0
                best_loss = min(best_loss, mean)
            if no_improvement >= self.n_iter_no_change:
                break
        if self.average:
            # WeightVector.reset_wscale: the lazy average made plain, by the BLAS axpy scikit-learn
            # calls (scipy's; a fused multiply-add where the CPU has one, one rounding where
            # ``avg_coef += a * coef`` made two and left coefficients 1-2 ulp apart)
            from scipy.linalg.blas import daxpy

            avg_coef[:] = daxpy(coef, avg_coef, a=state[K.AVG_A])
            avg_coef *= 1.0 / state[K.AVG_B]
            self._average_intercept[0 if two else i] = state[K.AVG_INTERCEPT]
        return coef, state[K.INTERCEPT], epoch + 1

    def _validation_scorer(self, validation, X, y_i, sample_weight):
        """The accuracy on the held-out rows of weights given (scikit-learn's callback), or None."""
        if not self.early_stopping:
            return None
        scorer = clone(self)
        scorer.classes_ = np.array([-1.0, 1.0])
        Xv, yv, wv = X[validation], y_i[validation], sample_weight[validation]

        def score(coef, intercept):
            scorer.coef_ = coef.reshape(1, -1)
            scorer.intercept_ = np.atleast_1d(intercept)
            scorer.n_features_in_ = coef.shape[0]
            return scorer.score(Xv, yv, wv)

        return score

    # ------------------------------------------------------------------ prediction
    def decision_function(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Confidence scores: ``X @ coef_.T + intercept_``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", reset=False, dtype=[np.float64, np.float32])
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused just below
            scores = finite_scores(X @ self.coef_.T + self.intercept_, self.coef_)
        return scores.ravel() if scores.shape[1] == 1 else scores

    def predict(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """The class of each row: ``classes_[1]`` where the score is > 0 (two classes), else the
        class of the largest score (the lowest index on ties).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)
        index = (scores > 0).astype(int) if scores.ndim == 1 else scores.argmax(axis=1)
        return self.classes_[index]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def __sklearn_is_fitted__(self):
        return getattr(self, "coef_", None) is not None and hasattr(self, "classes_")

    # ------------------------------------------------------------------ persistence
    def _to_state(self):
        """(metadata, arrays) for the model file: the weights, the averaged SGD's arrays and the
        visit counter, so that ``partial_fit`` continues a loaded model as it would the saved one.
        """
        check_is_fitted(self)
        meta = {"n_features_in": int(self.n_features_in_), "n_iter": int(self.n_iter_), "t": float(self.t_)}
        arrays = {"classes": self.classes_, "coef": self.coef_, "intercept": self.intercept_}
        if self.average:
            for name in ("standard_coef", "standard_intercept", "average_coef", "average_intercept"):
                arrays[name] = np.asarray(getattr(self, f"_{name}"))
        return meta, arrays

    def _from_state(self, st):
        """Restore from a :class:`~perceptrons.io.model_state.ModelState`, every field checked."""
        d = st.int("n_features_in", lo=1, hi=2**31 - 1)
        self.n_iter_ = st.int("n_iter", lo=1, hi=2**62)
        t = st.raw("t")
        st.require(isinstance(t, float) and 1.0 <= t < 2.0**62 and t == int(t), "t", "expected a whole number ≥ 1")
        self.t_ = t
        self.classes_ = st.labels("classes")
        k = self.classes_.shape[0]
        rows = 1 if k == 2 else k
        st.alloc("n_features_in", d * rows * (5 if self.average else 1))
        self.coef_ = st.array("coef", FLOATS, (rows, d))
        self.intercept_ = st.array("intercept", FLOATS, (rows,))
        if self.average:
            shape = (d,) if k == 2 else (k, d)
            self._standard_coef = st.array("standard_coef", FLOATS, shape)
            self._average_coef = st.array("average_coef", FLOATS, shape)
            self._standard_intercept = st.array("standard_intercept", FLOATS, (rows,))
            self._average_intercept = st.array("average_intercept", FLOATS, (rows,))
        self.n_features_in_ = d
        self._link(copy=True)  # one array, not two equal ones, where scikit-learn keeps one
        return self


def _int32_indices(X):
    """A CSR or CSC ``X`` with int64 index arrays (scipy's for large matrices, and pandas' and
    others') as int32 copies when they fit, as every other estimator here takes them; scikit-learn's
    class refuses them, asking for a bug report.  Beyond int32, a one-line refusal.
    """
    import scipy.sparse as sp

    if not sp.issparse(X) or X.format not in ("csr", "csc"):
        return X
    if X.indices.dtype == np.int32 and X.indptr.dtype == np.int32:
        return X
    if max(X.shape) > np.iinfo(np.int32).max or X.nnz > np.iinfo(np.int32).max:
        raise PerceptronsError(
            f"X of shape {X.shape} with {X.nnz:,} entries: PassiveAggressiveClassifier takes sparse matrices "
            "whose indices fit 32 bits (as scikit-learn's does); use PassiveAggressive, which takes any"
        )
    X = X.copy()
    X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
    return X

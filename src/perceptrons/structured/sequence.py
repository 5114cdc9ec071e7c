"""Collins' structured perceptron for sequence labelling (Collins 2002; Gormley), as a
scikit-learn estimator: :class:`SequencePerceptron` adds input validation, tags and ``score`` to
:class:`~perceptrons.structured._sequence_model.SequenceModel`.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from perceptrons._core.data import validate_data
from perceptrons._core.errors import PerceptronsError
from perceptrons.structured._operands import gold_tags
from perceptrons.structured._sequence_model import SequenceModel

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from numpy.typing import ArrayLike


class SequencePerceptron(ClassifierMixin, BaseEstimator, SequenceModel):
    """Structured perceptron for sequence labelling with a first-order model (Collins 2002).

    The score of a tag sequence y for tokens x₁…xₙ is
    ``start[y₁] + Σᵢ w_{yᵢ}·xᵢ + Σᵢ trans[yᵢ₋₁, yᵢ] + stop[yₙ]``.  Training decodes each
    sequence with the current weights; if the best sequence differs from the gold one, the
    features of the gold sequence are added and those of the predicted one subtracted.

    Parameters
    ----------
    decoder : {"viterbi", "greedy"}, default="viterbi"
        Exact first-order Viterbi, or left-to-right greedy decoding (NLTK's tagger); used both in
        training and in prediction.
    max_epochs : int, default=10
        Passes over the training sequences.  An epoch without a mistake ends training.
    averaged : bool, default=True
        Predict with the mean of the weights after every sequence seen (Collins 2002, §2.5;
        Freund & Schapire 1999), computed lazily.
    shuffle : bool, default=False
        Visit the sequences in a new random order each epoch (from ``random_state``).
    patience : int or None, default=None
        With a development set passed to ``fit``, stop after this many epochs without a better
        development accuracy.  The weights of the best epoch are kept in any case.
    markov_order : {1, 2}, default=1
        2 adds a weight for every tag triple (second-order transitions); Viterbi then costs
        O(n·T³) instead of O(n·T²).
    random_state : int, RandomState or None, default=None
    n_jobs : int or None, default=None
        Threads to train in (:doc:`/threads`): None or 1, one; −1, every core.  Each thread
        keeps a copy of the weights; each epoch is cut into rounds of 1,024 sequences a thread,
        and before its next round a thread makes the updates the others made in this one (the
        perceptron with updates delayed by a round).  Fewer than 1,025 sequences train in one
        thread.  The result depends on ``n_jobs``, and is the same for a given ``n_jobs`` and
        ``random_state``; 1 is the serial fit.
    mix_every : int or None, default=None
        Sequences a thread trains on in a round (between two exchanges of updates), on
        average; None: 1,024 with two threads, fewer with more (``default_mix_every``), and
        fewer than that many sequences plus one train in one thread.  On a cluster
        (:func:`perceptrons.distributed.fit_sequences`): sequences each shard trains on between
        two mixes, the same schedule; None there: once an epoch.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_classes, n_features)
        Emission weights (averaged when ``averaged``).
    coef_trans_ : ndarray of shape (n_classes, n_classes)
        ``coef_trans_[a, b]`` is the weight of tag ``a`` followed by tag ``b``.
    coef_edge_ : ndarray of shape (n_edge_features, n_classes, n_classes)
        Weights of the edge features (lexicalised transitions); empty without ``X_edge``.
    coef_trans2_ : ndarray of shape (n_classes, n_classes, n_classes) or (0, 0, 0)
        Second-order weights ``coef_trans2_[a, b, c]`` of the tag triple a, b, c.
    coef_init_, coef_final_ : ndarray of shape (n_classes,)
        Weights of the first and of the last tag of a sequence.
    n_features_in_ : int
    n_epochs_ : int
    mistakes_per_epoch_ : list of int
        Sequences with at least one wrong tag, per epoch.
    token_mistakes_per_epoch_ : list of int
    dev_scores_ : list of float
        Token accuracy on the development set after each epoch (empty without one).
    best_epoch_ : int
        The epoch whose weights are kept (the last one without a development set).
    converged_ : bool

    Notes
    -----
    ``lengths=None`` makes every row a sequence of its own (length 1): the model is then a
    multiclass perceptron whose start + stop weights act as a per-class bias.  seqlearn reads
    ``None`` as one single sequence instead; we do not, because then a prediction would depend on
    which other rows are in the batch and in what order — scikit-learn's contract (and its
    ``check_methods_subset_invariance``) is that rows are independent samples.  Sequence data must
    say where its sequences are.

    A model read back with :func:`perceptrons.load_model` holds the final (averaged) weights only;
    ``partial_fit`` on it starts averaging afresh from those weights.

    References
    ----------
    Collins (2002), "Discriminative Training Methods for Hidden Markov Models: Theory and
    Experiments with Perceptron Algorithms", EMNLP.
    Gormley, lecture notes on the perceptron ("Structured Perceptron").
    Daumé III (2006), thesis, §2.1.1 (the lazy form of the averaged perceptron).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from perceptrons import SequencePerceptron
    >>> X = sp.csr_matrix(np.eye(3)[[0, 1, 2, 0, 2]])
    >>> y = np.array(["D", "N", "V", "D", "V"])
    >>> clf = SequencePerceptron(max_epochs=5).fit(X, y, lengths=[3, 2])
    >>> clf.predict(X, lengths=[3, 2]).tolist()
    ['D', 'N', 'V', 'D', 'V']
    """

    _FINAL_AFTER_FIT = True  # scikit-learn's estimators do not change when they predict

    def fit(
        self,
        X: ArrayLike | sp.spmatrix | sp.sparray,
        y: ArrayLike,
        lengths: ArrayLike | None = None,
        *,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        dev: tuple[Any, ...] | dict[str, Any] | None = None,
        forced: ArrayLike | None = None,
        callback: Callable[[int, int, float], object] | None = None,
        assume_binary: bool = False,
    ) -> SequencePerceptron:
        """Train for up to ``max_epochs`` epochs.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
            One row per token; CSR with int32 or int64 indices is used as is.
        y : array-like of shape (n_tokens,)
        lengths : array-like of shape (n_sequences,), default=None
            Lengths of the consecutive sequences (summing to n_tokens); None: one token each.
        X_edge : sparse matrix of shape (n_tokens, n_edge_features), default=None
            Binary *edge* features: those of token i score the transition from token i − 1 into
            token i, each with a (n_classes, n_classes) weight matrix (lexicalised transitions).
        dev : tuple (X_dev, y_dev, lengths_dev) or dict, default=None
            Development set (a dict may add ``forced`` and ``X_edge``): its token accuracy is
            measured after every epoch and the weights of the best epoch are kept (early
            stopping with ``patience``).
        forced : array-like of shape (n_tokens,), default=None
            A tag (label) each token must take, or None / an unknown label for free tokens.
        callback : callable, default=None
            ``callback(epoch, mistakes, elapsed_seconds)`` after every epoch; ``False`` stops.
        assume_binary : bool, default=False
            The caller vouches that every stored value of ``X``, ``X_edge`` and the development
            set's matrices is 1 (a :class:`~perceptrons.structured.features.FeatureMap` builds
            them so): the scans of their values that would find this out are skipped.  Other
            values would then be read as 1.

        Returns
        -------
        self
        """
        super().fit(
            X, y, lengths, X_edge=X_edge, dev=dev, forced=forced, callback=callback, assume_binary=assume_binary
        )
        if not self.converged_ and not self._stopped and dev is None:
            warnings.warn(
                f"SequencePerceptron still made {self.mistakes_per_epoch_[-1]} sequence mistakes in its "
                f"last epoch (max_epochs={self.max_epochs}): the data are not separable by this model "
                "or need more epochs.",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    def score(self, X: ArrayLike | sp.spmatrix | sp.sparray, y: ArrayLike, lengths: ArrayLike | None = None) -> float:
        """Token accuracy.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
        y : array-like of shape (n_tokens,)
            The gold tags.
        lengths : array-like of shape (n_sequences,), default=None
            As in :meth:`fit`.

        Returns
        -------
        float
            The fraction of tokens whose predicted tag is ``y``'s.
        """
        tags = self.predict(X, lengths)
        gold = gold_tags(y, tags.shape[0])
        return float(np.mean(tags == gold))

    def _check_Xy(self, X, y, reset):
        if y is None:
            raise PerceptronsError("SequencePerceptron requires y to be passed, but the target y is None")
        X, y = validate_data(self, X, y, reset=reset, accept_sparse="csr", accept_large_sparse=True, dtype=np.float64)
        check_classification_targets(y)
        if X.shape[0] == 0:
            raise PerceptronsError("X is empty: 0 tokens")
        return (X if sp.issparse(X) else sp.csr_matrix(X)), y

    def _check_X(self, X, reset=False):
        X = validate_data(self, X, reset=reset, accept_sparse="csr", accept_large_sparse=True, dtype=np.float64)
        return X if sp.issparse(X) else sp.csr_matrix(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _check_fitted(self):
        check_is_fitted(self)

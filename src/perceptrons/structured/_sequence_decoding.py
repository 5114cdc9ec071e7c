"""A fitted structured perceptron that decodes: its final weights, prediction, the tags'
probabilities, pruning and precision, and its model-file state.

:class:`~perceptrons.structured._sequence_model.SequenceModel` adds training to it; a model read
back from a file, which holds its final weights only, is already all of this one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.operands import to_operand
from perceptrons._core.params import check_bool, seed_of
from perceptrons.structured import _sequence_state as sequence_state
from perceptrons.structured._operands import (
    NO_FORCED,
    check_scores,
    check_tables,
    edge_operand,
    sequence_offsets,
    tag_indices,
)
from perceptrons.structured._params import ParamsMixin
from perceptrons.structured._sequence_weights import FinalWeights, confidences, decode

if TYPE_CHECKING:
    import scipy.sparse as sp
    from numpy.typing import ArrayLike

_NO_SCORES = np.zeros((0, 0))
_NO_ROWS = (np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int64))  # no token features: scores given


class SequenceDecoder(ParamsMixin):
    """What a fitted sequence model does with its final weights (:class:`FinalWeights`).

    The weights' public names (``coef_``, ``coef_trans_``, ...) are properties that read them;
    :meth:`final_weights` makes them first when training left them stale (a subclass's
    ``_finalize``).  Subclasses set ``classes_``, ``n_features_in_``, ``n_edge_features_in_``,
    ``decoder`` and ``markov_order``.
    """

    def predict(
        self,
        X: ArrayLike | sp.spmatrix | sp.sparray,
        lengths: ArrayLike | None = None,
        *,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        forced: ArrayLike | None = None,
        return_conf: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Best tag sequence of each sequence (Viterbi), shape (n_tokens,).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_tokens, n_features)
        lengths : array-like of shape (n_sequences,), default=None
            As in :meth:`fit`.
        X_edge : sparse matrix of shape (n_tokens, n_edge_features), default=None
            As in :meth:`fit`.
        forced : array-like of shape (n_tokens,), default=None
            As in :meth:`fit`.
        return_conf : bool, default=False
            Also return each tag's probability: its marginal under p(y) ∝ exp(score(y)) for
            Viterbi (forward-backward), the softmax of the scores it was chosen from for the
            greedy decoder (:mod:`perceptrons._jit.confidence`).

        Returns
        -------
        tags : ndarray of shape (n_tokens,)
            The tags, from ``classes_``.
        conf : ndarray of float64, shape (n_tokens,)
            Only with ``return_conf``: the probabilities of those tags.
        """
        self._check_fitted()
        X = self._check_X(X)
        offsets = sequence_offsets(lengths, X.shape[0])
        eop, _ = edge_operand(X_edge, X.shape[0], self.n_edge_features_in_)
        forced = self.forced_indices(forced, X.shape[0])
        return_conf = check_bool(return_conf, "return_conf")
        tags = self._decode(to_operand(X), eop, offsets, forced)
        if not return_conf:
            return self.classes_[tags]
        # the decoder's own emission sums, in another order: equal up to rounding, and the
        # probabilities are continuous in them; the tags are the decoder's
        scores = np.asarray(X @ self.final_weights().W, dtype=np.float64)
        rows = np.flatnonzero(forced >= 0)
        kept = scores[rows, forced[rows]]
        scores[rows] = -np.inf
        scores[rows, forced[rows]] = kept
        return self.classes_[tags], self.confidences(scores, eop, offsets, tags)

    def predict_from_scores(
        self,
        scores: np.ndarray,
        lengths: ArrayLike | None,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        *,
        assume_binary: bool = False,
        return_conf: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """:meth:`predict` from emission scores that the caller computed.

        The :class:`~perceptrons.structured.tagging.Tagger` sums the weight rows once per word
        type (:meth:`~perceptrons.structured.features.FeatureMap.scores`), forced tags
        included.  Their type and shape are checked, their values are not: a scan would cost
        more than decoding a short sentence.

        Parameters
        ----------
        scores : ndarray of shape (n_tokens, n_classes)
            Emission scores, ``X @ emission_weights()`` for token features ``X``; a forced
            token has ``-inf`` for every other tag.
        lengths, X_edge : see :meth:`predict`
        assume_binary : bool, default=False
            As in :meth:`fit`: ``X_edge`` is known to store 1s only, so it is not scanned.
        return_conf : bool, default=False
            As in :meth:`predict`.

        Returns
        -------
        tags : ndarray of shape (n_tokens,)
            The tags.
        conf : ndarray of float64, shape (n_tokens,)
            Only with ``return_conf``, as in :meth:`predict`.

        Examples
        --------
        >>> import numpy as np, scipy.sparse as sp
        >>> from perceptrons import SequencePerceptron
        >>> X = sp.csr_matrix(np.eye(3)[[0, 1, 2, 0, 2]])
        >>> clf = SequencePerceptron(max_epochs=5).fit(X, ["D", "N", "V", "D", "V"], lengths=[3, 2])
        >>> clf.predict_from_scores(X @ clf.emission_weights(), [3, 2]).tolist()
        ['D', 'N', 'V', 'D', 'V']
        """
        self._check_fitted()
        scores = check_scores(scores, len(self.classes_))
        offsets = sequence_offsets(lengths, scores.shape[0])
        eop, _ = edge_operand(X_edge, scores.shape[0], self.n_edge_features_in_, assume_binary)
        return_conf = check_bool(return_conf, "return_conf")
        tags = self._decode(_NO_ROWS, eop, offsets, NO_FORCED, scores)
        if not return_conf:
            return self.classes_[tags]
        return self.classes_[tags], self.confidences(np.asarray(scores, dtype=np.float64), eop, offsets, tags)

    def confidences_from_scores(
        self,
        scores: np.ndarray,
        lengths: ArrayLike | None,
        tags: ArrayLike,
        X_edge: ArrayLike | sp.spmatrix | sp.sparray | None = None,
        *,
        assume_binary: bool = False,
    ) -> np.ndarray:
        """The probabilities of ``tags``, decoded from ``scores`` elsewhere: the ``conf`` of
        :meth:`predict_from_scores` without decoding again.

        The :class:`~perceptrons.structured.tagging.Tagger` decodes a sentence through its word
        cache, then asks here.  The probabilities are those of the tags the decoder chose (as
        :meth:`predict` defines them), so ``tags`` must be its tags: for other tags the greedy
        decoder's softmax is not defined the same way.

        Parameters
        ----------
        scores, lengths, X_edge, assume_binary : see :meth:`predict_from_scores`
        tags : array-like of shape (n_tokens,)
            The decoded tags, from ``classes_``.

        Returns
        -------
        ndarray of float64, shape (n_tokens,)
        """
        self._check_fitted()
        scores = check_scores(scores, len(self.classes_))
        offsets = sequence_offsets(lengths, scores.shape[0])
        eop, _ = edge_operand(X_edge, scores.shape[0], self.n_edge_features_in_, assume_binary)
        try:
            idx = np.searchsorted(self.classes_, tags)
            known = idx.shape == (scores.shape[0],) and np.array_equal(
                self.classes_[np.minimum(idx, len(self.classes_) - 1)], tags
            )
        except TypeError:  # tags that do not compare with the classes
            known = False
        if not known:
            raise PerceptronsError(f"tags must be {scores.shape[0]} tags from classes_")
        return self.confidences(np.asarray(scores, dtype=np.float64), eop, offsets, idx.astype(np.int64))

    def confidences(
        self, scores: np.ndarray, eop: tuple[np.ndarray, ...] | None, offsets: np.ndarray, tags: np.ndarray
    ) -> np.ndarray:
        """The probabilities of the decoded ``tags`` under ``scores``, for a caller that holds the
        operands already (the tagger's word cache); :meth:`confidences_from_scores` checks them.

        Parameters
        ----------
        scores : ndarray of float64, shape (n_tokens, n_classes)
        eop : edge operand
            As :func:`~perceptrons.structured._operands.edge_operand` gives it.
        offsets : ndarray of int64, shape (n_sequences + 1,)
        tags : ndarray of int64, shape (n_tokens,)
            Tag indices, as the decoder chose them.

        Returns
        -------
        ndarray of float64, shape (n_tokens,)
        """
        self._check_tables(offsets, conf=True)
        return confidences(self.final_weights(), self.decoder, scores, eop, offsets, tags)

    def emission_weights(self) -> np.ndarray:
        """The final emission weights, shape (n_features, n_classes): ``coef_.T``, C-contiguous.

        The array itself, not a copy (the model never writes into it: training makes new
        arrays); do not write into it either.

        Returns
        -------
        ndarray of shape (n_features, n_classes)
        """
        return self.final_weights().W

    def forced_indices(self, forced: ArrayLike | None, n_tokens: int) -> np.ndarray:
        """Tag indices (n_tokens,) of the tags in ``forced``; −1 where a token is free.

        Parameters
        ----------
        forced : array-like of shape (n_tokens,) or None
            A tag (label) per token, or a value that is not a tag (the ``Tagger`` uses ``""``)
            for a free token.  None: no token is forced.
        n_tokens : int

        Returns
        -------
        ndarray of int64, shape (n_tokens,), or shape (0,) when ``forced`` is None
            Positions in ``classes_``, as
            :meth:`~perceptrons.structured.features.FeatureMap.scores` takes them.
        """
        return tag_indices(self.classes_, forced, n_tokens)

    def prune_features(self, keep: np.ndarray) -> SequenceDecoder:
        """Keep only the emission weights of the features where ``keep`` is true.

        All-zero weight rows are safe to drop: they add exactly 0 to every score.  Columns of
        ``X`` must then be dropped alike (the ``Tagger`` prunes its feature map).  Online
        training restarts from the final weights, as after loading a model.

        Parameters
        ----------
        keep : ndarray of bool, shape (n_features,)
            One entry per feature the model was fitted on (``n_features_in_``).

        Returns
        -------
        self
        """
        final = self.final_weights()
        self._final = final._replace(W=np.ascontiguousarray(final.W[keep]))
        self.n_features_in_ = int(self._final.W.shape[0])
        self._state = None
        return self

    def to_single_precision(self) -> SequenceDecoder:
        """Cast the emission weights to float32, for tagging.

        Scoring a token reads one weight row per feature, so half the bytes is most of the
        decoding time saved.  Rounding the averaged weights to 24 bits changed no tag of EWT
        test when measured (``tests/structured/test_tagger.py`` checks a sample).

        Returns
        -------
        self
        """
        final = self.final_weights()
        self._final = final._replace(W=final.W.astype(np.float32, copy=False))
        return self

    def _decode(self, op, eop, offsets, forced, scores=_NO_SCORES):
        self._check_tables(offsets)
        return decode(self.final_weights(), self.decoder, op, eop, offsets, forced, scores)

    def _check_tables(self, offsets, conf=False):
        """:func:`~perceptrons.structured._operands.check_tables` for this model's tags, edge
        features and order."""
        check_tables(offsets, len(self.classes_), self.n_edge_features_in_ > 0, self.markov_order == 2, conf)

    def final_weights(self) -> FinalWeights:
        """The weights the model predicts with: made now from the running state if an epoch left
        them stale, never written in place (training and pruning make new arrays).

        Returns
        -------
        FinalWeights
        """
        if getattr(self, "_stale", False):
            self._finalize()
        self._check_fitted()
        return self._final

    @property
    def coef_(self) -> np.ndarray:
        """Emission weights, shape (n_classes, n_features): ``emission_weights().T``."""
        return self.final_weights().W.T

    @property
    def coef_trans_(self) -> np.ndarray:
        """Transition weights, shape (n_classes, n_classes)."""
        return self.final_weights().trans

    @property
    def coef_edge_(self) -> np.ndarray:
        """Edge-feature weights, shape (n_edge_features, n_classes, n_classes)."""
        return self.final_weights().E

    @property
    def coef_trans2_(self) -> np.ndarray:
        """Second-order weights, shape (n_classes, n_classes, n_classes) or (0, 0, 0)."""
        return self.final_weights().trans2

    @property
    def coef_init_(self) -> np.ndarray:
        """Weights of the first tag of a sequence, shape (n_classes,)."""
        return self.final_weights().start

    @property
    def coef_final_(self) -> np.ndarray:
        """Weights of the last tag of a sequence, shape (n_classes,)."""
        return self.final_weights().stop

    def _average_later(self):
        """Mark the final weights stale: :meth:`final_weights` makes them on their first read, so
        that a pass over all the weights is made only if they are read."""
        self._final, self._stale = None, True

    def _set_final(self, W, trans, E, trans2, start, stop):
        self._final, self._stale = FinalWeights(np.ascontiguousarray(W), trans, E, trans2, start, stop), False

    def _check_X(self, X, reset=False):
        import scipy.sparse as sp

        X = X if sp.issparse(X) and X.format == "csr" else sp.csr_matrix(X)
        if reset:
            self.n_features_in_ = X.shape[1]
        elif X.shape[1] != self.n_features_in_:
            raise PerceptronsError(f"X has {X.shape[1]} features, but the model was fitted with {self.n_features_in_}")
        return X

    def _check_fitted(self):
        if getattr(self, "_final", None) is None and not getattr(self, "_stale", False):
            from sklearn.exceptions import NotFittedError

            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' first.")

    def _to_state(self):
        """Final weights only; the emission matrix is stored sparse (most entries stay 0)."""
        self._check_fitted()
        return sequence_state.to_state(self)

    def _from_state(self, st):
        """Restore from a :class:`~perceptrons.io.model_state.ModelState`, every field checked
        before anything is built (:func:`~perceptrons.structured._sequence_state.from_state`).
        """
        fitted, weights = sequence_state.from_state(st, self.markov_order)
        for name, value in fitted.items():
            setattr(self, name, value)
        self._state = None
        self._rng = np.random.default_rng(seed_of(self.random_state))
        self._set_final(*weights)
        return self

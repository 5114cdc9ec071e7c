"""A sequence model's final weights: made from the running state (Collins 2002, §2.5: the
averaged parameters, computed lazily as W − U / C), and decoded with.

The model (:class:`~perceptrons.structured._sequence_model.SequenceModel`) keeps a
:class:`FinalWeights` and hands it to these functions; they read plain arrays and never write
into them (training makes new ones).
"""

from typing import NamedTuple

import numpy as np

from perceptrons._core.finite import overflow_error
from perceptrons.structured._operands import none_if_empty
from perceptrons.structured._sequence_trainer import WEIGHTS
from perceptrons.structured.decoders import decoder_code

_NO_SCORES = np.zeros((0, 0))


class FinalWeights(NamedTuple):
    """The weights a fitted sequence model predicts with.

    Attributes
    ----------
    W : ndarray of shape (n_features, T), C-contiguous
        Emission weights (float32 once a tagger has cast them, else float64).
    trans : ndarray of shape (T, T)
    E : ndarray of shape (n_edge_features, T, T)
    trans2 : ndarray of shape (T, T, T) or (0, 0, 0)
    start, stop : ndarray of shape (T,)
    """

    W: np.ndarray
    trans: np.ndarray
    E: np.ndarray
    trans2: np.ndarray
    start: np.ndarray
    stop: np.ndarray


def final_of(state, c, W=None):
    """The final weights of a running ``state``: the lazy average W − U / c, or the weights
    themselves when ``c`` is 0.  ``W``: the final emission weights when made already.
    """
    from perceptrons._jit.structured import lazy_average

    if W is None:
        W = lazy_average(state.W, state.U, c) if c else state.W.astype(np.float64)
    # the small parts in numpy, the same IEEE operations: no compiled kernel to load for each of
    # their shapes
    parts = [
        getattr(state, k) - getattr(state, "U" + k) / c if c else getattr(state, k).astype(np.float64)
        for k in WEIGHTS[1:]
    ]
    return FinalWeights(np.ascontiguousarray(W), *parts)


def decode(final, decoder, op, eop, offsets, forced, scores=_NO_SCORES):
    """The tag indices (n_tokens,) of the best sequences under ``final``'s weights (emission
    scores from ``op``'s rows, or ``scores`` given)."""
    from perceptrons._jit import structured as K

    out = np.empty(offsets[-1], dtype=np.int64)
    tables = (final.W, final.trans, none_if_empty(final.E), none_if_empty(final.trans2), final.start, final.stop)
    bad = K.decode_all(op, eop, offsets, forced, tables, decoder_code(decoder), out, scores)
    if bad >= 0:  # the model's weights times these features overflowed
        raise overflow_error(
            f"the emission scores of sequence {bad}",
            float(np.abs(final.W).max()),
            what="model weights",
            fix="the model does not fit this data",
        )
    return out


def confidences(final, decoder, scores, eop, offsets, tags):
    """The probabilities (n_tokens,) of the decoded ``tags`` (indices) under ``scores``, which
    stand for the emission weights (:mod:`perceptrons._jit.confidence`)."""
    from perceptrons._jit.confidence import confidences as compiled
    from perceptrons._jit.confidence import pair_tables

    conf = np.empty(tags.shape[0])
    greedy = tags if decoder == "greedy" else None
    pairs = pair_tables(final.trans2) if greedy is None and final.trans2.shape[0] else None
    compiled(
        scores,
        eop,
        offsets,
        final.trans,
        none_if_empty(final.E),
        final.trans2,
        final.start,
        final.stop,
        pairs,
        greedy,
        tags,
        conf,
    )
    return conf

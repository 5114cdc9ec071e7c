"""Decoders of the sequence perceptron: name → compiled decoder.

Every decoder takes an emission table ``emit`` of shape (n, T) (score of each tag at each
position), a transition matrix ``trans`` (T, T), start and stop vectors (T,), and returns
``(score, path)`` with ``path`` of shape (n,) holding tag indices.  The training epoch runs the
same compiled function, selected by the code stored in the registry, so a decoder used for
training and for prediction is one and the same.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError

#: decoder name -> code understood by the ``_jit.structured`` compiled loops
#: (``perceptrons._jit.decode.VITERBI`` and ``GREEDY``, not imported: that would import numba)
DECODERS = {"viterbi": None, "greedy": 1}


def decoder_code(name):
    """The code the compiled decoding loops take for the decoder ``name`` (None for Viterbi)."""
    if name not in DECODERS:
        raise PerceptronsError(f"unknown decoder {name!r}; expected one of {sorted(DECODERS)}")
    return DECODERS[name]


_NO_TRANS2 = np.zeros((0, 0, 0))


def _trans2(trans2, T):
    if trans2 is None:
        return _NO_TRANS2
    trans2 = np.ascontiguousarray(trans2, dtype=np.float64)
    if trans2.shape != (T, T, T):
        raise PerceptronsError(f"trans2 must have shape (T, T, T) = {(T, T, T)}; got {trans2.shape}")
    return trans2


def _tables(emit, trans, start, stop):
    emit = np.ascontiguousarray(emit, dtype=np.float64)
    T = emit.shape[1] if emit.ndim == 2 else -1
    trans = np.ascontiguousarray(trans, dtype=np.float64)
    start = np.ascontiguousarray(start, dtype=np.float64)
    stop = np.ascontiguousarray(stop, dtype=np.float64)
    if emit.ndim != 2 or emit.shape[0] == 0 or trans.shape != (T, T) or start.shape != (T,) or stop.shape != (T,):
        raise PerceptronsError(
            f"decoder tables must be emit (n ≥ 1, T), trans (T, T), start (T,), stop (T,); got "
            f"{emit.shape}, {trans.shape}, {start.shape}, {stop.shape}"
        )
    return emit, trans, start, stop


def viterbi(emit, trans, start, stop, trans2=None):
    """Exact best path of a first-order model in O(n·T²) (Viterbi; Collins 2002, §2), or of a
    second-order one in O(n·T³) when ``trans2`` is given.

    Parameters
    ----------
    emit : ndarray of shape (n, T)
    trans : ndarray of shape (T, T)
        ``trans[a, b]`` scores tag ``a`` followed by tag ``b``.
    start, stop : ndarray of shape (T,)
    trans2 : ndarray of shape (T, T, T), default=None
        ``trans2[a, b, c]`` scores the tag triple a, b, c (from the third token on).

    Returns
    -------
    score : float
    path : ndarray of shape (n,), int64
        Ties go to the lowest tag index.

    Examples
    --------
    >>> import numpy as np
    >>> emit = np.array([[1.0, 0.0], [0.0, 1.0], [0.2, 0.0]])
    >>> trans = np.array([[0.0, -2.0], [0.5, 0.0]])
    >>> score, path = viterbi(emit, trans, np.zeros(2), np.zeros(2))
    >>> float(score), path.tolist()
    (1.7, [1, 1, 0])
    """
    from perceptrons._jit import decode as K

    emit, trans, start, stop = _tables(emit, trans, start, stop)
    n, T = emit.shape
    trans2 = _trans2(trans2, T)
    path = np.empty(n, dtype=np.int64)
    if trans2.shape[0]:
        delta, bp = np.empty((n, T, T)), np.zeros((n, T, T), dtype=np.int32)
        score = K.viterbi2(emit, n, trans[None], False, trans2, start, stop, delta, bp, path)
    else:
        delta, bp = np.empty((n, T)), np.zeros((n, T), dtype=np.int32)
        score = K.viterbi(emit, n, trans[None], False, start, stop, delta, bp, path, np.empty(0))
    return score, path


def greedy(emit, trans, start, stop, trans2=None):
    """Left-to-right decoding, as NLTK's perceptron tagger does: O(n·T), not exact.

    Each token takes its best tag given the tags already chosen (Honnibal 2013).

    Parameters
    ----------
    emit : ndarray of shape (n, T)
    trans : ndarray of shape (T, T)
    start, stop : ndarray of shape (T,)
    trans2 : ndarray of shape (T, T, T), default=None
        As in :func:`viterbi`.

    Returns
    -------
    score : float
        The score of the path chosen.
    path : ndarray of shape (n,), int64

    Examples
    --------
    >>> import numpy as np
    >>> emit = np.array([[1.0, 0.0], [0.0, 1.0], [0.2, 0.0]])
    >>> trans = np.array([[0.0, -2.0], [0.5, 0.0]])
    >>> score, path = greedy(emit, trans, np.zeros(2), np.zeros(2))
    >>> float(score), path.tolist()
    (1.2, [0, 0, 0])
    """
    from perceptrons._jit import decode as K

    emit, trans, start, stop = _tables(emit, trans, start, stop)
    path = np.empty(emit.shape[0], dtype=np.int64)
    score = K.greedy(emit, emit.shape[0], trans[None], False, _trans2(trans2, emit.shape[1]), start, stop, path)
    return score, path


def marginals(emit, trans, start, stop, trans2=None):
    """Each token's tag probabilities p(yᵢ = t) under p(y) ∝ exp(score(y)), the score
    :func:`viterbi` maximises: forward-backward in log space (Rabiner 1989; the marginals of a
    linear-chain CRF, Lafferty et al. 2001), O(n·T²), or O(n·T³) with ``trans2``.

    Parameters
    ----------
    emit, trans, start, stop, trans2 : see :func:`viterbi`

    Returns
    -------
    ndarray of shape (n, T)
        Rows sum to 1.  The tagger's ``tag(tokens, return_conf=True)`` reports the entry of
        each token's Viterbi tag.  Where no sequence has a finite score (transitions of −inf
        closing every path), each tag gets 1/T.

    Examples
    --------
    >>> import numpy as np
    >>> p = marginals(np.array([[1.0, 0.0], [0.0, 1.0]]), np.zeros((2, 2)), np.zeros(2), np.zeros(2))
    >>> p.round(3).tolist()
    [[0.731, 0.269], [0.269, 0.731]]
    """
    from perceptrons._jit import confidence as K

    emit, trans, start, stop = _tables(emit, trans, start, stop)
    n, T = emit.shape
    trans2 = _trans2(trans2, T)
    out = np.empty((n, T))
    if trans2.shape[0]:
        alpha, beta = np.empty((n, T, T)), np.empty((n, T, T))
        tables = K.pair_tables(trans2)
        K.marginals2(emit, n, trans[None], False, trans2, tables, start, stop, alpha, beta, out)
    else:
        steps = K.step_scratch(T)
        K.step_tables(trans, steps)
        K.marginals(emit, n, trans[None], False, steps, start, stop, np.empty((n, T)), np.empty((n, T)), out)
    return out


#: decoder name -> Python-level function (emit, trans, start, stop) -> (score, path)
REGISTRY = {"viterbi": viterbi, "greedy": greedy}

"""The sequence family's training protocol: its state, a block of sequences, and its pure step.

The protocol is the linear family's (:mod:`perceptrons.linear.trainer`), on sequences:
``model.check_training(how)``, ``state = model.begin(classes, n_features, ...)``,
``counts = model.epoch(block, perm)`` for each block of an epoch (``block`` from
``model.operands(X, y, lengths, ...)``), ``model.end_epoch(mistakes, token_mistakes)``, and the
final weights made by ``end_epoch`` itself.  ``fit``, ``partial_fit``, a tagger's streamed fit
and parameter mixing all drive it; parameter mixing runs :func:`step` on the workers.
"""

from typing import NamedTuple

import numpy as np

from perceptrons._core.finite import overflow_error
from perceptrons._core.operands import operand_values
from perceptrons.structured._operands import check_tables, none_if_empty
from perceptrons.structured.decoders import decoder_code

#: the weights of a model, in the order the compiled loops take them, and their averaging sums
WEIGHTS = ("W", "trans", "E", "trans2", "start", "stop")
SUMS = ("U", "Utrans", "UE", "Utrans2", "Ustart", "Ustop")


class SequenceState(NamedTuple):
    """The arrays a structured-perceptron fit carries from sequence to sequence.

    Attributes
    ----------
    W : ndarray of shape (n_features, T)
        Emission weights (float32 when exact, else float64).
    trans : ndarray of shape (T, T)
    E : ndarray of shape (n_edge_features, T, T)
        Edge (lexicalised transition) weights.
    trans2 : ndarray of shape (T, T, T), or (0, 0, 0) for a first-order model
    start, stop : ndarray of shape (T,)
    U, Utrans, UE, Utrans2, Ustart, Ustop : ndarray
        The averaging sums of each (Collins 2002, §2.5, lazily: W − U / C), float64.
    count : ndarray of shape (1,), int64
        Sequences seen: the C of the average.
    """

    W: np.ndarray
    trans: np.ndarray
    E: np.ndarray
    trans2: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    U: np.ndarray
    Utrans: np.ndarray
    UE: np.ndarray
    Utrans2: np.ndarray
    Ustart: np.ndarray
    Ustop: np.ndarray
    count: np.ndarray

    def writable(self):
        """The state with every read-only array replaced by a writable copy (a model loaded off a
        memory map: numba refuses a write to a read-only array)."""
        return SequenceState(*(a if a.flags.writeable else a.copy() for a in self))

    def loop_arrays(self):
        """``(weights, sums)`` as the compiled loops take them (``train_epoch``, ``replay``):
        ``(W, trans, E, trans2, start, stop)`` and their six averaging sums, ``E`` and ``trans2``
        None when empty, so that the loops are compiled without the code that reads them."""
        weights = (self.W, self.trans, none_if_empty(self.E), none_if_empty(self.trans2), self.start, self.stop)
        return weights, (self.U, self.Utrans, self.UE, self.Utrans2, self.Ustart, self.Ustop)


def new_state(d, n_edge, T, markov_order, w_dtype=np.float64):
    """Zero weights and sums for ``d`` features, ``n_edge`` edge features and ``T`` tags."""
    second = (T, T, T) if markov_order == 2 else (0, 0, 0)
    return SequenceState(
        W=np.zeros((d, T), dtype=w_dtype),
        trans=np.zeros((T, T)),
        E=np.zeros((n_edge, T, T)),
        trans2=np.zeros(second),
        start=np.zeros(T),
        stop=np.zeros(T),
        U=np.zeros((d, T)),
        Utrans=np.zeros((T, T)),
        UE=np.zeros((n_edge, T, T)),
        Utrans2=np.zeros(second),
        Ustart=np.zeros(T),
        Ustop=np.zeros(T),
        count=np.zeros(1, dtype=np.int64),
    )


class SequenceBlock(NamedTuple):
    """Sequences as the compiled epoch reads them: the emission operand ``op``, the edge operand
    ``eop``, tag indices ``yi``, sequence ``offsets`` (n_sequences + 1) and ``forced`` tag
    indices (−1: free)."""

    op: object
    eop: object
    yi: np.ndarray
    offsets: np.ndarray
    forced: np.ndarray


class SequenceParams(NamedTuple):
    """The parameters of :func:`step`: ``averaged``, the ``decoder``'s name, ``shuffle`` (each
    shard's sequences, drawn from (seed, epoch, shard index)) and the ``seed``."""

    averaged: bool
    decoder: str
    shuffle: bool
    seed: int


def run_pass(averaged, decoder, state, block, perm, log=None):
    """One pass of the compiled structured-perceptron epoch over ``block``'s sequences in the
    order ``perm``, updating ``state``'s arrays in place.

    ``log``: None, or the ``(updates, paths)`` arrays that receive the pass's updates
    (:func:`perceptrons._jit.structured.train_epoch`; the first ``mistakes`` rows of
    ``updates``).

    Returns
    -------
    (mistakes, wrong) : (int, int)
        Sequences with a wrong tag and wrong tokens.

    Raises
    ------
    PerceptronsError
        A sequence's scores overflowed (the loop stops there).
    """
    from perceptrons._jit import structured as K

    s = state
    check_tables(block.offsets, s.W.shape[1], s.E.shape[0] > 0, s.trans2.shape[0] > 0)
    mistakes, wrong = K.train_epoch(
        block.op,
        block.eop,
        block.yi,
        block.offsets,
        perm,
        block.forced,
        *s.loop_arrays(),
        s.count,
        averaged,
        decoder_code(decoder),
        log,
    )
    if mistakes < 0:  # the loop stopped at a sequence whose scores overflowed
        values = operand_values(block.op)
        raise overflow_error(f"the emission scores of sequence {-1 - mistakes}", float(np.abs(values).max()))
    return int(mistakes), int(wrong)


def step(params, state, block, epoch, index=0, part=(0, 1)):
    """The pure step of parameter mixing: one structured-perceptron epoch over ``block`` from
    ``state`` (the task's own copy, updated in place and returned), or part of one.

    Parameters
    ----------
    params : SequenceParams
    state : SequenceState
    block : SequenceBlock
    epoch, index : int
        The epoch (from 1) and the shard's index, which seed a shuffled order.
    part : (int, int), default=(0, 1)
        ``(r, R)``: the r-th of R consecutive parts of the epoch's order (mixing R times an
        epoch); (0, 1) is the whole epoch.

    Returns
    -------
    (SequenceState, (int, int))
        The state after the pass, and its (mistakes, wrong tokens).

    References
    ----------
    McDonald, R., Hall, K. and Mann, G. (2010). "Distributed Training Strategies for the
    Structured Perceptron". NAACL-HLT, Fig. 3; Collins (2002).
    """
    n = block.offsets.shape[0] - 1
    perm = np.arange(n, dtype=np.int64)
    if params.shuffle:
        perm = np.random.default_rng([params.seed, epoch, index]).permutation(n).astype(np.int64)
    r, R = part
    return state, run_pass(params.averaged, params.decoder, state, block, perm[r * n // R : (r + 1) * n // R])


#: sequences a thread trains on between two exchanges of updates (:mod:`perceptrons.threads`)
#: with two threads: on EWT (four seeds) 512, 1,024 and 2,048 gave test accuracies 0.9484,
#: 0.9483 and 0.9477 against the serial 0.9482, and 1,024 ran the epochs 1.5x faster than one thread
MIX_EVERY = 1024
#: sequences the other threads of three or more train on, together, between two exchanges
#: (see :func:`default_mix_every`)
BLIND_WINDOW = 16


def default_mix_every(threads):
    """Sequences a thread trains on between two exchanges of updates, in a fit of ``threads`` ≥ 2
    whose ``mix_every`` is None.

    Two threads exchange every :data:`MIX_EVERY` sequences.  Three or more exchange after at
    most :data:`BLIND_WINDOW` of the others' sequences: while its copy does not yet hold them,
    each of S threads corrects the mistakes the others are correcting too, so a frequent error
    is corrected S times over, and beyond S = 2 (a step more than twice the one it needs) the
    corrections overshoot further each round.  On EWT dev (10 epochs; one thread 0.9499) three
    threads exchanging every 1,024 sentences scored 0.8832 and four 0.8589, their mistakes an
    epoch growing.  On EWT test (four seeds; one thread 0.9482) a window of 32 gave three, four
    and eight threads 0.9468, 0.9473 and 0.9464, and one of 16 gave three and four 0.9483 and 0.9476.
    """
    return MIX_EVERY if threads <= 2 else max(1, BLIND_WINDOW // (threads - 1))


def threaded(averaged, decoder, block):
    """How a fit in threads (:class:`perceptrons.threads.rounds.Rounds`) trains a thread's copy
    of a :class:`SequenceState` on a chunk of ``block``'s sequences, and makes the updates of
    another thread's chunk on it.

    Parameters
    ----------
    averaged : bool
    decoder : str
    block : SequenceBlock

    Returns
    -------
    train : callable
        ``train(state, chunk) -> ((mistakes, wrong), log)``: a pass over the sequences
        ``chunk``, and its updates.
    replay : callable
        ``replay(state, log)``: those updates made on another copy.
    """
    from perceptrons._jit import structured as K

    lengths = np.diff(block.offsets)

    def train(state, chunk):
        updates = np.empty((chunk.shape[0], 3), dtype=np.int64)
        paths = np.empty(int(lengths[chunk].sum()), dtype=np.int64)
        m, wrong = run_pass(averaged, decoder, state, block, chunk, (updates, paths))
        return (m, wrong), (updates, m, paths)

    def replay(state, log):
        updates, n, paths = log
        K.replay(block.op, block.eop, block.yi, block.offsets, updates, n, paths, *state.loop_arrays(), averaged)

    return train, replay

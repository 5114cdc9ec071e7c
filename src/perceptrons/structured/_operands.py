"""Input checks that turn X, X_edge, lengths, forced tags and a development set into the plain
arrays the ``_jit`` compiled loops read, in the operand convention of :mod:`perceptrons._jit.rows`."""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import check_allocation
from perceptrons._core.operands import to_operand
from perceptrons._core.params import check_bool


def none_if_empty(table):
    """An optional weight table (``trans2``, the edge weights ``E``) as the compiled loops take
    it: None when it has no rows, so that they are compiled without the code that reads it
    (:mod:`perceptrons._jit.structured`)."""
    return table if table.shape[0] else None


def sequence_offsets(lengths, n_tokens, what="lengths"):
    """Start offsets (n_sequences + 1,) from sequence lengths; ``None`` means one token each."""
    if lengths is None:
        return np.arange(n_tokens + 1, dtype=np.int64)
    lengths = np.asarray(lengths)
    # dtype.kind, not np.issubdtype, and one cumulative sum for the total: a tagger's
    # tag(tokens, return_conf=True) comes here once per sentence
    if lengths.ndim != 1 or (lengths.size and lengths.dtype.kind not in "iu"):
        raise PerceptronsError(
            f"{what} must be a 1-d array of non-negative ints; got shape {lengths.shape}, dtype {lengths.dtype}"
        )
    if lengths.size and lengths.min() < 0:
        raise PerceptronsError(f"{what} must be non-negative; got {int(lengths.min())}")
    # each length within the tokens, before the sum: lengths near 2^64 (uint64) or 2^63 wrapped
    # the int64 sum round to the right total, and the compiled loops read past X
    if lengths.size and int(lengths.max()) > n_tokens:
        raise PerceptronsError(f"{what} holds {int(lengths.max())}, but X has {n_tokens} rows (one per token)")
    offsets = np.zeros(lengths.shape[0] + 1, dtype=np.int64)
    np.cumsum(lengths, dtype=np.int64, out=offsets[1:])
    if int(offsets[-1]) != n_tokens:
        raise PerceptronsError(f"{what} sum to {int(offsets[-1])}, but X has {n_tokens} rows (one per token)")
    return offsets


def check_tables(offsets, n_classes, lex, second, conf=False):
    """Refuse decoding tables, sized for the longest sequence, larger than the free memory.

    Decoding (and a training pass) keeps ~20·T bytes a token of its longest sequence; with edge
    features 8·T² more (each position's transitions), with a second order 12·T² more (the pair
    states).  The probabilities of ``return_conf`` (``conf``) keep 24·T, 8·T² and 16·T².  At
    1,000 tags a 500-token sentence of a second-order model needs 6 GB.
    """
    per_token = table_bytes(n_classes, lex, second, conf)
    if int(offsets[-1]) * per_token < 2**26:  # the whole batch under 64 MiB: so is its longest sequence
        return
    maxlen = int(np.diff(offsets).max())
    hint = "a first-order model (markov_order=1) needs T times less" if second else "split the longest sequences"
    check_allocation(
        maxlen * per_token, f"the decoding tables of a {maxlen:,}-token sequence with {n_classes:,} tags", hint
    )


def table_bytes(T, lex, second, conf=False):
    """Bytes a token of the longest sequence of :func:`check_tables`."""
    return T * (24 if conf else 20) + T * T * (8 * lex + (16 if conf else 12) * second)


_NO_EDGES = (np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int64))
NO_FORCED = np.zeros(0, dtype=np.int64)


def edge_operand(X_edge, n_tokens, n_edge=None, assume_binary=False):
    """Binary edge features as the operand ``(indices, indptr)``, checked against the token count.

    ``assume_binary``: the caller built ``X_edge`` with 1s only (as a
    :class:`~perceptrons.structured.features.FeatureMap` does), so the scan that checks it is
    skipped; the shape checks are kept.  Every public path that takes ``assume_binary`` comes
    through here, so this is where it is checked.
    """
    assume_binary = check_bool(assume_binary, "assume_binary")
    if X_edge is None:
        if n_edge:
            raise PerceptronsError(f"this model has {n_edge} edge features: pass X_edge to predict")
        return (_NO_EDGES[0], np.zeros(n_tokens + 1, dtype=np.int64)), 0
    import scipy.sparse as sp  # training and decoding with edge features only

    from perceptrons._core.data import check_sparse_indices

    check_sparse_indices(X_edge, "X_edge")  # before scipy or a compiled loop reads through them
    try:
        X_edge = sp.csr_matrix(X_edge)
    except (ValueError, TypeError):  # text, objects, or more than two dimensions
        got = type(X_edge).__name__
        if hasattr(X_edge, "dtype"):
            got += f" of dtype {X_edge.dtype} and shape {X_edge.shape}"
        raise PerceptronsError(f"X_edge: expected a 2-d matrix of 0/1 edge indicators, got {got}") from None
    if X_edge.shape[0] != n_tokens:
        raise PerceptronsError(f"X_edge has {X_edge.shape[0]} rows, but X has {n_tokens} (one per token)")
    if n_edge is not None and X_edge.shape[1] != n_edge:
        raise PerceptronsError(f"X_edge has {X_edge.shape[1]} columns, but the model was fitted with {n_edge}")
    if not assume_binary and X_edge.nnz and not np.all(X_edge.data == 1):
        raise PerceptronsError("X_edge must be binary (every stored value 1): edge features are indicators")
    return (X_edge.indices.astype(np.int32), X_edge.indptr.astype(np.int64)), X_edge.shape[1]


def tag_indices(classes, forced, n_tokens):
    """Positions in ``classes`` (n_tokens,) of the tags ``forced``, −1 where a value is not a
    tag (a free token); empty when ``forced`` is None."""
    if forced is None:
        return NO_FORCED
    forced = np.asarray(forced)
    if forced.shape != (n_tokens,):
        raise PerceptronsError(
            f"forced must have one entry per token: expected shape ({n_tokens},), got {forced.shape}"
        )
    try:
        idx = np.clip(np.searchsorted(classes, forced), 0, len(classes) - 1)
        return np.where(classes[idx] == forced, idx, -1).astype(np.int64)
    except TypeError:  # values that do not compare with the tags (None among them): one by one
        position = {tag: k for k, tag in enumerate(classes.tolist())}
        return np.array([_position(position, value) for value in forced.tolist()], dtype=np.int64)


def _position(position, value):
    """``position[value]``, or −1 for a value that is not a tag (unhashable ones too)."""
    try:
        return position.get(value, -1)
    except TypeError:
        return -1


def gold_tags(y, n_tokens, name="y"):
    """``y`` as an array of ``n_tokens`` gold tags.  Their values are not checked: a value that
    is not a tag is simply never predicted, so it counts as wrong."""
    try:
        gold = np.asarray(y)
    except ValueError:  # nested sequences of different lengths
        gold = None
    if gold is None or gold.shape != (n_tokens,):
        got = "nested sequences of different lengths" if gold is None else f"shape {gold.shape}"
        raise PerceptronsError(f"{name}: expected {n_tokens} gold tags (one a token), got {got}")
    return gold


def check_scores(scores, n_classes):
    """Emission scores as the decoders read them: a float32/float64 array (n_tokens, n_classes).

    O(1): the values are not scanned (a forced token's other tags hold -inf on purpose).  The
    shape is what keeps a compiled decoder inside the array: it reads ``n_classes`` scores a row.
    """
    if not (isinstance(scores, np.ndarray) and scores.ndim == 2 and scores.dtype in (np.float32, np.float64)):
        got = type(scores).__name__
        if isinstance(scores, np.ndarray):
            got += f" of dtype {scores.dtype} and shape {scores.shape}"
        raise PerceptronsError(
            f"scores: expected a float32 or float64 array of shape (n_tokens, {n_classes}), got {got}"
        )
    if scores.shape[1] != n_classes:
        raise PerceptronsError(f"scores has {scores.shape[1]} columns, but the model has {n_classes} tags")
    return np.ascontiguousarray(scores)


def dev_operands(dev, check_X, classes, n_edge, assume_binary=False):
    """A development set (a tuple (X, y, lengths), or a dict that may add ``forced`` and
    ``X_edge``) as ``(X operand, edge operand, y, offsets, forced indices)``; ``check_X``
    validates its X against the model."""
    if isinstance(dev, tuple) and len(dev) == 3:
        dev = dict(zip(("X", "y", "lengths"), dev))
    if not isinstance(dev, dict) or not {"X", "y", "lengths"} <= set(dev):
        raise PerceptronsError(
            "dev must be a tuple (X_dev, y_dev, lengths_dev) or a dict with keys X, y, lengths[, forced, X_edge]"
        )
    Xd = check_X(dev["X"])
    yd = gold_tags(dev["y"], Xd.shape[0], "dev: y")
    return (
        to_operand(Xd, assume_binary),
        edge_operand(dev.get("X_edge"), Xd.shape[0], n_edge, assume_binary)[0],
        yd,
        sequence_offsets(dev["lengths"], Xd.shape[0], "dev lengths"),
        tag_indices(classes, dev.get("forced"), Xd.shape[0]),
    )

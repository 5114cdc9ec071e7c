"""The shards of a linear IPM fit: made on the client from arrays, or on the workers from files
or from the partitions of Dask collections.  Functions named ``on_worker_*`` run on a worker."""

import os
from dataclasses import dataclass

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import largest_magnitude
from perceptrons._core.labels import encode_labels, sample_scale
from perceptrons._core.operands import to_operand
from perceptrons.distributed._inputs import file_stamps, first_changed, split_rows
from perceptrons.io.block_scaling import BlockScaling, column_max_abs, column_sums, scales_nothing
from perceptrons.io.blocks import Block, join
from perceptrons.io.labels import file_labels
from perceptrons.io.sources import Source
from perceptrons.linear.trainer import LinearState, step
from perceptrons.stream import labels_as_classes


@dataclass
class LinearShard:
    """One shard as the compiled epoch reads it: the operand, class indices, update scales.

    ``spans`` — (path, first line, rows) per piece it was read from — lets an error name the row.
    """

    X: object
    yi: np.ndarray
    scale: np.ndarray
    spans: list

    def locate(self, row):
        """'path, data row N' of the shard's row ``row``."""
        for path, line, n in self.spans:
            if row < n:
                return f"{path}, data row {line + row}"
            row -= n
        return f"row {row}"  # pragma: no cover - rows are within the spans


def shard_rows(shard):
    """The rows of a :class:`LinearShard` (on its worker)."""
    return shard.yi.shape[0]


@dataclass
class RawShard:
    """A shard as read, before the classes of the whole data are known.

    ``stamps`` — each file's size and time written when it was read (:func:`file_stamps`; empty
    for data not read from files) — lets a re-read after a lost worker be checked against the
    first read, on which the classes and the epochs before the loss were based.
    """

    block: object  # perceptrons.io.blocks.Block
    spans: list
    stamps: dict


def slice_operand(Xop, a, b):
    """Rows a..b-1 of a kernel operand, as its own operand (CSR: indptr rebased to 0)."""
    if not isinstance(Xop, tuple):
        return np.ascontiguousarray(Xop[a:b])
    indptr = Xop[-1]
    p, q = int(indptr[a]), int(indptr[b])
    return (*(arr[p:q] for arr in Xop[:-1]), indptr[a : b + 1] - p)


def array_shards(X, yi, scale, S):
    """The S shards of in-memory data (validated by the estimator, as ``fit`` does)."""
    Xop = to_operand(X)
    return [
        LinearShard(slice_operand(Xop, a, b), yi[a:b], scale[a:b], [("X", a + 1, b - a)])
        for a, b in split_rows(len(yi), S)
    ]


# ---------------------------------------------------------------------- run on the workers
def on_worker_read(paths, options):
    """Read files with the streaming sources into one shard (``options``: fmt, label, hash_bits, text)."""

    blocks, spans = [], []
    stamps = file_stamps(paths)
    for path in paths:
        if not os.path.isfile(path):
            raise PerceptronsError(f"{path}: no such file on the worker that reads this shard")
        for block in Source(path, **options).blocks():
            if block.n_rows:
                blocks.append(block)
                spans.append((block.path, block.line, block.n_rows))
    changed = first_changed(paths, stamps, file_stamps(paths))
    if changed is not None:
        raise PerceptronsError(f"{changed}: changed while a worker read it; train on files that stay as they are")
    if not blocks:
        raise PerceptronsError(f"{', '.join(paths)}: no data rows in this shard")
    return RawShard(join(blocks), spans, stamps)


def on_worker_from_arrays(X, y, where):
    """A partition of Dask collections (numpy / pandas / scipy CSR) as a raw shard."""
    import scipy.sparse as sp

    y = np.asarray(y).ravel()
    if hasattr(X, "to_numpy"):  # a pandas partition
        X = X.to_numpy()
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        data = X.data.astype(np.float32) if X.data.dtype == np.float32 else X.data.astype(np.float64)
        block = Block(y=y, indptr=X.indptr.astype(np.int64), indices=X.indices.astype(np.int32), data=data, path=where)
    else:
        X = np.asarray(X)
        if X.dtype not in (np.float32, np.float64):
            X = X.astype(np.float64)
        block = Block(y=y, X=np.ascontiguousarray(X), path=where)
    if X.shape[0] != y.shape[0]:
        raise PerceptronsError(f"{where}: {X.shape[0]} rows of X but {y.shape[0]} labels")
    return RawShard(block, [(where, 1, block.n_rows)], {})


def on_worker_summary(raw, max_abs=False, sums=False, moments=None):
    """What the client needs to know of a raw shard: rows, width, storage, labels, with
    ``max_abs`` each column's largest |x| (a max-abs scaler of the whole data is their maximum),
    with ``sums`` (an imputer: a missing number is NaN) each column's sum and count of the
    values given (the whole data's means merge from them), and with ``moments`` =
    ``(ColumnStandardScaler or None: every column, the hashed width)`` that scaler fitted on
    the shard (the whole data's means and variances merge from them)."""
    b = raw.block
    labels, counts = np.unique(b.y, return_counts=True)
    values = b.X if not b.sparse else b.data
    gaps = sums and not b.sparse and bool(np.isnan(values).any())
    finite = values is None or bool(np.isfinite(values).all()) or (gaps and not np.isinf(values).any())
    # the largest |x|, for the check that the model's scores kept their features
    top = 1.0 if values is None else largest_magnitude(values[~np.isnan(values)] if gaps else values)
    return {
        "rows": b.n_rows,
        "features": b.n_features,
        "sparse": b.sparse,
        "dtype": None if values is None else values.dtype.str,
        "labels": labels,
        "counts": counts,
        "finite": finite,
        "top": top,
        "where": raw.spans[0][0],
        "stamps": raw.stamps,
        "max_abs": column_max_abs(b) if max_abs else None,
        "sums": column_sums(b) if sums and not b.sparse else None,
        "moments": None if moments is None else _moments(b, *moments),
    }


def _moments(b, step, width):
    """``step`` (a ColumnStandardScaler; None: one of every column) fitted on block ``b``."""
    from sklearn.base import clone

    from perceptrons.column_scaler import ColumnStandardScaler

    if step is None:
        step = ColumnStandardScaler(columns=range(b.n_features))
    return clone(step).fit(b.csr(width or b.n_features) if b.sparse else b.X)


def on_worker_encode(raw, classes, class_weight, n_features, stamps, scalers=()):
    """The raw shard with labels as class indices, updates scaled by class weight, and its
    columns divided by the fitted ``scalers`` (a max-abs scaler of the whole data), as a
    streamed fit divides its blocks (:class:`~perceptrons.io.block_scaling.BlockScaling`).

    ``stamps`` are the raw shard's as its summary gave them. Dask remakes a shard lost with a
    worker by reading its files again; a file changed since would train on rows that the
    classes, the width and the epochs already run were not computed from.
    """

    changed = first_changed(list(stamps), stamps, raw.stamps)
    if changed is not None:
        raise PerceptronsError(
            f"{changed}: changed after its shard was first read, and read again for a lost worker; "
            "train again on files that stay as they are"
        )
    b = raw.block
    if not b.sparse and b.X.shape[1] != n_features:
        raise PerceptronsError(f"{raw.spans[0][0]}: {b.X.shape[1]} columns, but other shards have {n_features}")
    yi = encode_labels(labels_as_classes(b.y, classes), classes)
    try:
        scale = sample_scale(b.weight, class_weight, yi, classes, b.n_rows)
    except PerceptronsError as exc:
        raise PerceptronsError(f"{raw.spans[0][0]}: {exc}") from None
    Xop = b.operand()
    if scalers and not scales_nothing(scalers):
        w_dtype = np.float32 if b.sparse and (b.data is None or b.data.dtype == np.float32) else np.float64
        Xop = BlockScaling(scalers, w_dtype).operand(b)
    return LinearShard(Xop, yi, scale, raw.spans)


def on_worker_epoch(shard, params, state, epoch, index, part=(0, 1)):
    """One perceptron epoch (or ``part`` of one) of the serial estimator's compiled loop on one
    shard, from ``state``: the linear family's pure step (:func:`perceptrons.linear.trainer.step`).

    Pure: it runs on its own copy of the state, and a shuffled order is drawn from (seed, epoch,
    shard), so a re-run gives the same result.
    """
    state, (m, updates) = step(params, LinearState(**state), shard, epoch, index, part)  # the task's own copy
    if m < 0:
        raise PerceptronsError(
            f"{shard.locate(-1 - m)}: a score overflowed float64 (the features are too large for "
            "these weights); scale the features down"
        )
    return state._asdict(), m, updates


# ---------------------------------------------------------------------- on the client
def classes_of(summaries):
    """The sorted classes over every shard's labels (typed as the in-memory readers type them)
    and each class's number of rows."""
    table = np.concatenate([s["labels"] for s in summaries])
    labels = file_labels(table, "the shards")
    classes, code = np.unique(labels, return_inverse=True)
    if classes.shape[0] < 2:
        raise PerceptronsError(
            f"every row has the label {classes.tolist()[0]!r}; a classifier needs at least two classes"
        )
    counts = np.zeros(classes.shape[0], dtype=np.int64)
    np.add.at(counts, code.ravel(), np.concatenate([s["counts"] for s in summaries]))
    return classes, counts


def balanced(classes, counts):
    """``class_weight="balanced"`` over the whole data: n / (n_classes · count), as scikit-learn."""
    n = counts.sum()
    return {c: n / (len(classes) * k) for c, k in zip(classes.tolist(), counts.tolist())}

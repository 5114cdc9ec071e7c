"""A batch's feature columns as a block's rows, in the layouts of :mod:`perceptrons.io.arrow`:
dense float64 rows of numeric columns, binary CSR rows of one column of feature indices, or CSR
rows hashed into ``2**hash_bits`` slots (columns of numbers by name, words as ``name=word``, a
column of raw text by its words), each value checked and refused with its row.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.arrow_numbers import is_number
from perceptrons.io.blocks import Block
from perceptrons.io.hashing import DEFAULT_HASH_BITS


def dense_rows(path, columns, feature_names, places, keep_missing=False):
    """The rows of numeric columns as float64; a missing number NaN with ``keep_missing``, else refused."""
    import pyarrow as pa
    import pyarrow.compute as pc

    X = np.empty((len(columns[0]), len(columns)), dtype=np.float64)
    for j, c in enumerate(columns):
        if c.null_count and not keep_missing:
            bad = int(np.flatnonzero(np.asarray(c.is_null()))[0])
            raise PerceptronsError(
                f"{path}, {places[bad]}: column {feature_names[j]!r} is empty or a "
                "missing-value marker (NA, null); expected a number"
            )
        X[:, j] = pc.cast(c, pa.float64()).to_numpy(zero_copy_only=False)  # a null: NaN
    bad = np.isinf(X) if keep_missing else ~np.isfinite(X)
    if bad.any():
        r, j = (int(v[0]) for v in np.nonzero(bad))
        raise PerceptronsError(
            f"{path}, {places[r]}: value {float(X[r, j])!r} of column {feature_names[j]!r} "
            "is not finite; expected a finite number"
        )
    return X


def index_list_rows(path, column, y, places):
    """The rows of one column of integer lists (feature indices) as binary CSR rows."""
    import pyarrow.compute as pc

    if column.null_count:
        bad = int(np.flatnonzero(np.asarray(column.is_null()))[0])
        raise PerceptronsError(f"{path}, {places[bad]}: the feature list is empty (null)")
    flat = column.flatten()
    if flat.null_count:
        raise PerceptronsError(f"{path}, {places[0]}: a feature index is null; expected integers")
    lengths = np.asarray(pc.list_value_length(column), dtype=np.int64)
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    raw = flat.to_numpy(zero_copy_only=False)
    # compared in the column's own type: a uint64 beyond 2^63 cast to int64 first reads as negative
    top = np.iinfo(np.int32).max
    if raw.size and (raw.min() < 0 or raw.max() > top):
        bad = int(np.flatnonzero((raw < 0) | (raw > top))[0])
        row = int(np.searchsorted(indptr, bad, side="right")) - 1
        raise PerceptronsError(f"{path}, {places[row]}: feature index {int(raw[bad])} is outside [0, {top}]")
    indices = raw.astype(np.int64)
    return csr_block(path, y, indptr, indices, np.ones(indices.size, np.float32), places)


def hashed_rows(path, columns, feature_names, y, features, places):
    """The rows of a batch as CSR rows of width ``2**hash_bits``: a column of numbers its value
    in the slot of its name's hash, a word 1 in the slot of ``name=word``'s, the ``text`` column's
    words counted (scikit-learn's ``HashingVectorizer``).  ``features`` = (hash_bits, the text
    column, keep_missing: a missing number has no entry).  The block's ``numbers`` are the slots
    of the columns of numbers.
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import HashingVectorizer
    from sklearn.utils import murmurhash3_32

    hash_bits, text, keep_missing = features
    width = 2 ** (hash_bits or DEFAULT_HASH_BITS)
    n = len(y)
    rows, cols, vals = [], [], []
    parts, numbers = [], set()
    for name, c in zip(feature_names, columns):
        if name == text:
            texts = np.asarray(c.cast("string").fill_null("").to_numpy(zero_copy_only=False), dtype=object)
            parts.append(HashingVectorizer(n_features=width, alternate_sign=False, norm=None).transform(texts))
            continue
        if is_number(c.type):
            v = np.asarray(pc.cast(c, pa.float64()).to_numpy(zero_copy_only=False))  # a null: NaN
            given = ~np.isnan(v) if keep_missing else np.ones(n, dtype=bool)  # a missing number: no entry
            if not np.all(np.isfinite(v[given])):
                bad = int(np.flatnonzero(given & ~np.isfinite(v))[0])
                raise PerceptronsError(
                    f"{path}, {places[bad]}: column {name!r} is empty or not finite; expected a number"
                )
            numbers.add(slot := murmurhash3_32(name, positive=True) % width)
            rows.append(np.flatnonzero(given))
            cols.append(np.full(int(given.sum()), slot))
            vals.append(v[given])
            continue
        s = np.asarray(c.cast("string").fill_null("").to_numpy(zero_copy_only=False), dtype=object)
        uniq, inv = np.unique(s, return_inverse=True)
        h = np.array([murmurhash3_32(f"{name}={u}", positive=True) % width for u in uniq], dtype=np.int64)
        rows.append(np.arange(n))
        cols.append(h[inv.ravel()])
        vals.append(np.ones(n))
    if rows:
        parts.append(
            sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, width))
        )
    X = parts[0] if len(parts) == 1 else sp.csr_matrix(sum(parts[1:], parts[0]))
    X.sum_duplicates()
    X.sort_indices()
    return csr_block(path, y, X.indptr, X.indices, X.data, places, width=width, numbers=tuple(sorted(numbers)))


def csr_block(path, y, indptr, indices, data, places, width=0, numbers=()):
    """A block of CSR rows, values in float32 (``None`` when all are 1); a value beyond float32's
    range is refused with its row.
    """
    with np.errstate(over="ignore"):
        data = np.asarray(data, dtype=np.float32)
    if not np.isfinite(data).all():  # a finite float64 beyond float32's range, or a sum of two
        bad = int(np.flatnonzero(~np.isfinite(data))[0])
        row = int(np.searchsorted(indptr, bad, side="right")) - 1
        raise PerceptronsError(
            f"{path}, {places[row]}: a feature value is beyond float32's range "
            "(±3.4e38), in which the hashed rows are stored; expected a smaller number"
        )
    return Block(
        y=y,
        indptr=np.asarray(indptr, dtype=np.int64),
        indices=np.asarray(indices, dtype=np.int32),
        data=None if np.all(data == 1.0) else data,
        path=path,
        line=places.line(0),
        width=width,
        numbers=numbers,
    )

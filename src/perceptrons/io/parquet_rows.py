"""A whole Parquet file of rows (numbers, or one column of feature indices) in memory, read by
the streamed reader's blocks (:func:`~perceptrons.io.arrow.parquet_blocks`) under the load
budget: the ``parquet`` reader of :mod:`perceptrons.io.readers`.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path
from perceptrons.io.arrow import label_position, parquet_blocks
from perceptrons.io.blocks import budgeted
from perceptrons.io.labels import typed_labels


def read_parquet(path, label=None, n_features=None, require_labels=True):
    """``(X, y, label name)`` of a whole Parquet file in memory, from its blocks.

    X is dense float64 for numeric feature columns, CSR for a list-of-indices column (width
    ``n_features`` when given, else the largest index + 1).
    """
    path = check_path(path, "path", "read_parquet")
    import pyarrow.parquet as pq
    import scipy.sparse as sp

    blocks = budgeted(path, parquet_blocks(path, label=label, require_labels=require_labels))
    if not blocks:
        raise PerceptronsError(f"{path}: no data rows")
    y = typed_labels(np.concatenate([b.y for b in blocks]).tolist())
    names = pq.ParquetFile(path).schema_arrow.names
    label_name = names[label_position(path, names, label)]
    if not blocks[0].sparse:
        return np.concatenate([b.X for b in blocks]), y, label_name
    width = n_features or max(b.n_features for b in blocks)
    return sp.vstack([b.csr(width) for b in blocks], format="csr"), y, label_name

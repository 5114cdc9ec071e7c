"""The column pipeline the command line learns from a table: scikit-learn's own transformers.

A perceptron's updates are sums of rows, so a column on a scale of thousands drowns one on a
scale of one, and the mistake bound (R/γ)² grows with the widest column (Novikoff 1962): on a
table of four columns on scales from 15 to 5000 the averaged perceptron scores 0.63 unscaled
and 0.99 standardised.  So each column is prepared before the model sees it:

* a column of numbers: missing cells imputed with the column's mean (scikit-learn's
  ``SimpleImputer``), then standardised (``StandardScaler``), scaled by its largest absolute
  value (``MaxAbsScaler``), or left as it is (``scale``);
* a column of text with at most ``max_levels`` distinct values: one-hot (``OneHotEncoder``),
  a missing cell its own level and a value not seen in training no level at all;
* a column of text with more: hashed into ``2**hash_bits`` slots (``FeatureHasher``), since
  one column per value would be as wide as the table is long.

Sparse data (LIBSVM, Vowpal Wabbit) is scaled by ``MaxAbsScaler``, which keeps zeros zero.
The fitted pipeline is stored in the model file (:mod:`perceptrons.io.pipeline_state`) and
applied by every command that reads data for the model.
"""

from typing import NamedTuple

import numpy as np

from perceptrons._core.errors import PerceptronsError

#: how a column of numbers is scaled
SCALES = ("standard", "maxabs", "none")
#: a text column with more distinct values than this is hashed, not one-hot encoded
MAX_LEVELS = 100
#: slots of a hashed text column
HASH_BITS = 12
#: the level a missing text cell gets (angle brackets: no CSV word is likely to be it)
MISSING_LEVEL = "<missing>"


class ColumnPlan(NamedTuple):
    """What the pipeline does with one column: its name, kind, missing cells, and the encoding
    (``"mean, standardised"``, ``"one-hot, 3 levels"``, ``"hashed, 812 values into 4096"``).
    """

    name: str
    kind: str
    missing: int
    encoding: str


def _scaler(scale, sparse=False):
    from sklearn.preprocessing import MaxAbsScaler, StandardScaler

    if scale == "none":
        return "passthrough"
    if scale == "maxabs" or sparse:
        return MaxAbsScaler()
    return StandardScaler()


def matrix_transformer(scale, sparse):
    """The transformer of a matrix with no column names (LIBSVM, VW, npz): one scaler for all
    columns, ``MaxAbsScaler`` for sparse data (centring would fill in every zero); None for
    ``scale="none"``.
    """
    if scale not in SCALES:
        raise PerceptronsError(f"scale must be one of {list(SCALES)}; got {scale!r}")
    step = _scaler(scale, sparse)
    return None if step == "passthrough" else step


def table_transformer(table, scale="standard", max_levels=MAX_LEVELS, hash_bits=HASH_BITS, missing_indicator=False):
    """``(transformer, plans)``: an unfitted transformer for a :class:`~perceptrons.io.table.Table`
    and a :class:`ColumnPlan` per column.

    Parameters
    ----------
    table : Table
        The training table (its kinds, and its text columns' distinct values, decide the plan).
    scale : {"standard", "maxabs", "none"}
        How columns of numbers are scaled.
    max_levels : int
        Text columns with more distinct values are hashed.
    hash_bits : int
        A hashed column has ``2**hash_bits`` slots.
    missing_indicator : bool
        Add a 0/1 column per column of numbers with missing cells (``SimpleImputer(add_indicator=True)``).
    """
    from sklearn.compose import ColumnTransformer
    from sklearn.feature_extraction import FeatureHasher
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder

    if scale not in SCALES:
        raise PerceptronsError(f"scale must be one of {list(SCALES)}; got {scale!r}")
    numbers = [j for j, k in enumerate(table.kinds) if k == "number"]
    scaled = {"standard": "standardised", "maxabs": "scaled by max |x|", "none": "as read"}[scale]
    plans = [None] * len(table.names)
    for j in numbers:
        gaps = table.missing[j]
        how = f"imputed by the mean{' with an indicator' if missing_indicator else ''}, " if gaps else ""
        read = f"; {table.read_as[j]}" if table.read_as[j] else ""
        plans[j] = ColumnPlan(table.names[j], "number", gaps, how + scaled + read)

    def numeric():
        imputer = SimpleImputer(strategy="mean", add_indicator=missing_indicator, keep_empty_features=True)
        step = _scaler(scale)
        return imputer if step == "passthrough" else Pipeline([("impute", imputer), ("scale", step)])

    if len(numbers) == len(table.names):
        return numeric(), plans
    parts = [("numbers", numeric(), numbers)] if numbers else []
    for j, kind in enumerate(table.kinds):
        if kind != "text":
            continue
        levels = text_levels(table.X[:, j])
        fill = SimpleImputer(strategy="constant", fill_value=MISSING_LEVEL, keep_empty_features=True)
        if levels <= max_levels:
            encode = OneHotEncoder(handle_unknown="ignore")
            what = f"one-hot, {levels} level{'s' if levels != 1 else ''}"
        else:
            encode = FeatureHasher(n_features=2**hash_bits, input_type="string")
            what = f"hashed, {levels} values into {2**hash_bits}"
        gaps = table.missing[j]
        if gaps:
            what += f", missing as the level {MISSING_LEVEL!r}"
        if table.mixed[j]:
            what += f" (numbers and words mixed; the first word at {table.mixed[j]})"
        plans[j] = ColumnPlan(table.names[j], "text", gaps, what)
        parts.append((f"text{j}", Pipeline([("impute", fill), ("encode", encode)]), [j]))
    return ColumnTransformer(parts), plans


def text_levels(column):
    """The distinct text values of a column (its missing cells not counted)."""
    return len({v for v in column.tolist() if isinstance(v, str)})


def unseen_values(transformer, table):
    """``{column name: cells}`` of the text values in ``table`` that the fitted one-hot columns of
    ``transformer`` never saw (they are encoded as no level: the "unknown" slot).
    """
    out = {}
    for name, part, columns in getattr(transformer, "transformers_", ()):
        if not name.startswith("text") or isinstance(part, str):
            continue
        encode = part.named_steps["encode"]
        if not hasattr(encode, "categories_"):
            continue  # hashed: every value has a slot
        j = columns[0]
        known = set(encode.categories_[0].tolist())
        column = table.X[:, j]
        n = sum(1 for v in column.tolist() if isinstance(v, str) and v not in known)
        if n:
            out[table.names[j]] = n
    return out


def as_matrix(X):
    """``X`` of a transformer's output as float64 (dense) or CSR (sparse)."""
    import scipy.sparse as sp

    if sp.issparse(X):
        return sp.csr_matrix(X, dtype=np.float64)
    return np.asarray(X, dtype=np.float64)

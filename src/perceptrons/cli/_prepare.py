"""The model's column pipeline on the command line: learnt by ``train``, applied by every
command that reads data for a model, and the reader's options kept in the model file.

``train`` reads a CSV/TSV as a table (numbers and text, missing cells kept) and learns the
pipeline of :mod:`perceptrons.preprocessing`; other formats get one scaler for all columns.
The model file then holds a scikit-learn ``Pipeline`` (that transformer, then the estimator),
and its ``info`` the table's columns and kinds and the options the data was read with, so that
``predict`` and ``evaluate`` read a file the same way without being told again.
"""

import re
import shlex
from typing import NamedTuple

import click

from perceptrons._core.errors import PerceptronsError
from perceptrons.cli._common import encoding_info, read_any_base, stored_encoding, stored_zero_based
from perceptrons.io.labels import as_classes

#: formats read as a table of named columns (a Parquet file of one column of index lists is a sparse matrix)
TABLE_FORMATS = ("csv", "tsv", "parquet")
#: the ``--scale`` choices, with ``auto``: standardise a table or dense matrix, max-abs scale sparse data
SCALE_CHOICES = ("auto", "standard", "maxabs", "none")
#: columns of the plan the summary shows by name; the rest are counted
SHOWN_COLUMNS = 12


class Prepared(NamedTuple):
    """Training data read and prepared: ``raw`` is what the saved model takes, ``X`` what the
    estimator is fitted on (``raw`` transformed), ``prep`` the fitted transformer (None: none)."""

    raw: object
    X: object
    y: object
    label: object
    weight: object
    prep: object
    info: dict
    lines: list


def data_format(path, fmt):
    """The format ``--format`` or the file's extension names (None for standard input without it)."""
    from perceptrons.io.readers import guess_format

    return fmt or (None if path == "-" else guess_format(path))


def read_training(data, label, fmt, scale, missing_indicator, dense=False, drop=(), encoding=None):
    """:class:`Prepared` training data, the transformer fitted on it.  With ``dense`` (the kernel
    model, which densifies its input anyway) a sparse matrix is densified first, refused before
    it is allocated when two dense copies would not fit, and then scaled as a dense one; a
    table's encoded columns are densified the same way.  ``drop``: a table's columns left out
    (an identifier), so that the model neither reads nor needs them; ``encoding`` a CSV/TSV
    file's, which the model keeps for the files read for it later."""
    import warnings

    import scipy.sparse as sp

    from perceptrons.io.readers import read_data, read_table
    from perceptrons.preprocessing import as_matrix, matrix_transformer, table_transformer

    kind = data_format(data, fmt)
    if kind in TABLE_FORMATS and not _index_lists(data, kind, lambda name: name not in drop):
        table = read_table(data, label=label, fmt=fmt, encoding=encoding or "utf-8", drop=tuple(drop))
        unnamed = row_names(table)
        table = _kept(table, [j for j in range(len(table.names)) if table.names[j] not in unnamed])
        chosen = "standard" if scale == "auto" else scale
        if chosen == "standard":
            numbers = [j for j, kind in enumerate(table.kinds) if kind == "number"]
            check_standardisable(data, [table.names[j] for j in numbers], table.X[:, numbers].astype(float))
        transformer, plans = table_transformer(table, chosen, missing_indicator=missing_indicator)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # scikit-learn's notes on constant columns
            X = as_matrix(transformer.fit_transform(table.X))
        if dense and sp.issparse(X):  # one-hot and hashed columns come out sparse
            from perceptrons._core.memory import densify

            X = densify(X, data, copies=2, why="kernel values are dense")
        info = {
            "label_column": table.label,
            "table": {"format": kind, "names": list(table.names), "kinds": list(table.kinds)},
            **encoding_info(encoding if kind != "parquet" else None),
        }
        lines = _label_line(table, label) + _row_names_line(unnamed) + dropped_lines(drop)
        lines += _plan_lines(plans, X.shape[1])
        lines += _identifier_notes(table) + _free_text_notes(table)
        return Prepared(table.X, X, table.y, table.label, None, transformer, info, lines)
    (X, y, label_column, weight), zero_based = read_any_base(
        lambda zero: read_data(data, label=label, fmt=fmt, return_label_name=True, return_weight=True, zero_based=zero)
    )
    if dense and sp.issparse(X):
        from perceptrons._core.memory import densify

        X = densify(X, data, copies=2, why="kernel values are dense")
    sparse = sp.issparse(X)
    if sparse and scale != "none":
        from perceptrons._core.memory import check_allocation

        per_feature = 2 + 2 * (1 if len(set(y.tolist())) <= 2 else len(set(y.tolist())))
        check_allocation(  # max_abs_ and scale_, the scaled copy of the values, then the weights and their sums
            X.shape[1] * 8 * per_feature + X.data.nbytes,
            f"{data}: the column scales and the weights of {X.shape[1]:,} features",
            "the largest feature index sets their number: renumber the features, or hash them into fewer columns",
        )
    chosen = ("maxabs" if sparse else "standard") if scale == "auto" else scale
    if chosen == "standard" and not sparse:
        check_standardisable(data, [f"feature {j + 1}" for j in range(X.shape[1])], X)
    step = matrix_transformer(chosen, sparse)
    Xt = X if step is None else as_matrix(step.fit_transform(X))
    info = {"label_column": label_column, **({"libsvm_zero_based": True} if zero_based else {})}
    what = {"standard": "standardised", "maxabs": "each column scaled by its max |x|", "none": "as read"}[
        "maxabs" if (sparse and chosen == "standard") else chosen
    ]
    lines = [f"{'columns':<10} {X.shape[1]}, {what}"]
    if zero_based:
        lines.append(f"{'indices':<10} from 0 (the file holds feature index 0); files read for the model are read so")
    return Prepared(X, Xt, y, label_column, weight, step, info, lines)


#: the largest |x| whose square a float64 holds: a standard deviation of larger values overflows
SQUARE_LIMIT = 1.3407807929942596e154  # √(numpy.finfo(float64).max)


def check_standardisable(data, names, X):
    """Refuse dense columns ``X`` (named ``names``) holding a value whose square overflows:
    scikit-learn's ``StandardScaler`` then has a variance of NaN and every scaled value is
    NaN, which the model refused as "Input X contains NaN or infinity (row 0)" of a file
    without any.  Max-abs scaling divides by the value itself and reads such columns.
    """
    import numpy as np

    with np.errstate(invalid="ignore"):
        top = np.nanmax(np.abs(X), axis=0, initial=0.0) if X.size else np.zeros(0)
    # float64: against float32 columns the limit itself was cast, overflowed and warned
    wide = np.flatnonzero(np.asarray(top, dtype=np.float64) >= SQUARE_LIMIT)
    if wide.size:
        j = int(wide[0])
        raise click.BadParameter(
            f"{data}: column {names[j]!r} holds {top[j]:.3g}, whose square overflows a float64 (above "
            f"{SQUARE_LIMIT:.3g}): it cannot be standardised; give --scale maxabs (each column divided "
            "by its largest |x|), or rescale the column",
            param_hint="--scale",
        )


def label_notes(y, rows=None):
    """Summary lines about the labels a user may not have meant: classes that differ only in
    case, and, given the ``rows`` they label, almost a class a row (a measurement in whole
    numbers taken as the label: the last column of car's Salaries, 371 classes over 397 rows).
    """
    import numpy as np

    from perceptrons.io.labels import case_variants

    notes = []
    k = len(np.unique(np.asarray(y)))
    if rows is not None and k > MANY_CLASSES and k > rows / 2:
        notes.append(
            f"{'note':<10} {k:,} classes over {rows:,} rows: is the label column a measurement or an "
            "identifier? --label NAME picks the column of classes"
        )
    groups = case_variants(y)
    if groups:
        shown = "; ".join(", ".join(map(repr, g)) for g in groups[:3]) + (" ..." if len(groups) > 3 else "")
        notes.append(f"{'note':<10} labels that differ only in case are different classes: {shown}")
    return notes


#: classes beyond which a label of almost a class a row is noted (a small table may have few rows a class)
MANY_CLASSES = 20


def read_for_theory(data, label, fmt, encoding=None):
    """``(X, y, notes)`` of DATA for ``analyze`` and ``report``, which measure the data as they
    are: a table's columns of numbers keep their units (a missing cell takes its column's mean),
    a text column of at most ``MAX_LEVELS`` values becomes its one-hot columns, and one with more
    is left out (hashed slots are no features to read a margin in).  ``notes`` say what was done,
    one line a column touched; other formats are read as they are."""
    import numpy as np

    from perceptrons.io.labels import check_classes
    from perceptrons.io.readers import read_data, read_table
    from perceptrons.preprocessing import MAX_LEVELS, as_matrix, table_transformer, text_levels

    kind = data_format(data, fmt)
    if kind not in TABLE_FORMATS or _index_lists(data, kind):
        (X, y), _ = read_any_base(lambda zero: read_data(data, label=label, fmt=fmt, zero_based=zero))
        check_classes(y, f"{data}: the label column")
        return X, y, []
    table = read_table(data, label=label, fmt=fmt, encoding=encoding or "utf-8")
    check_classes(table.y, f"{data}: the label column {table.label!r}")
    notes, keep = [], []
    unnamed = row_names(table)
    if unnamed:
        notes.append(
            f"the first {len(unnamed)} column(s), unnamed, hold a different value on every row: row names, left out"
        )
    for j, name in enumerate(table.names):
        if name in unnamed:
            continue
        levels = text_levels(table.X[:, j]) if table.kinds[j] == "text" else 0
        if levels > MAX_LEVELS:
            notes.append(f"column {name!r}: text of {levels} values, left out (more than {MAX_LEVELS} for one-hot)")
            continue
        keep.append(j)
    if not keep:
        raise PerceptronsError(f"{data}: no column to measure: every one is text of more than {MAX_LEVELS} values")
    table = _kept(table, keep)
    transformer, plans = table_transformer(table, "none")
    X = as_matrix(transformer.fit_transform(table.X))
    notes += [
        f"column {p.name!r}: {p.kind}, {p.encoding}"
        for p, how in zip(plans, table.read_as)
        if p.kind == "text" or p.missing or how
    ]
    # sparse (one-hot columns) stays sparse: each command densifies through its guarded check
    return (X if hasattr(X, "toarray") else np.asarray(X, dtype=np.float64)), table.y, notes


#: a column name that says it holds identifiers
_ID_NAME = re.compile(r"(?i)(^|[^a-z])(id|ids|index|idx|key|row|no|number)$|^id[^a-z]|^unnamed")
#: rows below which a column of distinct whole numbers says nothing
_ID_MIN_ROWS = 20


def row_names(table):
    """The names of the table's first feature columns that are row names (none: ``()``): no
    name in their header cells (:func:`~perceptrons.io.delimited.unnamed`) and a different value
    on every row, as R's ``write.csv`` and pandas' ``DataFrame.to_csv`` write a data frame's row
    names or index (:func:`~perceptrons.io.delimited.leading_row_names`).  Read as a feature, a row
    number learns the file's order (:func:`_identifier_notes`) and a row name is a category no
    other row has; the user did not name it, and pandas reads it back as ``index_col=0``.
    """
    import numpy as np

    from perceptrons.io.delimited import leading_row_names

    n = table.X.shape[0]

    def distinct(j):
        cells = table.X[:, j]
        if table.kinds[j] == "number":
            cells = np.asarray(cells, dtype=np.float64)
        return n > 1 and not table.missing[j] and np.unique(cells).shape[0] == n

    # the label is no column of the table: every name is a feature's (one more for its place)
    return tuple(table.names[: leading_row_names([*table.names, None], distinct, None)])


def _row_names_line(unnamed):
    """The summary's line saying row names were left out."""
    if not unnamed:
        return []
    which = "the first column" if len(unnamed) == 1 else f"the first {len(unnamed)} columns"
    named = ", ".join(repr(name) for name in unnamed if name)
    return [
        f"{'rows':<10} {which}, unnamed{f' ({named}: pandas names so)' if named else ''}, "
        f"{'is' if len(unnamed) == 1 else 'are'} row names (a different value on every row, as R and pandas "
        "write them): left out; name it in the header to train on it"
    ]


def dropped_lines(drop):
    """The summary's line naming the columns ``--drop`` left out (none without it)."""
    if not drop:
        return []
    shown = ", ".join(map(repr, drop[:8])) + (f" and {len(drop) - 8} more" if len(drop) > 8 else "")
    return [f"{'dropped':<10} {shown}: left out (--drop), never read"]


def _label_line(table, label):
    """The summary's line naming the label column when ``--label`` did not: the last column is
    taken, and a file whose label is elsewhere (Titanic's ``Survived``) would train on it."""
    if label is not None or table.label is None:
        return []
    return [f"{'label':<10} {table.label!r}, the last column (--label NAME picks another)"]


def _identifier_notes(table):
    """Notes on columns that look like identifiers: a different whole number on every row,
    consecutive or under a name such as ``id`` or ``row_no``, or a different short text on every
    row (``"A/5 21171"``, a UUID).  Used as a feature, a row number learns the file's order
    (held-out accuracy fell from 0.74 to 0.56 on rows sorted by class), and a text one a category
    no other row has; the note says how to leave it out."""
    import numpy as np

    notes = []
    n = table.X.shape[0]
    for j, name in enumerate(table.names):
        if table.missing[j] or n < _ID_MIN_ROWS:
            continue
        if table.kinds[j] == "text":
            cells = table.X[:, j].tolist()
            if len(set(cells)) == n and sum(len(c.split()) for c in cells) < 3 * n:  # several words: free text
                notes.append(
                    f"{'note':<10} {name!r} holds a different text on every row: an identifier? As one category "
                    f"a row it says nothing of other rows; --drop {shlex.quote(name)} leaves it out"
                )
            continue
        v = np.asarray(table.X[:, j], dtype=np.float64)
        if not (np.all(v == np.round(v)) and np.unique(v).shape[0] == n):
            continue
        if v.max() - v.min() == n - 1 or _ID_NAME.search(name):
            notes.append(
                f"{'note':<10} {name!r} holds a different whole number on every row: an identifier? It is "
                f"used as a feature; --drop {shlex.quote(name)} leaves it out"
            )
    return notes


def _free_text_notes(table):
    """Notes on text columns of sentences: a different value on almost every row (nine in ten),
    of three words or more on average.  Encoded as one category a row, such a column says
    nothing about rows not seen (held-out accuracy at chance on 50,000 reviews, 0.87 with their
    words); the note names the option that reads its words."""
    notes = []
    n = table.X.shape[0]
    for j, name in enumerate(table.names):
        if table.kinds[j] != "text" or n < _ID_MIN_ROWS:
            continue
        cells = [v for v in table.X[:, j].tolist() if isinstance(v, str)]
        if len(set(cells)) < 0.9 * n or sum(len(c.split()) for c in cells) < 3 * len(cells):
            continue
        notes.append(
            f"{'note':<10} {name!r} holds a different text of several words on almost every row: free text? "
            f"As one category a row it says little; --stream --text {shlex.quote(name)} reads its words"
        )
    return notes


def _kept(table, keep):
    """``table`` with only its feature columns ``keep`` (positions)."""
    if len(keep) == len(table.names):
        return table
    if not keep:
        raise PerceptronsError("no feature column is left: every one is dropped (--drop)")
    return table._replace(
        names=tuple(table.names[j] for j in keep),
        kinds=tuple(table.kinds[j] for j in keep),
        X=table.X[:, keep],
        missing=tuple(table.missing[j] for j in keep),
        mixed=tuple(table.mixed[j] for j in keep),
        read_as=tuple(table.read_as[j] for j in keep),
    )


def _index_lists(path, kind, read=lambda name: True):
    """Whether ``path`` is a Parquet file whose features are one column of index lists (sparse),
    among the columns that ``read(name)`` (the others are left out, or not the model's)."""
    if kind != "parquet" or path == "-":
        return False
    try:
        import pyarrow.parquet as pq
        import pyarrow.types as pt

        schema = pq.read_schema(path)
    except Exception:  # unreadable or pyarrow missing: the table reader names the cause
        return False
    return any((pt.is_list(f.type) or pt.is_large_list(f.type)) and read(f.name) for f in schema)


def _plan_lines(plans, width):
    """The summary's lines of the column plan: each column's kind and encoding, the first
    ``SHOWN_COLUMNS`` by name and the others counted by what is done to them."""
    lines = []
    shown = SHOWN_COLUMNS + (len(plans) == SHOWN_COLUMNS + 1)  # "and 1 more" would hide a name for none
    for i, p in enumerate(plans[:shown]):
        gaps = f", {p.missing} missing" if p.missing else ""
        lines.append(f"{'columns' if i == 0 else '':<10} {p.name or repr(p.name)}: {p.kind}{gaps} -> {p.encoding}")
    rest = plans[shown:]
    if rest:
        counts = {}
        for p in rest:
            counts[(p.kind, p.encoding)] = counts.get((p.kind, p.encoding), 0) + 1
        for (kind, encoding), n in sorted(counts.items(), key=lambda kv: -kv[1]):
            lines.append(f"{'':<10} and {n} more {kind} column{'s' if n > 1 else ''} -> {encoding}")
    lines.append(f"{'':<10} {len(plans)} columns -> {width} features")
    return lines


def compose(prep, estimator):
    """The model to save: the fitted transformer then the estimator (a ``Pipeline``), or the
    estimator alone when there is no transformer."""
    if prep is None:
        return estimator
    from sklearn.pipeline import Pipeline

    return Pipeline([("columns", prep), ("model", estimator)])


def final(model):
    """The estimator of a saved model (the last step of its pipeline)."""
    return model.steps[-1][1] if type(model).__name__ == "Pipeline" else model


def table_info(info, model_path):
    """``(format, names, kinds)`` of a model trained on a table, checked (None otherwise).

    Raises
    ------
    PerceptronsError
        A malformed ``info.table`` field, naming it.
    """
    table = info.get("table")
    if table is None:
        return None
    ok = (
        isinstance(table, dict)
        and set(table) == {"format", "names", "kinds"}
        and table["format"] in TABLE_FORMATS
        and isinstance(table["names"], list)
        and isinstance(table["kinds"], list)
        and len(table["names"]) == len(table["kinds"]) > 0
        and all(isinstance(n, str) and len(n) < 4096 for n in table["names"])
        and len(set(table["names"])) == len(table["names"])
        and all(k in ("number", "text") for k in table["kinds"])
    )
    if not ok:
        raise PerceptronsError(
            f"{model_path}: model field info.table: expected an object of format (csv, tsv or parquet), and names "
            "(distinct strings) and kinds ('number' or 'text') of equal length"
        )
    return table["format"], table["names"], table["kinds"]


class Read(NamedTuple):
    """Rows read for a model: ``X`` what the model takes, ``y`` (None without a label column),
    ``weight`` (None: none), ``notes`` lines to show (values a one-hot column never saw)."""

    X: object
    y: object
    weight: object
    notes: list


def read_for_saved(path, model, info, model_path, label, fmt, require_labels=True, encoding=None):
    """:class:`Read` of DATA for a saved model: a model trained on a table reads DATA as one,
    its columns by name and of the kinds it was trained on, in ``encoding`` or else the one the
    model's table was read in; another reads DATA as a matrix of the model's width.  Labels are
    typed as the model's classes are."""
    from perceptrons.cli._common import read_for_model

    table = table_info(info, model_path)
    stored_zero_based(info, model_path)  # checked here, where the model file can be named
    if table is None:
        X, y, weight = read_for_model(
            path,
            model,
            label,
            fmt,
            info,
            require_labels=require_labels,
            return_weight=True,
            encoding=encoding or stored_encoding(info, model_path),
        )
        return Read(X, y, weight, [])
    from perceptrons.io.readers import read_table
    from perceptrons.preprocessing import unseen_values

    trained_as, names, kinds = table
    kind = data_format(path, fmt) or trained_as
    if kind not in TABLE_FORMATS or _index_lists(path, kind, lambda name: name in names):
        X, y, weight = positional(
            path, names, kinds, label, fmt, info, "DATA", "the model was trained on", require_labels
        )
        return Read(X, as_classes(y, getattr(model, "classes_", None)), weight, [])
    t = read_table(
        path,
        label=label or info.get("label_column"),
        fmt=fmt or kind,
        names=names,
        kinds=kinds,
        require_labels=require_labels,
        encoding=encoding or stored_encoding(info, model_path),
    )
    y = as_classes(t.y, getattr(model, "classes_", None))
    notes = [
        f"column {name!r}: {n} value{'s' if n > 1 else ''} not seen in training (no level of its one-hot encoding)"
        for name, n in unseen_values(model.steps[0][1], t).items()
    ]
    return Read(t.X, y if require_labels else None, None, notes)


def read_test(path, prepared, label, fmt, encoding=None):
    """:class:`Read` of ``train --test``: read as the training data was (the table's columns by
    name, or a matrix of its width), before training, so that a bad test file costs nothing."""
    from perceptrons.cli._common import read_for_width

    table = prepared.info.get("table")
    if table is not None and (
        data_format(path, fmt if path == "-" else None) not in TABLE_FORMATS
        or _index_lists(path, data_format(path, None), lambda name: name in table["names"])
    ):
        X, y, weight = positional(
            path,
            table["names"],
            table["kinds"],
            label,
            fmt if path == "-" else None,
            {"label_column": prepared.label},
            "--test",
            "the training data has",
        )
        return Read(X, as_classes(y, prepared.y), weight, [])
    if table is None:
        X, y, weight = read_for_width(
            path,
            prepared.raw.shape[1],
            label,
            fmt if path == "-" else None,
            {"label_column": prepared.label, **{k: v for k, v in prepared.info.items() if k == "libsvm_zero_based"}},
            hint="--test",
            against="the training data has",
            return_weight=True,
            encoding=encoding,
        )
        return Read(X, as_classes(y, prepared.y), weight, [])
    from perceptrons.io.readers import read_table

    kind = data_format(path, fmt if path == "-" else None) or table["format"]
    try:
        t = read_table(
            path,
            label=prepared.label,
            fmt=kind,
            names=table["names"],
            kinds=table["kinds"],
            wanted_by="which the training data has",
            encoding=encoding or "utf-8",
        )
    except PerceptronsError as exc:
        raise click.BadParameter(str(exc), param_hint="--test") from None
    return Read(t.X, as_classes(t.y, prepared.y), None, [])


def positional(path, names, kinds, label, fmt, info, hint, against, require_labels=True):
    """``(X, y, weight)`` of a matrix file (LIBSVM, VW, npz) for a model trained on a table of
    numbers: its columns taken by position, densified (the table's imputer and scaler take dense
    rows).  A table with text columns has no positions to match."""
    import scipy.sparse as sp

    from perceptrons._core.memory import densify
    from perceptrons.cli._common import read_for_width

    if "text" in kinds:
        j = kinds.index("text")
        raise click.BadParameter(
            f"{path}: is a matrix of numbers, but the model was trained on a table with the text column "
            f"{names[j]!r}; give a CSV, TSV or Parquet file with the columns {', '.join(names[:5])}"
            f"{' ...' if len(names) > 5 else ''}",
            param_hint=hint,
        )
    X, y, weight = read_for_width(
        path,
        len(names),
        label,
        fmt,
        info,
        hint=hint,
        against=against,
        require_labels=require_labels,
        return_weight=True,
    )
    if sp.issparse(X):
        X = densify(X, path, why="the model's column pipeline takes dense rows")
    return X, y, weight

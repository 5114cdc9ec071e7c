"""CSV and TSV files with a header: the label column by name, every row checked with its line."""

import csv
import re

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import LoadBudget
from perceptrons._core.params import check_path
from perceptrons.io.csv_errors import ragged_row, too_few_columns
from perceptrons.io.labels import check_label, decimal_chars, is_float, typed_labels
from perceptrons.io.lines import bounded_lines, decoded_lines

#: bytes a row holds beside its values: its array's header, the list's slot, its label's str
ROW_OVERHEAD = 112 + 8 + 56


def _finite_row(path, lineno, values):
    bad = ~np.isfinite(values)
    if bad.any():
        raise PerceptronsError(
            f"{path}, line {lineno}: value {float(values[bad][0])!r} is not finite; expected a finite number"
        )


def text_lines(path, encoding="utf-8"):
    """Lines of a text file with their line breaks, decoded one at a time (a bad byte is reported
    with its line); a UTF-8 byte-order mark at the start is dropped (Excel writes "UTF-8 CSV"
    with one).  A gzip file is read through (``data.csv.gz``), as the streamed readers read it.
    ``encoding``: another than UTF-8, checked by :func:`perceptrons.io.encodings.check_encoding`.
    """
    from perceptrons.io.chunks import GZIP_ERRORS, gzip_error, is_gzip, opened

    packed = is_gzip(path)
    where = (lambda n: f"{path}, line {n} of the decompressed stream") if packed else (lambda n: f"{path}, line {n}")
    with opened(path) as f:
        try:
            for _, line in decoded_lines(
                path, bounded_lines(f), where=where, keep_ends=True, encoding=encoding, remedy=TABLE_REMEDY
            ):
                yield line
        except GZIP_ERRORS as exc:  # a damaged or truncated gzip stream
            raise gzip_error(path, exc) from None


#: what a table that is not UTF-8 can do: it takes --encoding
TABLE_REMEDY = (
    "a table in Latin-1 or Windows-1252 is read with --encoding cp1252, or converts with iconv -f CP1252 -t UTF-8"
)


def csv_records(path, delimiter, multiline=False, encoding="utf-8"):
    """``(first line, fields)`` of each record; csv errors name the file and line.  A quoted field
    may run over lines (RFC 4180) with ``multiline``, as in a column of text; a file of numbers
    has no such field, and one there is refused.  ``encoding`` as :func:`text_lines` takes it.
    """
    # skipinitialspace: "a, b" as people type it, and a quoted field after such a space
    # (1, "Doe, Jane") is one field, not two with quotes in them
    reader_ = csv.reader(text_lines(path, encoding), delimiter=delimiter, strict=True, skipinitialspace=True)
    limit = csv.field_size_limit()
    start = 1
    while True:
        try:
            row = next(reader_)
        except StopIteration:
            return
        except csv.Error as exc:
            reason = str(exc)
            if "field larger than field limit" in reason:
                reason = f"a field is longer than {limit:,} characters ({limit // 1024} KiB); expected numbers"
            elif "unexpected end of data" in reason:
                reason = "a quoted field opened here is never closed (unterminated quote)"
            elif "NUL" in reason:
                reason = "contains a NUL byte; expected text"
            elif "new-line character seen in unquoted field" in reason:
                reason = "a bare carriage return ends a line (classic Mac line breaks); expected \\n or \\r\\n"
            else:
                reason = f"bad CSV quoting ({reason})"
            raise PerceptronsError(f"{path}, line {start}: {reason}") from None
        end = reader_.line_num
        if not multiline and end != start and any("\n" in c or "\r" in c for c in row):
            raise PerceptronsError(
                f"{path}, line {start}: a quoted field runs over lines {start}-{end} (a quote is not closed on its line)"
            )
        yield start, row
        start = end + 1


def check_header(where, names, label):
    """Refuse a first line that is data, not names: every field a number (a file without its
    header would lose its first row to it, and name its columns by numbers).  A ``label`` given
    by name that is in the line says the names are meant.
    """
    if label is not None and label in names:
        return
    shown = ",".join(names[:6]) + (",..." if len(names) > 6 else "")
    add = f"add a first line naming the {len(names)} columns, the label's last"
    if not any(n.strip() for n in names):
        raise PerceptronsError(f"{where}: no column names (the file holds blank lines only); expected a header line")
    try:
        [float(name) for name in names]
    except ValueError:
        pass
    else:
        raise PerceptronsError(
            f"{where}: the first line ({shown}) is all numbers; expected a header of column names ({add})"
        )
    # a row of measurements with a text label (-6.992,4.555,...,cls_09): every feature's name a
    # number with a point, a sign or an exponent, which no header writes (pandas' 0,1,2 are kept)
    try:
        values = [float(name) for name in names[:-1]]
    except ValueError:
        return
    if values and not all(re.fullmatch(r"\s*[0-9]+\s*", n) for n in names[:-1]):
        raise PerceptronsError(
            f"{where}: the first line ({shown}) is numbers but for its last field, as a row of data is; "
            f"expected a header of column names ({add})"
        )


def check_not_data(path, line, header, columns, col=None):
    """Refuse a first line that is a row of data, not names: several of its fields are values of
    their own columns below (UCI's ``adult.data``: ``39, State-gov, ..., <=50K``), or every
    feature's name is a number and the label's (column ``col``) is one of the classes below
    (``1,2,B`` over ``2,4,A``).  A header's names are rarely values of their columns; a row's
    are, in every column of categories.  ``columns[j]`` holds column j's cells (the label's too).
    """
    seen = [name.strip() for name, cells in zip(header, columns) if name.strip() in {c.strip() for c in cells} - {""}]
    numbered = (
        col is not None and header[col].strip() in seen and all(is_float(n) for j, n in enumerate(header) if j != col)
    )
    add = f"expected a header of column names (add a first line naming the {len(header)} columns, the label's last)"
    if len(seen) >= max(2, len(header) // 3):
        shown = ", ".join(map(repr, seen[:3])) + (" ..." if len(seen) > 3 else "")
        raise PerceptronsError(
            f"{path}, line {line}: the first line is a row of data, not a header: {shown} are also values of "
            f"their columns below; {add}"
        )
    if numbered:
        raise PerceptronsError(
            f"{path}, line {line}: the first line is a row of data, not a header: its other fields are numbers "
            f"and the label column's name {header[col]!r} is one of its classes below; {add}"
        )


#: how the summary says a first column of row names is read
ROW_NAMES = (
    "row names (no name in the header, or pandas' 'Unnamed: 0', and a different value on every row), "
    "as R and pandas write them: left out"
)


def unnamed(name):
    """Whether a header names no column: empty, as R's ``write.csv`` and pandas' ``to_csv``
    write their row names' or index's, or ``Unnamed: 0``, pandas' name for it once such a file
    is read and written again (each time adding one more in front).
    """
    return name == "" or _PANDAS_UNNAMED.fullmatch(name) is not None


_PANDAS_UNNAMED = re.compile(r"Unnamed: \d{1,9}")
#: the columns pandas' ``to_parquet`` writes a data frame's index to (after the data, so that
#: the last column, the label by default, was the index): never data
PANDAS_INDEX = re.compile(r"__index_level_\d{1,9}__")


def leading_row_names(names, distinct, col):
    """How many columns at the start of ``names`` are row names: unnamed (:func:`unnamed`), a
    different value on every row (``distinct(j)``), not the label (``col``), the names after
    them unique (the streamed reader keeps columns by name).
    """
    k = 0
    while k < len(names) - 2 and k != col and unnamed(names[k]) and names.count(names[k]) == 1 and distinct(k):
        k += 1
    return k if len(set(names[k:])) == len(names) - k else 0


def row_names(names, run, col):
    """How many columns at the start are row names (:func:`leading_row_names`), as the first
    ``run`` shows them, as R's ``write.csv`` and pandas' ``to_csv`` write them.  The in-memory
    reader leaves them out too (``perceptrons.cli._prepare.row_names``).
    """
    import pyarrow.compute as pc

    def distinct(j):
        column = run.column(j)
        return run.num_rows > 1 and column.null_count == 0 and pc.count_distinct(column).as_py() == run.num_rows

    return leading_row_names(names, distinct, col)


def check_first_run(path, line, header, run, col):
    """:func:`check_not_data` of a streamed CSV file, on its first run of lines (``run``, a
    pyarrow Table of the header's columns): the cells as text, a column that has none (a list,
    bytes that are no text) left empty.
    """
    import pyarrow as pa

    from perceptrons.io.arrow_numbers import label_texts

    columns = []
    for column in run.columns:
        try:
            columns.append(["" if v is None else v for v in label_texts(column).to_pylist()])
        except pa.ArrowException:  # a list, or bytes that are no UTF-8 (refused with their line after this)
            columns.append([])
    check_not_data(path, line, header, columns, col)


def read_csv(path, label=None, n_features=None, delimiter=",", require_labels=True, encoding="utf-8"):
    """``(X, y, label name)`` of a CSV file with a header; see :func:`perceptrons.io.readers.read_data`.

    Without ``require_labels`` (rows to predict) the labels are kept as read, unchecked: an
    empty one is the empty string.  ``encoding`` as :func:`text_lines` takes it.
    """
    path = check_path(path, "path", "read_csv")
    records = csv_records(path, delimiter, encoding=encoding)
    first = next(records, None)
    if first is None:
        raise PerceptronsError(f"{path}: the file is empty; expected a header line and data rows")
    header_line, header = first
    header = [h.strip() for h in header]
    features_only = n_features is not None and len(header) == n_features
    if not features_only:  # a file of features alone may name its columns 0, 1, 2, ...
        check_header(f"{path}, line {header_line}", header, label)
    if label is not None and label in header:
        col = header.index(label)
    elif features_only:
        col = None  # a file to predict on: every column is a feature
    elif label is None:
        col = len(header) - 1
    else:
        raise PerceptronsError(
            f"{path}: no label column {label!r}; columns are {header[:20]}{' ...' if len(header) > 20 else ''}"
        )
    if len(header) < 2:
        raise too_few_columns(f"{path}, line {header_line}", header)
    if col is not None and header.count(header[col]) > 1:
        where = [i + 1 for i, h in enumerate(header) if h == header[col]]
        raise PerceptronsError(
            f"{path}, line {header_line}: the label column name {header[col]!r} appears {len(where)} times in the "
            f"header (columns {', '.join(map(str, where[:5]))}); expected a unique name"
        )
    feats, labels = [], []
    budget, held = LoadBudget(path), 0
    for lineno, row in records:
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise ragged_row(f"{path}, line {lineno}", row, len(header))
        if col is not None:
            if require_labels:
                check_label(f"{path}, line {lineno}", row[col])
            labels.append(row[col].strip())
        cells = [v for j, v in enumerate(row) if j != col]
        try:
            if not all(map(decimal_chars, cells)):
                raise ValueError
            values = np.array([float(v) for v in cells])
        except ValueError:
            bad = next(v for v in cells if not is_float(v))
            raise PerceptronsError(f"{path}, line {lineno}: {bad[:40]!r} is not a number") from None
        _finite_row(path, lineno, values)
        feats.append(values)
        held += values.nbytes + ROW_OVERHEAD
        if len(feats) % 4096 == 0:
            budget.check(held, f"{path}, line {lineno}")
    if not feats:
        raise PerceptronsError(f"{path}: no data rows after the header")
    if col is None:
        return np.vstack(feats), None, None
    return np.vstack(feats), typed_labels(labels), header[col]


def read_tsv(path, label=None, n_features=None, require_labels=True, encoding="utf-8"):
    """:func:`read_csv` with tab-separated columns."""
    path = check_path(path, "path", "read_tsv")
    return read_csv(
        path, label=label, n_features=n_features, delimiter="\t", require_labels=require_labels, encoding=encoding
    )

"""A CSV or TSV file as a table: columns of numbers or of text, with missing cells.

The matrix readers (:mod:`perceptrons.io.delimited`) take numbers only.  A table keeps each
column as it is: numbers (float64, NaN where a cell is missing) or text (str, NaN where a cell
is missing), so that the command line's column pipeline can impute, scale and encode it.  A
cell is missing when it is empty or one of pandas' and pyarrow's default NA strings (``NA``,
``NaN``, ``null``, ...).  A label cell that is missing is refused with its line.

A column's kind is fixed by the training file: numbers when every cell that is not missing is
a number, text otherwise.  A file read for a model is given those kinds and the column names, and
its columns are taken by name, in the model's order: a column of numbers holding a word is
refused naming its line and column, and a column the model needs and the file lacks is refused
naming it.

Cells are read by :mod:`perceptrons.io.cells`: numbers as spreadsheets write them (``1,234``,
``$12.50``, ``45%``, ISO dates) and, in a column of numbers, the marks that stand for no value
(``?``, ``-``, ``#VALUE!``) as missing; each column says how it was read (``Table.read_as``).  The
separator is found by :mod:`perceptrons.io.separators`; a semicolon makes the comma the decimal
mark (``0,126``), as spreadsheets write such files.  A header that ends with a separator (every
line ending with one) has no column after it.
"""

import shlex
from typing import NamedTuple

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.memory import LoadBudget
from perceptrons._core.params import check_path
from perceptrons.io.cells import (
    NULL_MARKS,
    UNIT_PREFIX,
    formatted_number,
    is_placeholder,
    plain_number,
    writes_decimal_comma,
)
from perceptrons.io.csv_errors import ragged_row, too_few_columns
from perceptrons.io.delimited import PANDAS_INDEX, ROW_OVERHEAD, check_header, check_not_data, csv_records
from perceptrons.io.encodings import check_encoding
from perceptrons.io.labels import MISSING_LABELS, check_label, typed_labels
from perceptrons.io.separators import sniff_delimiter

#: a cell that means "no value": pandas' and pyarrow's default NA strings, in any case
MISSING = MISSING_LABELS | {"none"}
#: the kinds of a column
KINDS = ("number", "text")
#: bytes a text cell costs beside its characters (a str object and its list slot)
CELL_OVERHEAD = 57
#: a column whose cells are numbers but for a few words (under this share) is refused: a typo in
#: a column of numbers, most likely, which read as text would make every number a category
TYPO_SHARE = 0.05


class Table(NamedTuple):
    """The feature columns of a file, its labels, and what the reader saw.

    Attributes
    ----------
    names : tuple of str
        The feature columns, in the order of ``X``'s columns.
    kinds : tuple of str
        ``"number"`` or ``"text"`` per column.
    X : ndarray of shape (n, p)
        float64 when every column holds numbers, else object (floats and str); NaN marks a
        missing cell.
    y : ndarray of shape (n,) or None
        The labels (None: the file has no label column).
    label : str or None
        The label column's name.
    missing : tuple of int
        Missing cells per column.
    mixed : tuple of str or None
        For a text column some of whose cells are numbers: where its first word is
        (``"line 7: 'n/d'"``), so that a summary can say so; None otherwise.
    read_as : tuple of str or None
        For a column of numbers not all written plainly: how they were read (``"numbers written
        with thousands separators, e.g. '1,234'; '?' read as missing (8 cells)"``); None otherwise.
    """

    names: tuple
    kinds: tuple
    X: np.ndarray
    y: object
    label: object
    missing: tuple
    mixed: tuple
    read_as: tuple


def is_missing(cell):
    """Whether a cell's text means "no value"."""
    return cell.strip().lower() in MISSING


def _number(cell, decimal_comma, points_group=False):
    """``(value, form)`` of a cell that is a number (``form`` None when written plainly), or None;
    ``points_group``: the file writes decimal commas, so ``3.386`` is 3386.
    """
    if points_group and "." in cell:
        got = formatted_number(cell, decimal_comma, points_group)
        if got is not None:
            return got
    v = plain_number(cell)
    if v is not None:
        return v, None
    return formatted_number(cell, decimal_comma, points_group)


def read_table(
    path,
    label=None,
    delimiter=",",
    names=None,
    kinds=None,
    require_labels=True,
    wanted_by=None,
    encoding="utf-8",
    drop=(),
):
    """Read a CSV/TSV file with a header as a :class:`Table`.

    Parameters
    ----------
    path : str or path-like
        The file.
    label : str, optional
        The label column (default: the last column; with ``names`` given, the file may lack it).
    delimiter : str
        ``","`` or a tab.
    names, kinds : sequence of str, optional
        The feature columns of a model and their kinds: they are taken by name, in this order,
        and a number column must hold numbers.  Without them, every column but the label is a
        feature, and its kind is what its cells are.
    require_labels : bool
        False for rows to predict: the label column, if present, is read unchecked.
    wanted_by : str, optional
        Who needs ``names``, for the error of a missing one (default: the model).
    encoding : str, default "utf-8"
        The file's text encoding (:func:`perceptrons.io.encodings.check_encoding`: ``"cp1252"``
        for a "CSV" that Excel saved on Windows).
    drop : sequence of str, default ()
        Feature columns left out, without ``names``: never read, so a cell in them that no
        column could hold is no error.

    Raises
    ------
    PerceptronsError
        One line naming the file, the line and the column: a missing label, a word in a column
        of numbers, an infinite number, a missing column, a row of the wrong width.
    """
    path = check_path(path, "path", "read_table")
    encoding = check_encoding(encoding, "encoding")
    delimiter, hint = sniff_delimiter(path, delimiter, encoding)
    decimal_comma = delimiter == ";"
    records = csv_records(path, delimiter, multiline=True, encoding=encoding)  # a text cell may hold line breaks
    if hint:  # past Excel's "sep=" line (blank lines before it too)
        next((row for _, row in records if any(c.strip() for c in row)), None)
    first = next(records, None)
    if first is None:
        raise PerceptronsError(f"{path}: the file is empty; expected a header line and data rows")
    header_line, header = first
    header = [h.strip() for h in header]
    trailing = len(header) > 1 and header[-1] == ""  # "a,b,label," and every row ending so
    if trailing:
        header = header[:-1]
    check_header(f"{path}, line {header_line}", header, label)
    target = label if label is not None else (header[-1] if names is None else None)
    if target is not None and header.count(target) > 1:
        where = [i + 1 for i, h in enumerate(header) if h == target]
        raise PerceptronsError(
            f"{path}, line {header_line}: the label column name {target!r} appears {len(where)} times in the "
            f"header (columns {', '.join(map(str, where[:5]))}); expected a unique name"
        )
    header = _unique(header)
    if names is None:
        col = header.index(label) if label in header else len(header) - 1
        if label is not None and label not in header:
            raise PerceptronsError(f"{path}: no label column {label!r}; columns are {_shown(header)}")
        if len(header) < 2:
            raise too_few_columns(f"{path}, line {header_line}", header)
        take = feature_positions(path, header, col, drop)
    else:
        take, col = _model_columns(path, header, label, names, require_labels, wanted_by)
    cells = [[] for _ in take]
    labels = []
    budget, held = LoadBudget(path), 0
    lines = []
    for lineno, row in records:
        if not row or all(not c.strip() for c in row):
            # a blank line has no row; a line of empty fields is skipped in training (a
            # spreadsheet's formatted but empty rows), but is a row to predict: skipped there,
            # every prediction after it would stand against the row before its own
            if require_labels or len(row) < 2:
                continue
        if trailing and len(row) == len(header) + 1:
            if row[-1].strip():
                raise PerceptronsError(
                    f"{path}, line {lineno}: {row[-1].strip()[:40]!r} after the last column; the header ends "
                    "with a separator, so a value there has no name (expected the field empty)"
                )
            row = row[:-1]
        if len(row) != len(header):
            raise ragged_row(f"{path}, line {lineno}", row, len(header))
        if col is not None:
            if require_labels:
                check_label(f"{path}, line {lineno}", row[col], header[col])
            labels.append(row[col].strip())
        for out, j in zip(cells, take):
            out.append(row[j])
        lines.append(lineno)
        held += ROW_OVERHEAD + sum(len(row[j]) + CELL_OVERHEAD for j in take)
        if len(lines) % 4096 == 0:
            budget.check(held, f"{path}, line {lineno}")
    if not lines:
        raise PerceptronsError(f"{path}: no data rows after the header")
    feature_names = tuple(header[j] for j in take)
    if names is None:
        by_position = dict(zip(take, cells))  # the label's position holds the labels
        check_not_data(path, header_line, header, [by_position.get(j, labels) for j in range(len(header))], col)
    # a file of decimal commas groups thousands with points (3.386 is 3386) in every column
    points_group = decimal_comma and any(writes_decimal_comma(c) for column in cells for c in column)
    columns, seen_kinds, missing, mixed, read_as = [], [], [], [], []
    for j, (name, column) in enumerate(zip(feature_names, cells)):
        want = None if kinds is None else kinds[j]
        values, kind, gaps, first_word, how = read_column(
            path, name, column, [f"line {n}" for n in lines], want, decimal_comma, points_group
        )
        columns.append(values)
        seen_kinds.append(kind)
        missing.append(gaps)
        mixed.append(first_word)
        read_as.append(how)
    if all(k == "number" for k in seen_kinds):
        X = np.column_stack(columns) if columns else np.empty((len(lines), 0))
    else:
        X = np.empty((len(lines), len(columns)), dtype=object)
        for j, values in enumerate(columns):
            X[:, j] = values
    y = typed_labels(labels) if col is not None and require_labels else (np.array(labels) if col is not None else None)
    label_name = header[col] if col is not None else None
    return Table(feature_names, tuple(seen_kinds), X, y, label_name, tuple(missing), tuple(mixed), tuple(read_as))


def read_column(
    path,
    name,
    cells,
    places,
    want,
    decimal_comma=False,
    points_group=False,
    numbers_because="the model was trained on numbers in this column",
):
    """``(values, kind, missing cells, first word, read as)`` of one column's cells.

    Parameters
    ----------
    path, name : str
        The file and the column, for the errors.
    cells : list of str
    places : sequence of str
        ``places[i]`` names cell i's line or row (``"line 7"``).
    want : {"number", "text"} or None
        The kind the column must have (a model's), or None to find it.
    decimal_comma, points_group : bool
        As :func:`perceptrons.io.cells.formatted_number` takes them.
    numbers_because : str
        Why a word is refused in a column that must be numbers.

    Returns
    -------
    values : ndarray
        float64 for a column of numbers, else object (str); NaN marks a missing cell.
    kind : str
        ``"number"`` or ``"text"``.
    missing : int
        Missing cells.
    first_word : str or None
        Where a text column that also holds numbers has its first word.
    read_as : str or None
        How a column of numbers not all written plainly was read.
    """
    gaps = np.array([is_missing(c) for c in cells], dtype=bool)
    numbers = np.full(len(cells), np.nan)
    words, marks, forms, units = [], [], {}, {}
    for i, c in enumerate(cells):
        if gaps[i]:
            continue
        got = _number(c, decimal_comma, points_group)
        if got is None:
            if is_placeholder(c):  # "?", "-", "#VALUE!": no value, in a column of numbers
                marks.append(i)
                continue
            words.append(i)
            if want is not None or len(words) > TYPO_SHARE * len(cells):
                break
        else:
            numbers[i] = got[0]
            if got[1] is not None:
                for form in got[1].split(", "):  # "negatives in parentheses, thousands separators"
                    forms.setdefault(form, i)
                    if form.startswith(UNIT_PREFIX):
                        units[i] = form
    if units and want is None and (len(set(units.values())) > 1 or len(units) < int(np.isfinite(numbers).sum())):
        # a unit makes a column of numbers only when every number carries the same one (58 kg,
        # 61 kg): 12a among plain numbers is a typo, and 12A with 12B are codes
        words = sorted({*words, *units})
    # marks alone (no number) are text, but those the streamed reader reads as missing cells
    only_null_marks = all(cells[i] in NULL_MARKS for i in marks)
    if want != "text" and not words and (want == "number" or not np.isnan(numbers).all() or only_null_marks):
        inf = np.isinf(numbers)
        if inf.any():
            i = int(np.flatnonzero(inf)[0])
            raise PerceptronsError(
                f"{path}, {places[i]}, column {name!r}: {cells[i].strip()!r} is not finite; "
                "expected a finite number, or an empty cell for a missing one"
            )
        gaps[marks] = True
        return numbers, "number", int(gaps.sum()), None, _read_as(forms, marks, cells) if want is None else None
    if want == "number":
        i = words[0]
        raise PerceptronsError(
            f"{path}, {places[i]}, column {name!r}: {cells[i].strip()[:40]!r} is not a number; {numbers_because}"
        )
    present = len(cells) - int(gaps.sum())
    if want is None and words and len(words) <= TYPO_SHARE * present:
        i = words[0]
        raise PerceptronsError(
            f"{path}, {places[i]}, column {name!r}: {cells[i].strip()[:40]!r} is not a number, but "
            f"{present - len(words) - len(marks):,} of the column's {present:,} cells are; expected a number "
            f"(an empty cell, NA or ? for a missing one), or --drop {shlex.quote(name)} to leave the column out"
        )
    nul = next((i for i, c in enumerate(cells) if "\x00" in c), None)
    if nul is not None:
        raise PerceptronsError(f"{path}, {places[nul]}, column {name!r}: contains a NUL byte; expected text")
    values = np.empty(len(cells), dtype=object)
    values[:] = [c.strip() for c in cells]
    values[gaps] = np.nan
    mixed = None
    if (
        want is None
        and words
        and any(not gap and _number(c, decimal_comma, points_group) for c, gap in zip(cells, gaps.tolist()))
    ):
        i = words[0]
        mixed = f"{places[i]}: {cells[i].strip(' ')[:40]!r}"
    return values, "text", int(gaps.sum()), mixed, None


def _read_as(forms, marks, cells):
    """How a column of numbers was read: the forms its numbers were written in (each with its
    first cell) and the marks taken for missing values, or None when all were plain.
    """
    parts = [f"{form}, e.g. {cells[i].strip()[:40]!r}" for form, i in forms.items()]  # a date with its zone: 25
    if parts:
        parts[0] = "numbers written with " + parts[0]
    if marks:
        seen = list(dict.fromkeys(cells[i].strip()[:12] for i in marks))
        shown = ", ".join(map(repr, seen[:3])) + (" ..." if len(seen) > 3 else "")
        parts.append(f"{shown} read as missing ({len(marks):,} cell{'s' if len(marks) != 1 else ''})")
    return "; ".join(parts) or None


def feature_positions(path, header, col, drop):
    """The positions of the feature columns of ``header`` (the label at ``col``, or None), less
    ``drop`` (names, each a feature column): the in-memory and the streamed readers' ``--drop``.

    Raises
    ------
    PerceptronsError
        A name that is the label's or no column's, or every feature column dropped.
    """
    for name in drop:
        if col is not None and name == header[col]:
            raise PerceptronsError(f"{path}: {name!r} is the label column, which a model needs; it cannot be left out")
        if name not in header:
            raise PerceptronsError(f"{path}: no column {name!r} to leave out; its columns are {_shown(header)}")
    take = [j for j in range(len(header)) if j != col and header[j] not in drop]
    if not take:
        raise PerceptronsError(f"{path}: no feature column is left: every one is left out")
    return take


def _model_columns(path, header, label, names, require_labels, wanted_by):
    """``(positions of names, label position or None)`` in ``header``: every name a model needs
    must be there (the missing ones are named), and the label too unless rows are predicted.
    """
    lacking = [n for n in names if n not in header]
    if lacking:
        more = lacking[1:4]
        nor = f" (nor {', '.join(map(repr, more))}{' ...' if len(lacking) > 4 else ''})" if more else ""
        raise PerceptronsError(
            f"{path}: no column {lacking[0]!r}{nor}, {wanted_by or 'which the model was trained with'}; "
            f"columns are {_shown(header)}"
        )
    col = header.index(label) if label is not None and label in header else None
    if require_labels and col is None:
        raise PerceptronsError(f"{path}: no label column {label!r}; columns are {_shown(header)}")
    return [header.index(n) for n in names], col


def _unique(header):
    """The names with a repeated one numbered, as pandas reads them: ``x``, ``x.1``, ``x.2``
    (columns are matched by name, and a file with two unnamed columns is still a table).
    """
    out, seen = [], set(header)
    count = {}
    for h in header:
        if h in count:
            k = count[h]
            while f"{h}.{k}" in seen:
                k += 1
            count[h] = k + 1
            h = f"{h}.{k}"
            seen.add(h)
        else:
            count[h] = 1
        out.append(h)
    return out


def _shown(header):
    return f"{header[:20]}{' ...' if len(header) > 20 else ''}"


def read_parquet_table(path, label=None, names=None, kinds=None, require_labels=True, wanted_by=None, drop=()):
    """:func:`read_table` of a Parquet file: a column of numbers (integers, floats, booleans,
    decimals; dates and times as days, :mod:`perceptrons.io.arrow_numbers`) or of text; a null (or
    a float NaN) is a missing cell.  Errors name the row.
    """
    from perceptrons.io.arrow import label_position, need_pyarrow
    from perceptrons.io.arrow_numbers import (
        as_float64,
        is_number,
        is_number_like,
        is_text,
        label_texts,
    )
    from perceptrons.io.arrow_numbers import read_as as type_read_as

    path = check_path(path, "path", "read_parquet_table")
    need_pyarrow()
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq
    import pyarrow.types as pt

    try:
        pf = pq.ParquetFile(path)
        # pandas' index (written after the data, so the last column was it) is no data
        header = [n for n in pf.schema_arrow.names if not PANDAS_INDEX.fullmatch(n)]
        meta = pf.metadata
        size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        LoadBudget(path).check(size, path)
        data = pf.read(columns=header)
    except (pa.ArrowException, OSError) as exc:
        raise PerceptronsError(f"{path}: not a readable Parquet file ({str(exc).splitlines()[0][:200]})") from None
    if names is None:
        col = label_position(path, header, label)
        take = feature_positions(path, header, col, drop)
    else:
        take, col = _model_columns(path, header, label, names, require_labels, wanted_by)
    n = data.num_rows
    if n == 0:
        raise PerceptronsError(f"{path}: no data rows")
    places = [f"row {i + 1}" for i in range(n)]
    columns, seen_kinds, missing, mixed, read_as = [], [], [], [], []
    for k, j in enumerate(take):
        name, column = header[j], data.column(j)
        if pt.is_dictionary(column.type):
            column = pc.cast(column, column.type.value_type)
        want = None if kinds is None else kinds[k]
        held = column.type
        how = type_read_as(held)  # a date or a time: days; a boolean: 1 or 0
        column = as_float64(column)  # a decimal, a date or a time: a number
        if is_number(column.type):
            if want == "text":
                raise PerceptronsError(
                    f"{path}: column {name!r} holds {held}; the model was trained on text in this column"
                )
            values = pc.cast(column, pa.float64()).to_numpy(zero_copy_only=False)
            inf = np.isinf(values)
            if inf.any():
                i = int(np.flatnonzero(inf)[0])
                raise PerceptronsError(
                    f"{path}, row {i + 1}, column {name!r}: {values[i]} is not finite; expected a finite number"
                )
            gaps = int(np.isnan(values).sum())
            kind, first_word = "number", None
            how = how if want is None else None
        elif pt.is_string(column.type) or pt.is_large_string(column.type):
            cells = ["" if v is None else v for v in column.to_pylist()]
            values, kind, gaps, first_word, how = read_column(path, name, cells, places, want)
        else:
            raise PerceptronsError(
                f"{path}: column {name!r} holds {column.type}; expected numbers (decimals, dates and booleans "
                "too) or text; --drop leaves the column out"
            )
        columns.append(values)
        seen_kinds.append(kind)
        missing.append(gaps)
        mixed.append(first_word)
        read_as.append(how)
    if all(k == "number" for k in seen_kinds):
        X = np.column_stack(columns)
    else:
        X = np.empty((n, len(columns)), dtype=object)
        for j, values in enumerate(columns):
            X[:, j] = values
    y = None
    if col is not None:
        label_type = data.column(col).type
        if not (is_number(label_type) or is_number_like(label_type) or is_text(label_type)):
            raise PerceptronsError(f"{path}: label column {header[col]!r} holds {label_type}; expected numbers or text")
        texts = ["" if v is None else v for v in label_texts(data.column(col)).to_pylist()]
        if require_labels:
            for i, t in enumerate(texts):
                check_label(f"{path}, row {i + 1}", t, header[col])
            y = typed_labels([t.strip() for t in texts])
        else:
            y = np.array(texts)
    return Table(
        tuple(header[j] for j in take),
        tuple(seen_kinds),
        X,
        y,
        header[col] if col is not None else None,
        tuple(missing),
        tuple(mixed),
        tuple(read_as),
    )

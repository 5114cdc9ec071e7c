"""CSV/TSV and Parquet read in batches through pyarrow, as blocks of rows.

Memory is bounded by one batch: a CSV file is read a run of lines at a time and each run parsed
by ``pyarrow.csv.read_csv``; ``pyarrow.parquet.ParquetFile.iter_batches`` decodes a batch at a
time.

Columns become features in one of three ways, decided by the first batch's schema:

* every feature column numeric → dense float64 rows, one column each (as the in-memory reader);
* one feature column that is a list of integers (Parquet) → binary CSR rows, the list holding
  the 0-based indices of the row's features;
* otherwise (string columns, or a ``text`` column) → CSR rows of width ``2**hash_bits``:
  a numeric column ``c`` adds its value at ``h("c")``, a string column adds 1 at
  ``h("c=value")``, and the ``text`` column's tokens are counted at the indices scikit-learn's
  ``HashingVectorizer(alternate_sign=False, norm=None)`` gives them (its tokeniser too).
  ``h`` is MurmurHash3 (scikit-learn's ``murmurhash3_32``, seed 0, positive) modulo the width.
  A CSV column of numbers holding a word is refused, with its line, unless ``hash_bits`` is
  given: it is most likely a typo, which the in-memory reader refuses too.

Labels are read as text and typed as the in-memory reader types them
(:func:`perceptrons.io.labels.typed_labels`) once all are known.
"""

import itertools
from typing import NamedTuple

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path
from perceptrons.io.arrow_numbers import as_float64, is_index_list, is_number, is_number_like, label_texts
from perceptrons.io.batch_rows import dense_rows, hashed_rows, index_list_rows
from perceptrons.io.blocks import Block
from perceptrons.io.cells import NULL_MARKS
from perceptrons.io.csv_errors import RAGGED, csv_error, too_few_columns, undecodable
from perceptrons.io.csv_runs import RowNumbers, RunLines, record_runs, without_empty_rows, without_white_lines
from perceptrons.io.delimited import ROW_NAMES, check_first_run, check_header, row_names
from perceptrons.io.encodings import check_encoding
from perceptrons.io.hashing import DEFAULT_HASH_BITS
from perceptrons.io.labels import INFINITE_LABELS, MISSING_LABELS, check_label
from perceptrons.io.parquet_columns import parquet_columns
from perceptrons.io.table import feature_positions
from perceptrons.io.text_columns import check_mixed
from perceptrons.io.written_numbers import WrittenNumbers


def need_pyarrow():
    """Refuse, with how to install it, a read that needs pyarrow (the ``stream`` extra) when it is missing."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover - the stream extra is installed by make test
        raise PerceptronsError("streaming CSV/TSV/Parquet needs pyarrow: pip install 'perceptrons[stream]'") from None


#: cells read as missing: pyarrow's markers, but not the spellings of NaN, which parse as the
#: number they are and are refused as not finite, with the value, as the in-memory reader does
_NULLS = ["", "#N/A", "#N/A N/A", "#NA", "N/A", "NA", "NULL", "n/a", "null"]
#: and in a column of numbers, the marks the in-memory reader takes for no value
#: (:func:`perceptrons.io.cells.is_placeholder`) as people write them; pyarrow matches them
#: exactly, and a column of text keeps them (its strings are never null)
_NULLS += sorted(NULL_MARKS)


def delimited_blocks(
    path,
    *,
    label=None,
    delimiter=",",
    hash_bits=None,
    text=None,
    block_bytes=1 << 24,
    require_labels=True,
    encoding="utf-8",
    keep_missing=False,
    labelled=True,
    drop=(),
    categories=None,
):
    """Blocks of a CSV/TSV file with a header line: runs of about ``block_bytes`` of complete
    lines (plain or gzip, :func:`~perceptrons.io.chunks.line_chunks`), each parsed by
    ``pyarrow.csv.read_csv`` (from ``encoding``, :func:`perceptrons.io.encodings.check_encoding`,
    when it is not UTF-8).  A missing number is refused with its line, or with ``keep_missing``
    is NaN in dense rows and left out of hashed ones (for a fit whose pipeline imputes it).
    Without ``labelled`` no column is the label (rows to predict that come without one): every
    column is a feature and every label the empty string.  The columns named in ``drop`` are
    left out before a cell of theirs is converted or checked (``--drop``).  ``categories``, a
    model's (:func:`delimited_categories` of its training file), are the columns read as words
    whatever their cells; every other feature column must then hold numbers.

    The file is read a run at a time, by this reader, not by ``pyarrow.csv.open_csv``: that
    one reads ahead of its consumer on its I/O threads, so its memory grows with the file
    while a fit consumes the blocks more slowly than they are parsed (and it read 5 M rows
    more slowly than runs do: ``benchmarks/bench_stream_readers.py``).
    """
    path = check_path(path, "path", "delimited_blocks")
    head = _head(path, label, delimiter, (hash_bits, text), block_bytes, encoding, labelled, drop, categories)
    runs = itertools.chain([(head.first, head.header_line)], head.chunks)
    batches = _csv_batches(path, runs, head.dialect, head.columns, head.types, head.decimal_point, head.written)
    features = (hash_bits, text, keep_missing)
    yield from _batches(path, batches, head.names, head.col, features, require_labels, categories)


def delimited_notes(
    path,
    *,
    label=None,
    delimiter=",",
    hash_bits=None,
    text=None,
    block_bytes=1 << 24,
    encoding="utf-8",
    drop=(),
    categories=None,
):
    """How :func:`delimited_blocks` reads the columns of a CSV/TSV file that are not plain
    numbers or text, as its first run shows them: ``{name: how}`` (``"numbers written with
    currency signs, e.g. '$3.50'"``, ``"dates read as days since 1970-01-01"``), for a summary.
    """
    from perceptrons.io.arrow_numbers import read_as

    path = check_path(path, "path", "delimited_notes")
    head = _head(path, label, delimiter, (hash_bits, text), block_bytes, encoding, drop=drop, categories=categories)
    head.chunks.close()
    label_name = head.names[head.col]
    notes = {name: read_as(kind) for name, kind in head.types.items() if name != label_name and read_as(kind)}
    notes.update(head.written.read_as)
    k = head.row_names
    row_names = {f"the first {'column' if k == 1 else f'{k} columns'}": ROW_NAMES} if k else {}
    return row_names | {name: notes[name] for name in head.names if name in notes}


def delimited_categories(
    path, *, label=None, delimiter=",", hash_bits=None, text=None, block_bytes=1 << 24, encoding="utf-8", drop=()
):
    """The feature columns of a CSV/TSV file that :func:`delimited_blocks` reads as words (hashed
    as categories), as its first run decides: text, or numbers and words (more words than the
    typo share).  A streamed model keeps them, so that a later file is read with the same
    columns as words (one whose cells happen to be all numbers) and as numbers (one with a word
    is refused, as the in-memory reader refuses it for a model).

    Returns
    -------
    list of str
    """
    import pyarrow.types as pt

    path = check_path(path, "path", "delimited_categories")
    head = _head(path, label, delimiter, (hash_bits, text), block_bytes, encoding, drop=drop)
    head.chunks.close()
    numbers = {head.names[j] for j in head.written.positions}
    kinds = head.types
    return [
        name
        for j, name in enumerate(head.names)
        if j != head.col and name != text and name not in numbers and name in kinds and pt.is_string(kinds[name])
    ]


def delimited_names(path, *, delimiter=",", encoding="utf-8", drop=()):
    """The column names of a CSV/TSV file's header, as :func:`delimited_blocks` finds them."""
    # names only: a word among numbers is the blocks' to refuse (or to hash, with --hash-bits)
    reading = (DEFAULT_HASH_BITS, None)
    path = check_path(path, "path", "delimited_names")
    head = _head(path, None, delimiter, reading, 1 << 16, encoding, False, drop)
    head.chunks.close()
    return head.names


class _Head(NamedTuple):
    """What the first run of a CSV file fixes for every run: see :func:`_head`."""

    first: bytes
    chunks: object
    dialect: tuple
    columns: tuple
    names: list
    col: int
    types: dict
    decimal_point: str
    written: WrittenNumbers
    header_line: int
    row_names: int


def _head(path, label, delimiter, reading, block_bytes, encoding, labelled=True, drop=(), categories=None):
    """The first run of lines of a CSV file, the runs after it, and what it fixes for them: the
    separator, the header's names, the label's position, the columns' types and the columns of
    numbers written as spreadsheets write them.  ``reading`` = (hash_bits, the text column);
    ``categories`` a model's columns of words (:func:`delimited_categories`), or None.
    """
    hash_bits, text = reading
    need_pyarrow()
    encoding = check_encoding(encoding, "encoding")
    chunks = record_runs(path, block_bytes)
    first = next(chunks, (None,))[0]
    if first is None:
        raise PerceptronsError(f"{path}: not CSV with a header (the file is empty)")
    from perceptrons.io.separators import decimal_comma_in, delimiter_of, excel_separator

    # Excel's first line sep=; names the separator, and the header follows it
    hint = excel_separator(first.split(b"\n", 1)[0].decode(encoding, "replace"))
    if hint is not None:
        first = first.split(b"\n", 1)[1] if b"\n" in first else b""
        first = first or next(chunks, (None,))[0]
        if not first:
            raise PerceptronsError(f"{path}: not CSV with a header (only Excel's sep= line)")
    header_line = 2 if hint else 1
    # a header of semicolons, tabs or bars and no comma: read by that separator, as in memory
    head = first.split(b"\n", 2)
    delimiter = hint or delimiter_of(head[0].decode(encoding, "replace"), delimiter)
    comma = delimiter == ";" and len(head) > 1 and decimal_comma_in(head[1].decode(encoding, "replace"))
    decimal_point = "," if comma else "."
    dialect = (delimiter, encoding)
    first = without_white_lines(first, delimiter)
    every = _names(path, first, dialect)
    # a header ending with the separator (and every line with it): no column after it
    names = every[:-1] if len(every) > 1 and every[-1] == "" else every
    keep = names if names is not every else None  # by name: given always, it took x of "x,x" twice
    check_header(f"{path}, line {header_line}", names, label if labelled else None)
    col = label_position(path, names, label) if labelled else None
    # the label is read as text, so that its classes stay exact; the first run's types are then
    # fixed for the whole file
    as_text = {} if col is None else {names[col]: "string"}
    head_run = _parse(path, first, dialect, names, None, as_text, decimal_point, keep)
    if labelled:  # a first line of data, as the in-memory reader refuses it
        check_first_run(path, header_line, names, head_run, col)
    unnamed = row_names(names, head_run, col)
    if unnamed:  # left out, as in memory (the first run tells: a stream is not read ahead)
        drop = [d for d in drop if d not in names[:unnamed]]  # left out already, as --drop asked
        names = keep = names[unnamed:]
        head_run = head_run.select(list(range(unnamed, head_run.num_columns)))
        col = label_position(path, names, label) if labelled else None
    if drop:  # left out before a cell of theirs is converted or checked
        # a model's later file, or names only: a dropped column may be absent (training's is strict)
        lenient = categories is not None or not labelled
        take = set(feature_positions(path, names, col, [d for d in drop if d in names] if lenient else drop))
        kept = [j for j in range(len(names)) if j == col or j in take]
        names = keep = [names[j] for j in kept]
        head_run = head_run.select(kept)
        col = label_position(path, names, label) if labelled else None
    head_run = _as_text(path, first, dialect, (names, col, keep), as_text, decimal_point, head_run)
    types = _column_types(path, names, col, head_run, categories)
    # numbers as spreadsheets write them ($1,234.50, 45%), by the in-memory reader's rules
    places = RunLines(first, header_line, head_run.num_rows, header=True)
    written = WrittenNumbers.found(
        path, names, head_run, (col, text, hash_bits, places), delimiter == ";", decimal_point == ",", categories
    )
    return _Head(first, chunks, dialect, (every, keep), names, col, types, decimal_point, written, header_line, unnamed)


def _as_text(path, first, dialect, columns, as_text, decimal_point, head_run):
    """``head_run`` with the columns that pyarrow types by rules other than the in-memory
    reader's as the text of their cells, which the in-memory reader's rules then read: whole
    numbers that hold hexadecimal (``0x1f``, which pyarrow's integer parser reads; text in memory,
    and a lone one among numbers a typo: :func:`check_mixed`), and times of day (``12:00:12``;
    pyarrow's ``time32`` takes no ``7:05`` in a later run, where the in-memory reader's form does:
    :class:`~perceptrons.io.written_numbers.WrittenNumbers`).  ``columns`` = (the names, the
    label's position, the names kept by :func:`_parse`).
    """
    import pyarrow.compute as pc
    import pyarrow.types as pt

    names, col, keep = columns
    typed = {f.name: f.type for j, f in enumerate(head_run.schema) if j != col and names.count(f.name) == 1}
    typed = {name: t for name, t in typed.items() if pt.is_integer(t) or pt.is_time(t)}
    if not typed:
        return head_run
    text = _parse(path, first, dialect, names, None, {**as_text, **dict.fromkeys(typed, "string")}, decimal_point, keep)
    for name in sorted(typed):
        cells = text.column(name)
        if pt.is_time(typed[name]) or pc.any(pc.match_substring_regex(cells, r"^\s*[+-]?0[xX]")).as_py():
            head_run = head_run.set_column(names.index(name), name, cells)
    return head_run


def _column_types(path, names, col, table, categories=None):
    """The types every run is parsed with: the label as text; columns of whole numbers as
    float64 (a column of hexadecimal (0x10), which pyarrow's integer parser reads, is text by
    then: :func:`_as_text`); columns of true/false as booleans, read as 1 and 0, as
    the in-memory reader reads them; a model's ``categories`` as text; the rest as the first
    run has them.  A name two columns share keeps pyarrow's inference (types are given by
    name).
    """
    import pyarrow as pa
    import pyarrow.types as pt

    types = {} if col is None else {names[col]: pa.string()}
    for j, field in enumerate(table.schema):
        if j == col or names.count(field.name) != 1:
            continue
        if field.name in (categories or ()):
            types[field.name] = pa.string()
        elif pt.is_null(field.type):  # no value in the first run: numbers, all missing so far
            types[field.name] = pa.float64()
        else:
            types[field.name] = pa.float64() if pt.is_integer(field.type) else field.type
    return types


def _parse(path, data, dialect, names, column_names, column_types, decimal_point=".", include=None):
    """One run of lines as a pyarrow Table: with the header (the first run, ``column_names``
    None) or without it; pyarrow's errors name the file and, once found, the line.  ``dialect``
    = (delimiter, encoding); ``include``: the columns kept (all by default).
    """
    delimiter, encoding = dialect
    import pyarrow as pa
    import pyarrow.csv as pc

    try:
        return pc.read_csv(
            pa.py_buffer(data),
            # threads parse the run in parallel; they cannot read ahead of it: it is all they are given
            read_options=pc.ReadOptions(column_names=column_names, encoding=encoding),
            # a quoted cell may hold a line end (pyarrow's threads then split the run by records)
            parse_options=pc.ParseOptions(delimiter=delimiter, newlines_in_values=b'"' in data),
            convert_options=pc.ConvertOptions(
                column_types=column_types,
                strings_can_be_null=False,
                null_values=_NULLS,
                decimal_point=decimal_point,
                include_columns=include,
            ),
        )
    except UnicodeDecodeError:  # from the codec of an encoding other than UTF-8
        raise undecodable(path, encoding) or PerceptronsError(f"{path}: not {encoding} text") from None
    except pa.ArrowCancelled:  # pyarrow's own Ctrl-C handler cancelled the parse: an interrupt still
        raise KeyboardInterrupt from None
    except (pa.ArrowInvalid, OSError) as exc:
        reason = _first_line(exc)
        if names is None and not RAGGED.search(reason):
            raise undecodable(path, encoding) or PerceptronsError(f"{path}: not CSV with a header ({reason})") from None
        raise csv_error(path, names, reason, delimiter, encoding) from None


def _names(path, first, dialect):
    """The header's column names: the first line of the first run, parsed alone."""
    header = first.split(b"\n", 1)[0] + b"\n"
    try:
        return _parse(path, header, dialect, None, None, None).column_names
    except UnicodeDecodeError:
        raise undecodable(path, dialect[1]) or PerceptronsError(f"{path}, line 1: the header is not text") from None


def _csv_batches(path, runs, dialect, columns, types, decimal_point, written):
    """``(batch, its rows' lines)`` of each run of :func:`~perceptrons.io.csv_runs.record_runs`:
    the first with its header, the rest named by it; ``columns`` = (every column's name, the
    names of those kept, or None for all); ``written`` the
    :class:`~perceptrons.io.written_numbers.WrittenNumbers` read as numbers.
    """
    every, keep = columns
    for k, (data, line) in enumerate(runs):
        data = without_white_lines(data, dialect[0])
        # errors by every column's name: pyarrow numbers a column among all of the file's, kept or not
        table = _parse(path, data, dialect, every, None if k == 0 else every, types, decimal_point, keep)
        places = RunLines(data, line, table.num_rows, header=k == 0)
        table = written.read(path, table, places)
        done = 0
        for batch in table.to_batches():
            yield batch, places.after(done)
            done += batch.num_rows


def parquet_blocks(
    path,
    *,
    label=None,
    hash_bits=None,
    text=None,
    block_bytes=1 << 24,
    require_labels=True,
    keep_missing=False,
    labelled=True,
    drop=(),
    categories=None,
    **_,
):
    """Blocks of a Parquet file, a batch of row groups' rows at a time; ``keep_missing``,
    ``drop`` and ``categories`` as :func:`delimited_blocks` takes them (the columns dropped are
    never read).
    """
    path = check_path(path, "path", "parquet_blocks")
    need_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        # no pre-buffering: it reads every row group's column chunks ahead, so memory would
        # grow with the file; a buffered stream reads each page as it is decoded
        pf = pq.ParquetFile(path, pre_buffer=False, buffer_size=1 << 20)
        names = parquet_columns(pf, label if labelled else None)
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:  # names are decoded as read
        raise PerceptronsError(f"{path}: not a Parquet file ({_first_line(exc)})") from None
    col = label_position(path, names, label) if labelled else None
    # a column left out already (row names, pandas' index) is left out, as --drop asked
    drop = [d for d in drop if d in names or d not in pf.schema_arrow.names]
    if drop:  # a model's later file may lack a dropped column; training's may not
        take = set(
            feature_positions(
                path, names, col, [d for d in drop if d in names] if categories is not None or not labelled else drop
            )
        )
        names = [n for j, n in enumerate(names) if j == col or j in take]
        col = label_position(path, names, label) if labelled else None
    rows = max(1, int(block_bytes) // (8 * max(len(names), 1)))
    batches = ((batch, None) for batch in _parquet_batches(path, pf, rows, names))
    yield from _batches(path, batches, names, col, (hash_bits, text, keep_missing), require_labels, categories)


def _parquet_batches(path, pf, rows, columns=None):
    """``ParquetFile.iter_batches`` of ``columns`` (all: None), whose errors (a corrupt page, a
    bad compressed block) name the file.
    """
    import pyarrow as pa

    # without pre-buffering, the decoding threads hold a batch
    batches = pf.iter_batches(batch_size=rows, columns=columns)
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:  # names are decoded as read
            raise PerceptronsError(f"{path}: cannot read its Parquet data ({_first_line(exc)})") from None
        yield batch


def label_position(path, names, label):
    """The label column's position; its name must be unique (as the CSV reader requires): the
    other column of that name would be read as features.
    """
    if label is None:
        if len(names) < 2:
            raise too_few_columns(path, names)
        col = len(names) - 1
    elif label not in names:
        shown = names[:20] + (["..."] if len(names) > 20 else [])
        raise PerceptronsError(f"{path}: no label column {label!r}; columns are {shown}")
    else:
        col = names.index(label)
    where = [j + 1 for j, n in enumerate(names) if n == names[col]]
    if len(where) > 1:
        raise PerceptronsError(
            f"{path}: the label column name {names[col]!r} appears {len(where)} times "
            f"(columns {', '.join(map(str, where[:5]))}); expected a unique name"
        )
    return col


def _batches(path, batches, names, col, features, require_labels=True, categories=None):
    """Turn ``(record batch, places)`` into blocks: ``places`` the
    :class:`~perceptrons.io.csv_runs.RunLines` of a CSV batch's rows, or None (Parquet: rows
    are numbered); ``features`` = (hash_bits, the text column, keep_missing).

    Without ``require_labels`` (rows to predict) the labels are not checked, and a missing one
    is the empty string.  ``categories`` (a model's) are columns of words, whatever their cells,
    and every other feature column numbers (:func:`_as_kind`); None: each file's types decide.
    """
    hash_bits, text, keep_missing = features
    # by position: two feature columns may share a name (the CSV reader reads them so too)
    feature_cols = [j for j in range(len(names)) if j != col]
    feature_names = [names[j] for j in feature_cols]
    if text is not None and text not in feature_names:
        raise PerceptronsError(f"{path}: no text column {text!r}; columns are {feature_names[:20]}")
    if text is not None and feature_names.count(text) > 1:
        raise PerceptronsError(
            f"{path}: the text column name {text!r} appears {feature_names.count(text)} times; expected a unique name"
        )
    done = 0
    layout = None
    mixed = set(categories or ())  # columns of numbers and words, text (check_mixed)
    for batch, places in batches:
        in_text = places is not None
        if in_text and require_labels and col is not None:
            batch, places = without_empty_rows(batch, places, col)
        n = batch.num_rows
        if n == 0:
            continue
        places = places or RowNumbers(done)
        if layout is None:
            _check_types(path, batch.schema, col, text_file=in_text)
        y = np.full(n, "") if col is None else _labels(path, batch.column(col), places, require_labels, names[col])
        columns = [as_float64(batch.column(j)) for j in feature_cols]  # decimals, dates and times as numbers
        if categories is not None:  # a model's kinds, whatever this file's types (a Parquet column of "8.1")
            columns = [
                c if name == text else _as_kind(path, c, name, name in categories, places)
                for name, c in zip(feature_names, columns)
            ]
        if in_text and hash_bits is None and text is None and layout != "dense":
            check_mixed(path, columns, feature_names, places, done == 0, mixed)
        if layout is None:
            layout = _layout(columns, feature_names, hash_bits, text)
        if layout == "dense":
            X = dense_rows(path, columns, feature_names, places, keep_missing)
            yield Block(y=y, X=X, path=path, line=places.line(0))
        elif layout == "indices":
            yield index_list_rows(path, columns[0], y, places)
        else:
            yield hashed_rows(path, columns, feature_names, y, (hash_bits, text, keep_missing), places)
        done += n


def _as_kind(path, column, name, words, places):
    """``column`` as a model read its column: words as text (numbers as their text), numbers as
    numbers (text read by the in-memory reader's rules, a word refused with its row).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    from perceptrons.io.arrow_numbers import is_text
    from perceptrons.io.table import read_column

    if words:
        return column if is_text(column.type) else pc.cast(column, pa.string())
    if not is_text(column.type):
        return column
    cells = ["" if v is None else v for v in column.to_pylist()]
    values = read_column(path, name, cells, places, "number")[0]
    return pa.array(values, mask=np.isnan(values))


def _check_types(path, schema, col, text_file=False):
    """Refuse a column whose values are neither numbers nor text before any cast meets them: a
    list, struct, map or binary column (one column of integer lists is the sparse layout).  In
    a CSV file (``text_file``) a binary column is text that is not UTF-8: the line is named.
    """
    import pyarrow.types as pt

    if text_file and any(pt.is_binary(f.type) or pt.is_large_binary(f.type) for f in schema):
        found = undecodable(path)
        if found is not None:
            raise found

    def scalar(t):
        if pt.is_dictionary(t):
            return scalar(t.value_type)
        return is_number(t) or is_number_like(t) or pt.is_string(t) or pt.is_large_string(t)

    indices = len(schema) == 2 and all(is_index_list(f.type) for j, f in enumerate(schema) if j != col)
    for j, field in enumerate(schema):
        if scalar(field.type) or (indices and j != col):
            continue
        role = "label column" if j == col else "column"
        expected = (
            "numbers or text"
            if j == col
            else "numbers (decimals, dates and booleans too) or text; a column of integer lists (feature "
            "indices) must be the only feature column"
        )
        raise PerceptronsError(f"{path}: {role} {field.name!r} holds {field.type}; expected {expected}")


def _layout(columns, feature_names, hash_bits, text):

    if len(columns) == 1 and is_index_list(columns[0].type):
        return "indices"
    numeric = all(is_number(c.type) for c in columns)
    if numeric and text is None and hash_bits is None:
        return "dense"
    return "hashed"


def _labels(path, column, places, require=True, name=None):
    """The labels of a batch as text; a missing or NA label names its row (and ``name``, the
    label column's, as the in-memory reader does).  Without ``require`` (rows to predict)
    nothing is checked, and a missing label is the empty string.
    """
    import pyarrow.compute as pc

    texts = label_texts(column)
    if not require:
        texts = pc.fill_null(texts, "")
    elif texts.null_count:
        bad = int(np.flatnonzero(np.asarray(texts.is_null()))[0])
        check_label(f"{path}, {places[bad]}", "", name)
    stripped = pc.utf8_trim_whitespace(texts)
    values = np.asarray(stripped.to_numpy(zero_copy_only=False), dtype=object)
    for u in np.unique(values).tolist() if require else ():  # each distinct label once, by every reader's rules
        if u.lower() in MISSING_LABELS or u.lower().lstrip("+-") in INFINITE_LABELS:
            bad = int(np.flatnonzero(values == u)[0])
            check_label(f"{path}, {places[bad]}", u, name)
    return values.astype(str)


def _first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__

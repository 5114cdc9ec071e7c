"""The streamed CSV and Parquet reader reads a file as the in-memory reader does: decimals, dates
and times, another text encoding, Excel's separator line (numbers as spreadsheets write them:
``test_written_numbers.py``)."""

import datetime
import decimal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.readers import read_table

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from perceptrons.io.arrow import delimited_blocks, parquet_blocks  # noqa: E402  (needs pyarrow)


def _streamed(path, **kw):
    """Every block's rows stacked, and how many blocks the file was read in."""
    blocks = list(delimited_blocks(path, block_bytes=1 << 16, **kw))
    return np.vstack([b.X for b in blocks]), np.concatenate([b.y for b in blocks]), len(blocks)


def test_dates_and_times_streamed_from_a_csv_are_days_since_1970_as_in_memory(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("d,t,y\n2020-07-20,2020-07-20 12:00:00,a\n1969-12-31,2020-07-20T12:00:00+02:00,b\n")
    X, _, _ = _streamed(path)
    np.testing.assert_array_equal(X, read_table(path).X)
    assert X.tolist() == [[18463.0, 18463.5], [-1.0, 18463.0 + 10 / 24]]


def test_parquet_decimals_dates_and_times_are_numbers_in_memory_and_streamed(tmp_path):
    path = tmp_path / "p.parquet"
    when = [datetime.datetime(2020, 7, 20, 12), datetime.datetime(1970, 1, 2), None]
    pq.write_table(
        pa.table(
            {
                "money": pa.array([decimal.Decimal("12.50"), decimal.Decimal("-0.10"), decimal.Decimal("3")]),
                "day": pa.array([datetime.date(2020, 7, 20), datetime.date(1970, 1, 1), None], pa.date32()),
                "at": pa.array(when, pa.timestamp("ns", tz="UTC")),
                "y": ["p", "q", "p"],
            }
        ),
        path,
    )
    table = read_table(path)
    assert table.kinds == ("number",) * 3 and table.missing == (0, 1, 1)
    assert table.read_as == (None, "dates read as days since 1970-01-01", "dates read as days since 1970-01-01")
    np.testing.assert_array_equal(table.X[:2], [[12.5, 18463.0, 18463.5], [-0.1, 0.0, 1.0]])
    pq.write_table(pa.table({"money": pa.array([decimal.Decimal("1.5")]), "y": ["p"]}), path)
    (block,) = parquet_blocks(path)
    assert block.X.tolist() == [[1.5]]
    # a column of nulls only: numbers, every one missing (kept for an imputer, else refused with its row)
    pq.write_table(pa.table({"a": [1.0, 2.0], "none": pa.nulls(2), "y": ["p", "q"]}), path)
    (block,) = parquet_blocks(path, keep_missing=True)
    assert block.X[:, 0].tolist() == [1.0, 2.0] and np.isnan(block.X[:, 1]).all()
    with pytest.raises(PerceptronsError, match=r"p\.parquet, row 1: column 'none' is empty or a missing-value"):
        list(parquet_blocks(path))


def test_times_booleans_and_long_timestamps_of_a_csv_are_numbers_in_memory_as_streamed(tmp_path):
    """Three kinds of cells the two readers read apart: a time of day (text in memory, pyarrow's
    time32 streamed, refused as "holds time32[s]"), true/false (text in both, but one-hot in
    memory) and timestamps with nine fractional digits (text in memory, dates streamed)."""
    path = tmp_path / "d.csv"
    rows = [
        "12:00:12,TRUE,2020-01-01 00:20:30.000000000,p",
        "7:05,false,2020-01-02 12:00:00.500000000,q",
        "23:59:59.5,True,1969-12-31 00:00:00.123456789,p",
    ]
    path.write_text("at,flag,when,y\n" + "\n".join(rows) + "\n")
    table = read_table(path)
    assert table.kinds == ("number",) * 3
    X, _, _ = _streamed(path)
    np.testing.assert_allclose(X, table.X, rtol=1e-12)
    np.testing.assert_allclose(X[:, 0], [43212 / 86400, (7 * 3600 + 300) / 86400, 86399.5 / 86400], rtol=1e-15)
    assert X[:, 1].tolist() == [1.0, 0.0, 1.0]
    path.write_text("at,y\n24:00,p\n12:61,q\n")  # no time of day: text
    assert read_table(path).kinds == ("text",)
    path.write_text("took,y\n0 days 06:00:00,p\n-1 days +18:00:00,q\n2 days 00:00:00.5,p\n")  # pandas' durations
    X, _, _ = _streamed(path)
    np.testing.assert_array_equal(X[:, 0], read_table(path).X[:, 0].astype(float))
    np.testing.assert_allclose(X[:, 0], [0.25, -0.25, 2 + 0.5 / 86400], rtol=1e-15)


def test_parquet_times_durations_and_integers_past_2_to_the_53_are_numbers(tmp_path):
    """A Parquet time of day or duration was refused in memory and streamed, and an int64 past
    2**53 (nanoseconds since 1970) refused by pyarrow's checked cast without its column."""
    path = tmp_path / "p.parquet"
    table = pa.table(
        {
            "at": pa.array([datetime.time(12), datetime.time(6, 0, 30), None], pa.time64("us")),
            "took": pa.array([datetime.timedelta(days=2), datetime.timedelta(hours=6), None], pa.duration("ms")),
            "ns": pa.array([1_700_000_000_000_000_001, 2**53 + 1, None], pa.int64()),
            "flag": pa.array([True, False, None]),
            "y": ["p", "q", "p"],
        }
    )
    pq.write_table(table, path)
    memory = read_table(path)
    assert memory.kinds == ("number",) * 4 and memory.missing == (1, 1, 1, 1)
    assert memory.read_as == (
        "times of day read as a fraction of a day",
        "durations read as days",
        None,
        "true and false read as 1 and 0",
    )
    np.testing.assert_array_equal(
        memory.X[:2], [[0.5, 2.0, 1.7e18, 1.0], [(6 * 3600 + 30) / 86400, 0.25, 2.0**53, 0.0]]
    )
    (block,) = parquet_blocks(path, keep_missing=True)
    np.testing.assert_array_equal(block.X, memory.X)


_CELLS = st.one_of(
    st.integers(-(2**62), 2**62).map(str),
    st.integers(0, 4095).map(hex),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.sampled_from(["true", "false", "TRUE", "FALSE", "True", "False", "", "NA", "?", "word", "12A"]),
    st.sampled_from(["-", ".", "*", "--", "***", "+", "missing", "MISSING", "Missing", "mIssing", " ?", "$5", "45%"]),
    st.tuples(st.integers(-3, 400), st.integers(0, 86_399)).map(  # pandas' timedelta64, as to_csv writes it
        lambda t: f"{t[0]} days {'+' * (t[0] < 0)}{t[1] // 3600:02d}:{t[1] // 60 % 60:02d}:{t[1] % 60:02d}"
    ),
    st.tuples(st.integers(0, 25), st.integers(0, 61), st.integers(0, 61), st.integers(0, 9)).map(
        lambda t: f"{t[0]}:{t[1]:02d}:{t[2]:02d}" + (f".{'7' * t[3]}" if t[3] else "")
    ),
    st.tuples(st.dates(), st.integers(0, 86_399), st.integers(0, 9)).map(
        lambda t: (
            f"{t[0].isoformat()} {t[1] // 3600:02d}:{t[1] // 60 % 60:02d}:{t[1] % 60:02d}"
            + (f".{'3' * t[2]}" if t[2] else "")
        )
    ),
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(column=st.lists(_CELLS, min_size=2, max_size=8))
def test_a_generated_column_of_a_csv_is_read_alike_in_memory_and_streamed(tmp_path, column):
    """One grammar of cells, whichever reader reads them: a column of integers, hexadecimal,
    floats, booleans, marks of no value, words, times of day and timestamps, mixed at random, is
    numbers in both (the same values, to a nanosecond of a day) or in neither, or refused by both."""
    path = tmp_path / "g.csv"
    path.write_text("x,b,y\n" + "".join(f'"{cell}",{i % 3},{"pq"[i % 2]}\n' for i, cell in enumerate(column)))
    try:
        memory = read_table(path)
    except PerceptronsError:
        memory = None
    try:
        blocks = list(delimited_blocks(path, keep_missing=True))
    except PerceptronsError:
        blocks = None
    assert (memory is None) == (blocks is None), (column, memory, blocks)
    if memory is None:
        return
    dense = all(not b.sparse for b in blocks)
    assert dense == (memory.kinds[0] == "number"), (column, memory.kinds, dense)
    if dense:
        X = np.vstack([b.X for b in blocks])
        np.testing.assert_allclose(X[:, 0], memory.X[:, 0].astype(float), rtol=1e-12, atol=1e-14, equal_nan=True)


def test_a_streamed_csv_in_another_encoding_reads_as_in_memory(tmp_path):
    path = tmp_path / "fr.csv"
    path.write_bytes("ville;prix;y\nOrléans;1,5;a\nNîmes;2,25;é\n".encode("cp1252"))
    blocks = list(delimited_blocks(path, hash_bits=8, encoding="cp1252"))
    assert [b.y.tolist() for b in blocks] == [["a", "é"]]
    assert read_table(path, encoding="cp1252").X[:, 1].tolist() == [1.5, 2.25]
    with pytest.raises(PerceptronsError, match=r"fr\.csv, line 2: not UTF-8 text \(byte 0xe9 .*--encoding cp1252"):
        list(delimited_blocks(path, hash_bits=8))
    path.write_bytes(b"a,y\n1,p\n2,\x81\n")
    with pytest.raises(PerceptronsError, match=r"fr\.csv, line 3: not cp1252 text \(byte 0x81 at column 3\)"):
        list(delimited_blocks(path, encoding="cp1252"))


def test_excels_separator_line_names_the_streamed_separator_and_lines_count_from_it(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("sep=\t\na\tb\tlabel\n" + "1\t2.5\tx\n3\t4\ty\n" * 12 + "5\tten\tx\n")  # one word in 25: a typo
    with pytest.raises(PerceptronsError, match=r"x\.csv, line 27, column 'b': 'ten' is not a number"):
        list(delimited_blocks(path))
    path.write_text("sep=;\na;b;label\n1;2,5;x\n3;4;y\n")
    (block,) = delimited_blocks(path)
    assert block.X.tolist() == [[1.0, 2.5], [3.0, 4.0]] and block.line == 3
    np.testing.assert_array_equal(block.X, read_table(path).X)


@pytest.mark.parametrize("word", ["nan", "NaN", "NAN"])
def test_a_text_column_with_a_nan_cell_is_text_in_every_block(tmp_path, word):
    """pyarrow keeps the words for missing as text in a column of text, where they parse as a
    float: a column of plans with one ``nan`` was refused as "'basic' among numbers", which the
    in-memory reader reads as text with a missing cell; a later block's ``nan`` was refused as
    a number among text."""
    path = tmp_path / "p.csv"
    path.write_text(f"age,plan,y\n1,basic,a\n2,{word},b\n3,plus,a\n")
    (block,) = delimited_blocks(path, keep_missing=True)
    assert block.sparse and block.n_rows == 3
    path.write_text("age,plan,y\n1,basic,a\n2,plus,b\n" + f"3,{word},a\n" * 3)
    blocks = list(delimited_blocks(path, keep_missing=True, block_bytes=16))
    assert sum(b.n_rows for b in blocks) == 5
    path.write_text("age,plan,y\n1,basic,a\n" + "2,7,b\n" * 24)  # one word in 25 numbers: a typo
    with pytest.raises(PerceptronsError, match=r"line 2, column 'plan': 'basic' is not a number"):
        list(delimited_blocks(path))


@pytest.mark.parametrize(
    "labels",
    [
        pa.array([True, False, True]),
        pa.array([datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 2), None]),
        pa.array(["a", "b", "a"]).dictionary_encode(),
        pa.array([1.0, 0.0, 2.5]),
    ],
    ids=["bool", "timestamp", "dictionary", "float"],
)
def test_parquet_labels_are_the_same_classes_in_memory_and_streamed(tmp_path, labels):
    path = tmp_path / "l.parquet"
    pq.write_table(pa.table({"x": [1.0, 2.0, 3.0], "y": labels}), path)
    streamed = np.concatenate([b.y for b in parquet_blocks(path, require_labels=False)])
    in_memory = read_table(path, require_labels=False).y
    assert in_memory.tolist() == streamed.tolist()
    if labels.type == pa.bool_():
        assert in_memory.tolist() == ["true", "false", "true"]


@pytest.mark.parametrize("labels", [pa.array([b"a", b"b"]), pa.array([[1], [2]])], ids=["binary", "list"])
def test_a_parquet_label_column_of_bytes_or_lists_is_refused_in_memory_as_streamed(tmp_path, labels):
    path = tmp_path / "l.parquet"
    pq.write_table(pa.table({"x": [1.0, 2.0], "y": labels}), path)
    for read in (read_table, lambda p: list(parquet_blocks(p))):
        with pytest.raises(PerceptronsError, match=r"label column 'y' holds .*; expected numbers or text"):
            read(path)


@pytest.mark.parametrize(
    "first, rows",
    [
        (
            "21, State-gov, >50K",
            "".join(
                f"{20 + i % 5}, {['Private', 'State-gov'][i % 2]}, {['<=50K', '>50K'][i % 2]}\n" for i in range(20)
            ),
        ),
        ("1,2,B", "2,4,A\n3,6,B\n4,8,A\n"),
    ],
    ids=["values of their columns", "numbers and a class"],
)
def test_a_first_line_of_data_is_refused_streamed_as_in_memory(tmp_path, first, rows):
    path = tmp_path / "d.csv"
    path.write_text(first + "\n" + rows)
    for read in (read_table, lambda p: list(delimited_blocks(p))):
        with pytest.raises(PerceptronsError, match=r"d\.csv, line 1: the first line is a row of data, not a header"):
            read(path)


def test_a_parse_cancelled_by_ctrl_c_is_an_interrupt(tmp_path, monkeypatch):
    """pyarrow's own SIGINT handler cancels a parse with ArrowCancelled, which came out of the
    command line as a traceback; it is the interrupt it stands for."""
    import pyarrow.csv as pc

    path = tmp_path / "d.csv"
    path.write_text("a,y\n1,p\n2,q\n")

    def cancelled(*args, **kwargs):
        raise pa.ArrowCancelled("Operation cancelled. Detail: received signal 2")

    monkeypatch.setattr(pc, "read_csv", cancelled)
    with pytest.raises(KeyboardInterrupt):
        list(delimited_blocks(path))


def test_a_quoted_cell_holding_line_ends_streams_across_runs_as_in_memory(tmp_path):
    """pyarrow refused a run cut within a quoted cell ("CSV parser got out of sync with
    chunker"); runs now end between records."""
    path = tmp_path / "d.csv"
    rows = [f'{i},"note {i}\nsecond line, with a comma\n",{"ab"[i % 2]}\n' for i in range(6000)]
    path.write_text("n,t,y\n" + "".join(rows))
    blocks = list(delimited_blocks(path, block_bytes=1 << 16, hash_bits=8))
    assert len(blocks) > 2
    assert sum(b.n_rows for b in blocks) == 6000
    np.testing.assert_array_equal(np.concatenate([b.y for b in blocks]), read_table(path).y)


@pytest.mark.parametrize(
    "text",
    [
        "a,b,y\n1,2,x\n\n\n3,4,z\n5,6,x\n7,8,\n",
        'a,b,y\n1,"two\nlines",x\n3,"4",z\n5,"three\n\nlines",x\n7,8,\n',
        "a,b,y\n1,2,x\n   \n3,4,z\n , , \n,,\n5,6,x\n7,8,\n",
    ],
    ids=["blank lines", "quoted line ends", "white space and empty rows"],
)
def test_a_streamed_error_names_the_line_the_in_memory_reader_names(tmp_path, text):
    path = tmp_path / "d.csv"
    path.write_text(text)
    line = text.count("\n")  # the last line's label is empty
    with pytest.raises(PerceptronsError, match=rf"d\.csv, line {line}: the label is empty"):
        read_table(path)
    with pytest.raises(PerceptronsError, match=rf"d\.csv, line {line}: the label is empty"):
        list(delimited_blocks(path))


def test_lines_of_white_space_and_rows_of_empty_cells_are_skipped_in_training_as_in_memory(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("a,b,y\n1,2,x\n   \n3,4,z\n , , \n,,\n5,6,x\n")
    X, y, _ = _streamed(path)
    table = read_table(path)
    np.testing.assert_array_equal(X, table.X.astype(float))
    assert y.tolist() == table.y.tolist() == ["x", "z", "x"]


def test_pandas_index_and_r_row_names_are_no_data_in_parquet_memory_or_streamed(tmp_path):
    """pandas' to_parquet writes an index that is not a range as a last column
    '__index_level_0__', which was taken as the label; R's row names, a first unnamed column,
    were a feature of streamed Parquet only (it learnt the file's order)."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"": [f"r{i}" for i in range(40)], "a": np.arange(40.0) % 7, "y": ["p", "q"] * 20})
    frame.index = np.arange(40) * 3  # not a range: written as a column
    path = tmp_path / "d.parquet"
    frame.to_parquet(path)
    assert "__index_level_0__" in pq.ParquetFile(path).schema_arrow.names
    blocks = list(parquet_blocks(path))
    assert np.vstack([b.X for b in blocks]).shape == (40, 1)  # 'a' alone
    assert np.concatenate([b.y for b in blocks]).tolist() == ["p", "q"] * 20
    table = read_table(path)
    assert table.label == "y" and table.names == ("", "a")  # row names: the command line leaves them out


def test_a_column_of_numbers_and_words_streams_as_text_as_in_memory(tmp_path):
    """mpg's drv holds 4, f and r: the streamed reader refused 'f' "among numbers" on the first
    data row, where the in-memory reader reads the column as text (words over 5 % of it)."""
    path = tmp_path / "d.csv"
    rows = [f"{'4fr'[i % 3]},{i},{'ab'[i % 2]}" for i in range(300)]
    path.write_text("drv,x,y\n" + "\n".join(rows) + "\n")
    assert read_table(path).kinds == ("text", "number")
    blocks = list(delimited_blocks(path, block_bytes=1 << 16))
    assert sum(b.n_rows for b in blocks) == 300 and blocks[0].sparse  # text: hashed

"""The columns of a streamed CSV that hold numbers as spreadsheets write them, read as the
in-memory reader reads them, run after run."""

import datetime

import numpy as np
import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.readers import read_table

pytest.importorskip("pyarrow")

from perceptrons.io.arrow import delimited_blocks  # noqa: E402  (needs pyarrow)


def _streamed(path, **kw):
    """Every block's rows stacked, and how many blocks the file was read in."""
    blocks = list(delimited_blocks(path, block_bytes=1 << 16, **kw))
    return np.vstack([b.X for b in blocks]), np.concatenate([b.y for b in blocks]), len(blocks)


def _formatted_rows(n, seed=0):
    rng = np.random.default_rng(seed)
    for i in range(n):
        price = rng.uniform(-5000, 5000)
        shown = f"(${-price:,.2f})" if price < 0 else f"${price:,.2f}"  # accounting's negatives
        day = datetime.date(2015, 1, 1) + datetime.timedelta(days=int(rng.integers(0, 3000)))
        yield f'"{shown}",{rng.uniform(0, 100):.1f}%,{day.isoformat()},{rng.uniform(40, 120):.1f} kg,{i % 3}\n'


def test_a_streamed_csv_reads_numbers_as_spreadsheets_write_them_as_the_table_reader_does(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("price,share,day,weight,y\n" + "".join(_formatted_rows(4000)))
    X, y, runs = _streamed(path)
    table = read_table(path)
    assert runs > 2, "the file must span several runs, so that later runs are read by the first run's rules"
    assert table.kinds == ("number",) * 4 and X.dtype == np.float64
    np.testing.assert_array_equal(X, table.X)
    assert y.tolist() == [str(v) for v in table.y.tolist()]
    assert X[:, 1].max() <= 1.0 and X[:, 0].min() < -1000  # percentages ÷ 100, negatives in parentheses


def test_a_streamed_semicolon_file_reads_decimal_commas_and_points_grouping_thousands(tmp_path):
    path = tmp_path / "eu.csv"
    path.write_text("a;b;c;y\n0,5;1.234,5;12 €;p\n1,25;3.386;7,50 €;q\n2;12,0;1.000 €;p\n")
    X, _, _ = _streamed(path)
    np.testing.assert_array_equal(X, read_table(path).X)
    assert X[:, 1].tolist() == [1234.5, 3386.0, 12.0] and X[:, 2].tolist() == [12.0, 7.5, 1000.0]


def test_a_word_in_a_later_run_of_a_column_of_formatted_numbers_names_its_line(tmp_path):
    path = tmp_path / "f.csv"
    rows = list(_formatted_rows(4000))
    rows[3500] = '"$1,2x",5%,2020-01-01,50 kg,0\n'
    path.write_text("price,share,day,weight,y\n" + "".join(rows))
    with pytest.raises(PerceptronsError, match=r"f\.csv, line 3502, column 'price': '\$1,2x' is not a number; the col"):
        _streamed(path)


def test_a_column_of_text_with_a_typo_among_numbers_is_not_read_as_numbers(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,y\n" + "".join(f"${i},{i % 2}\n" for i in range(50)) + "$5x,0\n")
    with pytest.raises(PerceptronsError, match=r"t\.csv, line 52, column 'a': '\$5x' is not a number, but 50 of"):
        _streamed(path)
    blocks = list(delimited_blocks(path, hash_bits=4))  # asked for: read as text categories
    assert blocks[0].sparse


def test_how_each_column_was_read_is_told_as_the_in_memory_summary_tells_it(tmp_path):
    from perceptrons.io.arrow import delimited_notes

    path = tmp_path / "f.csv"
    path.write_text("price,share,day,weight,y\n" + "".join(_formatted_rows(50)))
    notes = delimited_notes(path)
    in_memory = dict(zip(read_table(path).names, read_table(path).read_as))
    assert list(notes) == ["price", "share", "day", "weight"]
    assert [notes[n] for n in ("price", "share", "weight")] == [in_memory[n] for n in ("price", "share", "weight")]
    assert notes["day"] == "dates read as days since 1970-01-01"  # pyarrow's date type: the same days

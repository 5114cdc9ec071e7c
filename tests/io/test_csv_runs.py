"""Runs of whole records of a streamed CSV file, and the line of each record: a quoted cell may
hold line ends, and a blank line or one of white space alone holds no row."""

import numpy as np
import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.csv_runs import RunLines, record_end, record_runs, without_white_lines


def _records(text):
    """The file lines where each record of ``text`` starts, by Python's csv module (the oracle)."""
    import csv
    import io

    reader = csv.reader(io.StringIO(text, newline=""))
    starts, line = [], 1
    for row in reader:
        if row:
            starts.append(line)
        line = reader.line_num + 1
    return starts


@pytest.mark.parametrize(
    ("data", "end"),
    [
        (b"a,b\n1,2\n", 8),
        (b'a,"b\nc",d\n1,2\n', 14),
        (b'a,"b\nc', 0),
        (b'1,"x ""q"" y"\n2,"z\n', 14),
        (b"1,2", 3),  # the end of the file without a line end
        (b'1,"2', 0),
    ],
)
def test_a_run_ends_at_the_last_line_end_outside_quotes(data, end):
    assert record_end(data) == end


def test_records_spanning_every_run_boundary_come_whole(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for i in range(10000):
        words = " ".join(["w"] * int(rng.integers(1, 20)))
        cell = f'"{words}\n{words} ""quoted""\n"' if i % 3 == 0 else words
        rows.append(f"{i},{cell},x\n")
    text = "n,t,y\n" + "".join(rows)
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode())
    runs = list(record_runs(path, 1 << 16))
    assert len(runs) > 3
    assert b"".join(r for r, _ in runs) == text.encode()
    before = 0
    for run, line in runs:
        assert record_end(run) == len(run)  # no record cut
        assert line == text.encode()[:before].count(b"\n") + 1
        before += len(run)


def test_a_bare_carriage_return_is_refused_with_its_line(tmp_path):
    path = tmp_path / "d.csv"
    path.write_bytes(b"a,y\r\n1,p\r\n2,q\r3,p\n")
    with pytest.raises(PerceptronsError, match=r"d\.csv, line 3: a bare carriage return"):
        list(record_runs(path, 1 << 16))


def test_lines_of_white_space_alone_are_emptied_outside_quotes_only():
    run = b'  \na,b\n \t \n1,2\n"x\n  \ny",3\n\x0c\r\n  '
    assert without_white_lines(run, ",") == b'\na,b\n\n1,2\n"x\n  \ny",3\n\r\n'
    # in a TSV file a tab separates two empty cells: that line is a row
    assert without_white_lines(b"a\tb\n\t\n  \n", "\t") == b"a\tb\n\t\n\n"
    assert without_white_lines(b"a,b\n1,2\n", ",") == b"a,b\n1,2\n"


@pytest.mark.parametrize(
    "text",
    [
        "a,b\n1,2\n3,4\n",
        "a,b\n1,2\n\n\n3,4\n",
        'a,b\n1,"two\nlines"\n3,"x"\n5,"three\n\nlines"\n7,8\n',
        'a,b\r\n1,"x\r\ny"\r\n\r\n3,4\r\n',
        "a,b\n\n1,2",
    ],
    ids=["plain", "blank lines", "quoted line ends", "crlf", "no final line end"],
)
def test_each_row_is_on_the_line_its_record_starts_on(text):
    import pyarrow as pa
    import pyarrow.csv as pc

    run = text.encode()
    rows = pc.read_csv(pa.py_buffer(run), parse_options=pc.ParseOptions(newlines_in_values=True)).num_rows
    places = RunLines(run, 1, rows, header=True)
    expected = _records(text)[1:]
    assert [places.line(i) for i in range(rows)] == expected
    assert [places.after(1).line(i) for i in range(rows - 1)] == expected[1:]
    keep = np.arange(rows) % 2 == 0
    assert [places.kept(keep).line(i) for i in range(int(keep.sum()))] == expected[::2]
    assert places[0] == f"line {expected[0]}"


def test_a_quote_inside_an_unquoted_cell_holds_back_four_runs_at_most(tmp_path):
    """A quote that opens no quoted cell (``12" wide``) made every later line end look quoted:
    the whole rest of the file waited for its closing quote."""
    cells = ["screen 12 in wide"] * 60000
    cells[2] = 'screen 12" wide'
    text = "size,desc,y\n" + "".join(f"{i},{cell},a\n" for i, cell in enumerate(cells))
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode())
    runs = list(record_runs(path, 1 << 16))
    assert b"".join(r for r, _ in runs) == text.encode()
    assert max(len(r) for r, _ in runs) <= 5 * (1 << 16)  # four runs held back, and the one read then

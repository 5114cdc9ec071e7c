"""A CSV/TSV/Parquet file as a table: columns of numbers or text, missing cells kept, and every
refusal one line naming the file, the line or row, and the column."""

import numpy as np
import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.readers import read_table
from perceptrons.io.table import MISSING


def _write(tmp_path, text, name="t.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_columns_keep_their_kind_and_missing_cells(tmp_path):
    path = _write(tmp_path, "x,island,z,y\n1.5,Biscoe,NA,a\n,Dream,2,b\n3,,null,a\n4,NaN,5e2,b\n")
    t = read_table(path)
    assert t.names == ("x", "island", "z") and t.kinds == ("number", "text", "number")
    assert t.X.dtype == object and t.label == "y" and t.y.tolist() == ["a", "b", "a", "b"]
    assert t.missing == (1, 2, 2)
    assert np.isnan(t.X[1, 0]) and t.X[0, 1] == "Biscoe" and np.isnan(t.X[2, 1]) and t.X[3, 2] == 500.0


def test_a_table_of_numbers_is_a_float_matrix(tmp_path):
    t = read_table(_write(tmp_path, "a,b,y\n1,NA,0\n2,3,1\n"))
    assert t.X.dtype == np.float64 and np.isnan(t.X[0, 1]) and t.y.tolist() == [0, 1]


@pytest.mark.parametrize("token", sorted(MISSING - {""}))
def test_every_missing_spelling_is_a_missing_cell_and_a_refused_label(tmp_path, token):
    t = read_table(_write(tmp_path, f"a,b,y\n{token},x,0\n2,{token},1\n"))
    assert np.isnan(t.X[0, 0]) and np.isnan(t.X[1, 1])
    if token == "none":  # a class of labels as people name them ("None", "Some", "Marked")
        assert read_table(_write(tmp_path, f"a,y\n1,Some\n2,{token}\n")).y.tolist() == ["Some", token]
        return
    with pytest.raises(PerceptronsError, match=r"t.csv, line 3: the label is .*missing value"):
        read_table(_write(tmp_path, f"a,y\n1,0\n2,{token}\n"))


def test_a_model_reads_columns_by_name_in_its_order(tmp_path):
    path = _write(tmp_path, "b,y,a,extra\nx,1,2,9\ny,0,3,9\n")
    t = read_table(path, label="y", names=["a", "b"], kinds=["number", "text"])
    assert t.names == ("a", "b") and t.X[:, 0].tolist() == [2.0, 3.0] and t.X[:, 1].tolist() == ["x", "y"]


def test_a_text_column_of_a_model_keeps_numbers_as_text(tmp_path):
    t = read_table(_write(tmp_path, "zip,y\n02139,1\n10001,0\n"), label="y", names=["zip"], kinds=["text"])
    assert t.X[:, 0].tolist() == ["02139", "10001"]


@pytest.mark.parametrize(
    "text,kw,match",
    [
        (
            "a,y\n1,0\nBiscoe,1\n",
            {"label": "y", "names": ["a"], "kinds": ["number"]},
            r"line 3, column 'a': 'Biscoe' is not a number",
        ),
        ("a,y\n1,0\ninf,1\n", {}, r"line 3, column 'a': 'inf' is not finite"),
        (
            "b,y\n1,0\n",
            {"label": "y", "names": ["a", "b"], "kinds": ["number"] * 2},
            r"no column 'a', which the model was trained",
        ),
        ("a,y,y\n1,0,0\n", {}, r"label column name 'y' appears 2 times"),
        ("a,y\n1,0\n2\n", {}, r"line 3: 1 fields, expected 2"),
        ("a,y\n", {}, r"no data rows"),
        ("a,b\n1,2\n", {"label": "c"}, r"no label column 'c'"),
        ("1,2\n3,4\n", {}, r"all numbers; expected a header"),
    ],
    ids=[
        "word-among-numbers",
        "infinite",
        "missing-column",
        "repeated-label",
        "short-row",
        "no-rows",
        "no-label",
        "no-header",
    ],
)
def test_bad_tables_are_refused_with_where(tmp_path, text, kw, match):
    with pytest.raises(PerceptronsError, match=match) as exc:
        read_table(_write(tmp_path, text), **kw)
    assert "t.csv" in str(exc.value) and "\n" not in str(exc.value)


def test_repeated_feature_names_are_numbered_as_pandas_does(tmp_path):
    t = read_table(_write(tmp_path, ",,x,x,y\n1,2,3,4,0\n"))
    assert t.names == ("", ".1", "x", "x.1")


def test_tsv_and_parquet_tables(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    t = read_table(_write(tmp_path, "a\tb\ty\n1\tx\t0\n\tz\t1\n", "t.tsv"))
    assert t.kinds == ("number", "text") and np.isnan(t.X[1, 0])
    path = tmp_path / "t.parquet"
    pq.write_table(
        pa.table({"a": [1.0, None, 3.0], "b": ["x", None, "NA"], "c": [True, False, None], "y": ["p", "q", "p"]}),
        path,
    )
    t = read_table(path)
    assert t.kinds == ("number", "text", "number") and t.missing == (1, 2, 1)
    assert t.y.tolist() == ["p", "q", "p"]
    with pytest.raises(PerceptronsError, match=r"t.parquet, row 2: the label is empty"):
        pq.write_table(pa.table({"a": [1.0, 2.0], "y": ["p", None]}), path)
        read_table(path)
    with pytest.raises(PerceptronsError, match=r"column 'b' holds double; the model was trained on text"):
        pq.write_table(pa.table({"a": [1.0], "b": [2.0], "y": ["p"]}), path)
        read_table(path, label="y", names=["a", "b"], kinds=["number", "text"])


def test_numbers_as_spreadsheets_write_them_and_how_each_column_was_read(tmp_path):
    text = 'income,price,rate,when,plain,y\n"1,234",$5.50,45%,2020-01-02,1,a\n"12,000",$-1,5%,2020-01-03,2,b\n'
    t = read_table(_write(tmp_path, text))
    assert t.kinds == ("number",) * 5 and t.X.dtype == np.float64
    assert t.X[:, 0].tolist() == [1234.0, 12000.0] and t.X[:, 1].tolist() == [5.5, -1.0]
    assert t.X[:, 2].tolist() == pytest.approx([0.45, 0.05]) and t.X[1, 3] - t.X[0, 3] == 1.0
    assert t.read_as[0] == "numbers written with thousands separators, e.g. '1,234'"
    assert "currency signs" in t.read_as[1] and "percentages" in t.read_as[2] and "ISO dates" in t.read_as[3]
    assert t.read_as[4] is None
    # a model's file is read by the same rules: "$7" in a column of numbers is 7
    later = read_table(_write(tmp_path, "price,y\n$7,a\n", "later.csv"), label="y", names=["price"], kinds=["number"])
    assert later.X[0, 0] == 7.0


def test_marks_of_no_value_in_a_column_of_numbers_are_missing(tmp_path):
    rows = "".join(f"{'?' if i % 10 == 0 else i},{'-' if i == 3 else i},x{i % 3},{i % 2}\n" for i in range(40))
    t = read_table(_write(tmp_path, "a,b,c,y\n" + rows))
    assert t.kinds == ("number", "number", "text")
    assert t.missing == (4, 1, 0) and np.isnan(t.X[0, 0]) and np.isnan(t.X[3, 1])
    assert t.read_as[0] == "'?' read as missing (4 cells)" and t.read_as[1] == "'-' read as missing (1 cell)"
    # whether 1 in 120 or 12 in 120: the same rule (a word among numbers is still refused)
    few = "".join(f"{'?' if i == 5 else i},{i % 2}\n" for i in range(120))
    assert read_table(_write(tmp_path, "a,y\n" + few)).missing == (1,)
    typo = "".join(f"{'12a' if i == 5 else i},{i % 2}\n" for i in range(120))
    with pytest.raises(PerceptronsError, match=r"line 7, column 'a': '12a' is not a number"):
        read_table(_write(tmp_path, "a,y\n" + typo))
    # a text column keeps "?" as a level; at predict time a mark in a number column is missing
    t = read_table(_write(tmp_path, "c,y\nred,0\n?,1\nblue,0\n"))
    assert t.kinds == ("text",) and t.X[1, 0] == "?"
    later = read_table(_write(tmp_path, "a,y\n#VALUE!,0\n", "later.csv"), label="y", names=["a"], kinds=["number"])
    assert np.isnan(later.X[0, 0]) and later.missing == (1,)


@pytest.mark.parametrize("sep", [";", "\t", "|"])
def test_a_csv_separated_by_another_mark_is_read_by_it(tmp_path, sep):
    t = read_table(_write(tmp_path, f'"a b"{sep}c{sep}y\n1.5{sep}x{sep}0\n2{sep}z{sep}1\n'))
    assert t.names == ("a b", "c") and t.X[:, 0].tolist() == [1.5, 2.0] and t.y.tolist() == [0, 1]


def test_a_semicolon_file_writes_the_comma_as_its_decimal_mark(tmp_path):
    t = read_table(_write(tmp_path, "a;b;y\n0,126;1.234,5;0\n2;7;1\n"))
    assert t.X.tolist() == [[0.126, 1234.5], [2.0, 7.0]]
    assert "decimal commas" in t.read_as[0] and "thousands separators" in t.read_as[1]


def test_a_header_ending_with_a_separator_has_no_column_after_it(tmp_path):
    t = read_table(_write(tmp_path, "a,b,y,\n1,2,0,\n3,4,1,\n5,6,0\n"))
    assert t.names == ("a", "b") and t.label == "y" and t.y.tolist() == [0, 1, 0]
    with pytest.raises(PerceptronsError, match=r"line 3: '9' after the last column; the header ends with a separator"):
        read_table(_write(tmp_path, "a,b,y,\n1,2,0,\n3,4,1,9\n"))


def test_a_quoted_text_cell_may_run_over_lines(tmp_path):
    t = read_table(_write(tmp_path, 'x,note,y\n1,"bad\nreally bad",0\n2,"fine, thanks",1\n3,bad,0\n'))
    assert t.kinds == ("number", "text") and t.X[0, 1] == "bad\nreally bad" and t.y.tolist() == [0, 1, 0]


@pytest.mark.parametrize("hint", ["sep=;", "sep=,", "\nsep=|"])
def test_excels_separator_line(tmp_path, hint):
    sep = hint[-1]
    t = read_table(_write(tmp_path, f"{hint}\na{sep}b{sep}y\n1{sep}x{sep}0\n2{sep}z{sep}1\n"))
    assert t.names == ("a", "b") and t.X[:, 0].tolist() == [1.0, 2.0] and t.y.tolist() == [0, 1]


def test_a_column_of_one_unit_is_numbers_and_of_two_is_text(tmp_path):
    rows = "".join(f"{50 + i} kg,{i}{'AB'[i % 2]},(1{i}.5),{i % 2}\n" for i in range(30))
    t = read_table(_write(tmp_path, "weight,code,balance,y\n" + rows))
    assert t.kinds == ("number", "text", "number")
    assert t.X[3, 0] == 53.0 and t.X[3, 2] == -13.5
    assert t.read_as[0] == "numbers written with the unit 'kg', e.g. '50 kg'"
    assert t.read_as[2] == "numbers written with negatives in parentheses, e.g. '(10.5)'"


def test_a_file_of_decimal_commas_groups_thousands_with_points_in_every_column(tmp_path):
    t = read_table(_write(tmp_path, "menge;anteil;y\n3.386;-0,72;0\n211;1,5;1\n1.000.000;2;0\n"))
    assert t.X[:, 0].tolist() == [3386.0, 211.0, 1000000.0] and t.X[:, 1].tolist() == [-0.72, 1.5, 2.0]
    wine = read_table(_write(tmp_path, "density;y\n1.0001;0\n0.998;1\n", "w.csv"))
    assert wine.X[:, 0].tolist() == [1.0001, 0.998]  # no decimal comma anywhere: points are decimal


def test_a_first_line_of_data_is_no_header(tmp_path):
    rows = "".join(f"{20 + i % 5}, {['Private', 'State-gov'][i % 2]}, {['<=50K', '>50K'][i % 2]}\n" for i in range(20))
    with pytest.raises(
        PerceptronsError, match=r"line 1: the first line is a row of data, not a header: '21', 'State-gov', '>50K' are"
    ):
        read_table(_write(tmp_path, "21, State-gov, >50K\n" + rows))
    t = read_table(_write(tmp_path, "age, work, y\n" + rows))  # a header whose names are no values
    assert t.names == ("age", "work")


def test_a_first_line_of_numbers_and_a_class_is_no_header(tmp_path):
    """Numbers and a class over rows of numbers and classes: a row of data, although only its
    class is a value of its column below (its numbers are not)."""
    with pytest.raises(
        PerceptronsError, match=r"line 1: the first line is a row of data, not a header: its other fields"
    ):
        read_table(_write(tmp_path, "1,2,B\n2,4,A\n3,6,B\n4,8,A\n"))
    # names that are numbers over a label column that does not hold its own name: a header
    assert read_table(_write(tmp_path, "2019,2020,y\n1,2,B\n2,4,A\n", "years.csv")).names == ("2019", "2020")


def test_a_missing_label_names_the_label_column(tmp_path):
    with pytest.raises(
        PerceptronsError,
        match=r"line 3: the label is empty; every row needs a class label \(the label column is 'port'; --label names another\)",
    ):
        read_table(_write(tmp_path, "survived,port\n1,S\n0,\n"))


def test_a_table_in_another_encoding_is_read_in_it_and_refused_without_it(tmp_path):
    path = tmp_path / "fr.csv"
    path.write_bytes('ville,prix,y\nOrléans,"1 200 €",a\nNîmes,5,b\n'.encode("cp1252"))
    with pytest.raises(PerceptronsError, match=r"fr\.csv, line 2: not valid UTF-8 \(byte 0xe9 .*--encoding cp1252"):
        read_table(path)
    t = read_table(path, encoding="cp1252")
    assert t.X[:, 0].tolist() == ["Orléans", "Nîmes"]
    path.write_bytes(b"a,y\n1,p\n2,\x81\n")  # 0x81: no character in Windows-1252
    with pytest.raises(PerceptronsError, match=r"fr\.csv, line 3: not valid cp1252 \(byte 0x81 at column 3\)"):
        read_table(path, encoding="cp1252")


def test_a_space_after_the_separator_is_not_part_of_a_quoted_field(tmp_path):
    """``47, "Doe, Jane", 32610.55`` as people type CSV: the quoted field after a space is one
    field (it was two, and the row was refused for its count), and a quoted number a number
    (it was text, a category a row)."""
    path = tmp_path / "s.csv"
    path.write_text('age, name, income, y\n 47, "Doe, Jane", "32610.55", a\n51, "Roe, Rick", 1200.5 , b\n')
    table = read_table(path)
    assert table.names == ("age", "name", "income") and table.kinds == ("number", "text", "number")
    assert table.X[:, 2].astype(float).tolist() == [32610.55, 1200.5]
    assert table.X[:, 1].tolist() == ["Doe, Jane", "Roe, Rick"] and table.y.tolist() == ["a", "b"]


def _reader(stream):
    """A CSV's reader: the streamed one (its blocks) or the in-memory one."""
    from perceptrons.io.arrow import delimited_blocks

    return (lambda p: list(delimited_blocks(p))) if stream else read_table


def _refused(read, path, text, pattern):
    path.write_text(text)
    with pytest.raises(PerceptronsError, match=pattern):
        read(path)


@pytest.mark.parametrize("stream", [False, True])
def test_a_file_without_its_header_is_refused_when_its_label_is_text(tmp_path, stream):
    """A headerless file of measurements with a text label took its first row for the header
    (columns named -6.992, 4.555, ...) and lost it; pandas' header 0,1,2 of integers is kept."""
    read, path = _reader(stream), tmp_path / "n.csv"
    text = "-6.992,4.555,cls_09\n1.5,2.25,cls_01\n3.5,0.5,cls_09\n"
    _refused(read, path, text, r"line 1: the first line \(-6\.992,4\.555,cls_09\) is numbers but")
    path.write_text("0,1,label\n1.5,2.25,a\n3.5,0.5,b\n")
    read(path)
    if not stream:
        _refused(read, path, "\n\n\n", r"no column names \(the file holds blank lines only\)")


@pytest.mark.parametrize("stream", [False, True])
def test_a_comment_line_is_named_as_one(tmp_path, stream):
    """A CSV reader reads ``# exported from ...`` as a row: the refusals said only that the
    header had one column, or that line 2 had 1 field."""
    read, path = _reader(stream), tmp_path / "c.csv"
    text = "# exported 2024-05-01\na,b,y\n1,2,p\n"
    _refused(read, path, text, r"got \['# exported 2024-05-01'\]; a line starting with # is a row")
    text = "a,b,y\n1,2,p\n# a note\n3,4,q\n"
    _refused(read, path, text, r"line 3: 1 fields, expected 3 as in the header; a line starting with #")

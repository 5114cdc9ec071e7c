"""Which reader a file goes to: its extension, ``.gz`` looked through, or its first line."""

import gzip

import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.readers import guess_format, read_data, read_table


@pytest.mark.parametrize(
    "name, first, fmt",
    [
        ("d.csv", b"a,b,y\n", "csv"),
        ("d.csv.gz", None, "csv"),
        ("d.TSV.GZ", None, "tsv"),
        ("d.svm.gz", None, "libsvm"),
        ("d.txt", b"x1,x2,label\n", "csv"),
        ("d.txt", b"x1;x2;label\n", "csv"),
        ("d.txt", b"x1\tx2\tlabel\n", "tsv"),
        ("d.txt", b"+1 3:0.5 7:1\n", "libsvm"),
        ("d.txt", b"1 |f a b\n", "libsvm"),
        ("d.txt", b"|f a b\n", "libsvm"),
        ("data", b"\xef\xbb\xbfa,b,label\n", "csv"),
        ("data", b"\xff\xfe\x00", "libsvm"),  # not text: its reader says why
        ("data", b"", "libsvm"),
        ("d.dat.gz", b"a,b,label\n", "csv"),
    ],
)
def test_the_format_of_a_file(tmp_path, name, first, fmt):
    path = tmp_path / name
    if first is None:
        path.write_bytes(b"")
    elif name.endswith(".gz"):
        path.write_bytes(gzip.compress(first))
    else:
        path.write_bytes(first)
    assert guess_format(path) == fmt
    assert guess_format(tmp_path / "absent.txt") == "libsvm"


def test_a_gzip_table_is_read_through(tmp_path):
    path = tmp_path / "d.csv.gz"
    path.write_bytes(gzip.compress(b"a;b;y\n0,5;x;0\n1,5;z;1\n"))
    t = read_table(path)
    assert t.names == ("a", "b") and t.X[:, 0].tolist() == [0.5, 1.5] and t.y.tolist() == [0, 1]


@pytest.mark.parametrize(
    "name, magic", [("book.xlsx", b"PK\x03\x04"), ("book.xls", b"\xd0\xcf\x11\xe0"), ("b.ods", b"PK\x03\x04")]
)
def test_a_workbook_is_refused_with_what_to_do(tmp_path, name, magic):
    from perceptrons._core.errors import PerceptronsError
    from perceptrons.io.readers import read_data

    path = tmp_path / name
    path.write_bytes(magic + b"\x00" * 60)
    for read in (read_data, read_table):
        with pytest.raises(
            PerceptronsError, match=rf"{name}: a spreadsheet workbook; expected a data file such as CSV"
        ):
            read(path)
    path.write_bytes(b"a,b,y\n1,2,0\n")  # a CSV under a workbook's name is read as what it is
    assert read_table(path).names == ("a", "b")


def test_an_npz_to_predict_may_hold_x_alone(tmp_path):
    """Rows to predict rarely come with labels: an archive of X alone was refused for its
    missing y, as it still is for training; a refusal names the arrays found."""
    import numpy as np

    path = tmp_path / "x.npz"
    np.savez(path, X=np.ones((3, 2)))
    X, y = read_data(path, require_labels=False)
    assert X.shape == (3, 2) and y is None
    with pytest.raises(PerceptronsError, match=r"missing array\(s\) \['y'\].*found \['X'\]"):
        read_data(path)
    np.savez(path, np.ones((3, 2)), np.zeros(3))
    with pytest.raises(PerceptronsError, match=r"found \['arr_0', 'arr_1'\]"):
        read_data(path)


def test_a_pipe_whose_name_tells_no_format_is_refused_before_any_byte_is_read(tmp_path):
    """Its format was sniffed from a first line that its reader, opening it again, no longer
    saw: a piped LIBSVM file lost a quarter of its rows without a word, and a FIFO blocked."""
    import os
    import threading

    fifo = tmp_path / "pf"
    os.mkfifo(fifo)
    with pytest.raises(
        PerceptronsError, match=r"pf: a pipe or device, not a file, and its name tells no format; give --format"
    ):
        read_data(fifo)
    # with --format the pipe is read once, whole
    writer = threading.Thread(target=lambda: fifo.write_text("1 1:1\n-1 2:1\n" * 500))
    writer.start()
    X, y = read_data(fifo, fmt="libsvm")
    writer.join()
    assert X.shape[0] == 1000


@pytest.mark.parametrize(
    "name, compress",
    [("bzip2", "bz2"), ("xz", "lzma"), ("zip", "zip")],
)
def test_a_file_compressed_otherwise_than_gzip_is_named_so(tmp_path, name, compress):
    """Its bytes were read as text: "not valid UTF-8 ... try --encoding cp1252", "a bare
    carriage return", "a NUL byte"."""
    import bz2
    import lzma
    import zipfile

    text = b"a,b,y\n1,2,p\n2,1,q\n"
    path = tmp_path / "d.csv"
    if compress == "zip":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("d.csv", text)
    else:
        path.write_bytes({"bz2": bz2, "lzma": lzma}[compress].compress(text))
    for read in (read_data, lambda p: read_data(p, fmt="libsvm"), read_table):
        with pytest.raises(
            PerceptronsError, match=rf"d\.csv: compressed with {name}; expected text: decompress it first"
        ):
            read(path)

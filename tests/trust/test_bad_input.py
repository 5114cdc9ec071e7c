"""Bad input: a one-line error naming the file/line/parameter, exit status 2, no traceback,
and nothing already on disk lost.

The CLI cases are one table, ``CASES``: each row names the files to create, the command line and
the fragments the one error line must hold.  To add a case, append a ``Case(...)`` to ``CASES``
(or to one of the lists it is made of); the checks every row gets are in
:func:`test_bad_input_matrix`.  Library-level bad input (no CLI) is tested further down.
"""

import io
import os
import subprocess
import sys
import warnings
import zipfile
from dataclasses import dataclass, field

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, save_model
from perceptrons._core.errors import PerceptronsError

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")


@pytest.fixture
def model(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 3))
    y = (X[:, 0] > 0).astype(int)
    path = tmp_path / "model.npz"
    save_model(Perceptron().fit(X, y), path)
    return path


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def assert_refused(result, *fragments):
    """Exit status 2, exactly one non-empty line on stderr, "error: ...", holding every fragment."""
    code, out, err = result
    assert code == 2, (code, out, err)
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error:"), lines[0]
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], lines[0]
    return lines[0]


GOOD = "a,b,label\n1,2,0\n2,1,1\n"


# ============================================================================ the CLI matrix
@dataclass(frozen=True)
class Case:
    """One bad input to the command line.

    name : unique id of the case
    argv : the command line; ``{d}`` is the case's own directory (absolute)
    files : name → content written into that directory before the run: ``str`` (UTF-8),
        ``bytes``, ``DIR`` (a directory), or a function of the :class:`Assets` returning bytes
    expect : fragments of the one error line; at least one of them names a file of the case,
        a line, a CLI option (``--x``) or argument (``DATA``, ``MODEL``, …)
    """

    name: str
    argv: tuple
    files: dict = field(default_factory=dict)
    expect: tuple = ()


DIR = object()  # files: create a directory


@dataclass(frozen=True)
class Assets:
    classifier: bytes  # a Perceptron on 3 features, classes [0, 1], trained on columns a,b,c,label
    tagger: bytes  # a Tagger trained on TAG_TRAIN


def classifier(a):
    return a.classifier


def tagger(a):
    return a.tagger


def npz(**arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def npy(array):
    buf = io.BytesIO()
    np.save(buf, np.asarray(array))
    return buf.getvalue()


def npy_header(shape, descr="<f8", body=b"\0" * 48):
    """A .npy member whose header declares ``shape`` whatever the body holds."""
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": shape})
    return buf.getvalue() + body


def zipped(members, compression=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def tampered(a):
    """The classifier with its intercept changed and the checksum left as it was."""
    with zipfile.ZipFile(io.BytesIO(a.classifier)) as z:
        members = {n: z.read(n) for n in z.namelist()}
    members["intercept.npy"] = npy(np.load(io.BytesIO(members["intercept.npy"])) + 5)
    return zipped(members)


def token(i, word, tag, xpos="X", lemma=None):
    return f"{i}\t{word}\t{lemma or word.lower()}\t{tag}\t{xpos}\t_\t0\troot\t_\t_\n"


TAG_TRAIN = (
    token(1, "The", "DET")
    + token(2, "dog", "NOUN")
    + token(3, "barks", "VERB")
    + "\n"
    + token(1, "A", "DET")
    + token(2, "cat", "NOUN")
    + token(3, "sleeps", "VERB")
    + "\n"
)
X3 = "a,b,c,label\n1,2,3,0\n3,2,1,1\n"  # data for the 3-feature classifier
XY = np.array([[1.0, 2.0], [2.0, 1.0], [0.0, 3.0]])
Y3 = np.array([0, 1, 0])
LONG_FIELD = "x" * (128 * 1024 + 10)


def train(data, *extra, out="m.npz"):
    return ("train", "{d}/" + data, "-o", "{d}/" + out, *extra)


def with_model(command, data, *extra, model="model.npz"):
    return (command, "{d}/" + model, "{d}/" + data, *extra)


M = {"model.npz": classifier}  # a pre-existing model: outputs may point at it, it must survive
T = {"tagger.npz": tagger}

CSV_CASES = [
    Case(
        "csv-inf-first-column",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,0\ninf,1,1\n"},
        ("d.csv, line 3", "not finite"),
    ),
    Case(
        "csv-overflow-streamed",
        train("d.csv", "--stream"),
        {"d.csv": "a,b,label\n1,2,0\n1e309,1,1\n"},
        ("d.csv, line 3", "value inf of column 'a' is not finite"),
    ),
    Case(
        "csv-header-of-numbers",
        train("d.csv"),
        {"d.csv": "0.5,1.5,0\n0,0,0\n1,1,1\n"},
        ("d.csv, line 1", "(0.5,1.5,0) is all numbers", "expected a header"),
    ),
    Case(
        "csv-header-of-numbers-streamed",
        train("d.csv", "--stream"),
        {"d.csv": "0.5,1.5,0\n0,0,0\n1,1,1\n"},
        ("d.csv, line 1", "is all numbers"),
    ),
    Case(
        "cache-over-another-file",
        train("d.csv", "--stream", "--cache", "{d}/notes.txt"),
        {"d.csv": GOOD, "notes.txt": "my notes\n"},
        ("notes.txt", "is not an epoch cache"),
    ),
    Case("csv-inf", train("d.csv"), {"d.csv": "a,b,label\n1,inf,0\n2,1,1\n"}, ("d.csv, line 2", "not finite")),
    Case(
        "csv-overflow-to-inf",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,1e400,0\n2,1,1\n"},
        ("d.csv, line 2", "not finite"),
    ),
    Case("csv-empty", train("d.csv"), {"d.csv": ""}, ("d.csv", "empty")),
    Case("csv-header-only", train("h.csv"), {"h.csv": "a,b,label\n"}, ("h.csv", "no data rows")),
    Case("csv-header-and-blank-lines", train("h.csv"), {"h.csv": "a,b,label\n\n,,\n\n"}, ("h.csv", "no data rows")),
    Case(
        "csv-single-class", train("d.csv"), {"d.csv": "a,b,label\n1,2,0\n2,1,0\n"}, ("d.csv", "1 class", "two classes")
    ),
    Case(
        "csv-ragged-row",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,0\n2,1\n3,3,1\n"},
        ("d.csv, line 3", "2 fields, expected 3"),
    ),
    Case(
        "csv-non-numeric",
        train("d.csv"),
        # one word among 30 numbers: a typo, refused (a column with more words is text)
        {"d.csv": "a,b,label\n" + "".join(f"{i},{i % 3},{i % 2}\n" for i in range(30)) + "2,abc,1\n"},
        ("d.csv, line 32, column 'b'", "'abc' is not a number, but 30 of the column's 31 cells are"),
    ),
    Case(
        "csv-missing-label-column",
        train("d.csv", "--label", "target"),
        {"d.csv": GOOD},
        ("d.csv", "no label column 'target'", "['a', 'b', 'label']"),
    ),
    Case(
        "csv-one-column", train("d.csv"), {"d.csv": "label\n0\n1\n"}, ("d.csv, line 1", "at least one feature column")
    ),
    # labels: never merged, never missing
    Case(
        "csv-label-empty",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,0\n2,1,\n"},
        ("d.csv, line 3", "the label is empty"),
    ),
    Case(
        "csv-label-blank",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,  \n2,1,1\n"},
        ("d.csv, line 2", "the label is empty"),
    ),
    Case(
        "csv-label-NA",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,NA\n2,1,1\n"},
        ("d.csv, line 2", "'NA', a missing value"),
    ),
    Case(
        "csv-label-nan",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,0\n2,1,nan\n"},
        ("d.csv, line 3", "'nan', a missing value"),
    ),
    Case(
        "csv-label-NaN-upper",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,NaN\n2,1,1\n"},
        ("d.csv, line 2", "missing value"),
    ),
    Case("csv-label-n/a", train("d.csv"), {"d.csv": "a,b,label\n1,2,0\n2,1,n/a\n"}, ("d.csv, line 3", "missing value")),
    Case(
        "csv-label-null", train("d.csv"), {"d.csv": "a,b,label\n1,2,NULL\n2,1,1\n"}, ("d.csv, line 2", "missing value")
    ),
    Case(
        "csv-label-inf",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,0\n2,1,-inf\n"},
        ("d.csv, line 3", "'-inf' is not finite"),
    ),
    # CSV syntax
    Case(
        "csv-field-over-128KiB",
        train("d.csv"),
        {"d.csv": f"a,b,label\n1,2,0\n1,{LONG_FIELD},1\n"},
        ("d.csv, line 3", "longer than 131,072 characters"),
    ),
    Case(
        "csv-unterminated-quote",
        train("d.csv"),
        {"d.csv": 'a,b,label\n1,2,"0\n3,4,1\n'},
        ("d.csv, line 2", "unterminated quote"),
    ),
    Case(  # a text cell may run over lines (RFC 4180); a label cannot: predictions are one a line
        "csv-label-runs-over-lines",
        train("d.csv"),
        {"d.csv": 'a,b,label\n1,2,"0\n3"\n4,5,1\n'},
        ("d.csv: label '0\\n3' cannot be written out", "without line breaks"),
    ),
    Case(
        "csv-text-after-quote",
        train("d.csv"),
        {"d.csv": 'a,b,label\n1,"2"x,0\n3,4,1\n'},
        ("d.csv, line 2", "bad CSV quoting"),
    ),
    Case(
        "csv-cr-line-breaks",
        train("d.csv"),
        {"d.csv": "a,b,label\r1,2,0\r2,1,1\r"},
        ("d.csv, line 1", "carriage return"),
    ),
    Case(
        "csv-utf16",
        train("d.csv"),
        {"d.csv": "a,b,label\n1,2,0\n".encode("utf-16")},
        ("d.csv, line 1", "not valid UTF-8"),
    ),
    Case("csv-nul-byte", train("d.csv"), {"d.csv": b"a,b,label\n1,2,0\n\x00,1,1\n"}, ("d.csv, line 3", "NUL byte")),
    Case(
        "csv-not-utf8",
        train("d.csv"),
        {"d.csv": b"a,b,label\n1,2,0\n2,\xff,1\n"},
        ("d.csv, line 3", "not valid UTF-8", "0xff"),
    ),
    Case(
        "csv-label-name-duplicated",
        train("d.csv", "--label", "label"),
        {"d.csv": "label,a,label\n1,2,0\n2,1,1\n"},
        ("d.csv, line 1", "'label' appears 2 times", "columns 1, 3"),
    ),
    Case(
        "csv-default-label-name-duplicated",
        train("d.csv"),
        {"d.csv": "x,a,x\n1,2,0\n2,1,1\n"},
        ("d.csv, line 1", "'x' appears 2 times"),
    ),
    # the BOM is stripped, so the header lists 'label', not '\ufefflabel'
    Case(
        "csv-bom-header-unknown-label",
        train("d.csv", "--label", "nope"),
        {"d.csv": "\ufefflabel,a\n0,1\n1,2\n"},
        ("d.csv", "no label column 'nope'", "['label', 'a']"),
    ),
    Case(
        "tsv-ragged",
        train("d.tsv"),
        {"d.tsv": "a\tb\tlabel\n1\t2\t0\n1\t2\n"},
        ("d.tsv, line 3", "2 fields, expected 3"),
    ),
    Case(
        "tsv-label-NA",
        train("d.tsv"),
        {"d.tsv": "a\tb\tlabel\n1\t2\tNA\n2\t1\t1\n"},
        ("d.tsv, line 2", "missing value"),
    ),
    Case(
        "tsv-non-numeric",
        train("d.tsv"),
        {"d.tsv": "a\tb\tlabel\n" + "".join(f"{i}\t{i % 3}\t{i % 2}\n" for i in range(30)) + "1\tx y\t0\n"},
        ("d.tsv, line 32, column 'b'", "'x y' is not a number"),
    ),
    Case("data-missing", train("absent.csv"), {}, ("absent.csv", "no such file")),
    Case("data-is-a-directory", train("sub"), {"sub": DIR}, ("sub", "directory")),
    Case("format-forced-wrong", train("d.csv", "--format", "npz"), {"d.csv": GOOD}, ("d.csv", "not a .npz archive")),
    # a failed train leaves the model already at the output path as it was (the snapshot checks it)
    Case(
        "output-kept-after-nan",
        train("d.csv", out="model.npz"),
        {**M, "d.csv": "a,b,label\n1,2,0\n2,inf,1\n"},
        ("d.csv, line 3", "not finite"),
    ),
    Case(
        "output-kept-after-single-class",
        train("s.csv", out="model.npz"),
        {**M, "s.csv": "a,b,label\n1,2,0\n2,2,0\n"},
        ("s.csv", "two classes"),
    ),
    Case(
        "output-in-missing-directory",
        ("train", "{d}/d.csv", "-o", "{d}/nope/m.npz"),
        {"d.csv": GOOD},
        ("nope", "does not exist"),
    ),
]

LIBSVM_CASES = [
    Case("libsvm-bad-token", train("d.svm"), {"d.svm": "1 1:0.5 2:1\n-1 3:zz\n"}, ("d.svm, line 2", "'3:zz'")),
    Case("libsvm-bad-label", train("e.svm"), {"e.svm": "1 1:0.5\nabc 2:1\n"}, ("e.svm, line 2", "label 'abc'")),
    Case("libsvm-empty", train("e.svm"), {"e.svm": ""}, ("e.svm", "empty")),
    Case(
        "libsvm-unsorted-indices",
        train("d.svm"),
        {"d.svm": "1 1:1 2:1\n-1 3:1 2:3\n"},
        ("d.svm, line 2", "feature index 2 comes after index 3"),
    ),
    Case(
        "libsvm-duplicate-index",
        train("d.svm"),
        {"d.svm": "1 1:1\n# comment\n-1 2:1 2:3\n"},
        ("d.svm, line 3", "feature index 2 repeats"),
    ),
    Case(
        "libsvm-index-2^31",
        train("d.svm"),
        {"d.svm": "1 1:1\n-1 2147483648:1\n"},
        ("d.svm, line 2", "too large", "2^31"),
    ),
    Case(
        "libsvm-index-huge", train("d.svm"), {"d.svm": "1 1:1\n-1 " + "9" * 30 + ":1\n"}, ("d.svm, line 2", "too large")
    ),
    # in memory a file with index 0 is read 0-based (scikit-learn writes them so); streamed, refused
    Case(
        "libsvm-index-zero-streamed",
        train("d.svm", "--stream"),
        {"d.svm": "1 0:1\n-1 2:1\n"},
        ("d.svm, line 1", "index 0 < 1"),
    ),
    Case("libsvm-index-negative", train("d.svm"), {"d.svm": "1 1:1\n-1 -2:1\n"}, ("d.svm, line 2", "'-2:1'")),
    Case(
        "libsvm-label-nan", train("d.svm"), {"d.svm": "1 1:1\nnan 2:1\n"}, ("d.svm, line 2", "'nan', a missing value")
    ),
    Case("libsvm-label-NA", train("d.svm"), {"d.svm": "1 1:1\nNA 2:1\n"}, ("d.svm, line 2", "missing value")),
    Case("libsvm-label-inf", train("d.svm"), {"d.svm": "inf 1:1\n-1 2:1\n"}, ("d.svm, line 1", "not finite")),
    Case("libsvm-value-nan", train("d.svm"), {"d.svm": "1 1:1\n\n-1 2:nan\n"}, ("d.svm, line 3", "not finite")),
    Case("libsvm-value-overflow", train("d.svm"), {"d.svm": "1 1:1\n-1 2:1e999\n"}, ("d.svm, line 2", "not finite")),
    Case("libsvm-value-missing", train("d.svm"), {"d.svm": "1 1:1\n-1 2:\n"}, ("d.svm, line 2", "'2:'")),
    Case("libsvm-not-utf8", train("d.svm"), {"d.svm": b"1 1:1\n-1 2:1\n\xff 1:1\n"}, ("d.svm, line 3", "not UTF-8")),
    Case("libsvm-comments-only", train("d.svm"), {"d.svm": "# nothing\n\n   # here\n"}, ("d.svm", "no data rows")),
    Case("libsvm-label-list", train("d.svm"), {"d.svm": "1,2 1:1\n"}, ("d.svm, line 1", "label '1,2'")),
    Case("libsvm-qid-not-first", train("d.svm"), {"d.svm": "1 1:1 qid:3\n"}, ("d.svm, line 1", "'qid:3'")),
    Case("libsvm-single-class", train("d.svm"), {"d.svm": "1 1:1\n1 2:1\n"}, ("d.svm", "1 class")),
    Case(
        "libsvm-index-beyond-model",
        with_model("predict", "d.svm"),
        {**M, "d.svm": "1 5:1\n"},
        ("d.svm, line 1", "exceeds the model's 3 features"),
    ),
]

NPZ_CASES = [
    Case("npz-given-npy", train("d.npz"), {"d.npz": npy(XY)}, ("d.npz", "is a .npy file", "expected a .npz")),
    Case("npz-npy-with-format", train("d.npy", "--format", "npz"), {"d.npy": npy(XY)}, ("d.npy", "is a .npy file")),
    Case("npz-not-a-zip", train("d.npz"), {"d.npz": b"hello, not a zip"}, ("d.npz", "not a .npz archive")),
    Case("npz-truncated", train("d.npz"), {"d.npz": npz(X=XY, y=Y3)[:100]}, ("d.npz", "not a readable .npz")),
    Case("npz-missing-y", train("d.npz"), {"d.npz": npz(X=XY)}, ("d.npz", "missing array(s) ['y']")),
    Case(
        "npz-bytes-labels",
        train("d.npz"),
        {"d.npz": npz(X=XY, y=np.array([b"a", b"b", b"a"]))},
        ("d.npz", "y holds bytes"),
    ),
    Case(
        "npz-object-labels",
        train("d.npz"),
        {"d.npz": npz(X=XY, y=np.array([0, "a", None], dtype=object))},
        ("d.npz", "Python objects"),
    ),
    Case("npz-complex-X", train("d.npz"), {"d.npz": npz(X=XY + 1j, y=Y3)}, ("d.npz", "complex numbers")),
    Case(
        "npz-text-X",
        train("d.npz"),
        {"d.npz": npz(X=np.array([["a"], ["b"], ["c"]]), y=Y3)},
        ("d.npz", "X holds dtype"),
    ),
    Case("npz-zero-columns", train("d.npz"), {"d.npz": npz(X=np.zeros((3, 0)), y=Y3)}, ("d.npz", "0 columns")),
    Case("npz-X-1d", train("d.npz"), {"d.npz": npz(X=np.zeros(3), y=Y3)}, ("d.npz", "X must be 2-D")),
    Case("npz-length-mismatch", train("d.npz"), {"d.npz": npz(X=XY, y=np.array([0, 1]))}, ("d.npz", "same length")),
    Case(
        "npz-nan-in-X",
        train("d.npz"),
        {"d.npz": npz(X=np.array([[1.0], [np.nan], [0.0]]), y=Y3)},
        ("d.npz", "X row 2", "NaN or inf"),
    ),
    Case(
        "npz-nan-in-y",
        train("d.npz"),
        {"d.npz": npz(X=XY, y=np.array([0.0, np.nan, 1.0]))},
        ("d.npz", "y[1] (row 2) is nan"),
    ),
    Case(
        "npz-inf-in-y", train("d.npz"), {"d.npz": npz(X=XY, y=np.array([0.0, 1.0, np.inf]))}, ("d.npz", "y[2]", "inf")
    ),
    Case(
        "npz-fractional-y",
        train("d.npz"),
        {"d.npz": npz(X=XY, y=np.array([0.0, 0.5, 1.0]))},
        ("d.npz", "0.5", "not an integer"),
    ),
    Case(
        "npz-float-y-beyond-int64",
        train("d.npz"),
        {"d.npz": npz(X=XY, y=np.array([0.0, 1e19, 1.0]))},
        ("d.npz", "beyond the int64 range"),
    ),
    Case(
        "npz-empty-text-label",
        train("d.npz"),
        {"d.npz": npz(X=XY, y=np.array(["a", "", "b"]))},
        ("d.npz", "y[1]", "empty"),
    ),
    Case(
        "npz-NA-text-label",
        train("d.npz"),
        {"d.npz": npz(X=XY, y=np.array(["a", "NA", "b"]))},
        ("d.npz", "y[1]", "missing value"),
    ),
    Case(
        "npz-absurd-header",
        train("d.npz"),
        {"d.npz": zipped({"X.npy": npy_header((10**12, 10**6)), "y.npy": npy(Y3)})},
        ("d.npz", "declares shape (1000000000000, 1000000)", "holds 48 bytes"),
    ),
    Case(
        "npz-absurd-header-compressed",
        train("d.npz"),
        {"d.npz": zipped({"X.npy": npy_header((2**40,)), "y.npy": npy(Y3)}, zipfile.ZIP_DEFLATED)},
        ("d.npz", "declares shape"),
    ),
    Case(
        "npz-absurd-label-header",
        train("d.npz"),
        {"d.npz": zipped({"X.npy": npy(XY), "y.npy": npy_header((10**15,), "<i8")})},
        ("d.npz", "array 'y' declares"),
    ),
    Case(
        "npz-bad-header",
        train("d.npz"),
        {"d.npz": zipped({"X.npy": b"\x93NUMPY\x01\x00\x10\x00{'descr': 'z'}\n", "y.npy": npy(Y3)})},
        ("d.npz", "bad .npy header"),
    ),
]

MODEL_CASES = [  # predict / evaluate and the model file
    Case(
        "model-truncated",
        with_model("predict", "d.csv"),
        {"model.npz": lambda a: a.classifier[:200], "d.csv": X3},
        ("model.npz",),
    ),
    Case(
        "model-garbage",
        with_model("predict", "d.csv"),
        {"model.npz": b"PK\x03\x04 this is not a model", "d.csv": X3},
        ("model.npz",),
    ),
    Case(
        "model-other-npz",
        with_model("predict", "d.csv"),
        {"model.npz": npz(X=np.zeros(3)), "d.csv": X3},
        ("model.npz",),
    ),
    Case(
        "model-tampered",
        with_model("evaluate", "d.csv"),
        {"model.npz": tampered, "d.csv": X3},
        ("model.npz", "checksum"),
    ),
    Case("model-is-npy", with_model("predict", "d.csv", model="m.npy"), {"m.npy": npy(XY), "d.csv": X3}, ("m.npy",)),
    Case(
        "model-is-a-tagger",
        with_model("predict", "d.csv", model="tagger.npz"),
        {**T, "d.csv": X3},
        ("tagger.npz", "Tagger"),
    ),
    Case(
        "model-missing", with_model("evaluate", "d.csv", model="absent.npz"), {"d.csv": X3}, ("absent.npz", "no such")
    ),
    Case(
        "predict-too-many-features",
        with_model("predict", "w.csv"),
        {**M, "w.csv": "a,b,c,d,label\n1,2,3,4,0\n"},
        ("w.csv", "4 features", "trained on 3"),
    ),
    Case(
        "predict-nan",
        with_model("predict", "d.csv"),
        {**M, "d.csv": "a,b,c,label\n1,2,nan,0\n"},
        ("d.csv, line 2", "not finite"),
    ),
    Case("predict-data-missing", with_model("predict", "absent.csv"), M, ("absent.csv", "no such file")),
    Case(
        "predict-npz-complex",
        with_model("predict", "d.npz"),
        {**M, "d.npz": npz(X=np.ones((2, 3)) * 1j, y=np.array([0, 1]))},
        ("d.npz", "complex"),
    ),
    Case(
        "evaluate-no-label-column",
        with_model("evaluate", "f.csv"),
        {**M, "f.csv": "a,b,c\n1,2,3\n"},
        ("f.csv", "no label column"),
    ),
    Case(
        "evaluate-label-NA",
        with_model("evaluate", "d.csv"),
        {**M, "d.csv": "a,b,c,label\n1,2,3,0\n1,2,3,NA\n"},
        ("d.csv, line 3", "missing value"),
    ),
    Case(
        "evaluate-libsvm-unsorted",
        with_model("evaluate", "d.svm"),
        {**M, "d.svm": "1 2:1 1:1\n"},
        ("d.svm, line 1", "comes after"),
    ),
]

OPTION_CASES = [  # non-finite and absurd parameters are refused naming the option
    Case(f"option{opt}={value}", train("d.csv", "--model", "kernel", opt, value), {"d.csv": GOOD}, (opt, *frags))
    for opt, value, frags in [
        ("--gamma", "inf", ("'inf'",)),
        ("--gamma", "nan", ("'nan'",)),
        ("--gamma", "-1", ("'-1'",)),
        ("--gamma", "0", ("'0'",)),
        ("--gamma", "abc", ("'abc'", "'scale'")),
        ("--gamma", "1e400", ("'1e400'",)),
        ("--coef0", "nan", ("not finite",)),
        ("--coef0", "-inf", ("not finite",)),
        ("--coef0", "1e300", ("out of range",)),
        ("--degree", "1e20", ("not an integer",)),
        ("--degree", "0", ("out of range",)),
        ("--degree", "1000", ("out of range",)),
        ("--margin", "inf", ("not finite",)),
        ("--margin", "nan", ("not finite",)),
        ("--margin", "-1", ("out of range",)),
        ("--margin", "\uff11", ("not a number",)),  # the data files' grammar: Python's float reads these two
        ("--coef0", "1_0", ("not a number",)),
        ("--budget", "1e20", ("not an integer", "[1, 10000000]")),
        ("--budget", "0", ("out of range",)),
        ("--budget", "100000000000000000000", ("out of range",)),
        ("--cache-size", "1e308", ("out of range", "1048576")),
        ("--cache-size", "0", ("out of range",)),
        ("--cache-size", "nan", ("not finite",)),
        ("--seed", "-1", ("out of range",)),
        ("--seed", "4294967296", ("out of range", "4294967295")),
        ("--seed", "1.5", ("not an integer",)),
        ("--epochs", "0", ("0",)),
        ("--epochs", "1e20", ("not an integer",)),
        ("--epochs", "10000000000", ("out of range",)),
    ]
] + [
    Case(
        "option--max-vectors=0",
        train("d.csv", "--model", "voted", "--max-vectors", "0"),
        {"d.csv": GOOD},
        ("--max-vectors",),
    ),
    Case(
        "option--max-vectors=1e3",
        train("d.csv", "--model", "voted", "--max-vectors", "1e3"),
        {"d.csv": GOOD},
        ("--max-vectors", "not an integer"),
    ),
    Case("option--model=unknown", train("d.csv", "--model", "svm"), {"d.csv": GOOD}, ("--model", "'svm'")),
    Case("option--format=unknown", train("d.csv", "--format", "xlsx"), {"d.csv": GOOD}, ("--format", "'xlsx'")),
    Case("option--order=unknown", train("d.csv", "--order", "random"), {"d.csv": GOOD}, ("--order",)),
    Case("train-missing-output", ("train", "{d}/d.csv"), {"d.csv": GOOD}, ("--output",)),
    Case("demo--seed=-1", ("demo", "--seed", "-1", "--out", "{d}/fig"), {}, ("--seed", "out of range")),
    Case(
        "demo--seed-overflows-seed+3",
        ("demo", "--seed", "4294967293", "--out", "{d}/fig"),
        {},
        ("--seed", "4294967292"),
    ),
    Case("demo--seed=abc", ("demo", "--seed", "abc", "--out", "{d}/fig"), {}, ("--seed", "not an integer")),
    # the directory is made before the training: an errno line naming nothing came after it
    Case("demo--out-empty", ("demo", "--out", ""), {}, ("--out: an empty path",)),
]

TRACE_ANALYZE_CASES = [
    Case("trace--epochs=0", ("trace", "{d}/d.csv", "--epochs", "0"), {"d.csv": GOOD}, ("--epochs",)),
    # trace prints labels as they are: an escape sequence reached the terminal (its title set)
    Case(
        "trace-label-with-escape",
        ("trace", "{d}/d.csv"),
        {"d.csv": "a,b,label\n1,0,x\x1b]0;pwned\x07\n0,1,y\n"},
        ("d.csv: label", "control characters"),
    ),
    Case(
        "trace--seed-too-large",
        ("trace", "{d}/d.csv", "--seed", "99999999999"),
        {"d.csv": GOOD},
        ("--seed", "out of range"),
    ),
    Case("trace-no-data", ("trace",), {}, ("DATA", "--example gormley")),
    Case("trace-unknown-example", ("trace", "--example", "rosenblatt"), {}, ("--example",)),
    Case("trace-data-missing", ("trace", "{d}/absent.csv"), {}, ("absent.csv", "no such file")),
    Case("trace-csv-nan", ("trace", "{d}/d.csv"), {"d.csv": "a,label\n1,0\nnan,1\n"}, ("d.csv, line 3", "not finite")),
    Case(
        "trace-label-NA", ("trace", "{d}/d.csv"), {"d.csv": "a,label\n1,NA\n2,1\n"}, ("d.csv, line 2", "missing value")
    ),
    Case(
        "trace-overflow",
        ("trace", "{d}/d.csv"),
        {"d.csv": "a,b,label\n1e308,1e308,0\n-1e308,1e308,1\n"},
        ("d.csv", "overflow"),
    ),
    Case("trace-single-class", ("trace", "{d}/d.csv"), {"d.csv": "a,label\n1,0\n2,0\n"}, ("d.csv", "1 class")),
    Case(
        "trace-libsvm-duplicate", ("trace", "{d}/d.svm"), {"d.svm": "1 1:1 1:2\n-1 1:1\n"}, ("d.svm, line 1", "repeats")
    ),
    Case("analyze-one-class", ("analyze", "{d}/d.csv"), {"d.csv": "a,b,label\n1,2,0\n2,1,0\n"}, ("d.csv", "1 class")),
    Case(
        "analyze-huge-values",
        ("analyze", "{d}/d.csv"),
        {"d.csv": "a,b,label\n1e200,2,0\n2,1e200,1\n-1e200,3,0\n"},
        ("d.csv", "1e+200", "rescale"),
    ),
    Case(
        "analyze-tiny-values",
        ("analyze", "{d}/d.csv"),
        {"d.csv": "a,b,label\n1e-300,2e-300,0\n2e-300,1e-300,1\n"},
        ("d.csv", "rescale"),
    ),
    Case("analyze--max-epochs=0", ("analyze", "{d}/d.csv", "--max-epochs", "0"), {"d.csv": GOOD}, ("--max-epochs",)),
    Case("analyze-data-missing", ("analyze", "{d}/absent.csv"), {}, ("absent.csv", "no such file")),
    Case(
        "analyze-label-empty",
        ("analyze", "{d}/d.csv"),
        {"d.csv": "a,b,label\n1,2,0\n2,1,\n"},
        ("d.csv, line 3", "empty"),
    ),
    Case("analyze-npz-complex", ("analyze", "{d}/d.npz"), {"d.npz": npz(X=XY + 1j, y=Y3)}, ("d.npz", "complex")),
    Case(
        "analyze-csv-unterminated-quote",
        ("analyze", "{d}/d.csv"),
        {"d.csv": 'a,b,label\n"1,2,0\n'},
        ("d.csv, line 2", "unterminated"),
    ),
]


def vc(points, concept="disks", *extra):
    return ("vc", "--concept", concept, "--points", "{d}/" + points, *extra)


VC_CASES = [
    Case("vc-unknown-concept", vc("p.txt", "circles"), {"p.txt": "0 0\n"}, ("--concept", "'circles'")),
    Case("vc-bad-number", vc("p.txt"), {"p.txt": "0 0\n1 x\n"}, ("p.txt, line 2", "'x' is not a number")),
    Case(
        "vc-named-bad-number",
        vc("p.txt"),
        {"p.txt": "a, 0, 0\nb, 1, 1,5z\n"},
        ("p.txt, line 2", "'5z' is not a number"),
    ),
    Case(
        "vc-huge-coordinate", vc("p.txt"), {"p.txt": "0 0\n1e200 1\n2 -1\n"}, ("p.txt, line 2", "too large", "rescale")
    ),
    Case("vc-nan", vc("p.txt"), {"p.txt": "0 0\nnan 1\n"}, ("p.txt, line 2", "not finite")),
    Case("vc-inf", vc("p.txt"), {"p.txt": "# points\n0 0\n1 -inf\n"}, ("p.txt, line 3", "not finite")),
    Case(
        "vc-ragged",
        vc("p.txt", "rectangles"),
        {"p.txt": "x y\n0 0\n1 1 1\n"},
        ("p.txt, line 3", "3 coordinates, but line 2 has 2"),
    ),
    Case("vc-wrong-dimension", vc("p.txt"), {"p.txt": "0 0 0\n1 1 1\n"}, ("p.txt, line 1", "dimension 2")),
    Case(
        "vc-too-many-points",
        vc("p.txt", "intervals"),
        {"p.txt": "".join(f"{i}\n" for i in range(21))},
        ("--max-points", "21 points"),
    ),
    Case(
        "vc--max-points=0",
        vc("p.txt", "disks", "--max-points", "0"),
        {"p.txt": "0 0\n"},
        ("--max-points", "out of range"),
    ),
    Case("vc--max-points=1e20", vc("p.txt", "disks", "--max-points", "1e20"), {"p.txt": "0 0\n"}, ("--max-points",)),
    Case(
        "vc--max-points-too-large",
        vc("p.txt", "disks", "--max-points", "64"),
        {"p.txt": "0 0\n"},
        ("--max-points", "[1, 30]"),
    ),
    Case("vc-empty", vc("p.txt"), {"p.txt": ""}, ("p.txt", "no points")),
    Case("vc-header-only", vc("p.txt"), {"p.txt": "x, y\n# nothing\n"}, ("p.txt", "no points")),
    Case("vc-second-header", vc("p.txt"), {"p.txt": "x, y\n0, 0\nx, y\n"}, ("p.txt, line 3", "'y' is not a number")),
    Case("vc-missing", vc("absent.txt"), {}, ("absent.txt", "no such file")),
    Case("vc-directory", vc("sub"), {"sub": DIR}, ("sub", "directory")),
    Case("vc-not-utf8", vc("p.txt"), {"p.txt": b"0 0\n1 \xff\n"}, ("p.txt:2", "not valid UTF-8")),
    Case("vc-name-twice", vc("p.txt"), {"p.txt": b"a 0 0\nb 1 0\na 1 1\n"}, ("p.txt, line 3", "'a' is also on line 1")),
    Case("vc-missing-option", ("vc", "--concept", "disks"), {}, ("--points",)),
]


def tag_train(data, *extra, out="t.npz"):
    return ("tag", "train", "{d}/" + data, "-o", "{d}/" + out, *extra)


TAG_CASES = [
    Case(
        "tag-train-column-count",
        tag_train("bad.conllu"),
        {"bad.conllu": TAG_TRAIN.replace(token(2, "dog", "NOUN"), "2\tdog\tNOUN\n")},
        ("bad.conllu:2", "expected 10 tab-separated columns, found 3"),
    ),
    Case(
        "tag-train-empty-tag-column",
        tag_train("e.conllu"),
        {"e.conllu": TAG_TRAIN.replace("\tDET\t", "\t_\t").replace("\tNOUN\t", "\t_\t").replace("\tVERB\t", "\t_\t")},
        ("e.conllu", "the upos column is empty"),
    ),
    Case(
        "tag-train-partly-missing-tags",
        tag_train("p.conllu"),
        {"p.conllu": TAG_TRAIN.replace("\tNOUN\t", "\t_\t", 1)},
        ("p.conllu:2", "'_' on 1 of 6 tokens"),
    ),
    Case("tag-train-empty-file", tag_train("z.conllu"), {"z.conllu": ""}, ("z.conllu", "no sentences")),
    Case(
        "tag-train-not-utf8",
        tag_train("u.conllu"),
        {"u.conllu": TAG_TRAIN.encode().replace(b"dog", b"d\xf8g")},
        ("u.conllu:2", "not valid UTF-8"),
    ),
    Case(
        "tag-train-token-id-text",
        tag_train("a.conllu"),
        {"a.conllu": TAG_TRAIN.replace("1\tThe", "x\tThe")},
        ("a.conllu:1", "token ID 'x'"),
    ),
    Case(
        "tag-train-token-id-gap",
        tag_train("a.conllu"),
        {"a.conllu": TAG_TRAIN.replace("2\tdog", "3\tdog")},
        ("a.conllu:2", "token ID 3 where 2 was expected"),
    ),
    Case(
        "tag-train-token-id-zero",
        tag_train("a.conllu"),
        {"a.conllu": TAG_TRAIN.replace("1\tThe", "0\tThe")},
        ("a.conllu:1", "token ID 0 where 1 was expected"),
    ),
    Case(
        "tag-train-bad-range-id",
        tag_train("a.conllu"),
        {"a.conllu": "1-x\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n" + TAG_TRAIN},
        ("a.conllu:1", "token ID '1-x'"),
    ),
    Case(
        "tag-train-backward-range",
        tag_train("a.conllu"),
        {"a.conllu": "3-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n" + TAG_TRAIN},
        ("a.conllu:1", "range '3-2'"),
    ),
    Case(
        "tag-train-empty-field",
        tag_train("a.conllu"),
        {"a.conllu": TAG_TRAIN.replace("\tthe\t", "\t\t")},
        ("a.conllu:1", "column 3 (LEMMA) is empty"),
    ),
    Case(
        "tag-train-tag-with-space",
        tag_train("a.conllu"),
        {"a.conllu": TAG_TRAIN.replace("\tNOUN\t", "\tNO UN\t", 1)},
        ("a.conllu:2", "contains a space"),
    ),
    Case(
        "tag-train-conll-ner-layout",
        tag_train("ner.conll"),
        {"ner.conll": "EU NNP B-NP B-ORG\nrejects VBZ B-VP O\n"},
        ("ner.conll:1", "expected 10 tab-separated columns, found 1"),
    ),
    Case(
        "tag-train-bad-dev",
        tag_train("a.conllu", "--dev", "{d}/dev.conllu"),
        {"a.conllu": TAG_TRAIN, "dev.conllu": "1\tA\ta\tDET\n"},
        ("dev.conllu:1", "expected 10"),
    ),
    Case(
        "tag-train--templates",
        tag_train("a.conllu", "--templates", "l[0]|q[1]"),
        {"a.conllu": TAG_TRAIN},
        ("--templates", "bad feature template 'l[0]|q[1]'"),
    ),
    Case(
        "tag-train--templates-unknown-set",
        tag_train("a.conllu", "--templates", "fancy"),
        {"a.conllu": TAG_TRAIN},
        ("--templates", "unknown template set 'fancy'"),
    ),
    Case(
        "tag-train--edges",
        tag_train("a.conllu", "--edges", "l[9]"),
        {"a.conllu": TAG_TRAIN},
        ("--edges", "bad feature template"),
    ),
    Case(
        "tag-train--clusters-missing",
        tag_train("a.conllu", "--clusters", "{d}/nope"),
        {"a.conllu": TAG_TRAIN},
        ("--clusters", "nope", "no such file"),
    ),
    Case(
        "tag-train--clusters-directory",
        tag_train("a.conllu", "--clusters", "{d}/cdir"),
        {"a.conllu": TAG_TRAIN, "cdir": DIR},
        ("--clusters", "cdir", "is a directory"),
    ),
    Case(
        "tag-train-eleven-columns",
        tag_train("a.conllu"),
        {"a.conllu": TAG_TRAIN.replace("\troot\t_\t_\n", "\troot\t_\t_\tx\n", 1)},
        ("a.conllu:1", "found 11"),
    ),
    Case(
        "tag-train-cluster-path-too-long",
        tag_train("a.conllu", "--clusters", "{d}/paths"),
        {"a.conllu": TAG_TRAIN, "paths": "0101\tThe\t5\n" + "1" * 63 + "\tdog\t3\n"},
        ("paths:2", "63 bits", "at most 62"),
    ),
    Case(
        "tag-train-cluster-bad-bits",
        tag_train("a.conllu", "--clusters", "{d}/paths"),
        {"a.conllu": TAG_TRAIN, "paths": "00\tThe\t9\n0x\ta\t5\n"},
        ("paths:2", "bits of 0 and 1"),
    ),
    Case(
        "tag-train-cluster-duplicate-word",
        tag_train("a.conllu", "--clusters", "{d}/paths"),
        {"a.conllu": TAG_TRAIN, "paths": "00\tThe\t9\n01\tThe\t5\n"},
        ("paths:2", "already given a path on line 1"),
    ),
    Case(
        "tag-train-cluster-bad-count",
        tag_train("a.conllu", "--clusters", "{d}/paths"),
        {"a.conllu": TAG_TRAIN, "paths": "00\tThe\tmany\n"},
        ("paths:1", "count 'many'"),
    ),
    Case(
        "tag-train-cluster-not-utf8",
        tag_train("a.conllu", "--clusters", "{d}/paths"),
        {"a.conllu": TAG_TRAIN, "paths": b"00\tThe\t9\n01\tcaf\xe9\t1\n"},
        ("paths:2", "not valid UTF-8"),
    ),
    Case("tag-train--epochs=0", tag_train("a.conllu", "--epochs", "0"), {"a.conllu": TAG_TRAIN}, ("--epochs",)),
    Case("tag-train--seed=-1", tag_train("a.conllu", "--seed", "-1"), {"a.conllu": TAG_TRAIN}, ("--seed",)),
    Case(
        "tag-train--patience=1e9", tag_train("a.conllu", "--patience", "1e9"), {"a.conllu": TAG_TRAIN}, ("--patience",)
    ),
    Case("tag-train--column", tag_train("a.conllu", "--column", "lemma"), {"a.conllu": TAG_TRAIN}, ("--column",)),
    Case(
        "tag-train-output-kept",
        tag_train("z.conllu", out="tagger.npz"),
        {**T, "z.conllu": "\n\n"},
        ("z.conllu", "no sentences"),
    ),
    Case(
        "tag-predict-classifier-model",
        ("tag", "predict", "{d}/model.npz", "{d}/p.txt"),
        {**M, "p.txt": "The dog\n"},
        ("model.npz", "Tagger"),
    ),
    Case(
        "tag-predict-missing-file",
        ("tag", "predict", "{d}/tagger.npz", "{d}/absent.txt"),
        T,
        ("absent.txt", "no such file"),
    ),
    Case(
        "tag-predict-text-not-utf8",
        ("tag", "predict", "{d}/tagger.npz", "{d}/p.txt"),
        {**T, "p.txt": b"The dog\nA c\xe4t\n"},
        ("p.txt:2", "not valid UTF-8"),
    ),
    Case(
        "tag-predict-conll-ner-layout",
        ("tag", "predict", "{d}/tagger.npz", "{d}/ner.conll"),
        {**T, "ner.conll": "EU NNP B-NP B-ORG\n"},
        ("ner.conll:1", "expected 10 tab-separated columns"),
    ),
    Case(
        "tag-predict-upper-case-extension",
        ("tag", "predict", "{d}/tagger.npz", "{d}/A.CONLLU"),
        {**T, "A.CONLLU": TAG_TRAIN.replace("2\tdog", "7\tdog")},
        ("A.CONLLU:2", "token ID 7"),
    ),
    Case(
        "tag-predict-sniffed-conllu",
        ("tag", "predict", "{d}/tagger.npz", "{d}/a.txt"),
        {**T, "a.txt": TAG_TRAIN + "1\tOops\n"},
        ("a.txt:9", "expected 10 tab-separated columns"),
    ),
    Case(
        "tag-predict--format",
        ("tag", "predict", "{d}/tagger.npz", "{d}/p.txt", "--format", "xml"),
        {**T, "p.txt": "The dog\n"},
        ("--format",),
    ),
    Case(
        "tag-predict-model-missing",
        ("tag", "predict", "{d}/absent.npz", "{d}/p.txt"),
        {"p.txt": "The dog\n"},
        ("absent.npz",),
    ),
    Case(
        "tag-evaluate-missing-test",
        ("tag", "evaluate", "{d}/tagger.npz", "{d}/absent.conllu"),
        T,
        ("absent.conllu", "no such file"),
    ),
    Case(
        "tag-evaluate-empty-tags",
        ("tag", "evaluate", "{d}/tagger.npz", "{d}/e.conllu"),
        {**T, "e.conllu": token(1, "The", "_") + "\n"},
        ("e.conllu", "the upos column is empty"),
    ),
    Case(
        "tag-evaluate-id-gap",
        ("tag", "evaluate", "{d}/tagger.npz", "{d}/a.conllu"),
        {**T, "a.conllu": token(2, "The", "DET") + "\n"},
        ("a.conllu:1", "where 1 was expected"),
    ),
    Case(
        "tag-evaluate-classifier-model",
        ("tag", "evaluate", "{d}/model.npz", "{d}/a.conllu"),
        {**M, "a.conllu": TAG_TRAIN},
        ("model.npz", "Tagger"),
    ),
]

# ------------------------------------------------------------------ trust, second round: what was really seen
# A bare carriage return (classic Mac line ends) and a byte that is not UTF-8 are named, with
# their line, by every reader that meets them, in memory and streamed.
CR = "\r"
SEEN_CASES = [
    Case("csv-bare-cr", train("d.csv"), {"d.csv": f"a,label{CR}1,x{CR}2,y{CR}"}, ("d.csv, line 1", "bare carriage")),
    Case(
        "csv-bare-cr-streamed",
        train("d.csv", "--stream"),
        {"d.csv": f"a,label\n1,x\n2,y{CR}3,x\n"},
        ("d.csv, line 3", "bare carriage"),
    ),
    Case("libsvm-bare-cr", train("d.svm"), {"d.svm": f"1 1:1{CR}-1 1:-1{CR}"}, ("d.svm, line 1", "carriage return")),
    Case(
        "libsvm-bare-cr-streamed",
        train("d.svm", "--stream"),
        {"d.svm": f"1 1:1{CR}-1 1:-1{CR}"},
        ("d.svm, line 1", "carriage return"),
    ),
    Case("vw-bare-cr", train("d.vw"), {"d.vw": f"1 | a:1{CR}-1 | a:-1{CR}"}, ("d.vw, line 1", "carriage return")),
    Case(
        "conllu-bare-cr",
        tag_train("cr.conllu"),
        {"cr.conllu": "# sent_id = 1\r1\tThe\t_\tDET\t_\t_\t0\troot\t_\t_\r\r"},
        ("cr.conllu:1", "bare carriage return"),
    ),
    Case(
        "csv-latin1-text-streamed",
        train("d.csv", "--stream", "--text", "txt"),
        {"d.csv": b"txt,label\ncaf\xe9 au lait,pos\ntea,neg\n"},
        ("d.csv, line 2", "not UTF-8", "0xe9"),
    ),
    Case(
        "csv-latin1-category-streamed",
        train("d.csv", "--stream"),
        {"d.csv": b"a,color,label\n1,caf\xe9,pos\n2,tea,neg\n"},
        ("d.csv, line 2", "not UTF-8"),
    ),
    Case(
        "libsvm-wider-than-hash-bits",
        train("d.svm", "--stream", "--hash-bits", "2"),
        {"d.svm": "1 1:1 9:1\n-1 2:1\n"},
        ("d.svm, line 1", "feature index 9 exceeds --hash-bits 2's 4 features"),
    ),
    Case(
        "stream-stdin-without-format",
        ("train", "-", "--stream", "-o", "{d}/m.npz"),
        {},
        ("standard input", "--format"),
    ),
]

CASES = CSV_CASES + LIBSVM_CASES + NPZ_CASES + MODEL_CASES + OPTION_CASES + TRACE_ANALYZE_CASES + VC_CASES + TAG_CASES
CASES += SEEN_CASES


@pytest.fixture(scope="session")
def assets(tmp_path_factory):
    from perceptrons.structured.tagging import Tagger

    d = tmp_path_factory.mktemp("assets")
    rng = np.random.default_rng(0)
    X = rng.standard_normal((50, 3))
    save_model(Perceptron().fit(X, (X[:, 0] > 0).astype(int)), d / "c.npz", info={"label_column": "label"})
    sents = [["The", "dog", "barks"], ["A", "cat", "sleeps"]]
    save_model(Tagger(max_epochs=2, min_count=1).fit(sents, [["DET", "NOUN", "VERB"]] * 2), d / "t.npz")
    return Assets((d / "c.npz").read_bytes(), (d / "t.npz").read_bytes())


def snapshot(root):
    """Every path under ``root`` with its bytes (None for a directory)."""
    return {str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes()) for p in sorted(root.rglob("*"))}


def test_case_names_are_unique():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert len(CASES) >= 100


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_input_matrix(case, run_cli, tmp_path, assets):
    for name, content in case.files.items():
        path = tmp_path / name
        if content is DIR:
            path.mkdir()
            continue
        if callable(content):
            content = content(assets)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    argv = [a.format(d=tmp_path) for a in case.argv]
    before = snapshot(tmp_path)

    line = assert_refused(run_cli(argv), *case.expect)

    # the line names what is wrong: a file of the case (with its line), an option or an argument
    files = [n for n in case.files] + [part for a in case.argv if a.startswith("{d}/") for part in a[4:].split("/")]
    names = any(n in f for f in case.expect for n in files) or any(
        "--" in f or f in ("DATA", "MODEL", "FILE", "TEST", "TRAIN") for f in case.expect
    )
    assert names, f"{case.name}: no expected fragment names a file, a line or an option"
    # nothing already on disk changed, nothing new was left (no output, no .tmp-* file)
    assert snapshot(tmp_path) == before, line
    assert not list(tmp_path.rglob(".tmp-*"))


def test_feature_count_differs(run_cli, tmp_path, model):
    wide = write(tmp_path, "w.csv", "a,b,c,d,label\n1,2,3,4,0\n")
    assert_refused(run_cli(["predict", str(model), str(wide)]), "w.csv", "4 features", "trained on 3")
    # a model trained by the CLI knows its label column, so a,b,label is 2 features, not 3
    train = write(tmp_path, "t.csv", "a,b,c,label\n1,2,3,0\n3,2,1,1\n")
    cli_model = tmp_path / "cli.npz"
    assert run_cli(["train", str(train), "-o", str(cli_model)])[0] == 0
    narrow = write(tmp_path, "n.csv", "a,b,label\n1,2,0\n")
    assert_refused(
        run_cli(["predict", str(cli_model), str(narrow)]), "n.csv", "no column 'c', which the model was trained with"
    )


def test_no_traceback_in_a_real_process(tmp_path):
    p = write(tmp_path, "d.csv", "a,b,label\n1,2,0\n2,1\n")
    done = subprocess.run(
        [sys.executable, "-m", "perceptrons", "train", str(p), "-o", str(tmp_path / "m.npz")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr
    assert "line 3" in done.stderr


# ------------------------------------------------------------------ library-level bad input
@pytest.mark.parametrize(
    "params,fragment",
    [
        (
            {"max_epochs": 0},
            "'max_epochs' parameter of Perceptron must be an int in the range [1, inf). Got 0 instead.",
        ),
        ({"order": "random"}, "'order' parameter"),
        ({"init": "ones"}, "'init' parameter"),
        ({"margin": -1.0}, "'margin' parameter"),
        ({"class_weight": "heavy"}, "'class_weight' parameter"),
    ],
)
def test_bad_parameters(params, fragment):
    with pytest.raises(PerceptronsError) as info:
        Perceptron(**params).fit([[0.0], [1.0]], [0, 1])
    assert fragment in str(info.value)


def test_nan_in_array_input():
    with pytest.raises(ValueError, match="NaN"):
        Perceptron().fit([[np.nan], [1.0]], [0, 1])


@pytest.mark.parametrize("cls", [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron])
def test_bad_weights(cls):
    X, y = np.array([[0.0], [1.0], [2.0]]), np.array([0, 1, 1])
    with pytest.raises(PerceptronsError, match=r"expected shape \(3,\), got \(2,\)"):
        cls().fit(X, y, sample_weight=[1, 2])
    with pytest.raises(PerceptronsError, match="non-negative; got -1.0"):
        cls().fit(X, y, sample_weight=[1, -1, 1])
    with pytest.raises(PerceptronsError, match="names the class 7, which is not in the data"):
        cls(class_weight={7: 2.0}).fit(X, y)
    # each weight finite, their sum not: a weighted count of errors would be infinite
    with pytest.raises(PerceptronsError, match=r"sums to inf \(more than the largest float64"):
        cls().fit(X, y, sample_weight=[1e308, 1e308, 1e308])
    with pytest.raises(PerceptronsError, match="sums to inf"):
        cls(class_weight={1: 10.0}).fit(X, y, sample_weight=[1.0, 1e308, 1.0])


def test_max_vectors_below_one():
    with pytest.raises(PerceptronsError, match="'max_vectors' parameter of VotedPerceptron must be None or an int"):
        VotedPerceptron(max_vectors=0).fit([[0.0], [1.0]], [0, 1])


def test_partial_fit_needs_classes():
    with pytest.raises(PerceptronsError, match="classes must be passed on the first call"):
        Perceptron().partial_fit([[0.0], [1.0]], [0, 1])
    clf = Perceptron().partial_fit([[0.0], [1.0]], [0, 1], classes=[0, 1])
    with pytest.raises(PerceptronsError, match=r"labels \[5\] that are not in classes"):
        clf.partial_fit([[0.0]], [5])


@pytest.mark.slow
@pytest.mark.parametrize("cls", [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron])
@pytest.mark.parametrize("order", ["cyclic", "shuffle", "random-mistake"])
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("sparse", [False, True])
def test_non_finite_found_by_the_first_epoch(cls, order, k, sparse):
    import scipy.sparse as sps

    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    y = np.arange(30) % k
    X[17, 1] = np.inf if k == 2 else np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        cls(order=order, random_state=0).fit(sps.csr_matrix(X) if sparse else X, y)


def test_non_finite_in_a_zero_weight_row_is_still_refused():
    X = np.array([[0.0], [1.0], [np.nan]])
    with pytest.raises(ValueError, match="NaN or infinity"):
        Perceptron().fit(X, [0, 1, 1], sample_weight=[1, 1, 0])


# ------------------------------------------------------------------ library-level bad input: readers
LIBRARY_CASES = [  # (id, file name, content, reader, fragments of the PerceptronsError)
    ("csv-label-NA", "d.csv", "a,label\n1,0\n2,NA\n", "data", ("d.csv, line 3", "missing value")),
    ("csv-field-too-long", "d.csv", "a,label\n" + "1" * 140000 + ",0\n", "data", ("d.csv, line 2", "128 KiB")),
    ("csv-unterminated", "d.csv", 'a,label\n1,"0\n', "data", ("d.csv, line 2", "unterminated")),
    ("csv-duplicate-label", "d.csv", "label,label\n1,0\n", "data", ("d.csv, line 1", "appears 2 times")),
    ("libsvm-unsorted", "d.svm", "1 3:1 1:1\n", "data", ("d.svm, line 1", "comes after index 3")),
    ("libsvm-2^31", "d.svm", "1 4294967296:1\n", "data", ("d.svm, line 1", "too large")),
    ("npz-npy", "d.npz", npy(XY), "data", ("d.npz", ".npy file")),
    (
        "npz-absurd",
        "d.npz",
        zipped({"X.npy": npy_header((2**50, 2)), "y.npy": npy(Y3)}),
        "data",
        ("d.npz", "declares shape"),
    ),
    ("npz-bytes-y", "d.npz", npz(X=XY, y=np.array([b"x", b"y", b"x"])), "data", ("d.npz", "bytes")),
    (
        "conllu-id-gap",
        "a.conllu",
        token(1, "a", "X") + token(3, "b", "X"),
        "conllu",
        ("a.conllu:2", "where 2 was expected"),
    ),
    (
        "conllu-empty-field",
        "a.conllu",
        token(1, "a", "X").replace("\t_\t0", "\t\t0"),
        "conllu",
        ("a.conllu:1", "(FEATS) is empty"),
    ),
    ("conllu-spaces-around", "a.conllu", token(1, "a", " X"), "conllu", ("a.conllu:1", "white space around 'X'")),
    ("clusters-63-bits", "paths", "0\ta\n" + "0" * 63 + "\tb\n", "clusters", ("paths:2", "63 bits", "at most 62")),
    ("clusters-bad-count", "paths", "01\ta\t-3\n", "clusters", ("paths:1", "count '-3'")),
    ("points-nan", "p.txt", "0 0\n1 nan\n", "points", ("p.txt, line 2", "not finite")),
    ("points-ragged", "p.txt", "0 0\n1\n", "points", ("p.txt, line 2", "1 coordinates, but line 1 has 2")),
]


def read_with(reader, path):
    if reader == "data":
        from perceptrons.io.readers import read_data

        return read_data(path)
    if reader == "conllu":
        from perceptrons.io.conllu import read_conllu

        return read_conllu(path)
    if reader == "clusters":
        from perceptrons.structured.clusters import load_clusters

        return load_clusters(str(path))
    from perceptrons.cli.vc import read_points

    return read_points(str(path))


@pytest.mark.parametrize("name,filename,content,reader,fragments", LIBRARY_CASES, ids=[c[0] for c in LIBRARY_CASES])
def test_library_readers_refuse(tmp_path, name, filename, content, reader, fragments):
    path = tmp_path / filename
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    with pytest.raises(PerceptronsError) as info:
        read_with(reader, path)
    message = str(info.value)
    assert "\n" not in message
    for f in fragments:
        assert f in message, message


def test_max_cluster_path_is_what_the_int64_codes_hold(tmp_path):
    """62 bits is the longest path ``int("1" + bits, 2)`` packs into an int64; it round-trips."""
    from perceptrons.structured.clusters import MAX_PATH_BITS, load_clusters

    assert MAX_PATH_BITS == 62 and int("1" + "1" * MAX_PATH_BITS, 2) == np.iinfo(np.int64).max
    path = tmp_path / "paths"
    path.write_text("1" * 62 + "\tlong\t1\n0" + "1" * 61 + "\tother\t1\n", encoding="utf-8")
    codes = load_clusters(str(path)).to_arrays()["codes"]
    assert codes.dtype == np.int64 and [format(c, "b")[1:] for c in codes.tolist()] == ["1" * 62, "0" + "1" * 61]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.int64, np.uint64])
def test_fit_labels_on_narrow_integers(dtype):
    """``y - y.min()`` in int8 overflows (127 - (-128)); fit_labels works in 64 bits."""
    from perceptrons._core.labels import fit_labels

    info = np.iinfo(dtype)
    lo, hi = (info.min, info.max) if info.max - info.min < 1 << 20 else (info.max - 5, info.max)
    y = np.array([hi, lo, hi, lo + 1], dtype=dtype)
    classes, idx = fit_labels(y)
    assert classes.dtype == dtype and classes.tolist() == sorted({int(v) for v in y.tolist()})
    assert np.array_equal(classes[idx], y)


@pytest.mark.parametrize("cls", [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron])
def test_estimators_fit_int8_labels(cls):
    X = np.array([[-2.0], [-1.0], [1.0], [2.0]])
    y = np.array([-128, -128, 127, 127], dtype=np.int8)
    assert cls().fit(X, y).predict(X).tolist() == y.tolist()


@pytest.mark.parametrize(
    "texts,dtype,values",
    [
        (["0", "1", "+1", "-1"], np.int64, [0, 1, 1, -1]),
        (["1.0", "2e3", "-0"], np.int64, [1, 2000, 0]),
        (["9223372036854775807", "-9223372036854775808"], np.int64, [2**63 - 1, -(2**63)]),
        # beyond int64: text, never a wrapped or rounded number, and never two labels merged
        (["1e19", "2e19", "1e19"], str, ["1e19", "2e19", "1e19"]),
        (["10000000000000000001", "10000000000000000000"], str, ["10000000000000000001", "10000000000000000000"]),
        (["9223372036854775808", "0"], str, ["9223372036854775808", "0"]),
        (["0.5", "1.5"], str, ["0.5", "1.5"]),
        # numbers not all whole: one text per float64 value, as a stream of the file reads them
        (["1", "0.10000000000000001", "0.1"], str, ["1", "0.1", "0.1"]),
        (["+1", "0.50", "0.5", "2.5e0"], str, ["1", "0.5", "0.5", "2.5"]),
        (["cat", "1"], str, ["cat", "1"]),
        (["1" * 5000, "2"], str, ["1" * 5000, "2"]),
    ],
)
def test_labels_keep_every_class_apart(texts, dtype, values):
    from perceptrons.io.labels import typed_labels

    y = typed_labels(texts)
    assert (y.dtype == np.int64) if dtype is np.int64 else (y.dtype.kind == "U")
    assert y.tolist() == values


@pytest.mark.parametrize(
    "message,command,expected",
    [
        (
            "The 'random_state' parameter of Perceptron must be None. Got -1 instead.",
            "train",
            "--seed must be None. Got -1 instead.",
        ),
        ("The 'max_epochs' parameter of Perceptron must be an int", "analyze", "--max-epochs must be an int"),
        ("The 'max_epochs' parameter of Tagger must be an int", "tag train", "--epochs must be an int"),
        ("max_points must be a positive int", "vc", "--max-points must be a positive int"),
        ("the limit is max_points=20 (raise it)", "vc", "the limit is --max-points=20 (raise it)"),
        ("The 'cache_size' parameter of KernelPerceptron must be", "train", "--cache-size must be"),
        ("clusters='x': no such file", "tag train", "--clusters='x': no such file"),
        ("The 'gamma' parameter must be", "analyze", "The 'gamma' parameter must be"),  # not an option of analyze
        ("y has 1 class (0)", "train", "y has 1 class (0)"),
    ],
)
def test_library_parameters_are_named_as_cli_options(message, command, expected):
    from perceptrons.cli._naming import name_options

    assert name_options(message, command) == expected


@pytest.mark.parametrize(
    "argv,param,option",
    [
        (["train", "{data}", "-o", "{out}"], "random_state", "--seed"),
        (["train", "{data}", "-o", "{out}"], "max_epochs", "--epochs"),
        (["train", "{data}", "-o", "{out}", "--model", "kernel"], "cache_size", "--cache-size"),
    ],
)
def test_a_parameter_error_from_the_library_names_the_option(run_cli, tmp_path, monkeypatch, argv, param, option):
    """A parameter error the option types did not catch (the estimators check their own
    parameters) still names the option the user typed, not the parameter."""
    from perceptrons.kernel.perceptron import KernelPerceptron
    from perceptrons.linear.averaged import AveragedPerceptron

    def refuse(self, *args, **kwargs):
        raise PerceptronsError(f"The {param!r} parameter of {type(self).__name__} must be sane. Got 7 instead.")

    monkeypatch.setattr(AveragedPerceptron, "fit", refuse)  # the default model
    monkeypatch.setattr(KernelPerceptron, "fit", refuse)
    data = write(tmp_path, "d.csv", GOOD)
    argv = [a.format(data=data, out=tmp_path / "m.npz") for a in argv]
    line = assert_refused(run_cli(argv), f"{option} must be sane. Got 7 instead.")
    assert param not in line and not (tmp_path / "m.npz").exists()


# ------------------------------------------------------------------ accepted input: read right, not silently wrong
def test_csv_with_bom_keeps_its_label_column(run_cli, tmp_path):
    """Excel saves "CSV UTF-8" with a byte-order mark.  Left in place it becomes part of the first
    header name, so ``--label label`` would not find the column 'label' ('\\ufefflabel' is there),
    and a model trained without --label would store the wrong name; the reader strips it."""
    data = tmp_path / "bom.csv"
    data.write_bytes("\ufefflabel,a,b\n0,1,2\n1,2,1\n0,0,3\n".encode("utf-8"))
    model = tmp_path / "m.npz"
    code, out, err = run_cli(["train", str(data), "--label", "label", "-o", str(model)])
    assert code == 0, err
    from perceptrons.persistence import load_model

    est, info = load_model(model, with_info=True)
    assert info["label_column"] == "label" and est.n_features_in_ == 2
    # predict finds the stored label column in the BOM'd header and leaves it out of X
    code, out, err = run_cli(["predict", str(model), str(data)])
    assert code == 0, err
    assert out.split() == ["0", "1", "0"]


def test_plain_text_with_bom_tags_the_first_word_as_without(run_cli, tmp_path, assets):
    model = tmp_path / "t.npz"
    model.write_bytes(assets.tagger)
    plain, bom = tmp_path / "p.txt", tmp_path / "b.txt"
    plain.write_text("The dog barks\n", encoding="utf-8")
    bom.write_bytes("\ufeffThe dog barks\n".encode("utf-8"))
    outs = [run_cli(["tag", "predict", str(model), str(p)]) for p in (plain, bom)]
    assert outs[0][0] == outs[1][0] == 0
    assert outs[0][1] == outs[1][1] == "The/DET dog/NOUN barks/VERB\n"


@pytest.mark.parametrize("name", ["a.CONLLU", "a.Conllu", "a.conll", "a.CONLL", "a.data"])
def test_conllu_recognised_by_extension_or_content(run_cli, tmp_path, assets, name):
    """``.conllu`` and CoNLL-X ``.conll`` in any case are CoNLL-U (the same ten tab-separated
    columns); another name is CoNLL-U when its first token line has those ten columns."""
    model = tmp_path / "t.npz"
    model.write_bytes(assets.tagger)
    f = tmp_path / name
    f.write_text(TAG_TRAIN.replace("\tDET\t", "\t_\t"), encoding="utf-8")
    code, out, err = run_cli(["tag", "predict", str(model), str(f)])
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines() if line]
    assert all(len(r) == 10 for r in rows) and [r[3] for r in rows][:3] == ["DET", "NOUN", "VERB"]


def test_labels_beyond_int64_stay_distinct_and_exact(run_cli, tmp_path):
    """1e19 and 2e19 were cast to int64 (both to -2^63): one class, exit 0.  Now they are two
    classes, predicted as written."""
    data = write(tmp_path, "d.csv", "a,label\n-2,1e19\n-1,1e19\n1,2e19\n2,2e19\n")
    model = tmp_path / "m.npz"
    code, out, err = run_cli(["train", str(data), "-o", str(model)])
    assert code == 0 and "2 classes" in out, err
    code, out, err = run_cli(["predict", str(model), str(data)])
    assert code == 0 and out.split() == ["1e19", "1e19", "2e19", "2e19"], err
    svm = tmp_path / "d.svm"
    svm.write_text("10000000000000000001 1:-2\n10000000000000000000 1:2\n", encoding="utf-8")
    from perceptrons.io.readers import read_data

    assert read_data(svm)[1].tolist() == ["10000000000000000001", "10000000000000000000"]


def test_libsvm_and_cluster_files_with_bom(tmp_path):
    from perceptrons.io.readers import read_data
    from perceptrons.structured.clusters import load_clusters

    svm = tmp_path / "d.svm"
    svm.write_bytes(b"\xef\xbb\xbf+1 1:2\n-1 2:1\n")
    X, y = read_data(svm)
    assert y.tolist() == [1, -1] and X.toarray().tolist() == [[2, 0], [0, 1]]
    paths = tmp_path / "paths"
    paths.write_bytes("\ufeff01\tthe\t4\n".encode("utf-8"))
    assert load_clusters(str(paths)).paths == {"the": "01"}


def test_evaluate_many_classes_prints_the_top_confusions(run_cli, tmp_path):
    """Past 20 classes the k × k matrix is not printed (10,000 classes: 10⁸ cells) but the most
    frequent confusions are, counted without a k × k array."""
    from perceptrons.cli.evaluate import TOP_CONFUSIONS, confusion_counts

    k = 60
    rng = np.random.default_rng(0)
    X = rng.standard_normal((3 * k, 2))
    y = np.arange(3 * k) % k
    model = tmp_path / "m.npz"
    save_model(Perceptron(max_epochs=2).fit(X, y), model)
    data = tmp_path / "d.npz"
    np.savez(data, X=X, y=y)
    code, out, err = run_cli(["evaluate", str(model), str(data)])
    assert code == 0, err
    assert f"{k} classes" in out and "most frequent confusions" in out
    assert len([line for line in out.splitlines() if line.startswith("│")]) <= TOP_CONFUSIONS
    true, pred, counts = confusion_counts(np.array([1, 1, 2, 5]), np.array([1, 2, 2, 1]), np.array([1, 2, 5]))
    assert sorted(zip(true.tolist(), pred.tolist(), counts.tolist())) == [(0, 0, 1), (0, 1, 1), (1, 1, 1), (2, 0, 1)]


def test_integer_labels_compare_with_a_model_of_text_classes(run_cli, tmp_path):
    """Labels are typed per file: a model trained on 0, 1, 1.5 has text classes, and a test file
    holding only 0s and 1s (read as integers) is compared with them as text."""
    model = tmp_path / "m.npz"
    code, out, err = run_cli(["train", str(write(tmp_path, "t.csv", "a,label\n1,0\n2,1\n3,1.5\n")), "-o", str(model)])
    assert code == 0, err
    code, out, err = run_cli(["evaluate", str(model), str(write(tmp_path, "e.csv", "a,label\n1,0\n2,1\n"))])
    assert code == 0 and "samples   2" in out, err


@pytest.mark.parametrize(
    "call",
    [
        lambda t, X: t.radius(X),
        lambda t, X: t.margin(np.ones(3), 0.0, X, [0, 1, 1]),
        lambda t, X: t.is_separable(X, [0, 1, 1]),
    ],
    ids=["radius", "margin", "is_separable"],
)
def test_theory_refuses_sparse_indices_outside_the_matrix(call):
    import perceptrons.theory as theory

    X = sp.csr_matrix(np.eye(3))
    X.indices[1] = 10**8  # scipy's toarray would write outside its output here
    with pytest.raises(PerceptronsError, match=r"X \(CSR\): column index 100000000 at stored entry 1"):
        call(theory, X)


def _coo_bad_col():
    X = sp.coo_matrix(np.eye(3))
    X.col[2] = 7
    return X


def _csc_bad_row():
    X = sp.csc_matrix(np.eye(3))
    X.indices[0] = -2
    return X


def _bsr_bad_block():
    X = sp.bsr_matrix(np.eye(4), blocksize=(2, 2))
    X.indices[1] = 5
    return X


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (_coo_bad_col, r"X \(COO\): column index 7 at stored entry 2 is outside \[0, 3\)"),
        (_csc_bad_row, r"X \(CSC\): row index -2 at stored entry 0 is outside \[0, 3\)"),
        (_bsr_bad_block, r"X \(BSR\): block column index 5 at stored entry 1 is outside \[0, 2\)"),
    ],
    ids=["coo", "csc", "bsr"],
)
def test_other_sparse_formats_with_indices_outside_are_refused(make, message):
    # scipy converts these to CSR in compiled code that trusts the indices: the check comes first
    with pytest.raises(PerceptronsError, match=message):
        Perceptron().fit(make(), [0, 1, 1] if make is not _bsr_bad_block else [0, 1, 1, 0])


def test_edge_features_with_indices_outside_are_refused():
    from perceptrons import SequencePerceptron

    X = sp.csr_matrix(np.eye(4))
    X_edge = sp.csr_matrix(np.eye(4))
    X_edge.indices[3] = 99
    with pytest.raises(PerceptronsError, match=r"X_edge \(CSR\): column index 99 at stored entry 3"):
        SequencePerceptron(max_epochs=1).fit(X, ["a", "b", "a", "b"], lengths=[2, 2], X_edge=X_edge)


def test_scores_that_overflow_at_predict_are_refused(run_cli, tmp_path):
    """A model file's weights are finite but may be as large as a float64 holds: their scores
    overflow, and labels would be an argmax over inf and NaN.  predict refuses, naming the row."""
    X = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 2.0], [2.0, 0.0]])
    est = Perceptron().fit(X, [0, 1, 0, 1])
    est.coef_ = np.array([[1e308, -1e308]])
    est.intercept_ = np.array([1e308])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way
        with pytest.raises(PerceptronsError, match=r"the score of row 1 overflowed .*model weights up to 1e\+308"):
            est.predict(X)
    save_model(est, tmp_path / "big.npz")
    data = write(tmp_path, "d.csv", "a,b,label\n0,1,0\n1,0,1\n")
    assert_refused(run_cli(["predict", str(tmp_path / "big.npz"), str(data)]), "d.csv", "overflowed")


def test_an_npz_array_larger_than_the_memory_available_is_refused_before_it_is_read(tmp_path, monkeypatch):
    """A compressed archive can declare an array far larger than itself (deflate of zeros:
    ~1000:1); its header's size is held to the memory the machine has before anything is
    allocated, as model files are."""
    import perceptrons.io.npz as npz_reader
    from perceptrons.io.readers import read_data

    np.savez_compressed(tmp_path / "d.npz", X=np.zeros((2000, 50)), y=np.zeros(2000))
    monkeypatch.setattr(npz_reader, "available_bytes", lambda: 100_000)  # 800,000 bytes declared
    with pytest.raises(
        PerceptronsError, match=r"d.npz: array 'X' declares shape \(2000, 50\) .* more than this machine has"
    ):
        read_data(tmp_path / "d.npz")
    monkeypatch.setattr(npz_reader, "available_bytes", lambda: None)  # not known: read as before
    assert read_data(tmp_path / "d.npz")[0].shape == (2000, 50)


@pytest.mark.parametrize(
    "command",
    [
        ["train", "{f}", "--format", "libsvm", "-o", "{m}"],
        ["train", "{f}", "--format", "csv", "-o", "{m}"],
        ["train", "{f}", "--format", "vw", "-o", "{m}"],
        ["tag", "train", "{f}", "-o", "{m}"],
        ["vc", "--concept", "halfplanes", "--points", "{f}"],
    ],
)
def test_a_line_without_end_is_refused_not_read_forever(run_cli, tmp_path, monkeypatch, command):
    """``/dev/zero`` (no line break, ever) was read until memory ran out, by every reader of
    text (24 GB before the kernel killed it); now a line longer than the readers' limit is
    refused, naming the file.  The limit is lowered here so that the test reads little."""
    from perceptrons.io import chunks, lines

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", 1000)
    monkeypatch.setattr(chunks, "MAX_LINE_BYTES", 1000)
    argv = [a.format(f="/dev/zero", m=tmp_path / "m.npz") for a in command]
    code, _, err = run_cli(argv)
    assert code == 2 and "/dev/zero" in err and "a line longer than 0 MiB" in err and "Traceback" not in err, err
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize(
    "name", [pytest.param("d.svm", marks=pytest.mark.slow), "d.csv", pytest.param("d.vw", marks=pytest.mark.slow)]
)
def test_a_named_pipe_is_read_once_and_in_full(run_cli, tmp_path, name):
    """A FIFO was opened to sniff it (gzip, size) and read again: the reader then waited forever
    for a writer, or found it empty.  It is now read once, into a temporary file."""
    import threading

    content = {
        "d.svm": "1 1:1\n-1 2:1\n1 1:1 3:1\n",
        "d.csv": "a,b,label\n1,0,1\n0,1,-1\n1,1,1\n",
        "d.vw": "1 |f a\n-1 |f b\n1 |f a c\n",
    }[name]
    fifo = tmp_path / name
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "w") as f:
            f.write(content)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    code, out, err = run_cli(["train", str(fifo), "--epochs", "3", "-o", str(tmp_path / "m.npz")])
    writer.join(timeout=10)
    assert code == 0 and "3 samples" in out, err

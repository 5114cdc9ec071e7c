"""The compiled LIBSVM parser against scikit-learn's ``load_svmlight_file`` and Python's ``float``.

Oracles: random files (comments, blank lines, qid, CRLF, BOM, tabs, exponents) read equal to
scikit-learn's reader (values equal after float32 rounding); a9a likewise; the decimal parser
equal to ``float(text)`` on its fast path and within 1 ulp beyond; blocks concatenated equal to
the whole-file read; gzip equal to plain text; every refusal names the exact line and byte.
"""

import gzip
import io
import json
import math
import os
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptrons._core.errors import PerceptronsError
from perceptrons._jit.libsvm_parse import parse_float
from perceptrons.io.libsvm import libsvm_blocks, read_libsvm

#: the oracle tests run again without the JIT (tests/compile/test_disable_jit.py): big files only with it
NO_JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
needs_jit = pytest.mark.skipif(NO_JIT, reason="megabytes of text: too slow without the JIT")
BOM = b"\xef\xbb\xbf"


# ------------------------------------------------------------------------------ helpers
def sklearn_read(data):
    """scikit-learn's reading of LIBSVM bytes (it takes no BOM)."""
    from sklearn.datasets import load_svmlight_file

    X, y = load_svmlight_file(io.BytesIO(data[3:] if data.startswith(BOM) else data), zero_based=False)
    return X, y


def write(tmp_path, data, name="d.svm"):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def assert_same_as_sklearn(X, y, data):
    Xs, ys = sklearn_read(data)
    assert X.shape == Xs.shape
    assert np.array_equal(X.indptr, Xs.indptr)
    assert np.array_equal(X.indices, Xs.indices)
    assert X.data.dtype == np.float32
    assert np.array_equal(X.data, Xs.data.astype(np.float32))
    assert np.array_equal(np.array([float(v) for v in y]), ys)


def concatenated(blocks):
    """The blocks as one (indptr, indices, data, y)."""
    indptr, indices, data, y, offset = [np.zeros(1, np.int64)], [], [], [], 0
    for b in blocks:
        assert b.indptr[0] == 0 and b.indptr.dtype == np.int64 and b.indices.dtype == np.int32
        indptr.append(b.indptr[1:] + offset)
        offset += int(b.indptr[-1])
        indices.append(b.indices)
        data.append(np.ones(b.indices.shape[0], np.float32) if b.data is None else b.data)
        y.append(b.y)
    return np.concatenate(indptr), np.concatenate(indices), np.concatenate(data), np.concatenate(y)


VALUES = [
    lambda r: str(r.randint(-9, 99)),
    lambda r: f"+{r.randint(0, 9)}",
    lambda r: "1",
    lambda r: f"0.{r.randint(0, 999):03d}",
    lambda r: f"{r.uniform(-1e3, 1e3):.{r.randint(0, 9)}f}",
    lambda r: repr(r.uniform(-1, 1)),  # 17 significant digits
    lambda r: f"{r.uniform(1, 10):.6g}{r.choice('eE')}{r.choice(['', '+', '-'])}{r.randint(0, 37)}",
    lambda r: f"{r.randint(1, 9)}e-{r.randint(38, 330)}",  # tiny: float32 0 or subnormal
    lambda r: r.choice(["+.5", "5.", "-.25", "0", "-0", "00012", "1.", "1e0", "0e99"]),
    lambda r: "0." + "".join(r.choice("0123456789") for _ in range(r.randint(18, 30))),
]
LABELS = ["+1", "-1", "0", "3", "1.0", "-1.0", "2", "0.5", "1e3", "-2.5e-1", "7"]


def random_libsvm(rng, rows=40, max_index=60):
    """Random LIBSVM bytes and the line of each data row."""
    nl = "\r\n" if rng.random() < 0.3 else "\n"
    labels = rng.sample(LABELS, rng.randint(1, 4))
    lines, data_lines = [], []
    for _ in range(rows):
        if rng.random() < 0.1:
            lines.append(rng.choice(["", "   ", "\t", "# a comment 3:4", "  # indented 1:2", "#"]))
            continue
        indices = sorted(rng.sample(range(1, max_index + 1), rng.randint(0, 8)))
        parts = [rng.choice(labels)]
        if rng.random() < 0.15:
            parts.append(f"qid:{rng.randint(0, 99)}")
        parts += [f"{i}:{rng.choice(VALUES)(rng)}" for i in indices]
        line = "".join(p + rng.choice([" ", " ", "  ", "\t"]) for p in parts).rstrip(" \t")
        if rng.random() < 0.1:
            line = rng.choice([" ", "\t"]) + line
        if rng.random() < 0.1:
            line += rng.choice([" # trailing 7:7", "#x", " "])
        lines.append(line)
        data_lines.append(len(lines))
    text = nl.join(lines) + (nl if rng.random() < 0.8 else "")
    data = text.encode()
    return (BOM + data if rng.random() < 0.2 else data), data_lines


# ------------------------------------------------------------------------------ oracles
@pytest.mark.parametrize("seed", range(30))
def test_random_files_equal_sklearn(tmp_path, seed):
    data, data_lines = random_libsvm(random.Random(seed))
    if not data_lines:
        return
    path = write(tmp_path, data)
    X, y, name = read_libsvm(path)
    assert name is None and X.indices.dtype == np.int32
    assert_same_as_sklearn(X, y, data)
    blocks = list(libsvm_blocks(path, block_bytes=64))
    indptr, indices, values, yb = concatenated(blocks)
    assert np.array_equal(indptr, X.indptr) and np.array_equal(indices, X.indices)
    assert np.array_equal(values, X.data) and np.array_equal(yb, sklearn_read(data)[1])
    # each block's line is the line of its first row
    starts = np.cumsum([0] + [b.n_rows for b in blocks])[:-1]
    assert [b.line for b in blocks] == [data_lines[s] for s in starts]


VALUE_TEXT = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.floats(-1e30, 1e30, allow_nan=False).map(lambda v: f"{v:.12e}"),
    st.sampled_from(["1", "+.5", "5.", "1E+03", "-1.5", "1e-3"]),
)
ROW = st.tuples(
    st.sampled_from(LABELS),
    st.lists(st.tuples(st.integers(1, 10**6), VALUE_TEXT), max_size=10, unique_by=lambda t: t[0]),
    st.sampled_from(["", " qid:7", " # c 1:1", "\t"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ROW, min_size=1, max_size=20), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_hypothesis_files_equal_sklearn(tmp_path, rows, nl, bom):
    lines = []
    for label, features, extra in rows:
        feats = " ".join(f"{i}:{v}" for i, v in sorted(features))
        if extra.startswith(" qid"):
            lines.append(f"{label}{extra} {feats}")
        else:
            lines.append(f"{label} {feats}{extra}")
    data = (BOM if bom else b"") + (nl.join(lines) + nl).encode()
    X, y, _ = read_libsvm(write(tmp_path, data, "h.svm"))
    assert_same_as_sklearn(X, y, data)


@pytest.fixture(scope="module")
def a9a(shared_data):
    # without the data the test skips; under CI (which clones it beside the project) that fails
    return str(shared_data("a9a") / "a9a")


@pytest.mark.data
@needs_jit
def test_a9a_equals_sklearn(a9a):
    from sklearn.datasets import load_svmlight_file

    X, y, _ = read_libsvm(a9a)
    Xs, ys = load_svmlight_file(a9a, zero_based=False)
    assert X.shape == Xs.shape == (32561, 123)
    assert np.array_equal(X.indptr, Xs.indptr) and np.array_equal(X.indices, Xs.indices)
    assert np.array_equal(X.data, Xs.data.astype(np.float32)) and np.array_equal(y, ys)
    assert y.dtype == np.int64
    blocks = list(libsvm_blocks(a9a, block_bytes=100_000))
    assert len(blocks) > 20 and all(b.data is None for b in blocks)  # binary features
    indptr, indices, _, yb = concatenated(blocks)
    assert np.array_equal(indptr, X.indptr) and np.array_equal(indices, X.indices) and np.array_equal(yb, ys)


# ------------------------------------------------------------------------------ the float parser
def parse(text):
    b = np.frombuffer(text.encode(), np.uint8).copy()  # writable, like the reader's buffer
    return parse_float(b, b.shape[0])


def same_double(a, b):
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def fast_path_text(rng):
    """A decimal of at most 15 significant digits times 10^e, |e| <= 22, in any spelling."""
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 15)))
    sign = rng.choice(["", "", "-", "+"])
    point = rng.randint(0, len(digits)) if rng.random() < 0.7 else None
    body = digits if point is None else digits[:point] + "." + digits[point:]
    e10 = rng.randint(-22, 22)
    if rng.random() < 0.3 and point is not None:  # no exponent: e10 = -(digits after the point)
        return sign + body
    exponent = e10 + (0 if point is None else len(digits) - point)
    return f"{sign}{body}{rng.choice('eE')}{'+' if exponent >= 0 and rng.random() < 0.5 else ''}{exponent}"


def test_float_parser_exact_on_the_fast_path():
    rng = random.Random(0)
    n = 12_000 if not NO_JIT else 2_000
    for _ in range(n):
        text = fast_path_text(rng)
        assert same_double(parse(text), float(text)), text


def test_float_parser_within_one_ulp_elsewhere():
    rng = random.Random(1)
    n, exact = (12_000 if not NO_JIT else 2_000), 0
    for _ in range(n):
        nd = rng.randint(1, 30)
        digits = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(nd - 1))
        text = f"{rng.choice(['', '-'])}{digits[:1]}.{digits[1:]}e{rng.randint(-345, 307)}"
        got, want = parse(text), float(text)
        assert abs(got - want) <= math.ulp(want), text
        exact += got == want
    assert exact > 0.95 * n  # in practice correctly rounded but near a half-way point


@pytest.mark.parametrize(
    "text",
    ["1", "-1.5", "+.5", "1e-3", "1E+03", "5.", "0", "-0", "-0.0e5", "00012", "0.000123", "1e-400", "4.9e-324"]
    + ["2.4703282292062328e-324", "2.2250738585072011e-308", "1.7976931348623157e308", "9007199254740993"]
    + ["123456789012345678901234567890", "1" + "0" * 30, "1e23", "7e37", "0." + "0" * 40 + "1", "1e309"],
)
def test_float_parser_forms_python_accepts(text):
    assert same_double(parse(text), float(text))


@pytest.mark.parametrize(
    "text", ["nan", "inf", "-Infinity", "1e", "e5", ".", "+", "-", "1_0", "0x10", "1.2.3", "--1", ""]
)
def test_float_parser_refuses_non_numbers(text):
    assert math.isnan(parse(text))


# ------------------------------------------------------------------------------ labels
@pytest.mark.parametrize(
    "labels, expected",
    [
        (["+1", "-1", "+1"], [1, -1, 1]),
        (["1.0", "-1.0", "1e0"], [1, -1, 1]),
        (["9007199254740993", "9007199254740992"], [9007199254740993, 9007199254740992]),
        (["1e19", "10000000000000000001"], ["1e19", "10000000000000000001"]),
        (["0.5", "1", "+1"], ["0.5", "1", "1"]),  # numbers: one class per value, as streamed
    ],
)
def test_labels_typed_from_their_text(tmp_path, labels, expected):
    data = "".join(f"{lab} {i + 1}:1\n" for i, lab in enumerate(labels)).encode()
    _, y, _ = read_libsvm(write(tmp_path, data))
    assert y.tolist() == expected
    assert y.dtype == np.int64 if isinstance(expected[0], int) else y.dtype.kind == "U"


# ------------------------------------------------------------------------------ blocks and gzip
def test_blocks_equal_whole_read_for_any_block_size(tmp_path):
    rng = random.Random(7)
    data = b"\n".join(random_libsvm(rng, rows=50)[0].removeprefix(BOM) for _ in range(4)) + b"\n"
    long_line = b"-1 " + b" ".join(f"{i}:0.25".encode() for i in range(1, 60)) + b"\n"
    data = long_line + data + long_line  # lines longer than the blocks
    path = write(tmp_path, data)
    X, y, _ = read_libsvm(path)
    for block_bytes in (7, 64, 1000, 1 << 20):
        blocks = list(libsvm_blocks(path, block_bytes=block_bytes))
        indptr, indices, values, yb = concatenated(blocks)
        assert np.array_equal(indptr, X.indptr) and np.array_equal(indices, X.indices)
        assert np.array_equal(values, X.data)
        assert np.array_equal(yb, np.array([float(v) for v in y]))
        for b in blocks:
            assert (b.data is None) == bool(np.all(b.csr(X.shape[1]).data == 1)) and b.path == str(path)


def test_block_lines_count_comments_and_blank_lines(tmp_path):
    data = b"# header\n\n1 1:1\n# mid\n-1 2:0.5\n\n\n1 3:1\n"
    blocks = list(libsvm_blocks(write(tmp_path, data), block_bytes=8))
    assert [(b.line, b.n_rows) for b in blocks] == [(3, 1), (5, 1), (8, 1)]
    assert [b.data is None for b in blocks] == [True, False, True]


def test_gzip_equals_plain(tmp_path):
    data, _ = random_libsvm(random.Random(3), rows=300)
    plain = write(tmp_path, data)
    packed = write(tmp_path, gzip.compress(data), "d.svm.gz")
    X, y, _ = read_libsvm(plain)
    Xg, yg, _ = read_libsvm(packed)
    assert (X != Xg).nnz == 0 and X.shape == Xg.shape and np.array_equal(y, yg)
    a, b = concatenated(libsvm_blocks(plain, block_bytes=100)), concatenated(libsvm_blocks(packed, block_bytes=100))
    assert all(np.array_equal(u, v) for u, v in zip(a, b))


def test_truncated_gzip_is_refused_by_name(tmp_path):
    data = b"".join(f"{i % 2} {i % 7 + 1}:{i}\n".encode() for i in range(5000))
    path = write(tmp_path, gzip.compress(data)[:-30], "cut.svm.gz")
    for read in (read_libsvm, lambda p: list(libsvm_blocks(p, block_bytes=1000))):
        with pytest.raises(PerceptronsError, match=r"cut\.svm\.gz: the gzip stream is truncated"):
            read(path)


def test_corrupt_gzip_is_refused_by_name(tmp_path):
    packed = bytearray(gzip.compress(b"1 1:1\n" * 100))
    packed[12:20] = b"\xff" * 8
    with pytest.raises(PerceptronsError, match=r"bad\.gz: corrupt gzip data"):
        read_libsvm(write(tmp_path, bytes(packed), "bad.gz"))


# ------------------------------------------------------------------------------ refusals
def at(data, token, nth=0):
    """The byte offset of the ``nth`` occurrence of ``token`` in ``data``."""
    pos = -1
    for _ in range(nth + 1):
        pos = data.index(token, pos + 1)
    return pos


ERRORS = [  # (content, bad token, what the message says after "line N (byte B): ")
    (b"1 1:1\nabc 2:1\n", b"abc", "label 'abc' is not a number; expected a finite number"),
    (b"1 1:1\n1,2 2:1\n", b"1,2", "label '1,2' is not a number"),
    (b"1 1:1\nnan 2:1\n", b"nan", "the label is 'nan', a missing value"),
    (b"1 1:1\nNA 2:1\n", b"NA", "the label is 'NA', a missing value"),
    (b"1 1:1\n-inf 2:1\n", b"-inf", "the label '-inf' is not finite"),
    (b"1 1:1\n1e999 2:1\n", b"1e999", "label '1e999' is not finite; expected a finite number"),
    (b"1 1:1\n-1 x:1\n", b"x:1", "'x:1' is not 'index:value'; expected a positive integer index"),
    (b"1 1:1\n-1 -2:1\n", b"-2:1", "'-2:1' is not 'index:value'"),
    (b"1 1:1\n-1 5\n", b"5\n", "'5' is not 'index:value'"),
    (b"1 1:1\n-1 2:\n", b"2:\n", "'2:' is not 'index:value'"),
    (b"1 1:1\n-1 2:zz\n", b"2:zz", "'2:zz' is not 'index:value'"),
    (b"1 1:1\n-1 2:1.2.3\n", b"2:1.2.3", "'2:1.2.3' is not 'index:value'"),
    (b"1 1:1\n-1 2:1e\n", b"2:1e", "'2:1e' is not 'index:value'"),
    (b"1 1:1\n-1 2:0x1\n", b"2:0x1", "'2:0x1' is not 'index:value'"),
    (b"1 1:1\n-1 2:1:3\n", b"2:1:3", "'2:1:3' is not 'index:value'"),
    (b"1 0:1\n", b"0:1", "feature index 0 < 1; expected LIBSVM indices, which start at 1 (a file of 0-based indices"),
    (b"1 1:1\n-1 2147483648:1\n", b"2147483648", "feature index 2147483648 is too large; expected at most 2147483647"),
    (b"1 1:1\n-1 " + b"9" * 30 + b":1\n", b"999", "feature index " + "9" * 30 + " is too large"),
    (b"1 | a:1 b\n", b"|", "'|' is not 'index:value'; this line reads as Vowpal Wabbit text"),
    (b"1 1:1\n-1 2.0 |f a\n", b"2.0", "'2.0' is not 'index:value'; this line reads as Vowpal Wabbit text"),
    (b"1 1:1\n-1 3:1 2:1\n", b"2:1", "feature index 2 comes after index 3; expected increasing indices, each once"),
    (b"1 1:1\n-1 2:1 2:3\n", b"2:3", "feature index 2 repeats; expected increasing indices, each once"),
    (b"1 1:1\n\n-1 2:nan\n", b"2:nan", "value 'nan' of feature 2 is not finite; expected a finite number"),
    (b"1 1:1\n-1 2:-inf\n", b"2:-inf", "value '-inf' of feature 2 is not finite"),
    (b"1 1:1\n-1 2:Infinity\n", b"2:Inf", "value 'Infinity' of feature 2 is not finite"),
    (b"1 1:1\n-1 2:1e999\n", b"2:1e999", "value '1e999' of feature 2 is not finite"),
    (b"1 1:1\n-1 2:1e39\n", b"2:1e39", "value '1e39' of feature 2 is beyond float32's range"),
    (b"1 1:1\n-1 2:\x001\n", b"2:\x00", "a NUL byte; expected text"),
    (b"1 1:1\n\x00 2:1\n", b"\x00", "a NUL byte; expected text"),
    (b"1 1:1\n-1 2:1\n\xff 1:1\n", b"\xff", "byte 0xff is not UTF-8 text"),
    (b"1 1:1 qid:3\n", b"qid:3", "'qid:3' is not 'index:value'"),
    (b"1 qid:x 1:1\n", b"qid:x", "'qid:x' is not 'qid:<integer>'"),
    (b"1 qid: 1:1\n", b"qid:", "'qid:' is not 'qid:<integer>'"),
    (b"1 1:1\n-1 qi:1\n", b"qi:1", "'qi:1' is not 'index:value'"),
    (b"1 1:1\n-1 q", b"q", "'q' is not 'index:value'"),
    (b"1 1:1\n" + BOM + b"-1 2:1\n", BOM, "label '\\ufeff-1' is not a number"),
    (b"1 1:1\r\n-1 2:x\r\n", b"2:x", "'2:x' is not 'index:value'"),
    (b"# c\n\n1 1:1 # 3:x\n  -1 2:1 4:q #\n", b"4:q", "'4:q' is not 'index:value'"),
    (b"1 1:1\n-1 2:1 3:1e", b"3:1e", "'3:1e' is not 'index:value'"),  # no final newline
]


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # float32 cast without the JIT
@pytest.mark.parametrize("content, token, what", ERRORS, ids=[e[2][:30] for e in ERRORS])
def test_errors_name_line_and_byte(tmp_path, content, token, what):
    path = write(tmp_path, content)
    byte = at(content, token)
    line = content[:byte].count(b"\n") + 1
    for read in (read_libsvm, lambda p: list(libsvm_blocks(p, block_bytes=16))):
        with pytest.raises(PerceptronsError) as exc:
            read(path)
        message = str(exc.value)
        assert message.startswith(f"{path}, line {line} (byte {byte}): {what}"), message
        assert "\n" not in message


def test_missing_file_and_directory(tmp_path):
    for path in (tmp_path / "none.svm", tmp_path):
        with pytest.raises(PerceptronsError, match="cannot read"):
            read_libsvm(path)


def test_index_beyond_n_features(tmp_path):
    content = b"1 1:1 3:1\n-1 2:1 4:1\n"
    path = write(tmp_path, content)
    X, _, _ = read_libsvm(path, n_features=6)
    assert X.shape == (2, 6)
    for read in (read_libsvm, lambda p, n_features: list(libsvm_blocks(p, n_features=n_features))):
        with pytest.raises(PerceptronsError) as exc:
            read(path, n_features=3)
        assert str(exc.value) == (
            f"{path}, line 2 (byte {at(content, b'4:1')}): feature index 4 exceeds the model's 3 features; "
            "expected at most 3"
        )


def test_largest_index_accepted(tmp_path):
    X, _, _ = read_libsvm(write(tmp_path, b"1 2147483647:1.5\n"))
    assert X.shape == (1, 2**31 - 1) and X.indices.tolist() == [2**31 - 2]


def test_empty_and_comment_only_files(tmp_path):
    for data, name in ((b"", "e.svm"), (gzip.compress(b""), "e.svm.gz")):
        with pytest.raises(PerceptronsError, match="the file is empty"):
            read_libsvm(write(tmp_path, data, name))
    X, y, _ = read_libsvm(write(tmp_path, b"# nothing\n\n   # here\n"))
    assert X.shape == (0, 1) and y.shape == (0,)  # one column, as scikit-learn's reader gives
    assert list(libsvm_blocks(tmp_path / "d.svm")) == []


@needs_jit
@pytest.mark.parametrize("packed", [False, True])
def test_deep_error_line_and_byte_are_exact(tmp_path, packed):
    good = b"+1 3:1\n"
    n = 2_999_990
    content = good * n + b"-1 4:1 2:1\n" + good * 5
    byte = len(good) * n + len(b"-1 4:1 ")
    path = write(tmp_path, gzip.compress(content, 1) if packed else content, "deep.svm")
    where = f"{path}, line {n + 1} (byte {byte}{' of the decompressed stream' if packed else ''}): "
    with pytest.raises(PerceptronsError) as exc:
        read_libsvm(path)
    assert str(exc.value) == where + "feature index 2 comes after index 4; expected increasing indices, each once"


# ------------------------------------------------------------------------------ memory
CHILD = textwrap.dedent(
    """
    import json, sys
    from perceptrons.io.libsvm import read_libsvm

    def status(key):
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith(key)) * 1024

    read_libsvm(sys.argv[2])  # load the compiled parser
    base = status("VmRSS:")
    try:  # reset the peak so that it counts the read only
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass  # the peak then includes earlier ones: a stricter test
    X, y, _ = read_libsvm(sys.argv[1])
    peak = status("VmHWM:")  # the peak resident set, as getrusage's ru_maxrss
    arrays = X.data.nbytes + X.indices.nbytes + X.indptr.nbytes + y.nbytes
    print(json.dumps({"growth": peak - base, "arrays": arrays, "nnz": int(X.nnz)}))
    """
)


def text_like(path, rows, seed=0):
    """~490 bytes a row: 40 increasing column ids, half the rows binary, half 3-decimal values."""
    rng = np.random.default_rng(seed)
    binary = "%+d" + " %d:1" * 40 + "\n"
    valued = "%+d" + " %d:0.%03d" * 40 + "\n"
    with open(path, "w") as f:
        for start in range(0, rows, 1000):
            ids = rng.integers(1, 60, size=(1000, 40)).cumsum(axis=1) * 10
            labels = rng.choice([-1, 1], size=1000)
            vals = rng.integers(0, 1000, size=(1000, 40))
            for r in range(min(1000, rows - start)):
                if start < rows // 2:
                    f.write(binary % (labels[r], *ids[r].tolist()))
                else:
                    f.write(valued % (labels[r], *(x for pair in zip(ids[r].tolist(), vals[r].tolist()) for x in pair)))


@pytest.mark.slow
@needs_jit
def test_peak_memory_of_the_whole_read(tmp_path):
    big = tmp_path / "big.svm"
    text_like(big, 140_000)
    small = write(tmp_path, b"1 1:0.5 3:1\n-1 2:1\n", "small.svm")
    assert os.path.getsize(big) > 50e6
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(big), str(small)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout)
    assert got["nnz"] == 140_000 * 40
    assert got["growth"] <= 1.5 * got["arrays"] + 20e6, got


def test_a_zero_based_file_reads_as_scikit_learn_reads_it(tmp_path):
    """scikit-learn's dump_svmlight_file writes 0-based indices by default."""
    from sklearn.datasets import dump_svmlight_file, load_svmlight_file

    from perceptrons.io.libsvm import IndexZero

    rng = np.random.default_rng(0)
    X = np.where(rng.random((60, 7)) < 0.4, rng.normal(size=(60, 7)), 0.0)
    y = rng.integers(0, 3, 60)
    path = str(tmp_path / "zero.svm")
    dump_svmlight_file(X, y, path)
    theirs, their_y = load_svmlight_file(path, zero_based=True)
    ours, our_y, _ = read_libsvm(path, zero_based=True)
    np.testing.assert_allclose(ours.toarray(), theirs.toarray().astype(np.float32))
    assert our_y.tolist() == their_y.astype(int).tolist()
    blocks = list(libsvm_blocks(path, block_bytes=64, zero_based=True))
    np.testing.assert_array_equal(np.concatenate([b.indices for b in blocks]), ours.indices)
    with pytest.raises(IndexZero, match="is read with zero_based=True"):
        read_libsvm(path)
    with pytest.raises(PerceptronsError, match=r"exceeds the model's 6 features; expected at most 5"):
        read_libsvm(path, zero_based=True, n_features=6)

"""Vowpal Wabbit text: MurmurHash3 against scikit-learn, the compiled parser against a plain-Python
oracle of the documented rules, streaming blocks against the whole file, every error with its
exact line and byte, and the LIBSVM converter against Vowpal Wabbit itself.
"""

import gzip
import math
import os
import random
import re

import numpy as np
import pytest
from sklearn.utils import murmurhash3_32

from perceptrons._core.errors import PerceptronsError
from perceptrons._jit.murmur import murmur3_32, murmur3_32_signed
from perceptrons._jit.vw_parse import parse_number
from perceptrons.io.vw import libsvm_to_vw, read_vw, vw_blocks

F32_FINITE = float(2**128 - 2**103)  # below this, a float64 rounds to a finite float32


# ----------------------------------------------------------------------------- the oracle
def _hash(name, seed):
    return murmurhash3_32(name, seed=seed, positive=True)


def oracle_line(line, bits):
    """(label, importance, [(index, float32 value), ...]) of one line, or None for a blank one,
    written from the module docstring's rules with Python's own split, float and dict.
    """
    line = line.replace(b"\r", b" ")
    if not line.strip(b" \t"):
        return None
    bar = line.index(b"|")
    head = line[:bar]
    words = [w for w in re.split(rb"[ \t]+", head) if w]
    if words and (head.endswith(words[-1]) or words[-1].startswith(b"'")):
        words.pop()  # the tag
    label = float(words[0]) if words else math.nan  # an unlabeled example
    importance = float(words[1]) if len(words) >= 2 else 1.0  # a third word, the initial prediction, is unused
    sums = {}
    for segment in line[bar + 1 :].split(b"|"):
        tokens = re.split(rb"[ \t]+", segment)
        ns, colon, scale = tokens[0].partition(b":")
        scale = float(scale) if colon else 1.0
        seed = _hash(ns, 0)
        for tok in tokens[1:]:
            if not tok:
                continue
            name, colon, value = tok.partition(b":")
            v = (float(value) if colon else 1.0) * scale
            if v != 0:
                h = _hash(name, seed) & ((1 << bits) - 1)
                sums[h] = sums.get(h, 0.0) + v  # in the order of appearance
    row = sorted((h, np.float32(s)) for h, s in sums.items() if np.float32(s) != 0)
    return label, importance, row


def oracle_file(content, bits):
    rows = [oracle_line(line, bits) for line in content.split(b"\n")]
    return [r for r in rows if r is not None]


def _rows(blocks):
    """Rows of a list of blocks as (label, importance, [(index, value), ...])."""
    out = []
    for b in blocks:
        for i in range(b.n_rows):
            lo, hi = b.indptr[i], b.indptr[i + 1]
            vals = np.ones(hi - lo, np.float32) if b.data is None else b.data[lo:hi]
            w = 1.0 if b.weight is None else b.weight[i]
            out.append((b.y[i], w, list(zip(b.indices[lo:hi].tolist(), vals.tolist()))))
    return out


def _same(got, expected):
    assert len(got) == len(expected)
    for (gl, gw, gr), (el, ew, er) in zip(got, expected):
        assert (gl == el or math.isnan(gl) and math.isnan(el)) and gw == ew
        assert [h for h, _ in gr] == [h for h, _ in er]
        assert np.array([v for _, v in gr], np.float32).tobytes() == np.array([v for _, v in er], np.float32).tobytes()


def _write(tmp_path, content, name="data.vw"):
    path = tmp_path / name
    path.write_bytes(content)
    return str(path)


# ----------------------------------------------------------------------------- MurmurHash3
def _random_text(rng, n):
    # ASCII, 2-, 3- and 4-byte UTF-8 characters: byte lengths 0..160 cover every tail length
    ranges = [(32, 126), (128, 0x7FF), (0x800, 0xD7FF), (0x10000, 0x10FFFF)]
    return "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(n))


def test_murmur_matches_sklearn_on_10000_strings():
    rng = random.Random(0)
    tails = set()
    for i in range(10_000):
        key = _random_text(rng, rng.randint(0, 40)).encode("utf-8")
        seed = rng.choice([0, 1, 42, 2**31 - 1, 2**31, 2**32 - 1, rng.randrange(2**32)])
        padded = np.frombuffer(b"ab" + key + b"cd", np.uint8)  # a slice inside a larger buffer
        tails.add(len(key) % 4)
        assert murmur3_32(padded, 2, 2 + len(key), seed) == murmurhash3_32(key, seed=seed, positive=True), (i, key)
        assert murmur3_32_signed(padded, 2, 2 + len(key), seed) == murmurhash3_32(key, seed=seed), (i, key)
    assert tails == {0, 1, 2, 3}


def test_murmur_of_empty_string_with_seed_0_is_0():
    # the default namespace's seed: the empty name hashes to 0, as scikit-learn's does
    assert murmur3_32(np.zeros(0, np.uint8), 0, 0, 0) == murmurhash3_32(b"", seed=0, positive=True) == 0


# ----------------------------------------------------------------------------- numbers
def _parse(text):
    buf = np.frombuffer(text.encode(), np.uint8)
    return parse_number(buf, 0, len(buf))


def _random_decimal(rng):
    """A decimal of at most 19 significant digits, in the forms data files hold."""
    digits = str(rng.randint(1, 10 ** rng.randint(1, 19) - 1))
    kind = rng.randrange(4)
    if kind == 0:
        return repr(rng.uniform(-1e3, 1e3))
    if kind == 1:
        return f"{rng.uniform(-1, 1):.{rng.randint(1, 17)}g}"
    cut = rng.randint(0, len(digits))
    text = digits[:cut] + "." + digits[cut:] if kind == 2 else digits
    if rng.random() < 0.6:
        text += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.randint(0, 330))
    return rng.choice(["", "-", "+"]) + text


SPECIAL_NUMBERS = [
    "0",
    "-0",
    "+0.0",
    "00012",
    ".5",
    "5.",
    "-.5e-3",
    "1e22",
    "1e23",  # just beyond Clinger's exact powers
    "9007199254740993",  # 2**53 + 1: halfway, rounds to even
    "1.99999999999999999",  # rounds up to the next power of two
    "605e-131",  # needs the second 64 bits of 5**q
    "967247e-192",  # ... with a carry
    "1e-400",  # underflows to 0
    "1e400",  # overflows to inf
    "1.8e308",  # overflows while rounding
    "1.7976931348623157e308",
    "2.2250738585072014e-308",  # the smallest normal
    "4e-320",  # subnormal
    "1e99999999999999",  # an exponent beyond any range
    "3.4028235e38",
    "123456789012345678901234567890",  # more than 19 digits, exact after all
    "0.000000000000000000000000000001234",
]


def test_numbers_equal_python_float():
    rng = random.Random(1)
    texts = SPECIAL_NUMBERS + [_random_decimal(rng) for _ in range(5000)]
    for text in texts:
        ok, value = _parse(text)
        expected = float(text)
        if abs(expected) < 2.2250738585072014e-308 and expected != 0:
            # subnormal results are the one approximate case (module docstring)
            assert ok and math.isclose(value, expected, rel_tol=1e-12), text
            continue
        assert ok and value == expected and math.copysign(1, value) == math.copysign(1, expected), text


def test_numbers_beyond_19_digits_are_within_one_ulp():
    rng = random.Random(2)
    for _ in range(2000):
        text = str(rng.randint(10**19, 10**30)) + rng.choice(["", "e-7", ".123456789", "e50"])
        ok, value = _parse(text)
        assert ok and abs(value - float(text)) <= math.ulp(float(text)), text


@pytest.mark.parametrize(
    "text", ["", "+", "-", ".", "e5", "1e", "1e+", "1.2.3", "nan", "inf", "-inf", "1x", " 1", "1 ", "0x10", "1_0"]
)
def test_numbers_refuse_what_is_not_decimal(text):
    assert _parse(text)[0] is False


# ----------------------------------------------------------------------------- the parser
def _random_name(rng, alphabet):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8))).encode()


def _random_value(rng):
    return rng.choice(["1", "-1", "0", "0.5", "2", repr(rng.uniform(-5, 5)), f"{rng.random():.3g}", "1e-3", "-0"])


def _random_line(rng, names):
    """One random VW line using every syntax feature, and the tokens a reader must see."""

    def sp():
        return rng.choice([" ", " ", "  ", "\t", " \t "])

    head = rng.choice(["1", "-1", "0", "3", "2.5", "-0.75", "1e2", ""])  # "": unlabeled
    if head and rng.random() < 0.4:
        head += sp() + rng.choice(["1", "0.5", "2", "0", "3.25"])
        if rng.random() < 0.3:
            head += sp() + rng.choice(["0", "0.5", "-2", "1e-3"])  # the initial prediction
    tag = rng.random()
    if tag < 0.2:
        head += sp() + "'" + rng.choice(["t1", "ex", "7", "'q"]) + sp()
    elif tag < 0.4:
        head += sp() + rng.choice(["tag", "t7", "9", "x'y"])  # touches the bar
    else:
        head += sp()
    parts = []
    for _ in range(rng.randint(1, 4)):
        ns = rng.choice(["", "f", "g", "ns2", "é", "f", "words"]).encode()
        if rng.random() < 0.3:
            ns += b":" + rng.choice([b"2", b"0.5", b"-1", b"0", b"1e-2"])
        feats = []
        for _ in range(rng.randint(0, 12)):
            name = rng.choice(names)
            feats.append(name if rng.random() < 0.5 else name + b":" + _random_value(rng).encode())
        parts.append(b"|" + ns + b"".join(sp().encode() + f for f in feats))
    line = head.encode() + b"".join(p if i == 0 else sp().encode() + p for i, p in enumerate(parts))
    return line + rng.choice([b"", b" ", b"\r"])


def _random_file(rng, n_lines, names):
    lines = []
    for _ in range(n_lines):
        lines.append(b"" if rng.random() < 0.05 else b" \t" if rng.random() < 0.02 else _random_line(rng, names))
    return b"\n".join(lines) + rng.choice([b"", b"\n", b"\r\n"])


@pytest.fixture(scope="module")
def names():
    rng = random.Random(3)
    alphabet = "abcxyz019_-'.,;é漢\U0001f600"
    return [_random_name(rng, alphabet) for _ in range(60)]


@pytest.mark.parametrize("bits", [3, 18, 28])
def test_random_lines_match_the_oracle(tmp_path, names, bits):
    # 3 bits: most features collide and are summed; 31: almost none do
    rng = random.Random(bits)
    content = _random_file(rng, 400, names)
    path = _write(tmp_path, content)
    _same(_rows(vw_blocks(path, hash_bits=bits, require_labels=False)), oracle_file(content, bits))


def test_syntax(tmp_path):
    content = (
        b"1 |f a b:2 c\n"  # plain
        b"-1 2.5 'tag |f a:0.5 |g:2 x y:1.5\n"  # importance, quoted tag, scaled namespace
        b"0 tag2| q\n"  # a tag touching the bar; the default namespace
        b"\n"  # blank lines are skipped
        b"  \t \n"
        b"3\t0 |f\tw w w:2\r\n"  # tabs, a zero importance, repeats summed, CRLF
        b"1 |f a:0 b:-0 |z:0 c\n"  # zero values and a zero scale store nothing
        b"2 |f a|g a|f a\n"  # '|' always starts a namespace
        b"1 |e"  # no features, no final newline
    )
    path = _write(tmp_path, content)
    blocks = list(vw_blocks(path, hash_bits=18))
    assert len(blocks) == 1 and blocks[0].line == 1
    b = blocks[0]
    assert b.y.tolist() == [1, -1, 0, 3, 1, 2, 1]
    assert b.weight.tolist() == [1, 2.5, 1, 0, 1, 1, 1]
    assert b.indptr.dtype == np.int64 and b.indices.dtype == np.int32 and b.data.dtype == np.float32
    f, g = _hash(b"f", 0), _hash(b"g", 0)

    def idx(name, seed):
        return _hash(name, seed) & (2**18 - 1)

    def row(i):
        lo, hi = b.indptr[i], b.indptr[i + 1]
        return dict(zip(b.indices[lo:hi].tolist(), b.data[lo:hi].tolist()))

    assert row(0) == {idx(b"a", f): 1, idx(b"b", f): 2, idx(b"c", f): 1}
    assert row(1) == {idx(b"a", f): 0.5, idx(b"x", g): 2, idx(b"y", g): 3}
    assert row(2) == {idx(b"q", 0): 1}
    assert row(3) == {idx(b"w", f): 4}
    assert row(4) == {}
    assert row(5) == {idx(b"a", f): 2, idx(b"a", g): 1}
    assert row(6) == {}
    for i in range(b.n_rows):
        assert np.all(np.diff(b.indices[b.indptr[i] : b.indptr[i + 1]]) > 0)
    _same(_rows(blocks), oracle_file(content, 18))


def test_binary_values_and_unit_importances_store_no_arrays(tmp_path):
    path = _write(tmp_path, b"1 |f a b\n-1 1 |f c\n")
    (b,) = vw_blocks(path)
    assert b.data is None and b.weight is None and b.indices.shape == (3,)
    (b,) = vw_blocks(_write(tmp_path, b"1 |f a b:1.0\n-1 |f c:2\n"))
    assert b.data is not None and b.data.tolist().count(2.0) == 1


def test_a_byte_order_mark_is_dropped(tmp_path):
    path = _write(tmp_path, b"\xef\xbb\xbf1 |f a\n")
    (b,) = vw_blocks(path)
    assert b.y.tolist() == [1]
    with pytest.raises(PerceptronsError, match=r", line 1 \(byte 3\): label"):
        list(vw_blocks(_write(tmp_path, b"\xef\xbb\xbfx |f a\n")))


def test_long_rows_grow_the_row_buffer(tmp_path):
    # more features than the parser's first row buffer holds (256) or a bucket sort needs
    rng = random.Random(4)
    content = b"".join(
        b"1 |f " + b" ".join(f"w{rng.randrange(10**6)}:{rng.randint(1, 9)}".encode() for _ in range(n)) + b"\n"
        for n in (3, 20, 300, 5000, 17)
    )
    path = _write(tmp_path, content)
    _same(_rows(vw_blocks(path, hash_bits=12)), oracle_file(content, 12))


@pytest.mark.parametrize("block_bytes", [1, 2, 3, 7, 64, 1000, 1 << 24])
def test_blocks_concatenate_to_the_whole_file(tmp_path, names, block_bytes):
    rng = random.Random(5)
    content = _random_file(rng, 300, names)
    path = _write(tmp_path, content)
    blocks = list(vw_blocks(path, hash_bits=10, block_bytes=block_bytes, require_labels=False))
    _same(_rows(blocks), oracle_file(content, 10))
    # each block's line is the file line of its first row
    data_lines = [i + 1 for i, line in enumerate(content.split(b"\n")) if line.replace(b"\r", b"").strip(b" \t")]
    starts = np.cumsum([0] + [b.n_rows for b in blocks[:-1]])
    assert [b.line for b in blocks] == [data_lines[s] for s in starts]
    assert all(b.path == path and b.n_rows > 0 and b.indptr[0] == 0 for b in blocks)


def test_gzip_equals_plain(tmp_path, names):
    rng = random.Random(6)
    content = _random_file(rng, 500, names)
    plain = _write(tmp_path, content)
    packed = tmp_path / "data.vw.bin"  # recognised by its magic bytes, not its name
    packed.write_bytes(gzip.compress(content))
    for block_bytes in (97, 1 << 24):
        _same(
            _rows(vw_blocks(str(packed), block_bytes=block_bytes, require_labels=False)),
            _rows(vw_blocks(plain, require_labels=False)),
        )


# ----------------------------------------------------------------------------- errors
GOOD = b"1 |f a b:2\n-1 0.5 'x |g c\n\n"


@pytest.mark.parametrize(
    ("bad", "token", "seen", "expected"),
    [
        (b"x |f a", b"x", "label 'x'", "a finite number"),
        (b"nan |f a", b"nan", "label 'nan'", "a finite number"),
        (b"1e999 |f a", b"1e999", "label '1e999'", "a finite number"),
        (b"1 -2 |f a", b"-2", "importance weight '-2'", "a finite number >= 0"),
        (b"1 heavy |f a", b"heavy", "importance weight 'heavy'", "a finite number >= 0"),
        (b"1 2 x |f a", b"x", "'x' after the label and importance", "an initial prediction (a finite number) or '|'"),
        (b"1 2 nan |f a", b"nan", "'nan' after the label and importance", "an initial prediction"),
        (b"1 2 3 4 |f a", b"4", "'4' after the label, importance and initial prediction", "'|'"),
        (b"|f a", b"|", "no label before '|' ('|')", "a number first (only predictions read examples without one)"),
        (b"1|f a", b"1|", "no label before '|' ('1|')", "put a space before '|'"),
        (b"1 f a", b"1", "no '|' on a line starting '1'", "'label |namespace features'"),
        (b"1 |f a:x", b"a:x", "feature value 'a:x'", "'name:value' with a finite number"),
        (b"1 |f a:", b"a:", "feature value 'a:'", "'name:value' with a finite number"),
        (b"1 |f b a:nan", b"a:nan", "feature value 'a:nan'", "a finite number"),
        (b"1 |f b a:inf", b"a:inf", "feature value 'a:inf'", "a finite number"),
        (b"1 |f b a:1e39", b"a:1e39", "feature value 'a:1e39'", "finite in float32"),
        (b"1 |f:1e30 a:1e30", b"a:1e30", "feature value 'a:1e30'", "finite in float32"),
        (b"1 |f a:1:2", b"a:1:2", "feature value 'a:1:2'", "a finite number"),
        (b"1 |f :3", b":3", "feature ':3' without a name", "'name' or 'name:value'"),
        (b"1 |f:x a", b"f:x", "namespace scale 'f:x'", "a finite number"),
        (b"1 |f:inf a", b"f:inf", "namespace scale 'f:inf'", "a finite number"),
        (b"1 |f a\x00b", b"\x00", "a NUL byte", "text"),
        (b"1\x00 |f a", b"\x00", "a NUL byte", "text"),
        (b"1 |f\x00 a", b"\x00", "a NUL byte", "text"),
        (b"1 |f a:3e38 a:3e38", b"1 |f a:3e38 a:3e38", "repeated features sum beyond the float32 range", "smaller"),
        # classic Mac line ends: read as spaces, these lines were one example
        (b"1 |f a\r-1 |f b", b"\r", "a carriage return not followed by a line feed", "\\n or \\r\\n"),
        (b"1\r-1 |f b", b"\r", "a carriage return not followed by a line feed", "\\n or \\r\\n"),
        (b"\r1 |f b", b"\r", "a carriage return not followed by a line feed", "\\n or \\r\\n"),
    ],
)
@pytest.mark.parametrize("block_bytes", [5, 1 << 24])
def test_errors_name_the_line_and_byte(tmp_path, bad, token, seen, expected, block_bytes):
    content = GOOD * 3 + bad + b"\n" + GOOD
    path = _write(tmp_path, content)
    line = GOOD.count(b"\n") * 3 + 1
    byte = len(GOOD) * 3 + bad.index(token)
    with pytest.raises(PerceptronsError) as info:
        list(vw_blocks(path, block_bytes=block_bytes))
    message = str(info.value)
    assert message.startswith(f"{path}, line {line} (byte {byte}): "), message
    what, _, wanted = message.partition("; expected ")
    assert seen in what and expected in wanted and "\n" not in message, message


def test_an_error_200000_lines_down(tmp_path):
    good = b"1 |f a b:0.5 c\n-1 2 |g d\n"
    content = good * 100_000 + b"1 |f a b:0.5 c:oops\n"
    path = _write(tmp_path, content)
    for block_bytes in (1 << 16, 1 << 24):
        with pytest.raises(PerceptronsError) as info:
            list(vw_blocks(path, block_bytes=block_bytes))
        assert str(info.value).startswith(
            f"{path}, line 200001 (byte {len(good) * 100_000 + 13}): feature value 'c:oops'"
        )


def test_truncated_gzip_names_the_file(tmp_path):
    packed = gzip.compress(b"1 |f a b c\n" * 5000)
    path = tmp_path / "cut.vw.gz"
    path.write_bytes(packed[: len(packed) // 2])
    with pytest.raises(PerceptronsError, match=r"cut\.vw\.gz: the gzip stream is truncated"):
        list(vw_blocks(str(path)))
    path.write_bytes(packed[:-3])  # only the trailer's end is missing
    with pytest.raises(PerceptronsError, match="truncated|corrupt"):
        list(vw_blocks(str(path)))


def test_corrupt_gzip_names_the_file(tmp_path):
    packed = bytearray(gzip.compress(b"1 |f a b c\n" * 500))
    packed[20:40] = b"\xff" * 20
    path = tmp_path / "bad.gz"
    path.write_bytes(bytes(packed))
    with pytest.raises(PerceptronsError, match=r"bad\.gz: corrupt gzip data"):
        list(vw_blocks(str(path)))


@pytest.mark.parametrize("bits", [0, 29, 31, 32, -1, "x", 2.0, True, None])
def test_hash_bits_outside_1_28_are_refused_at_once(tmp_path, bits):
    path = _write(tmp_path, b"1 |f a\n")
    with pytest.raises(PerceptronsError, match=re.escape(f"--hash-bits must be an integer in [1, 28]; got {bits!r}")):
        vw_blocks(path, hash_bits=bits)  # before the first block is asked for


def test_missing_file_and_bad_block_size(tmp_path):
    with pytest.raises(PerceptronsError, match="cannot read"):
        list(vw_blocks(str(tmp_path / "nope.vw")))
    with pytest.raises(PerceptronsError, match="block_bytes must be a positive integer"):
        vw_blocks(_write(tmp_path, b"1 |f a\n"), block_bytes=0)


# ----------------------------------------------------------------------------- read_vw
def test_read_vw(tmp_path, names):
    rng = random.Random(7)
    content = _random_file(rng, 200, names)
    path = _write(tmp_path, content)
    X, y, name = read_vw(path, hash_bits=12, require_labels=False)
    expected = oracle_file(content, 12)
    assert name is None and X.shape == (len(expected), 2**12) and X.dtype == np.float32
    assert y.dtype == np.float64  # 2.5, -0.75 are labels; NaN marks the unlabeled examples
    np.testing.assert_array_equal(y, [label for label, _, _ in expected])
    for i, (_, _, row) in enumerate(expected):
        assert X.indices[X.indptr[i] : X.indptr[i + 1]].tolist() == [h for h, _ in row]
        assert X.data[X.indptr[i] : X.indptr[i + 1]].tolist() == [float(v) for _, v in row]
    X, y, _ = read_vw(_write(tmp_path, b"1 |f a\n-1 |f b\n3 |f c\n", "int.vw"))
    assert y.dtype == np.int64 and y.tolist() == [1, -1, 3] and X.shape == (3, 2**18)
    assert (
        read_vw(path, n_features=2**12, require_labels=False)[0].shape[1] == 2**12
    )  # hash bits from the model's width


def test_read_vw_refusals(tmp_path):
    path = _write(tmp_path, b"1 |f a\n")
    with pytest.raises(PerceptronsError, match="--label names a CSV column"):
        read_vw(path, label="y")
    with pytest.raises(PerceptronsError, match="cannot read hashed"):
        read_vw(path, n_features=1000)
    with pytest.raises(PerceptronsError, match="--hash-bits 12 gives 4096"):
        read_vw(path, n_features=2**18, hash_bits=12)
    with pytest.raises(PerceptronsError, match="no examples"):
        read_vw(_write(tmp_path, b"\n \n", "blank.vw"))


# ----------------------------------------------------------------------------- LIBSVM → VW
LIBSVM = b"""# a comment line
0 1:0.5 3:1 17:2.25  # trailing comment
1 qid:3 2:1 5:-1.5e-3
0 4:7

1 1:1 2:2 3:3 8:1
"""


def test_libsvm_to_vw_binary_labels_become_plus_minus_one(tmp_path):
    src = tmp_path / "small.svm"
    src.write_bytes(LIBSVM)
    dst = tmp_path / "small.vw"
    assert libsvm_to_vw(src, dst) == 4
    assert dst.read_bytes().splitlines() == [
        b"-1 |f 1:0.5 3:1 17:2.25",
        b"1 |f 2:1 5:-1.5e-3",
        b"-1 |f 4:7",
        b"1 |f 1:1 2:2 3:3 8:1",
    ]
    (b,) = vw_blocks(dst, hash_bits=28)
    assert b.y.tolist() == [-1, 1, -1, 1]
    assert np.diff(b.indptr).tolist() == [3, 2, 1, 4]


def test_libsvm_to_vw_counts_labels_by_value(tmp_path):
    src = tmp_path / "spelled.svm"
    src.write_bytes(b"1 1:1\n+1 2:1\n1.0 3:1\n0 4:1\n")  # two labels, four spellings
    dst = tmp_path / "spelled.vw"
    libsvm_to_vw(src, dst)
    assert dst.read_bytes() == b"1 |f 1:1\n1 |f 2:1\n1 |f 3:1\n-1 |f 4:1\n"


def test_libsvm_to_vw_keeps_multiclass_labels_and_reads_gzip(tmp_path):
    src = tmp_path / "multi.svm.gz"
    src.write_bytes(gzip.compress(b"1 1:1\n2 2:1\n3 3:1\n+1 4:1\n"))
    dst = tmp_path / "multi.vw"
    libsvm_to_vw(src, dst)
    assert dst.read_bytes() == b"1 |f 1:1\n2 |f 2:1\n3 |f 3:1\n+1 |f 4:1\n"


def test_libsvm_to_vw_refuses_what_is_not_libsvm_and_leaves_no_file(tmp_path):
    src = tmp_path / "bad.svm"
    src.write_bytes(b"1 1:1\n1 2:x\n")
    dst = tmp_path / "out.vw"
    with pytest.raises(PerceptronsError, match=r"bad\.svm, line 2 \(byte 8\): '2:x' is not 'index:value'"):
        libsvm_to_vw(src, dst)
    assert not dst.exists() and list(tmp_path.iterdir()) == [src]
    src.write_bytes(b"one 1:1\n")
    with pytest.raises(PerceptronsError, match=r"line 1 \(byte 0\): label 'one' is not a number"):
        libsvm_to_vw(src, dst)


def test_vowpal_wabbit_reads_the_converted_file(tmp_path):
    vw = pytest.importorskip("vowpalwabbit")
    rng = random.Random(8)
    lines = []
    for _ in range(50):
        idx = sorted(rng.sample(range(1, 500), rng.randint(1, 30)))
        lines.append(f"{rng.choice([0, 1])} " + " ".join(f"{i}:{rng.uniform(0.1, 2):.4g}" for i in idx))
    src = tmp_path / "r.svm"
    src.write_text("\n".join(lines) + "\n")
    dst = tmp_path / "r.vw"
    libsvm_to_vw(src, dst)
    nnz = [len(line.split()) - 1 for line in lines]
    labels = [1 if line.split()[0] == "1" else -1 for line in lines]
    ws = vw.Workspace("--quiet")
    try:
        for text, k, label in zip(dst.read_text().splitlines(), nnz, labels):
            ex = ws.parse(text)
            assert ex.get_simplelabel_label() == label and ex.num_features_in("f") == k
            ws.learn(ex)
            ws.finish_example(ex)
    finally:
        ws.finish()
    (b,) = vw_blocks(dst, hash_bits=28)
    assert b.y.tolist() == labels and np.diff(b.indptr).tolist() == nnz


def test_label_part_as_vowpal_wabbit_reads_it(tmp_path):
    # VW's own parser is the oracle of label, importance, initial prediction and tag; it marks
    # an unlabeled example with FLT_MAX where we put NaN
    vw = pytest.importorskip("vowpalwabbit")
    heads = [
        "1",
        "-1 2",
        "1 1.0 0.5",
        "-1 2 -0.5 't",
        "1 zebra",
        "1 2 zebra",
        "3 0.25 7 'x",
        "",
        "'tag",
        "0.5 0 1e-3",
        "2 3 4 tag",
        "-0 1",
    ]  # fmt: skip (tabs are left out: VW 9 reads "\t1\t2 |f a" as the label 2, we as 1 with importance 2)
    ws = vw.Workspace("--quiet")
    try:
        expected = []
        for head in heads:
            ex = ws.parse(f"{head}|f a" if head.endswith(("zebra", "tag")) else f"{head} |f a")
            label = ex.get_simplelabel_label()
            expected.append((math.nan if label > 3e38 else label, ex.get_simplelabel_weight()))
            ws.finish_example(ex)
    finally:
        ws.finish()
    path = _write(
        tmp_path, "".join(f"{h}|f a\n" if h.endswith(("zebra", "tag")) else f"{h} |f a\n" for h in heads).encode()
    )
    (b,) = vw_blocks(path, require_labels=False)
    weight = [1.0] * b.n_rows if b.weight is None else b.weight.tolist()
    for (label, importance), got_label, got_weight in zip(expected, b.y.tolist(), weight):
        assert (got_label == label or math.isnan(got_label) and math.isnan(label)) and got_weight == importance
    X, y, _ = read_vw(path, require_labels=False)
    assert np.isnan(y).sum() == 2 and X.shape[0] == len(heads)
    with pytest.raises(PerceptronsError, match=r"line 8 \(byte \d+\): no label before"):
        read_vw(path)


def test_unlabeled_examples_are_read_only_for_predictions(tmp_path):
    from perceptrons import Perceptron
    from perceptrons import stream as streaming
    from perceptrons.io.readers import read_data
    from perceptrons.io.sources import Source

    train = _write(tmp_path, b"1 |f a\n-1 |f b\n", "train.vw")
    test = _write(tmp_path, b"|f a\n1 |f b\n 'row3 |f a b\n", "test.vw")
    X, y = read_data(train)
    model = Perceptron().fit(X, y)
    Xt, yt = read_data(test, require_labels=False)
    assert model.predict(Xt).tolist() == [1, -1, 1] and np.isnan(yt).tolist() == [True, False, True]
    with pytest.raises(PerceptronsError, match=r"test\.vw, line 1 \(byte 0\): no label"):
        read_data(test)
    src = Source(test, require_labels=False)
    assert [p.tolist() for _, p in streaming.predict_blocks(model, src)] == [[1, -1, 1]]
    for call, what in (
        (lambda: streaming.fit(Perceptron(), src), "training"),
        (lambda: streaming.evaluate(model, src), "evaluation"),
    ):
        with pytest.raises(PerceptronsError, match=f"{what} needs the label of every row"):
            call()


def test_cli_predicts_unlabeled_examples_and_refuses_them_elsewhere(tmp_path, run_cli):
    train = _write(tmp_path, b"1 |f a\n-1 |f b\n", "train.vw")
    test = _write(tmp_path, b"|f a\n1 0.5 0.25 'r2 |f b\n 'row3 |f a b\n", "test.vw")
    model = str(tmp_path / "m.npz")
    assert run_cli(["train", train, "-o", model])[0] == 0
    for extra in ([], ["--stream"]):
        code, out, err = run_cli(["predict", model, test, *extra])
        assert code == 0 and out.split() == ["1", "-1", "1"], err
    for argv in (["evaluate", model, test], ["evaluate", model, test, "--stream"], ["train", test, "-o", model + "2"]):
        code, out, err = run_cli(argv)
        assert code == 2 and err.count("\n") == 1, err
        assert err.startswith(f"error: {test}, line 1 (byte 0): no label before '|'"), err
    assert not os.path.exists(model + "2")

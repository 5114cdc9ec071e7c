"""The epoch cache: round trips, and refusal of every file that is not exactly what was written."""

import json
import os
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib

import numpy as np
import pytest
from cache_footer import footer_of, with_footer

from perceptrons._core.errors import PerceptronsError
from perceptrons.io import cache as cache_module
from perceptrons.io.blocks import Block
from perceptrons.io.cache import VERSION, CacheError, CacheWriter, fingerprint, open_cache

RNG = np.random.default_rng(0)


# ----------------------------------------------------------------------------- helpers
@pytest.fixture
def source(tmp_path):
    path = tmp_path / "data.txt"
    path.write_bytes(b"the source rows\n" * 10)
    return path


def dense_blocks(dtype=np.float32, n_blocks=3, rows=7, d=4, labels=(1.0, -1.0), weights=False):
    out = []
    for _ in range(n_blocks):
        w = RNG.uniform(0, 3, rows) if weights else None
        y = np.asarray(labels)[RNG.integers(0, len(labels), rows)]
        out.append(Block(y=y, X=RNG.standard_normal((rows, d)).astype(dtype), weight=w))
    return out


def csr_block(rows, n_features, binary, labels=(0, 1, 2), weights=False):
    lengths = RNG.integers(0, 4, rows)
    indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    indices = RNG.integers(0, n_features, int(indptr[-1])).astype(np.int32)
    data = None if binary else RNG.standard_normal(indices.shape[0]).astype(np.float32)
    y = np.asarray(labels)[RNG.integers(0, len(labels), rows)]
    w = RNG.uniform(0, 2, rows) if weights else None
    return Block(y=y, indptr=indptr, indices=indices, data=data, weight=w)


def write(path, fp, blocks, **kwargs):
    with CacheWriter(path, fp, **kwargs) as w:
        for b in blocks:
            w.append(b)
    return path


def read_all(cache, prefetch=True):
    """The cached rows as plain arrays, labels decoded through the table."""
    out = []
    for b in cache.blocks(prefetch=prefetch):
        assert b.y.dtype == np.int32
        rows = b.X if b.X is not None else (b.indptr, b.indices, b.data)
        out.append((cache.labels[b.y], rows, b.weight))
    return out


def same_rows(got, blocks):
    nonempty = [b for b in blocks if b.n_rows]
    assert len(got) == len(nonempty)
    for (y, rows, w), b in zip(got, nonempty):
        np.testing.assert_array_equal(y, b.y)
        if b.X is not None:
            assert rows.dtype == b.X.dtype and rows.flags.c_contiguous
            np.testing.assert_array_equal(rows, b.X)
        else:
            indptr, indices, data = rows
            assert indptr.dtype == np.int64 and indices.dtype == np.int32
            np.testing.assert_array_equal(indptr, b.indptr)
            np.testing.assert_array_equal(indices, b.indices)
            if b.data is None:
                assert data is None
            else:
                assert data.dtype == np.float32
                np.testing.assert_array_equal(data, b.data)
        if b.weight is None:
            assert w is None
        else:
            np.testing.assert_array_equal(w, b.weight)


def opened(path, fp):
    cache, reason = open_cache(path, fp)
    assert cache is not None, reason
    return cache


def no_threads_left():
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if not [t for t in threading.enumerate() if t.name == "perceptrons-cache-prefetch"]:
            return True
        time.sleep(0.01)
    return False


def forged_record(raw, i, edit):
    """``raw`` with record ``i`` edited by ``edit(bytearray)`` and its CRC recomputed."""
    footer, start = footer_of(raw)
    begin = footer["offsets"][i]
    end = footer["offsets"][i + 1] if i + 1 < footer["n_blocks"] else start
    record = bytearray(raw[begin:end])
    edit(record)
    struct.pack_into("<I", record, len(record) - 8, zlib.crc32(record[:-8]))
    return raw[:begin] + bytes(record) + raw[end:]


def refusal(path, fp):
    """The reason a cache is refused, whether at open or while reading (None if accepted)."""
    cache, reason = open_cache(path, fp)
    if cache is None:
        return reason
    try:
        read_all(cache)
    except CacheError as exc:
        return exc.reason
    return None


# ----------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("prefetch", [True, False])
def test_dense_round_trip(tmp_path, source, dtype, prefetch):
    fp = fingerprint(source)
    blocks = dense_blocks(dtype, weights=True)
    cache = opened(write(tmp_path / "c.bin", fp, blocks), fp)
    assert (cache.n_rows, cache.n_features, cache.storage, cache.dtype) == (21, 4, "dense", np.dtype(dtype))
    assert cache.has_weights and cache.n_blocks == 3 and cache.block_rows == (7, 7, 7)
    assert cache.labels.dtype == np.int64  # whole-number floats: the int64 table
    same_rows(read_all(cache, prefetch), blocks)
    lines = [b.line for b in cache.blocks()]
    assert lines == [1, 8, 15]


def test_csr_round_trip_mixed_binary_and_valued(tmp_path, source):
    fp = fingerprint(source)
    blocks = [csr_block(9, 50, binary=i % 2 == 0, weights=i == 1) for i in range(5)]
    cache = opened(write(tmp_path / "c.bin", fp, blocks), fp)
    assert cache.storage == "csr" and cache.dtype is None
    assert cache.n_features == max(b.n_features for b in blocks)
    assert cache.nnz == sum(b.indices.shape[0] for b in blocks)
    assert cache.has_weights  # one block has them; the others read back None (all 1)
    same_rows(read_all(cache), blocks)


def test_csr_n_features_hint_and_long_rows(tmp_path, source, monkeypatch):
    """Rows longer than the int32 length limit keep their int64 offsets (limit lowered here)."""
    monkeypatch.setattr("perceptrons.io.cache._writer._MAX_ROW_LENGTH", 2)  # where the writer reads it
    fp = fingerprint(source)
    blocks = [csr_block(20, 10, binary=False), csr_block(20, 10, binary=True)]
    cache = opened(write(tmp_path / "c.bin", fp, blocks, n_features_hint=1000), fp)
    assert cache.n_features == 1000
    same_rows(read_all(cache), blocks)
    with pytest.raises(PerceptronsError, match="beyond n_features_hint"):
        write(tmp_path / "d.bin", fp, [csr_block(20, 10, binary=True)], n_features_hint=3)


def test_string_labels_in_first_seen_order(tmp_path, source):
    fp = fingerprint(source)
    blocks = [
        Block(y=np.array(["spam", "ham", "spam"]), X=np.zeros((3, 2))),
        Block(y=np.array(["eggs", "ham"], dtype=object), X=np.ones((2, 2))),
    ]
    cache = opened(write(tmp_path / "c.bin", fp, blocks), fp)
    assert cache.labels.tolist() == ["spam", "ham", "eggs"]
    codes = [b.y.tolist() for b in cache.blocks()]
    assert codes == [[0, 1, 0], [2, 1]]
    same_rows(read_all(cache), blocks)


@pytest.mark.parametrize(
    "labels,dtype",
    [((0.5, 2.0, -1.25), np.float64), ((3.0, -7.0), np.int64), ((2**62 + 1, -3), np.int64)],
)
def test_numeric_labels(tmp_path, source, labels, dtype):
    fp = fingerprint(source)
    y = np.array(labels)
    blocks = [Block(y=y, X=np.zeros((len(y), 1)))]
    cache = opened(write(tmp_path / "c.bin", fp, blocks), fp)
    assert cache.labels.dtype == dtype
    assert cache.labels.tolist() == list(labels)  # exact, also beyond 2**53


def test_label_kinds_do_not_mix(tmp_path, source):
    fp = fingerprint(source)
    with pytest.raises(PerceptronsError, match="labels are numbers in earlier blocks and strings here"):
        write(
            tmp_path / "c.bin",
            fp,
            [Block(y=np.array([1.0]), X=np.zeros((1, 1))), Block(y=np.array(["a"]), X=np.zeros((1, 1)))],
        )
    with pytest.raises(PerceptronsError, match="NaN or infinite"):
        write(tmp_path / "c.bin", fp, [Block(y=np.array([1.0, np.nan]), X=np.zeros((2, 1)))])
    assert os.listdir(tmp_path) == ["data.txt"]


def test_empty_blocks_are_skipped(tmp_path, source):
    """Empty blocks are accepted and not stored: a cache holds exactly the source's rows."""
    fp = fingerprint(source)
    blocks = [
        Block(y=np.zeros(0), X=np.zeros((0, 3))),
        *dense_blocks(np.float64, 1, d=3),
        Block(y=np.zeros(0), X=np.zeros((0, 3))),
    ]
    cache = opened(write(tmp_path / "c.bin", fp, blocks), fp)
    assert cache.n_blocks == 1
    same_rows(read_all(cache), blocks)
    empty = opened(write(tmp_path / "e.bin", fp, [Block(y=np.zeros(0), X=np.zeros((0, 3)))]), fp)
    assert empty.n_rows == 0 and list(empty.blocks()) == []


@pytest.mark.parametrize(
    "bad,match",
    [
        (Block(y=np.ones(2), X=np.array([[1.0, np.inf, 0, 0], [0.0, 0.0, 0, 0]])), "infinite"),
        (Block(y=np.ones(2), X=np.zeros((2, 3))), "3 float64 columns after 4"),
        (Block(y=np.ones(2), X=np.zeros((2, 4), np.float32)), "float32 columns after 4 float64"),
        (Block(y=np.ones(1), indptr=np.array([0, 1]), indices=np.array([0], np.int32)), "csr block after dense"),
        (Block(y=np.ones(2), X=np.zeros((2, 4)), weight=np.array([1.0, -1.0])), "finite and non-negative"),
    ],
)
def test_writer_refuses_what_the_reader_would(tmp_path, source, bad, match):
    fp = fingerprint(source)
    with pytest.raises(PerceptronsError, match=match):
        write(tmp_path / "c.bin", fp, [*dense_blocks(np.float64, 1), bad])
    assert os.listdir(tmp_path) == ["data.txt"]


# ----------------------------------------------------------------------------- stale, missing, newer
def test_missing_file(tmp_path, source):
    assert open_cache(tmp_path / "nope.bin", fingerprint(source)) == (None, "no cache file yet")
    assert open_cache(tmp_path, fingerprint(source)) == (None, "not a regular file")
    os.mkfifo(tmp_path / "fifo")
    assert open_cache(tmp_path / "fifo", fingerprint(source)) == (None, "not a regular file")


def test_stale_fingerprint(tmp_path, source):
    fp = fingerprint(source, {"format": "libsvm"})
    path = write(tmp_path / "c.bin", fp, dense_blocks())
    assert open_cache(path, fingerprint(source, {"format": "csv"}))[1] == "stale (built with other options)"
    other = tmp_path / "other.txt"
    other.write_bytes(source.read_bytes())
    assert open_cache(path, fingerprint(other, {"format": "libsvm"}))[1] == "stale (built from other files)"
    # an edit that keeps size and mtime: only the sampled contents tell
    stat = source.stat()
    source.write_bytes(b"X" + source.read_bytes()[1:])
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    reason = open_cache(path, fingerprint(source, {"format": "libsvm"}))[1]
    assert reason == "stale (data.txt changed since the cache was written: contents)"
    with open(source, "ab") as f:
        f.write(b"one more row\n")
    reason = open_cache(path, fingerprint(source, {"format": "libsvm"}))[1]
    assert reason.startswith("stale (data.txt changed since the cache was written: size")


def test_fingerprint_samples_both_ends(tmp_path):
    big = tmp_path / "big.txt"
    payload = bytearray(3 << 20)
    big.write_bytes(payload)
    before = fingerprint(big)["sources"][0]
    payload[-1] = 1
    big.write_bytes(payload)
    after = fingerprint(big)["sources"][0]
    assert before["head_sha256"] == after["head_sha256"] and before["tail_sha256"] != after["tail_sha256"]
    with pytest.raises(PerceptronsError, match="not a regular file"):
        fingerprint(tmp_path)


def test_newer_version_is_refused_as_such(tmp_path, source):
    fp = fingerprint(source)
    path = write(tmp_path / "c.bin", fp, dense_blocks())
    raw = bytearray(path.read_bytes())
    struct.pack_into("<I", raw, 8, VERSION + 1)
    path.write_bytes(raw)
    cache, reason = open_cache(path, fp)
    assert cache is None
    assert (
        reason
        == f"written by a newer version of perceptrons (cache format {VERSION + 1}; this version reads {VERSION})"
    )


# ----------------------------------------------------------------------------- truncation and tampering
@pytest.fixture
def small(tmp_path, source):
    """A small cache with every kind of section: CSR lengths, indices, values, binary, weights."""
    fp = fingerprint(source)
    blocks = [
        Block(
            y=np.array(["a", "b", "a"]),
            indptr=np.array([0, 2, 2, 3]),
            indices=np.array([0, 3, 1], np.int32),
            data=np.array([0.5, -2.0, 1.0], np.float32),
            weight=np.array([1.0, 0.5, 2.0]),
        ),
        Block(y=np.array(["c", "a"]), indptr=np.array([0, 1, 3]), indices=np.array([2, 0, 4], np.int32)),
    ]
    path = write(tmp_path / "c.bin", fp, blocks)
    return path, fp, blocks


def test_truncated_at_every_byte_is_refused(small):
    path, fp, _ = small
    raw = path.read_bytes()
    assert len(raw) < 1000
    for cut in range(len(raw)):
        path.write_bytes(raw[:cut])
        cache, reason = open_cache(path, fp)
        assert cache is None and reason.startswith("truncated"), (cut, reason)


def test_every_flipped_byte_is_caught(small):
    """Each byte flipped in turn: refused (checksum or structure), or read back unchanged."""
    path, fp, blocks = small
    raw = path.read_bytes()
    reasons = set()
    for pos in range(len(raw)):
        tampered = bytearray(raw)
        tampered[pos] ^= 0xFF
        path.write_bytes(tampered)
        cache, reason = open_cache(path, fp)
        if cache is None:
            reasons.add(reason.split(" (")[0])
            continue
        try:
            got = read_all(cache)
        except CacheError as exc:
            reasons.add(exc.reason.split(" (")[0])
            continue
        same_rows(got, blocks)  # a byte of no meaning
    assert {"corrupted", "truncated or unfinished", "not an epoch cache file"} <= reasons, reasons


def test_the_checksum_covers_the_records(small):
    path, fp, _ = small
    raw = bytearray(path.read_bytes())
    raw[cache_module._HEADER.size + cache_module._RECORD.size + 1] ^= 1  # a row length
    path.write_bytes(raw)
    reason = refusal(path, fp)
    assert reason == "block 0: corrupted (checksum mismatch: the file was damaged or modified)"


def _set(fmt, offset, value):
    return lambda record: struct.pack_into(fmt, record, offset, value)


# offsets inside record 0 of the `small` fixture: header 24, lengths 3 x int32 (+4 pad) at 24,
# indices 3 x int32 (+4) at 40, values float32 at 56, labels at 72, weights at 88
@pytest.mark.parametrize(
    "edit,match",
    [
        (_set("<i", 28, -1), "a negative row length"),
        (_set("<i", 28, 1), "row lengths sum to 4, not to nnz 3"),
        (_set("<i", 40, 5), r"a column index outside \[0, 5\)"),
        (_set("<i", 44, -3), r"a column index outside \[0, 5\)"),
        (_set("<f", 60, float("nan")), "a feature value is NaN or infinite"),
        (_set("<i", 72, 3), r"a label code outside \[0, 3\)"),
        (_set("<i", 76, -1), r"a label code outside \[0, 3\)"),
        (_set("<d", 96, -0.5), "a weight is negative, NaN or infinite"),
        (_set("<d", 88, float("inf")), "a weight is negative, NaN or infinite"),
        (_set("<q", 0, 4), "4 rows, the footer says 3"),
        (_set("<q", 8, 4), "row lengths sum to 3, not to nnz 4"),  # same padded size
        (_set("<q", 8, 5), "3 rows and 5 entries do not fill"),
        (_set("<q", 8, -1), "corrupted record header"),
        (_set("<I", 16, 0x3), "do not fill"),  # the weights flag dropped: the sizes disagree
        (_set("<I", 16, 0x1B), "corrupted record header"),
        (_set("<I", 20, 1), "corrupted record header"),
    ],
)
def test_forged_records_are_refused_by_their_checks(small, edit, match):
    """A record whose checksum was recomputed after the edit: the structural checks refuse it."""
    path, fp, _ = small
    path.write_bytes(forged_record(path.read_bytes(), 0, edit))
    with pytest.raises(CacheError, match=match):
        read_all(opened(path, fp))


def test_forged_totals_are_refused(small):
    path, fp, _ = small
    raw = path.read_bytes()
    footer, _ = footer_of(raw)
    path.write_bytes(with_footer(raw, dict(footer, nnz=footer["nnz"] + 1)))
    with pytest.raises(CacheError, match="the blocks hold 6 entries, the footer says 7"):
        read_all(opened(path, fp))


@pytest.mark.parametrize(
    "change,match",
    [
        (lambda f: dict(f, extra=1), "missing or unknown fields"),
        (lambda f: {k: v for k, v in f.items() if k != "weights"}, "missing or unknown fields"),
        (lambda f: dict(f, n_rows=True), "'n_rows' must be an int"),
        (lambda f: dict(f, n_features=-1), "'n_features' must be an int"),
        (lambda f: dict(f, n_rows=6), "sum to n_rows"),
        (lambda f: dict(f, block_rows=[4, 1]), None),  # refused when the records are read
        (lambda f: dict(f, offsets=[16, 10_000]), "offsets must increase"),
        (lambda f: dict(f, offsets=[16, 17]), "offsets must increase"),
        (lambda f: dict(f, offsets=[0, 136]), "start right after the header"),
        (lambda f: dict(f, n_blocks=3), "per block"),
        (lambda f: dict(f, storage="coo"), "'storage'"),
        (lambda f: dict(f, values=["float32", "float64"]), "CSR 'values'"),
        (lambda f: dict(f, values=["none", "none"]), None),
        (lambda f: dict(f, labels={"kind": "str", "values": ["a", "a", "b"]}), "appears twice"),
        (lambda f: dict(f, labels={"kind": "str", "values": ["a", 1, "b"]}), "all strings"),
        (
            lambda f: (
                json.dumps(dict(f, labels={"kind": "number", "values": [1, 2, 12345]}))
                .replace("12345", "1e400")
                .encode()
            ),
            "finite numbers",
        ),
        (lambda f: dict(f, labels={"kind": "str", "values": ["a", "b"]}), None),  # code 2 out of range
        (lambda f: dict(f, weights=False), None),
        (lambda f: dict(f, fingerprint={"sources": []}), "fingerprint"),
        (lambda f: dict(f, version=2), "version does not match"),
        (lambda f: [1], "not a JSON object"),
    ],
)
def test_forged_footers_are_refused(small, change, match):
    path, fp, _ = small
    raw = path.read_bytes()
    footer, _ = footer_of(raw)
    forged = change(footer)
    path.write_bytes(with_footer(raw, forged if isinstance(forged, (dict, bytes)) else json.dumps(forged).encode()))
    reason = refusal(path, fp)
    assert reason is not None
    if match is not None:
        assert reason.startswith("corrupted") and match in reason, reason


@pytest.mark.parametrize(
    "text,match",
    [
        (b"[" * 100 + b"]" * 100, "nested deeper"),
        (b'{"a": 1, "a": 2}', "not valid JSON"),
        (b'{"a": NaN}', "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"{", "not valid JSON"),
    ],
)
def test_footer_json_is_checked_before_parsing(small, text, match):
    path, fp, _ = small
    path.write_bytes(with_footer(path.read_bytes(), text))
    reason = open_cache(path, fp)[1]
    assert reason.startswith("corrupted footer") and match in reason, reason


def test_a_footer_of_escaped_quotes_is_refused_at_once(small):
    """An unterminated string of escaped quotes took the depth scan (a regular expression that
    blanked strings) quadratic time: 400 KB ran for minutes before the fingerprint was checked.
    The depth is now counted on the parsed value; 4 MB is refused as fast as any bad JSON."""
    path, fp, _ = small
    path.write_bytes(with_footer(path.read_bytes(), b'"' + b'\\"' * 2_000_000))
    reason = open_cache(path, fp)[1]
    assert reason.startswith("corrupted footer (not valid JSON"), reason


def test_a_huge_footer_length_is_refused(small):
    path, fp, _ = small
    raw = bytearray(path.read_bytes())
    struct.pack_into("<Q", raw, len(raw) - 24, 1 << 60)
    path.write_bytes(raw)
    assert open_cache(path, fp)[1].startswith("corrupted trailer")


def test_file_replaced_after_open_is_not_seen(small, source):
    """Another run that rebuilds the cache renames a new file into place: this cache keeps
    reading the file it opened, every pass (two runs sharing a cache broke each other's epochs)."""
    path, fp, blocks = small
    cache = opened(path, fp)
    replacement = dense_blocks()
    write(path, fp, replacement)
    same_rows(read_all(opened(path, fp)), replacement)  # the file at the path is the new one ...
    same_rows(read_all(cache), blocks)  # ... but this cache reads the one it opened, pass after pass
    same_rows(read_all(cache, prefetch=False), blocks)


def test_file_written_in_place_after_open(small):
    path, fp, _ = small
    cache = opened(path, fp)
    with open(path, "ab") as f:
        f.write(b"\0" * 8)
    with pytest.raises(CacheError, match="changed since it was opened"):
        next(cache.blocks())


def test_a_closed_cache_is_refused_and_a_pass_under_way_ends_whole(small):
    """A pass reads through a descriptor of its own: closing the cache mid-pass neither breaks
    it nor lets it read another file under a reused descriptor number."""
    path, fp, blocks = small
    (path.parent / "other").write_bytes(b"\xff" * path.stat().st_size)
    with opened(path, fp) as cache:
        reader = cache.blocks(prefetch=False)  # the second block is read after the close
        first = next(reader)
    with open(path.parent / "other", "rb"):  # takes the lowest free descriptor: the cache's, now closed
        rest = list(reader)
    same_rows([(cache.labels[b.y], (b.indptr, b.indices, b.data), b.weight) for b in [first, *rest]], blocks)
    with pytest.raises(CacheError, match="closed"):
        next(cache.blocks())


# ----------------------------------------------------------------------------- the writer leaves nothing
def test_writer_interrupted_by_an_exception_leaves_nothing(tmp_path, source):
    fp = fingerprint(source)
    with pytest.raises(KeyError), CacheWriter(tmp_path / "c.bin", fp) as w:
        for b in dense_blocks(n_blocks=5):
            w.append(b)
        raise KeyError("the parser failed")
    assert os.listdir(tmp_path) == ["data.txt"]


def test_writer_keeps_an_old_cache_on_failure(tmp_path, source):
    fp = fingerprint(source)
    path = write(tmp_path / "c.bin", fp, dense_blocks())
    before = path.read_bytes()
    with pytest.raises(RuntimeError), CacheWriter(path, fp) as w:
        w.append(dense_blocks(n_blocks=1)[0])
        raise RuntimeError
    assert path.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["c.bin", "data.txt"]


KILLED_WRITER = """
import sys, time, numpy as np
from perceptrons.io.blocks import Block
from perceptrons.io.cache import CacheWriter, fingerprint
X = np.ones((1000, 50), np.float32)
y = np.arange(1000) % 3
with CacheWriter(sys.argv[1], fingerprint(sys.argv[2])) as w:
    for i in range(5000):  # at most 1 GB should the signal be lost, and slow enough to be caught
        w.append(Block(y=y, X=X))
        time.sleep(0.002)
        if i == 3:
            print("writing", flush=True)
"""


def test_writer_killed_by_sigterm_leaves_nothing(tmp_path, source):
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(out / "c.bin"), str(source)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline() == b"writing\n"
    assert os.listdir(out)  # the temporary file, mid-write
    proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=120)[1].decode()
    assert proc.returncode == -signal.SIGTERM, err
    assert os.listdir(out) == []


# ----------------------------------------------------------------------------- the prefetch thread
def test_blocks_are_read_where_no_thread_can_be_started(tmp_path, source, monkeypatch):
    """A process at its thread limit reads the blocks in its own thread, the same blocks."""
    fp = fingerprint(source)
    blocks = dense_blocks(n_blocks=4)
    cache = opened(write(tmp_path / "c.bin", fp, blocks), fp)

    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    same_rows(read_all(cache), blocks)


def test_prefetch_thread_ends_when_the_consumer_breaks(tmp_path, source):
    fp = fingerprint(source)
    cache = opened(write(tmp_path / "c.bin", fp, dense_blocks(n_blocks=10)), fp)
    for i, _ in enumerate(cache.blocks()):
        if i == 1:
            break
    assert no_threads_left()
    reader = cache.blocks()
    next(reader)
    assert any(t.name == "perceptrons-cache-prefetch" for t in threading.enumerate())
    reader.close()
    assert no_threads_left()
    with cache.blocks() as reader:
        next(reader)
    assert no_threads_left()


def test_prefetch_thread_ends_when_the_consumer_raises(tmp_path, source):
    fp = fingerprint(source)
    cache = opened(write(tmp_path / "c.bin", fp, dense_blocks(n_blocks=10)), fp)

    def consume():
        for _ in cache.blocks():
            raise ValueError("the trainer failed")

    with pytest.raises(ValueError):
        consume()
    assert no_threads_left()


@pytest.mark.parametrize("prefetch", [True, False])
def test_an_error_in_a_later_block_reaches_the_consumer(tmp_path, source, prefetch):
    fp = fingerprint(source)
    path = write(tmp_path / "c.bin", fp, dense_blocks(n_blocks=4))
    raw = bytearray(path.read_bytes())
    footer, _ = footer_of(bytes(raw))
    raw[footer["offsets"][2] + 40] ^= 0x10  # a value in block 2
    path.write_bytes(raw)
    seen = []
    with pytest.raises(CacheError, match="block 2: corrupted"):
        for b in opened(path, fp).blocks(prefetch=prefetch):
            seen.append(b.line)
    assert seen == [1, 8]
    assert no_threads_left()


def test_prefetch_reads_ahead_one_block(tmp_path, source, monkeypatch):
    """While the consumer holds block k, block k + 1 is read (and no further)."""
    fp = fingerprint(source)
    cache = opened(write(tmp_path / "c.bin", fp, dense_blocks(n_blocks=6)), fp)
    read = []
    original = cache_module.Cache._read_block

    def spy(self, f, i, row):
        read.append(i)
        return original(self, f, i, row)

    monkeypatch.setattr(cache_module.Cache, "_read_block", spy)
    with cache.blocks() as reader:
        next(reader)
        deadline = time.monotonic() + 10
        while len(read) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)  # time enough to read too far, were it going to
        assert read == [0, 1, 2]  # block 0 with the caller, 1 in the slot, 2 read and waiting
    assert no_threads_left()


def test_a_refused_block_ends_the_writer(tmp_path, source):
    """A block refused half way may have updated the bookkeeping: no footer follows it."""
    fp = fingerprint(source)
    path = tmp_path / "c.bin"
    with pytest.raises(PerceptronsError, match="an append failed"), CacheWriter(path, fp) as w:
        w.append(csr_block(5, 10, binary=True))
        bad = csr_block(5, 10, binary=False)
        with pytest.raises(PerceptronsError, match="weights must"):
            w.append(Block(y=bad.y, indptr=bad.indptr, indices=bad.indices, data=bad.data, weight=-np.ones(5)))
        with pytest.raises(PerceptronsError, match="an earlier append failed"):
            w.append(csr_block(5, 10, binary=True))
    assert os.listdir(tmp_path) == ["data.txt"]


def test_not_a_cache(tmp_path, source):
    for content in (b"", b"abc", b"# some text that is not a cache at all\n"):
        (tmp_path / "c.bin").write_bytes(content)
        reason = open_cache(tmp_path / "c.bin", fingerprint(source))[1]
        assert reason == (
            "truncated (0 bytes, shorter than the header)"
            if not content
            else "not an epoch cache file (wrong magic bytes)"
        )

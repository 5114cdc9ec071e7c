"""Streaming fits (perceptrons.stream, train/predict/evaluate --stream): the same weights as the
in-memory fit, a cache that is reused only when valid, bounded memory, and clean failures."""

import os
import re
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MaxAbsScaler, Normalizer, StandardScaler
from zipf_data import run_with_peak_rss, write_zipf_libsvm

from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, load_model, stream
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.readers import read_data, read_table
from perceptrons.io.sources import Source

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

STREAMABLE = [Perceptron, AveragedPerceptron, VotedPerceptron]


def write_libsvm(path, X, y):
    X = sp.csr_matrix(X)
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            lo, hi = X.indptr[i], X.indptr[i + 1]
            feats = " ".join(f"{j + 1}:{v:g}" for j, v in zip(X.indices[lo:hi], X.data[lo:hi]))
            f.write(f"{y[i]} {feats}\n")
    return path


def problem(seed, n=600, d=40, k=2, binary_values=False, density=0.2):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=seed, format="csr")
    X.data = np.ones_like(X.data) if binary_values else np.round(rng.normal(size=X.nnz), 3)
    W = rng.normal(size=(d, k))
    y = np.argmax(X @ W + 0.3 * rng.normal(size=(n, k)), axis=1)
    if k == 2:
        y = np.where(y == 1, 1, -1)
    return X, y


@pytest.mark.parametrize("cls", STREAMABLE)
@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("binary_values", [False, True])
@pytest.mark.parametrize(
    "block_bytes", [pytest.param(97, marks=pytest.mark.slow), 4096, 1 << 24]
)  # 97: thousands of blocks
def test_streamed_fit_gives_the_in_memory_weights(tmp_path, cls, k, binary_values, block_bytes):
    path = write_libsvm(tmp_path / "d.svm", *problem(k + 10 * binary_values, k=k, binary_values=binary_values))
    X, y = read_data(path)
    a = cls(max_epochs=4).fit(X, y)
    b = stream.fit(cls(max_epochs=4), Source(path, block_bytes=block_bytes))
    np.testing.assert_array_equal(a.classes_, b.classes_)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert a.mistakes_per_epoch_ == b.mistakes_per_epoch_
    assert a.n_features_in_ == b.n_features_in_
    np.testing.assert_array_equal(a.predict(X), b.predict(X))


def test_shards_read_in_order_equal_one_file(tmp_path):
    X, y = problem(3, n=300)
    whole = write_libsvm(tmp_path / "whole.svm", X, y)
    shards = tmp_path / "shards"
    shards.mkdir()
    for s, lo in enumerate(range(0, 300, 100)):
        write_libsvm(shards / f"part-{s}.svm", X[lo : lo + 100], y[lo : lo + 100])
    a = stream.fit(Perceptron(max_epochs=3), whole)
    for spec in (shards, shards / "part-*.svm"):
        b = stream.fit(Perceptron(max_epochs=3), spec)
        np.testing.assert_array_equal(a.coef_, b.coef_)


def test_dense_csv_and_parquet_stream_like_in_memory(tmp_path):
    pytest.importorskip("pyarrow")
    import pandas as pd

    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 5))
    y = np.where(X @ rng.normal(size=5) > 0, "yes", "no")
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(5)]).assign(label=y)
    df.to_csv(tmp_path / "d.csv", index=False)
    df.to_parquet(tmp_path / "d.parquet")
    Xm, ym = read_data(tmp_path / "d.csv")
    a = AveragedPerceptron(max_epochs=5).fit(Xm, ym)
    for name in ("d.csv", "d.parquet"):
        b = stream.fit(AveragedPerceptron(max_epochs=5), Source(tmp_path / name, block_bytes=1 << 10))
        np.testing.assert_array_equal(a.coef_, b.coef_)
        np.testing.assert_array_equal(a.classes_, b.classes_)


def test_parquet_index_lists_and_hashed_strings(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table({"features": [[0, 3], [1], [2, 3], [0]], "label": [1, 0, 1, 0]})
    pq.write_table(table, tmp_path / "lists.parquet")
    clf = stream.fit(Perceptron(max_epochs=10), tmp_path / "lists.parquet")
    assert clf.n_features_in_ == 4 and clf.converged_
    csv = tmp_path / "strings.csv"
    csv.write_text("colour,size,label\nred,1.5,a\nblue,2.0,b\nred,1.0,a\nblue,3.0,b\n")
    clf = stream.fit(Perceptron(max_epochs=10), Source(csv, hash_bits=10))
    assert clf.n_features_in_ == 1024 and clf.converged_
    text = tmp_path / "text.csv"
    text.write_text('msg,label\n"good fine day",pos\n"bad awful day",neg\n"fine good",pos\n"awful bad",neg\n')
    clf = stream.fit(Perceptron(max_epochs=10), Source(text, text="msg", hash_bits=12))
    assert clf.converged_ and clf.n_features_in_ == 4096


def test_refusals_say_why(tmp_path):
    path = write_libsvm(tmp_path / "d.svm", *problem(1))
    with pytest.raises(PerceptronsError, match="PocketPerceptron cannot train from a stream: the pocket"):
        stream.fit(PocketPerceptron(), path)
    with pytest.raises(PerceptronsError, match="random-mistake"):
        stream.fit(Perceptron(order="random-mistake"), path)
    with pytest.raises(PerceptronsError, match="balanced"):
        stream.fit(Perceptron(class_weight="balanced"), path)
    with pytest.raises(PerceptronsError, match="The 'shuffle_buffer' parameter of stream.fit must be None or an int"):
        stream.fit(Perceptron(), path, shuffle_buffer=0)
    for bits in (0, 29, 31, 32, -1, "x"):
        with pytest.raises(PerceptronsError, match=r"--hash-bits must be an integer in \[1, 28\]"):
            Source(path, hash_bits=bits)


def test_the_cache_is_reused_and_rebuilt_when_stale_or_tampered(tmp_path):
    path = write_libsvm(tmp_path / "d.svm", *problem(2))
    cache = tmp_path / "c.cache"
    a = stream.fit(Perceptron(max_epochs=3), path, cache=cache)
    first = cache.stat()
    time.sleep(0.01)
    b = stream.fit(Perceptron(max_epochs=3), path, cache=cache)
    assert cache.stat().st_mtime_ns == first.st_mtime_ns and cache.stat().st_ino == first.st_ino  # reused
    np.testing.assert_array_equal(a.coef_, b.coef_)
    raw = bytearray(cache.read_bytes())
    raw[40] ^= 0xFF  # inside the first record
    cache.write_bytes(bytes(raw))
    c = stream.fit(Perceptron(max_epochs=3), path, cache=cache)  # refused, rebuilt, same result
    np.testing.assert_array_equal(a.coef_, c.coef_)
    cache.write_bytes(cache.read_bytes()[:-10])  # truncated
    np.testing.assert_array_equal(a.coef_, stream.fit(Perceptron(max_epochs=3), path, cache=cache).coef_)
    X, y = problem(5)
    write_libsvm(path, X, y)  # the source changed
    d = stream.fit(Perceptron(max_epochs=3), path, cache=cache)
    np.testing.assert_array_equal(d.coef_, Perceptron(max_epochs=3).fit(*read_data(path)).coef_)


def test_a_cache_written_under_other_reading_rules_is_rebuilt(tmp_path, monkeypatch):
    """A cache written by a version whose readers accepted other rows is stale, its source
    unchanged: a row it holds may be one this version refuses (``READ_RULES``)."""
    from perceptrons.io.cache import _epochs, fingerprint, open_cache, source_fingerprint

    path = write_libsvm(tmp_path / "d.svm", *problem(2))
    cache = tmp_path / "c.cache"
    # the fingerprint of the versions before READ_RULES: the source's options alone
    monkeypatch.setattr(
        _epochs, "fingerprint", lambda paths, opts: fingerprint(paths, {k: v for k, v in opts.items() if k != "rules"})
    )
    a = stream.fit(Perceptron(max_epochs=3), path, cache=cache)
    old = cache.stat().st_ino
    monkeypatch.undo()
    why = open_cache(cache, source_fingerprint(Source(path)))[1]
    assert why == "stale (written by another version of perceptrons, whose readers accepted other rows)"
    b = stream.fit(Perceptron(max_epochs=3), path, cache=cache)
    rebuilt = cache.stat().st_ino
    assert rebuilt != old  # a new file renamed into place
    np.testing.assert_array_equal(a.coef_, b.coef_)
    stream.fit(Perceptron(max_epochs=3), path, cache=cache)
    assert cache.stat().st_ino == rebuilt  # and reused from then on


@pytest.mark.slow
def test_shuffle_buffer_is_seeded_and_local(tmp_path):
    path = write_libsvm(tmp_path / "d.svm", *problem(4))
    runs = [stream.fit(Perceptron(max_epochs=2, random_state=s), path, shuffle_buffer=128) for s in (1, 1, 2)]
    np.testing.assert_array_equal(runs[0].coef_, runs[1].coef_)
    assert not np.array_equal(runs[0].coef_, runs[2].coef_)
    cyclic = stream.fit(Perceptron(max_epochs=2), path)
    assert not np.array_equal(runs[0].coef_, cyclic.coef_)
    # one buffer holding every row: the fit visits a permutation of all rows, as a shuffled fit does
    one = stream.fit(VotedPerceptron(max_epochs=1, random_state=3), path, shuffle_buffer=10**6)
    assert one.n_updates_ == one.mistakes_per_epoch_[0]


@pytest.mark.parametrize("storage", ["csr", "dense"])
def test_the_default_shuffle_holds_runs_of_a_bounded_size(tmp_path, monkeypatch, storage):
    """order="shuffle" without a buffer took runs of 100,000 rows whatever their width: rows of
    long documents would have held gigabytes.  A run holds at most DEFAULT_SHUFFLE_BYTES of the
    epoch cache (made small here): the fit is the one with that many rows a run."""
    X, y = problem(9)
    if storage == "csr":
        path = write_libsvm(tmp_path / "d.svm", X, y)
        per_row = 12 * X.nnz / X.shape[0] + 8
    else:
        path = tmp_path / "d.csv"
        lines = [",".join(f"x{j}" for j in range(X.shape[1])) + ",y"]
        lines += [",".join(repr(float(v)) for v in row) + f",{t}" for row, t in zip(X.toarray(), y)]
        path.write_text("\n".join(lines) + "\n")
        per_row = 8 * X.shape[1]
    monkeypatch.setattr(stream, "DEFAULT_SHUFFLE_BYTES", int(per_row * 37))
    est = lambda: AveragedPerceptron(max_epochs=3, order="shuffle", random_state=4)  # noqa: E731
    default = stream.fit(est(), path)
    for rows, same in ((37, True), (36, False), (100_000, False)):
        other = stream.fit(est(), path, shuffle_buffer=rows)
        assert np.array_equal(default.coef_, other.coef_) == same, rows


def test_predict_and_evaluate_blocks(tmp_path):
    X, y = problem(6, k=3)
    path = write_libsvm(tmp_path / "d.svm", X, y)
    clf = stream.fit(AveragedPerceptron(max_epochs=5), Source(path, block_bytes=500))
    got = np.concatenate([p for _, p in stream.predict_blocks(clf, Source(path, block_bytes=500))])
    np.testing.assert_array_equal(got, clf.predict(read_data(path)[0]))
    res = stream.evaluate(clf, path)
    assert res["rows"] == 600 and res["accuracy"] == pytest.approx(np.mean(got == y))


@pytest.fixture
def cli_run(run_cli):
    """The CLI through its real entry point: (exit code, stdout + stderr) as attributes."""

    def go(*args):
        code, out, err = run_cli([str(a) for a in args])
        return SimpleNamespace(exit_code=code, output=out + err)

    return go


def test_cli_train_predict_evaluate_stream(tmp_path, cli_run):
    X, y = problem(7)
    path = write_libsvm(tmp_path / "d.svm", X, y)
    model = tmp_path / "m.npz"
    args = ("--stream", "--epochs", 4, "--model", "averaged", "--order", "cyclic", "-o", model, "--test", path)
    r = cli_run("train", path, *args)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "m.npz.cache").exists()
    assert "test acc" in r.output
    r = cli_run("predict", model, path, "--stream", "-o", tmp_path / "p.txt")
    assert r.exit_code == 0, r.output
    assert len((tmp_path / "p.txt").read_text().split()) == 600
    r = cli_run("evaluate", model, path, "--stream")
    assert r.exit_code == 0 and "accuracy" in r.output
    # the columns are scaled by their largest |x| (--scale auto), fitted in a pass over the cache:
    # the in-memory fit of the same pipeline on the cache's float32 values
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MaxAbsScaler

    Xm, ym = read_data(path)
    mem = make_pipeline(MaxAbsScaler(), AveragedPerceptron(max_epochs=4)).fit(Xm.astype(np.float32), ym)
    assert f"accuracy  {mem.score(Xm, ym):.4f}" in r.output


@pytest.mark.parametrize(
    "case, args, message",
    [
        ("bits", ["--hash-bits", "32"], "--hash-bits"),
        ("model", ["--model", "pocket"], "pocket cannot train from a stream"),
        ("kernel", ["--model", "kernel"], "kernel cannot train from a stream"),
    ],
)
def test_cli_stream_option_errors(tmp_path, cli_run, case, args, message):
    path = write_libsvm(tmp_path / "d.svm", *problem(8))
    r = cli_run("train", path, "--stream", "-o", tmp_path / "m.npz", *args)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output
    assert not (tmp_path / "m.npz").exists() and not (tmp_path / "m.npz.cache").exists()


def test_bad_line_deep_in_a_stream_leaves_no_model_and_no_cache(tmp_path, cli_run):
    X, y = problem(9, n=20000, d=30, density=0.1)
    path = write_libsvm(tmp_path / "d.svm", X, y)
    lines = path.read_bytes().split(b"\n")
    offset = sum(len(line) + 1 for line in lines[:19000])
    lines[19000] = b"1 3:1 x:2"
    path.write_bytes(b"\n".join(lines))
    r = cli_run("train", path, "--stream", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "line 19001" in r.output and f"byte {offset + 6}" in r.output, r.output
    assert sorted(os.listdir(tmp_path)) == ["d.svm"]


def test_missing_shard_truncated_gzip_and_parquet_without_label(tmp_path, cli_run):
    import gzip

    X, y = problem(10)
    write_libsvm(tmp_path / "a.svm", X, y)
    data = gzip.compress((tmp_path / "a.svm").read_bytes())
    (tmp_path / "t.svm.gz").write_bytes(data[: len(data) // 2])
    r = cli_run("train", tmp_path / "t.svm.gz", "--stream", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "gzip" in r.output and "t.svm.gz" in r.output
    r = cli_run("train", tmp_path / "nothing-*.svm", "--stream", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "no file matches" in r.output
    src = Source(tmp_path / "*.svm")
    (tmp_path / "a.svm").unlink()  # a shard removed after the pattern was expanded
    with pytest.raises(PerceptronsError, match="a.svm: no such file"):
        list(src.blocks())
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"x": [1.0, 2.0], "y": [0, 1]}), tmp_path / "p.parquet")
    r = cli_run("train", tmp_path / "p.parquet", "--stream", "--label", "target", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "no label column 'target'" in r.output
    assert not list(tmp_path.glob("m.npz*"))


def test_a_failed_stream_run_leaves_no_cache_and_a_cache_never_writes_over_another_file(tmp_path, cli_run):
    (tmp_path / "one.csv").write_text("a,b,label\n0,0,1\n1,1,1\n")  # parses, then cannot train
    r = cli_run("train", tmp_path / "one.csv", "--stream", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "two classes" in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.csv"]  # the cache it made went with it
    (tmp_path / "ok.csv").write_text("a,b,label\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n")
    victim = tmp_path / "notes.npz"
    victim.write_bytes(b"PK\x03\x04 someone's model")
    r = cli_run("train", tmp_path / "ok.csv", "--stream", "--cache", victim, "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "notes.npz: exists and is not an epoch cache" in r.output
    assert victim.read_bytes() == b"PK\x03\x04 someone's model" and not (tmp_path / "m.npz").exists()
    r = cli_run("train", tmp_path / "ok.csv", "--stream", "--cache", tmp_path / "m.npz", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "is the model file (-o)" in r.output
    # a cache of ours, truncated or stale, is rebuilt; one kept from a good run stays after it
    assert cli_run("train", tmp_path / "ok.csv", "--stream", "-o", tmp_path / "m.npz").exit_code == 0
    cache = tmp_path / "m.npz.cache"
    cache.write_bytes(cache.read_bytes()[:20])
    assert cli_run("train", tmp_path / "ok.csv", "--stream", "-o", tmp_path / "m.npz").exit_code == 0
    assert cache.stat().st_size > 20


@pytest.mark.parametrize("stream_flag", [[], ["--stream"]])
def test_parquet_columns_of_lists_structs_or_bytes_are_one_line_errors(tmp_path, cli_run, stream_flag):
    """Nested and binary columns are refused by name before any cast meets them (a cast of a
    list to text raised pyarrow's own error, with its traceback); one column of integer lists
    stays the sparse layout."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    cases = {
        "list": ({"a": [[1.0], [0.0]], "label": [0, 1]}, "column 'a' holds list<element: double>"),
        "label": ({"a": [1.0, 0.0], "label": [[0], [1]]}, "label column 'label' holds list<element: int64>"),
        "struct": ({"a": [{"x": 1}, {"x": 2}], "b": [1.0, 2.0], "label": [0, 1]}, "column 'a' holds struct"),
        "bytes": ({"a": [b"\xff", b"\x00"], "label": [0, 1]}, "column 'a' holds binary"),
    }
    for name, (columns, expected) in cases.items():
        pq.write_table(pa.table(columns), tmp_path / f"{name}.parquet")
        r = cli_run("train", tmp_path / f"{name}.parquet", *stream_flag, "-o", tmp_path / "m.npz")
        assert r.exit_code == 2 and expected in r.output and f"{name}.parquet" in r.output, (name, r.output)
        assert "Traceback" not in r.output
        assert not list(tmp_path.glob("m.npz*"))
    pq.write_table(pa.table({"f": [[1, 5], [2]], "label": [0, 1]}), tmp_path / "idx.parquet")
    assert cli_run("train", tmp_path / "idx.parquet", *stream_flag, "-o", tmp_path / "m.npz").exit_code == 0
    # a large list (64-bit offsets, as polars writes lists) is the same layout: it was refused
    large = pa.array([[1, 5], [2]], type=pa.large_list(pa.int32()))
    pq.write_table(pa.table({"f": large, "label": [0, 1]}), tmp_path / "large.parquet")
    assert cli_run("train", tmp_path / "large.parquet", *stream_flag, "-o", tmp_path / "m.npz").exit_code == 0


def test_columns_sharing_a_name_are_read_by_position(tmp_path):
    """Two feature columns named alike are two columns, in a streamed CSV and in Parquet, as in
    the CSV read into memory (the second was read as the first, silently); a label column name
    given twice is refused, as the CSV reader refuses it."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from perceptrons.io.readers import read_data
    from perceptrons.io.sources import Source

    (tmp_path / "dup.csv").write_text("x,x,label\n1,0,1\n0,1,-1\n1,0,1\n")
    pq.write_table(
        pa.Table.from_arrays(
            [pa.array([1.0, 0, 1]), pa.array([0.0, 1, 0]), pa.array([1, -1, 1])], names=["x", "x", "label"]
        ),
        tmp_path / "dup.parquet",
    )
    for name in ("dup.csv", "dup.parquet"):
        X, _ = read_data(tmp_path / name)
        streamed = np.vstack([b.X for b in Source(str(tmp_path / name)).blocks()])  # dense blocks
        np.testing.assert_array_equal(np.asarray(X), [[1, 0], [0, 1], [1, 0]])
        np.testing.assert_array_equal(streamed, [[1, 0], [0, 1], [1, 0]])
    table = pa.Table.from_arrays(
        [pa.array([1.0, 0]), pa.array(["y", "n"]), pa.array(["y", "n"])], names=["a", "label", "label"]
    )
    pq.write_table(table, tmp_path / "twice.parquet")
    with pytest.raises(
        PerceptronsError, match=r"twice.parquet: the label column name 'label' appears 2 times \(columns 2, 3\)"
    ):
        read_data(tmp_path / "twice.parquet", label="label")


@pytest.mark.parametrize(
    "cell, number",
    [
        ("1_000", None),  # Python's float reads these four; pyarrow does not
        ("\u0661\u0662", None),
        ("\uff11", None),
        ("\u00a05", None),
        ("0x10", None),  # pyarrow's integer parser reads this (it was refused streamed); Python's float does not
        ("true", 1.0),  # true and false are 1 and 0, as a boolean column is read
        (" 5 ", 5.0),
        ("+.5", 0.5),
        ("1.5E+2", 150.0),
    ],
)
def test_a_csv_cell_is_a_number_in_memory_exactly_when_it_is_one_streamed(tmp_path, cli_run, cell, number):
    """One grammar for a number in a CSV cell, ASCII decimal, whichever reader reads it.  Python's
    float read ``1_000`` and other scripts' digits, where pyarrow saw text and hashed the whole
    column as categories (a model of 163,332 weights against 2); pyarrow read hexadecimal and
    true/false, which the in-memory reader reads as words."""
    data = tmp_path / "d.csv"
    data.write_text(f'a,b,label\n"{cell}",1,1\n2,0,-1\n3,1,1\n0,0,-1\n', encoding="utf-8")
    models = []
    for how in ([], ["--stream"]):
        out = tmp_path / f"m{len(how)}.npz"
        r = cli_run("train", data, *how, "--epochs", "2", "--scale", "none", "--order", "cyclic", "-o", out)
        if number is None and how:  # one word in four: a column of text, hashed, as in memory
            assert r.exit_code == 0 and "features" in r.output, r.output
            assert load_model(out).coef_.shape[-1] > 4  # hashed: wider than the two columns
        elif number is None:
            # in memory, a column of numbers and words is a column of text (one level per value),
            # and the summary says where its first word is
            assert r.exit_code == 0, r.output
            assert (
                f"a: text -> one-hot, 4 levels (numbers and words mixed; the first word at line 2: {cell!r})"
                in r.output
            )
        else:
            assert r.exit_code == 0, r.output
            models.append(load_model(out))
    if number is not None:
        # both behind their imputer: in memory the column pipeline's, streamed its own (dense rows)
        assert models[0][-1].coef_.tolist() == models[1][-1].coef_.tolist()
        expected = read_table(data).X  # the table reader: numbers as people write them
        assert expected[0, 0] == number


def test_a_csv_column_of_hexadecimal_is_read_as_in_memory(tmp_path, cli_run):
    """pyarrow infers whole numbers for 0x0, 0x1, ..., and the stream parsed them as float64: it
    refused the column's first cell, "as in the rows before" (of which there were none).  In memory it is a column of text,
    and one hexadecimal cell among numbers a typo; streamed now too."""
    codes = tmp_path / "codes.csv"
    codes.write_text("a,b,label\n" + "".join(f"0x{i:x},{i % 7},{i % 2}\n" for i in range(60)))
    typo = tmp_path / "typo.csv"
    typo.write_text("a,b,label\n" + "".join(f"{'0x1f' if i == 30 else i},{i % 7},{i % 2}\n" for i in range(60)))
    for how in ([], ["--stream"]):
        r = cli_run("train", codes, *how, "-o", tmp_path / "m.npz")
        assert r.exit_code == 0 and ("words      'a': text" if how else "a: text -> one-hot, 60 levels") in r.output
        r = cli_run("evaluate", tmp_path / "m.npz", codes, *how)
        assert r.exit_code == 0 and float(r.output.split("accuracy")[1].split()[0]) > 0.9, r.output
        r = cli_run("train", typo, *how, "-o", tmp_path / "t.npz")
        assert r.exit_code == 2 and "typo.csv, line 32, column 'a': '0x1f' is not a number" in r.output, r.output


def _mixed_shards(tmp_path):
    """Two CSV files of one table, whose column 'code' holds numbers and words in the first
    (words: read as categories) and numbers alone in the second; and the whole in one file."""
    rows = [(f"{i % 9}{'a' if i % 4 == 0 and i < 60 else ''}", (i * 7) % 11, "pq"[(i % 9) > 4]) for i in range(120)]
    text = ["code,x,y\n" + "".join(f"{c},{x},{t}\n" for c, x, t in part) for part in (rows[:60], rows[60:])]
    (tmp_path / "s0.csv").write_text(text[0])
    (tmp_path / "s1.csv").write_text(text[1])
    (tmp_path / "whole.csv").write_text(text[0] + text[1].split("\n", 1)[1])
    return str(tmp_path / "s*.csv"), str(tmp_path / "whole.csv")


def test_every_file_of_a_source_is_read_with_the_first_files_kinds(tmp_path):
    """Each file's first run decided its own kinds: the second file's codes, all numbers there,
    were one column of numbers where the first file's were words, and the model learnt from
    two encodings of one column.  The files are read as the first is, as one file would be."""
    shards, whole = _mixed_shards(tmp_path)
    assert Source(shards).categories() == ["code"]
    est = lambda: AveragedPerceptron(max_epochs=3)  # noqa: E731
    from_shards = stream.fit(est(), Source(shards, hash_bits=12))
    from_one = stream.fit(est(), Source(whole, hash_bits=12))
    np.testing.assert_array_equal(from_shards.coef_, from_one.coef_)


@pytest.mark.parametrize(
    "words", [("FALSE", "TRUE"), ("False", "True"), ("false", "true")], ids=["R", "pandas", "arrow"]
)
def test_a_column_of_true_and_false_is_1_and_0_in_csv_and_parquet_memory_and_streamed(tmp_path, cli_run, words):
    """A Parquet column of booleans was numbers and a CSV one text (one-hot in memory, hashed
    streamed), so a model trained on one copy of a table scored 0.46-0.51 on the other, or
    refused it.  true and false, in R's, pandas' or pyarrow's spelling, are 1 and 0 everywhere."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    flags = [i % 2 == 1 for i in range(40)]
    csv = tmp_path / "d.csv"
    csv.write_text("a,b,label\n" + "".join(f"{words[f]},{i % 3},{int(f)}\n" for i, f in enumerate(flags)))
    parquet = tmp_path / "d.parquet"
    pq.write_table(
        pa.table({"a": flags, "b": [i % 3 for i in range(40)], "label": [str(int(f)) for f in flags]}), parquet
    )
    assert read_table(csv).X[:2, 0].tolist() == [0.0, 1.0]
    for trained in (csv, parquet):
        for how in ([], ["--stream"]):
            r = cli_run("train", trained, *how, "--epochs", "5", "-o", tmp_path / "m.npz")
            assert r.exit_code == 0, r.output
            assert ("read       a: true and false read as 1 and 0" if how else "a: number -> standardised") in r.output
            for other in (csv, parquet):
                r = cli_run("evaluate", tmp_path / "m.npz", other, *how)
                assert r.exit_code == 0 and "accuracy  1.0000" in r.output, (trained, how, other, r.output)


def test_a_csv_of_semicolons_streams_as_in_memory(tmp_path, cli_run):
    """A header of semicolons and no comma: the file's separator, read so in memory and
    streamed; a decimal comma in its first data line makes the comma its decimal mark; a header
    ending with the separator has no column after it."""
    rows = [f"{i / 10:.2f};{(i % 7) / 3:.3f};{int(i > 20)};" for i in range(40)]
    for name, text in (("point.csv", rows), ("comma.csv", [r.replace(".", ",") for r in rows])):
        data = tmp_path / name
        data.write_text("a;b;y;\n" + "\n".join(text) + "\n")
        weights = []
        for how in ([], ["--stream"]):
            out = tmp_path / f"{name}{len(how)}.npz"
            args = ("--model", "perceptron", "--epochs", "3", "--scale", "none", "--order", "cyclic", "-o", out)
            r = cli_run("train", data, *how, *args)
            assert r.exit_code == 0, r.output
            model = load_model(out)
            weights.append((model[-1] if hasattr(model, "steps") else model).coef_.tolist())
        assert weights[0] == weights[1]


@pytest.mark.slow
def test_a_streamed_csv_cell_that_is_not_a_number_is_named_with_its_line(tmp_path, cli_run):
    """In the first block, a column of numbers with one word in twenty or more is refused
    (hashed as categories, it trained on nonsense), as in memory; in a later block, pyarrow's
    conversion error gets its line.  A column of words throughout is hashed, as documented, and
    so is a mixed one on request."""
    small = tmp_path / "small.csv"
    small.write_text("a,b,label\n0,0,0\n1,x,1\n" + "0,1,0\n1,0,1\n" * 12)  # one word in 26: a typo
    r = cli_run("train", small, "--stream", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "small.csv, line 3, column 'b': 'x' is not a number" in r.output
    assert cli_run("train", small, "--stream", "--hash-bits", "8", "-o", tmp_path / "h.npz").exit_code == 0
    words = tmp_path / "words.csv"
    words.write_text("colour,size,label\nred,1.5,a\nblue,2.0,b\nred,1.0,a\nblue,3.0,b\n")
    assert cli_run("train", words, "--stream", "-o", tmp_path / "w.npz").exit_code == 0
    rows = "".join(f"{i % 7},{i % 5},{i % 2}\n" for i in range(1_000_000))  # 6 MB: past the first 4 MiB block
    big = tmp_path / "big.csv"
    big.write_text("a,b,label\n" + rows + "1,x,1\n")
    r = cli_run("train", big, "--stream", "--epochs", "1", "-o", tmp_path / "b.npz")
    assert (
        r.exit_code == 2
        and "big.csv, line 1000002: column 'b' holds 'x'; expected a number, as in the file's first rows" in r.output
    )
    assert not (tmp_path / "b.npz").exists() and not (tmp_path / "b.npz.cache").exists()


@pytest.mark.slow
def test_a_number_in_a_later_block_of_a_text_column_is_refused(tmp_path, cli_run):
    """The first block fixes a column as text; a number in it further on is refused with its
    line, as the first block's mixture is (it was hashed as a category, where the in-memory
    reader refuses the file)."""
    rows = "".join(("red", "blue")[i % 2] + f",{i % 5},{i % 2}\n" for i in range(700_000))  # past 4 MiB
    big = tmp_path / "late.csv"
    big.write_text("colour,size,label\n" + rows + "5,1,1\n")
    r = cli_run("train", big, "--stream", "--epochs", "1", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2, r.output
    assert "late.csv, line 700002: column 'colour' holds the number '5', but its first rows are text" in r.output
    assert not (tmp_path / "m.npz").exists() and not (tmp_path / "m.npz.cache").exists()
    assert (
        cli_run("train", big, "--stream", "--hash-bits", "8", "--epochs", "1", "-o", tmp_path / "h.npz").exit_code == 0
    )


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=" \t\n\x0b\x0c\r\x1c\x1f+-.0123456789eEnaNAifINFtyYx_", max_size=12))
def test_the_number_prefilter_lets_every_number_through(cell):
    """The streamed CSV check gives is_float only the cells its vectorised pattern matches:
    every cell is_float reads as a number other than NaN (a missing cell) must match."""
    import math

    import pyarrow as pa

    from perceptrons.io.labels import is_float
    from perceptrons.io.text_columns import count_numbers

    assert count_numbers(pa.array([cell])) == int(is_float(cell) and not math.isnan(float(cell)))


def interrupt_when(directory, ready, cmd):
    """Start ``cmd``, wait until ``ready(names in directory)``, send SIGINT; the exit status."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not ready(set(os.listdir(directory))) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before the moment to interrupt it"
    proc.send_signal(signal.SIGINT)
    return proc.wait(timeout=60)


@pytest.mark.slow
def test_ctrl_c_leaves_no_model_and_no_half_written_cache(tmp_path):
    from perceptrons.io.cache import open_cache, source_fingerprint

    path = write_zipf_libsvm(tmp_path / "big.svm", 150e6)
    model, cache = tmp_path / "m.npz", tmp_path / "m.npz.cache"
    cmd = [sys.executable, "-m", "perceptrons", "train", str(path), "--stream", "--epochs", "50", "-o", str(model)]
    # during the first pass: the cache is being written to a temporary file beside it
    code = interrupt_when(tmp_path, lambda names: len(names) > 1, cmd)
    assert code == 130 and sorted(os.listdir(tmp_path)) == ["big.svm"]
    # during the epochs: the cache is complete, the model not written
    code = interrupt_when(tmp_path, lambda names: "m.npz.cache" in names, cmd)
    assert code == 130 and not model.exists()
    assert sorted(os.listdir(tmp_path)) == ["big.svm", "m.npz.cache"]
    src = Source(path)
    assert open_cache(cache, source_fingerprint(src))[0] is not None  # whole and reusable


@pytest.mark.slow
def test_streamed_training_stays_within_a_memory_cap(tmp_path):
    """The peak RSS of ``train --stream`` (the kernel's high-water mark of that process) is the
    same command's on a 2 MB file, plus a small part of the file's size: what the data add
    does not grow with the file.  (The fixed part, Python with numpy, scipy, scikit-learn,
    numba and the loops, is some 400-500 MB whatever the file; it is measured, not bounded.)"""
    path = write_zipf_libsvm(tmp_path / "big.svm", 1.5e9)
    size_mb = path.stat().st_size / 2**20
    model = tmp_path / "m.npz"
    # first a small file of the same kind, so that the compiled loops come from numba's cache:
    # compiling them (a fresh checkout) costs LLVM memory once, not memory per row
    small = write_zipf_libsvm(tmp_path / "small.svm", 2e6)
    # in the file's order: --order shuffle (the default) holds runs of 100,000 rows besides, a
    # bound of its own that does not grow with the file either
    cyclic = ["--order", "cyclic"]
    code, *_, err = run_with_peak_rss("perceptrons", ["train", small, "--stream", "--epochs", 2, *cyclic, "-o", model])
    assert code == 0, err[-2000:]
    # the same command on the 2 MB file: Python, numpy, scipy, scikit-learn, numba and the loops
    code, _, baseline, _, err = run_with_peak_rss("perceptrons", ["train", small, "--stream", *cyclic, "-o", model])
    assert code == 0, err[-2000:]
    argv = ["train", path, "--stream", "--epochs", 2, *cyclic, "-o", model]
    code, _, peak, _, err = run_with_peak_rss("perceptrons", argv)
    assert code == 0, err[-2000:]
    seen = f"peak RSS {peak:.0f} MB ({baseline:.0f} MB on a 2 MB file) for a {size_mb:.0f} MB file"
    assert peak - baseline < size_mb / 20, seen


def test_progress_reports_rows_and_text_bytes(tmp_path):
    X, y = problem(12, n=3000)
    shards = tmp_path / "s"
    shards.mkdir()
    for k in range(2):
        write_libsvm(shards / f"{k}.svm", X[k * 1500 : (k + 1) * 1500], y[k * 1500 : (k + 1) * 1500])
    total = sum(p.stat().st_size for p in shards.iterdir())
    seen = []
    stream.fit(Perceptron(max_epochs=2), Source(shards, block_bytes=4096), progress=lambda *a: seen.append(a))
    parse = [a for a in seen if a[0] == "parse"]
    train = [a for a in seen if a[0] == "train"]
    assert [a[3] for a in parse] == sorted(a[3] for a in parse) and parse[-1][3] == total
    assert parse[-1][1] == 3000 and {a[2] for a in train} <= {1, 2} and train[-1][1] == 3000


def test_csv_stream_refuses_a_missing_label_by_its_line(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\n1,2,x\n3,4,NA\n5,6,y\n")
    with pytest.raises(PerceptronsError, match=r"d\.csv, line 3: the label is 'NA', a missing value"):
        list(Source(path).blocks())


def test_weights_whose_sum_overflows_are_refused_with_their_rows(tmp_path):
    """Each importance weight is finite, their sum in a block is not: refused in one line that
    names the file and the rows, as the in-memory fit refuses the same weights."""
    path = tmp_path / "big.vw"
    path.write_text("1 1e308 | a:1\n-1 1e308 | b:1\n1 1e308 | a:1 c:1\n")
    with pytest.raises(PerceptronsError) as info:
        stream.fit(Perceptron(), path)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(f"{path}, data rows 1–3: sample_weight"), msg
    assert "sums to inf" in msg


def test_importance_weights_weigh_the_same_in_memory_streamed_and_in_python(tmp_path, cli_run):
    """A VW file's importance weights: ``train`` in memory, ``train --stream`` and ``fit`` with
    them as ``sample_weight`` make the same model (in memory they were dropped)."""
    from perceptrons import load_model
    from perceptrons.io.vw import read_vw

    path = tmp_path / "w.vw"
    path.write_text("1 5 | a:1\n-1 1 | a:1 b:1\n1 1 | b:1\n-1 3 | a:1 c:1\n1 2.5 | c:1 b:1\n")
    models = []
    for flags in ([], ["--stream"]):
        models.append(tmp_path / f"m{len(models)}.npz")
        how = [*flags, "--model", "perceptron", "--scale", "none"]
        r = cli_run("train", path, *how, "--epochs", 3, "--order", "cyclic", "-o", models[-1])
        assert r.exit_code == 0, r.output
    X, y, _, weight = read_vw(path, return_weight=True)
    assert weight.tolist() == [5.0, 1.0, 1.0, 3.0, 2.5]
    expected = Perceptron(max_epochs=3).fit(X, y, sample_weight=weight)
    unweighted = Perceptron(max_epochs=3).fit(X, y)
    assert not np.array_equal(expected.coef_, unweighted.coef_)  # the weights change this model
    for m in models:
        got = load_model(m)
        np.testing.assert_array_equal(got.coef_, expected.coef_)
        np.testing.assert_array_equal(got.intercept_, expected.intercept_)
    assert read_data(path, return_weight=True)[2].tolist() == weight.tolist()
    svm = write_libsvm(tmp_path / "d.svm", *problem(1))
    assert read_data(svm, return_weight=True)[2] is None  # a format without weights


def test_accuracy_by_importance_weights_is_reported_beside_the_plain_one(tmp_path, cli_run):
    """``evaluate`` and ``train --test`` on a VW file report the accuracy weighted by importance
    (as VW weighs its average loss) beside the plain one, in memory and streamed, and
    ``stream.evaluate`` returns it; a file without weights gets no such line."""
    from perceptrons import load_model
    from perceptrons.io.vw import read_vw

    train = tmp_path / "train.vw"
    train.write_text("1 | a:1\n-1 | b:1\n1 | a:1 c:1\n-1 | b:1 c:1\n")
    test = tmp_path / "test.vw"  # rows 2 and 4 contradict the training rows: wrong, weight 6 of 10
    test.write_text("1 1 | a:1\n1 4 | b:1\n-1 2 | b:1\n-1 2 | a:1\n1 1 | a:2\n")
    model = tmp_path / "m.npz"
    r = cli_run("train", train, "-o", model, "--test", test)
    assert r.exit_code == 0, r.output
    X, y, _, weight = read_vw(test, return_weight=True)
    hits = load_model(model).predict(X) == y
    plain, weighted = hits.mean(), np.average(hits, weights=weight)
    assert plain == 0.6 and weighted == 0.4  # the two differ, so a line showing either cannot pass for the other
    assert f"test acc   {plain:.4f}\nweighted   {weighted:.4f}  (test accuracy by" in r.output
    assert "train accuracy by" not in r.output  # the training file's weights are all 1: none kept
    for flags in ([], ["--stream"]):
        r = cli_run("evaluate", model, test, *flags)
        assert r.exit_code == 0, r.output
        assert (
            f"accuracy  {plain:.4f}\nweighted  {weighted:.4f}  (accuracy by the rows' importance weights)" in r.output
        )
    r = cli_run("train", train, "--stream", "-o", tmp_path / "s.npz", "--test", test)
    assert r.exit_code == 0, r.output
    assert f"test acc   {plain:.4f}\nweighted   {weighted:.4f}  (test accuracy by" in r.output
    res = stream.evaluate(load_model(model), test)
    assert res["accuracy"] == plain and res["weighted_accuracy"] == pytest.approx(weighted)

    zero = tmp_path / "zero.vw"
    zero.write_text("1 0 | a:1\n-1 0 | b:1\n")
    assert stream.evaluate(load_model(model), zero)["weighted_accuracy"] is None
    r = cli_run("evaluate", model, zero)
    assert "weighted  undefined (the weights sum to 0 or overflow)" in r.output, r.output
    svm = write_libsvm(tmp_path / "d.svm", *problem(1))
    r = cli_run("train", svm, "-o", tmp_path / "p.npz")
    assert r.exit_code == 0 and "weighted" not in r.output, r.output
    assert "weighted_accuracy" not in stream.evaluate(load_model(tmp_path / "p.npz"), svm)


def test_labels_are_one_class_per_value_in_memory_and_streamed(tmp_path, cli_run):
    """A LIBSVM file's labels are typed alike read into memory and streamed (parsed as float64):
    a model trained one way scores the file the other way (it was refused, "labels ['-1.0', '1.0']
    were not seen in training"), ``0.5`` and ``0.50`` are one class both ways, and whole labels
    beyond 2^53, which float64 may merge, are refused when streamed rather than scored wrong."""
    data = tmp_path / "d.svm"
    data.write_text("-1 1:1\n1 2:1\n2.5 3:1\n0.50 4:1\n0.5 4:1\n")
    for train_flags, eval_flags in (([], ["--stream"]), (["--stream"], [])):
        model = tmp_path / "m.npz"
        r = cli_run("train", data, *train_flags, "--epochs", "20", "-o", model)
        assert r.exit_code == 0 and "4 classes" in r.output, r.output
        r = cli_run("evaluate", model, data, *eval_flags)
        assert r.exit_code == 0 and "accuracy  1.0000" in r.output, r.output
        model.unlink()
    big = tmp_path / "big.svm"
    big.write_text("10000000000000001 1:1\n10000000000000000 2:1\n")
    r = cli_run("train", big, "--stream", "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and "big.svm, data rows from 1: the label 10000000000000000 is beyond 2^53" in r.output
    assert cli_run("train", big, "-o", tmp_path / "m.npz").exit_code == 0  # in memory: exact int64 labels
    r = cli_run("evaluate", tmp_path / "m.npz", big, "--stream")
    assert r.exit_code == 2 and "is beyond 2^53" in r.output, r.output


def _forge_footer(cache, change):
    from cache_footer import footer_of, with_footer

    raw = cache.read_bytes()
    footer, _ = footer_of(raw)
    change(footer)
    cache.write_bytes(with_footer(raw, footer))


@pytest.mark.parametrize(
    "fmt,hash_bits,change",
    [
        # the weights were sized by the hash, the indices checked against the footer's width:
        # with indices beyond 128 as well, the compiled loop wrote past the weights (SIGSEGV)
        ("libsvm", 7, lambda f: f.update(n_features=2**20)),
        ("libsvm", None, lambda f: f.update(n_features=f["n_features"] + 1)),  # a model one column wider
        ("libsvm", None, lambda f: f.update(n_features=2**31 - 1)),  # "needs 40 GiB", blamed on the data
        ("libsvm", None, lambda f: f["labels"].update(values=[*f["labels"]["values"], 7])),  # a class no row has
        ("csv", None, lambda f: f.update(n_features=2 * f["n_features"], values="float32")),  # rows read anew
    ],
)
def test_an_edited_cache_is_rebuilt_not_trusted(tmp_path, fmt, hash_bits, change):
    """A cache read back is checked against what the data say: its width against the hash and
    the columns its rows use (CSR) or the source's first block (dense), its labels against its
    rows; and an error met while training on a reused cache makes the cache be rebuilt once (the
    error is the data's only if a fresh cache gives it too).  Each edit here keeps every
    checksum valid, so only these checks can see it."""
    X, y = problem(5, n=200)
    if fmt == "csv":
        data = tmp_path / "d.csv"
        lines = [",".join([*(f"x{j}" for j in range(X.shape[1])), "label"])]
        lines += [",".join([*map(repr, row.tolist()), str(label)]) for row, label in zip(X.toarray(), y)]
        data.write_text("\n".join(lines) + "\n")
    else:
        data = write_libsvm(tmp_path / "d.svm", X, y)
    src = Source(data, hash_bits=hash_bits)
    fresh = stream.fit(Perceptron(max_epochs=3), src)
    cache = tmp_path / "d.cache"
    stream.fit(Perceptron(max_epochs=3), src, cache=cache)
    good = cache.read_bytes()
    _forge_footer(cache, change)
    again = stream.fit(Perceptron(max_epochs=3), src, cache=cache)
    np.testing.assert_array_equal(again.coef_, fresh.coef_)
    np.testing.assert_array_equal(again.classes_, fresh.classes_)
    assert cache.read_bytes() == good  # rebuilt as it was written


def _visit_order(tmp_path, n_rows, buffer, block_bytes, seed=0):
    """The order in which a streamed fit visits the rows: each row is its own feature, so the
    visit order is the order the weights' coordinates are first touched (one epoch, PLA, every
    row a mistake at its first visit since every other coordinate is 0)."""
    from perceptrons.io.sources import Source
    from perceptrons.stream import _ordered

    path = tmp_path / f"o{n_rows}.svm"
    path.write_text("".join(f"{1 if i % 2 else -1} {i + 1}:1\n" for i in range(n_rows)))
    src = Source(path, block_bytes=block_bytes)
    rng = np.random.default_rng(seed)
    order = []
    for block, perm in _ordered(src.blocks(), buffer, rng):
        rows = np.arange(block.n_rows) if perm is None else perm
        order.extend((block.indices[block.indptr[rows]]).tolist())
    return order


@pytest.mark.parametrize("buffer", [1, 7, 64, 1000, 5000])
@pytest.mark.parametrize("block_bytes", [64, 4096])
def test_shuffle_buffer_shuffles_runs_of_exactly_n_rows(tmp_path, buffer, block_bytes):
    """--shuffle-buffer N: rows in runs of exactly N, each a permutation of its own rows, whatever
    the size of the reader's blocks (N = 1 keeps the file's order; N past the file shuffles it
    all).  Before, N below a block's size shuffled whole blocks."""
    n = 3000
    order = _visit_order(tmp_path, n, buffer, block_bytes)
    assert sorted(order) == list(range(n))
    for start in range(0, n, buffer):
        run = order[start : start + buffer]
        assert sorted(run) == list(range(start, min(start + buffer, n))), (start, run[:10])
    if buffer == 1:
        assert order == list(range(n))
    else:
        assert order != list(range(n))  # shuffled (3000 rows: an identity draw has no chance)


@pytest.mark.parametrize(
    "make_step, exact",
    [(lambda: MaxAbsScaler(), True), (lambda: StandardScaler(with_mean=False), False)],
    ids=["maxabs", "standard-no-mean"],
)
def test_a_pipeline_streams_its_scaler_fitted_in_a_pass(tmp_path, make_step, exact):
    """``stream.fit`` of ``make_pipeline(scaler, ours)``: the scaler learns from the cache block
    by block (``partial_fit``), then every epoch trains on the scaled blocks; the result is the
    in-memory fit of the same pipeline on the cache's float32 values."""
    from sklearn.pipeline import make_pipeline

    rng = np.random.default_rng(4)
    X, y = problem(11)
    X = sp.csr_matrix(X.multiply(rng.choice([1.0, 100.0, 5000.0], X.shape[1])))  # column scales 1 to 5000
    path = write_libsvm(tmp_path / "d.svm", X, y)
    Xm, ym = read_data(path)
    streamed = stream.fit(make_pipeline(make_step(), AveragedPerceptron(max_epochs=3)), path)
    mem = make_pipeline(make_step(), AveragedPerceptron(max_epochs=3)).fit(Xm.astype(np.float32), ym)
    scaler, ref = streamed[0], mem[0]
    np.testing.assert_allclose(scaler.scale_, ref.scale_, rtol=0 if exact else 1e-6)
    if exact:
        np.testing.assert_array_equal(streamed[-1].coef_, mem[-1].coef_)
    assert np.mean(streamed.predict(Xm) == mem.predict(Xm)) > 0.99
    assert stream.evaluate(streamed, path)["accuracy"] == pytest.approx(streamed.score(Xm, ym))


@pytest.mark.parametrize(
    "step, fragment",
    [
        (lambda: StandardScaler(), "StandardScaler(with_mean=True) cannot scale sparse rows"),
        (lambda: Normalizer(), "Normalizer cannot be fitted from a stream; the steps before"),
    ],
)
def test_a_pipeline_step_a_stream_cannot_fit_is_refused(tmp_path, step, fragment):
    from sklearn.pipeline import make_pipeline

    path = write_libsvm(tmp_path / "d.svm", *problem(1))
    with pytest.raises(PerceptronsError, match=re.escape(fragment)):
        stream.fit(make_pipeline(step(), Perceptron()), path)


def test_dense_rows_are_centred_and_scaled_as_in_memory(tmp_path):
    """A StandardScaler that centres takes dense streamed rows (sparse ones are refused above),
    and gives the in-memory pipeline's scaler and model."""
    from sklearn.pipeline import make_pipeline

    rng = np.random.default_rng(5)
    X = rng.normal(size=(3000, 4)) * [1.0, 20.0, 300.0, 5000.0] + [15.0, 0.0, 2000.0, 100.0]
    y = np.where(X[:, 0] - 15 + (X[:, 2] - 2000) / 300 > 0, "a", "b")
    path = tmp_path / "d.csv"
    path.write_text(
        "p,q,r,s,y\n" + "".join(f"{a:.17g},{b:.17g},{c:.17g},{d:.17g},{t}\n" for (a, b, c, d), t in zip(X, y))
    )
    streamed = stream.fit(make_pipeline(StandardScaler(), AveragedPerceptron(max_epochs=3)), path)
    mem = make_pipeline(StandardScaler(), AveragedPerceptron(max_epochs=3)).fit(X, y)
    np.testing.assert_allclose(streamed[0].mean_, mem[0].mean_, rtol=1e-12)
    np.testing.assert_allclose(streamed[0].scale_, mem[0].scale_, rtol=1e-12)
    np.testing.assert_allclose(streamed[-1].coef_, mem[-1].coef_, rtol=1e-9, atol=1e-9)
    accuracy = stream.evaluate(streamed, path)["accuracy"]
    assert accuracy == pytest.approx(mem.score(X, y)) and accuracy > 0.95


def test_cli_stream_scales_its_columns_unless_told_not_to(tmp_path, cli_run):
    path = write_libsvm(tmp_path / "d.svm", *problem(5))
    for scale, kind in [([], "MaxAbsScaler"), (["--scale", "standard"], "StandardScaler"), (["--scale", "none"], None)]:
        model = tmp_path / f"m{len(scale)}{kind}.npz"
        r = cli_run("train", path, "--stream", *scale, "--epochs", 2, "-o", model)
        assert r.exit_code == 0, r.output
        loaded = load_model(model)
        if kind is None:
            assert type(loaded).__name__ == "AveragedPerceptron" and "columns" not in r.output
        else:
            assert [type(s).__name__ for _, s in loaded.steps] == [kind, "AveragedPerceptron"]
            assert "fitted in a pass over the epoch cache" in r.output
        # read back as it was trained, with nothing typed again
        r = cli_run("evaluate", model, path)
        assert r.exit_code == 0 and "accuracy" in r.output, r.output


def test_binary_columns_are_streamed_as_they_are_behind_a_scaler(tmp_path):
    """Binary features (a9a's) have a largest |x| of 1 in every column: the scaled blocks would
    be the blocks, and the fit is the unscaled one, bit for bit."""
    from sklearn.pipeline import make_pipeline

    path = write_libsvm(tmp_path / "b.svm", *problem(2, binary_values=True))
    scaled = stream.fit(make_pipeline(MaxAbsScaler(), AveragedPerceptron(max_epochs=3)), path)
    raw = stream.fit(AveragedPerceptron(max_epochs=3), path)
    assert np.all(scaled[0].scale_ == 1)
    np.testing.assert_array_equal(scaled[-1].coef_, raw.coef_)
    assert scaled[-1].coef_.dtype == raw.coef_.dtype == np.float32


def _with_gaps(path, seed=0, n=500):
    """A CSV of three columns on scales ~1, ~100 and ~5000, a tenth of its cells missing (NA, NaN,
    an empty cell or UCI's ?), and the same rows as an array with NaN."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) * [1, 100, 5000]
    y = (X[:, 0] + X[:, 1] / 100 > 0).astype(int)
    X[rng.random((n, 3)) < 0.1] = np.nan
    marks = ["NA", "NaN", "", "?"]
    with open(path, "w") as f:
        f.write("a,b,c,y\n")
        for i, (row, label) in enumerate(zip(X, y)):
            cells = [marks[(i + j) % 4] if np.isnan(v) else repr(float(v)) for j, v in enumerate(row)]
            f.write(",".join(cells) + f",{label}\n")
    return X, y


def test_a_streamed_fit_imputes_missing_numbers_as_the_in_memory_pipeline_does(tmp_path):
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline

    X, y = _with_gaps(tmp_path / "gaps.csv")

    def pipeline():
        imputer = SimpleImputer(strategy="mean", keep_empty_features=True)
        return Pipeline([("impute", imputer), ("scale", MaxAbsScaler()), ("model", AveragedPerceptron(max_epochs=5))])

    streamed = stream.fit(pipeline(), tmp_path / "gaps.csv", cache=tmp_path / "c.cache")
    in_memory = pipeline().fit(X, y)
    np.testing.assert_array_equal(streamed[0].statistics_, in_memory[0].statistics_)
    assert streamed[-1].coef_.tolist() == in_memory[-1].coef_.tolist()
    assert stream.evaluate(streamed, tmp_path / "gaps.csv")["accuracy"] == (in_memory.predict(X) == y).mean()


def test_missing_numbers_are_refused_with_their_line_where_nothing_imputes_them(tmp_path):
    _with_gaps(tmp_path / "gaps.csv")
    with pytest.raises(PerceptronsError, match=r"gaps\.csv, line \d+: column '\w' is empty or a missing-value"):
        stream.fit(AveragedPerceptron(), tmp_path / "gaps.csv", cache=tmp_path / "c.cache")
    kept = Source(tmp_path / "gaps.csv", keep_missing=True)
    with pytest.raises(PerceptronsError, match=r"gaps\.csv, data row \d+: a missing number, which a fit without an"):
        stream.fit(AveragedPerceptron(), kept, cache=tmp_path / "c.cache")
    full = tmp_path / "full.csv"
    full.write_text("a,b,c,y\n1,2,3,0\n-1,-2,-3,1\n")
    model = stream.fit(AveragedPerceptron(), full, cache=tmp_path / "f.cache")
    with pytest.raises(PerceptronsError, match=r"gaps\.csv, data row \d+: a missing number, but the model imputes"):
        stream.evaluate(model, kept)


def test_a_stream_imputes_only_with_the_mean_of_every_column_kept():
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline

    for imputer in (
        SimpleImputer(strategy="median", keep_empty_features=True),
        SimpleImputer(strategy="mean"),  # a column of no value would be dropped
        SimpleImputer(strategy="mean", keep_empty_features=True, add_indicator=True),
    ):
        with pytest.raises(PerceptronsError, match=r"SimpleImputer\(strategy='mean', keep_empty_features=True\)"):
            stream.fit(Pipeline([("impute", imputer), ("model", AveragedPerceptron())]), "unused.csv")
    scaler_first = Pipeline([("scale", MaxAbsScaler()), ("impute", SimpleImputer()), ("model", AveragedPerceptron())])
    with pytest.raises(PerceptronsError, match=r"SimpleImputer cannot be fitted from a stream"):
        stream.fit(scaler_first, "unused.csv")


def test_a_source_leaves_dropped_columns_out_before_reading_them(tmp_path):
    """``drop`` (the command line's --drop): a dropped column's cells are never converted, its
    name is not among the source's columns, and the epoch cache's fingerprint tells the two
    sources apart."""
    from perceptrons.io.sources import Source

    path = tmp_path / "t.csv"
    path.write_text("id,a,odd,y\n" + "".join(f"r{i},{i % 5},{'x' if i == 3 else i},{'ab'[i % 2]}\n" for i in range(20)))
    with pytest.raises(PerceptronsError, match="line 5, column 'odd'"):
        list(Source(str(path)).blocks())
    src = Source(str(path), drop=["odd", "id"])
    (block,) = list(src.blocks())
    assert block.X.shape == (20, 1) and src.column_names() == ["a", "y"]
    assert src.options() != Source(str(path), drop=["odd"]).options() != Source(str(path)).options()
    svm = tmp_path / "t.svm"
    svm.write_text("1 1:1\n")
    with pytest.raises(PerceptronsError, match="applies to a CSV, TSV or Parquet table"):
        Source(str(svm), drop=["a"])


@pytest.mark.parametrize(
    ("fmt", "cell", "where", "what"),
    [
        ("csv", "", "line 3", "empty"),
        ("csv", "NA", "line 3", "'NA', a missing value"),
        ("parquet", None, "row 2", "empty"),
    ],
)
def test_a_missing_label_names_its_row_and_the_label_column_as_in_memory(tmp_path, fmt, cell, where, what):
    from perceptrons.io.sources import Source

    path = tmp_path / f"m.{fmt}"
    if fmt == "csv":
        path.write_text(f"a,kind\n1,p\n2,{cell}\n3,q\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({"a": [1.0, 2.0, 3.0], "kind": ["p", cell, "q"]}), path)
    message = f"{where}: the label is {what}; every row needs a class label (the label column is 'kind'; --label names another)"
    with pytest.raises(PerceptronsError, match=re.escape(message)):
        list(Source(str(path)).blocks())


@pytest.mark.parametrize(("option", "value"), [("drop", "id"), ("drop", [1]), ("drop", 5), ("categories", "x")])
def test_a_sources_column_lists_are_lists_of_names(tmp_path, option, value):
    """A lone name is not a list of them: ``drop="id"`` would have dropped the columns i and d."""
    from perceptrons.io.sources import Source

    path = tmp_path / "t.csv"
    path.write_text("id,a,y\n1,2,p\n")
    with pytest.raises(PerceptronsError, match=f"Source: {option} must be a list of column names"):
        Source(str(path), **{option: value})


def test_training_accuracy_is_the_models_accuracy_on_its_rows(tmp_path):
    """One more pass over the epoch cache gives what an in-memory score of the same rows gives."""
    X, y = problem(5)
    path = write_libsvm(tmp_path / "d.svm", X, y)
    cache = tmp_path / "d.cache"
    model = stream.fit(make_pipeline(MaxAbsScaler(), AveragedPerceptron(max_epochs=3)), path, cache=cache)
    Xm, ym = read_data(path)
    assert stream.training_accuracy(model, path, cache) == pytest.approx(model.score(Xm, ym), abs=1e-12)
    with pytest.raises(PerceptronsError, match="cache"):
        stream.training_accuracy(model, path, 3)


@pytest.mark.parametrize("lead", ["id", ""], ids=["dropped", "row-names"])
def test_a_bad_cell_after_the_first_run_names_its_column_when_one_is_left_out(tmp_path, lead):
    """pyarrow numbers a column among all of the file's: a run after the first named the column
    after the bad one when a column before it was left out (--drop, or R's row names)."""
    from perceptrons.io.sources import Source

    rows = [f"r{i},{i % 7},{'oops' if i == 18000 else i % 5},{i % 3},{'pq'[i % 2]}" for i in range(20000)]
    path = tmp_path / "t.csv"
    path.write_text(f"{'' if not lead else lead},a,b,c,y\n" + "\n".join(rows) + "\n")
    drop = ["id"] if lead else []
    with pytest.raises(PerceptronsError, match="line 18002: column 'b' holds 'oops'"):
        list(Source(str(path), drop=drop, block_bytes=1 << 16).blocks())

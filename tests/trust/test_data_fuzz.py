"""The data readers against mutated files: a fuzzing sample, and one test per defect it found.

``make fuzz`` runs ``tests/data_fuzz.py`` with 20,000 cases (and 2,000 through the commands);
here a smaller sample runs in every ``make test``, in subprocesses, so that a crash of the
interpreter counts as a failure.
"""

import gzip
import io
import logging
import os
import re
import subprocess
import sys

import data_fuzz as df
import numpy as np
import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.sources import Source


@pytest.mark.slow
@pytest.mark.fuzz
def test_fuzzing_sample_of_the_readers_in_subprocesses():
    # Cases 0..2999 of seed 20261124; `make fuzz` runs 20,000.
    counts, failures = df.fuzz(3000, seed=20261124, workers=2)
    assert not failures, failures[:5]
    assert sum(counts.values()) == 3000
    # both paths exercised: files that read, and files refused with a message naming them
    assert counts.get("read", 0) > 400 and counts.get("refused", 0) > 1500, counts


@pytest.mark.slow
@pytest.mark.fuzz
def test_fuzzing_sample_through_the_commands_in_subprocesses():
    # Each mutated file given to the commands a user runs on it: exit 0, or 2 with one line and
    # no file written.
    counts, failures = df.fuzz(200, seed=20261124, workers=2, cli=True)
    assert not failures, failures[:5]
    assert sum(counts.values()) == 200


def test_every_seed_file_reads_through_every_reader(tmp_path):
    # The fuzzer starts from valid files: each reader of each format accepts its seed.
    for name, (filename, data) in df.seed_files().items():
        path = tmp_path / filename
        path.write_bytes(data)
        calls = list(df.readers(name, str(path)))
        assert calls, name
        for _, call in calls:
            call()  # raises on a refusal or a result that does not hold


def refused(call, *fragments):
    with pytest.raises(PerceptronsError) as info:
        call()
    msg = str(info.value)
    assert "\n" not in msg, msg
    for f in fragments:
        assert f in msg, msg
    return msg


def streamed(path, **options):
    return lambda: list(Source(path, **options).blocks())


# ---------------------------------------------------------------------- streamed CSV
@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize(
    "data, line, byte",
    [
        (b"a,b\xff,label\n1,2,x\n3,4,y\n", 1, "0xff"),  # the header: a UnicodeDecodeError
        # the label column, read as text: pyarrow's conversion error named neither line nor file
        (b"a,b,label\n1,2,x\n3,4,y\xc3\n5,6,x\n", 3, "0xc3"),
    ],
)
def test_bytes_that_are_not_utf8_are_named_with_their_line(tmp_path, compress, data, line, byte):
    path = tmp_path / ("d.csv.gz" if compress else "d.csv")
    path.write_bytes(gzip.compress(data) if compress else data)
    refused(streamed(path), str(path), f"line {line}", "not UTF-8", byte)


@pytest.mark.parametrize("at", [2, 30_000])  # in the first block, in a later one (blocks of 64 KiB)
@pytest.mark.parametrize("fields", ["3,4,5,y", "3,4"])
def test_a_row_with_another_number_of_fields_is_named_with_its_line(tmp_path, at, fields):
    # as the in-memory reader says it; pyarrow's message named neither file nor line, and in the
    # first block it read "not CSV with a header"
    rows = [f"{i},{i + 1},x" for i in range(40_000)]
    rows[at - 2] = fields
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\n" + "\n".join(rows) + "\n")
    n = fields.count(",") + 1
    refused(streamed(path, block_bytes=1 << 16), f"{path}, line {at}: {n} fields, expected 3 as in the header")


def test_a_hashed_value_beyond_float32_is_refused_with_its_line(tmp_path):
    # 1e308 is a finite float64, but the hashed rows are float32: it became inf
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\nx,1.5,1\ny,1e308,0\n")
    refused(streamed(path, hash_bits=8), str(path), "line 3", "float32")
    path.write_text("a,b,label\nx,1.5,1\ny,3e38,0\n")
    (block,) = streamed(path, hash_bits=8)()
    assert np.isfinite(block.data).all() and block.data.max() == np.float32(3e38)


def test_a_corrupt_parquet_page_names_the_file(tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow as pa
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(pa.table({"a": np.arange(400.0), "label": np.arange(400) % 2}), buf, compression="snappy")
    data = bytearray(buf.getvalue())
    data[40:60] = b"\xff" * 20  # inside the first data page: the footer still reads
    path = tmp_path / "d.parquet"
    path.write_bytes(bytes(data))
    refused(streamed(path), str(path), "Parquet")
    from perceptrons.io.readers import read_data

    refused(lambda: read_data(path), str(path), "Parquet")


# ---------------------------------------------------------------------- IDX
def idx(dtype_code, shape, payload):
    return bytes([0, 0, dtype_code, len(shape)]) + b"".join(int(d).to_bytes(4, "big") for d in shape) + payload


@pytest.mark.parametrize("cut", [5, 7, 9, 11])
def test_an_idx_header_cut_short_is_refused(tmp_path, cut):
    from perceptrons.io.idx import read_idx

    path = tmp_path / "d.idx"
    path.write_bytes(idx(0x08, (3, 4), bytes(12))[:cut])
    refused(lambda: read_idx(path), str(path), "IDX header of 2 dimensions needs 12 bytes")


def test_idx_floats_must_be_finite(tmp_path):
    from perceptrons.io.idx import read_idx

    path = tmp_path / "d.idx"
    path.write_bytes(idx(0x0D, (3,), np.array([1.0, np.nan, 2.0], ">f4").tobytes()))
    refused(lambda: read_idx(path), str(path), "NaN or infinity")
    path.write_bytes(idx(0x0D, (3,), np.array([1.0, -0.5, 2.0], ">f4").tobytes()))
    assert read_idx(path).tolist() == [1.0, -0.5, 2.0]


def test_a_corrupt_gzip_idx_is_refused(tmp_path):
    from perceptrons.io.idx import read_idx

    data = bytearray(gzip.compress(idx(0x08, (300,), bytes(range(256)) + bytes(44))))
    data[20:30] = b"\x00" * 10
    path = tmp_path / "d.idx.gz"
    path.write_bytes(bytes(data))
    refused(lambda: read_idx(path), str(path), "cannot read IDX data")


# ---------------------------------------------------------------------- CoNLL-U
TOKEN = "{i}\t{w}\t{w}\tNOUN\tNN\t_\t0\troot\t_\t_"


@pytest.mark.parametrize(
    "char, column",
    [("\r", "FORM"), ("\x0b", "FORM"), ("\x00", "LEMMA"), ("\x85", "FORM"), ("\u2028", "MISC"), ("\x7f", "FORM")],
)
def test_a_control_character_inside_a_field_is_refused_with_its_line(tmp_path, char, column):
    # Python's universal newlines (and other CoNLL-U readers) would break the line there
    from perceptrons.io.conllu import iter_conllu, read_conllu

    lines = [TOKEN.format(i=1, w="dogs"), TOKEN.format(i=2, w="bark")]
    fields = lines[1].split("\t")
    k = {"FORM": 1, "LEMMA": 2, "MISC": 9}[column]
    fields[k] = "ba" + char + "rk" if column != "MISC" else "_" + char
    lines[1] = "\t".join(fields)
    path = tmp_path / "d.conllu"
    path.write_bytes(("# text\n" + "\n".join(lines) + "\n\n").encode())
    expected = (f"{path}:3", f"column {k + 1} ({column})", f"U+{ord(char):04X}")
    refused(lambda: read_conllu(path), *expected)  # the compiled pass falls back to the line reader
    refused(lambda: list(iter_conllu(path)), *expected)


def test_a_comment_and_a_crlf_line_end_are_not_control_characters_in_a_field(tmp_path):
    from perceptrons.io.conllu import read_conllu

    path = tmp_path / "d.conllu"
    path.write_bytes(b"# a comment with \x0b inside\r\n" + TOKEN.format(i=1, w="dogs").encode() + b"\r\n\r\n")
    (s,) = read_conllu(path)
    assert s.words == ["dogs"] and s.tags == ["NOUN"]


# ---------------------------------------------------------------------- the commands
OVERFLOWING = "a,b,label\n0.5,-1.25,yes\n0.001,2.0,no\n0.0,1e308,yes\n4.0,-0.5,no\n"


def test_a_model_that_cannot_score_its_training_data_is_not_written(run_cli, tmp_path):
    # weights up to 1e308 overflow the scores of the training rows: the accuracy line cannot be
    # computed, the command fails, and it fails before writing (it used to write, then fail)
    data = tmp_path / "d.csv"
    data.write_text(OVERFLOWING)
    out = tmp_path / "m.npz"
    # unscaled: standardising refuses a column whose square overflows before any fit
    code, _, err = run_cli(["train", str(data), "--epochs", "2", "--scale", "none", "-o", str(out)])
    assert code == 2 and "overflowed" in err and not out.exists()


def test_an_error_after_training_is_the_only_line_on_stderr(run_cli, tmp_path):
    # the progress bar draws only on a terminal: redirected, it left an empty line above the error
    data = tmp_path / "d.csv"
    data.write_text(OVERFLOWING)
    code, _, err = run_cli(["train", str(data), "--epochs", "2", "-o", str(tmp_path / "m.npz")])
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: "), repr(err)
    # streamed and unscaled (scaled, the columns would not overflow), the overflow is found in
    # the epochs; it is named in the user's file, not the cache
    stream = ["--stream", "--scale", "none"]
    code, _, err = run_cli(["train", str(data), *stream, "--epochs", "2", "-o", str(tmp_path / "s.npz")])
    assert code == 2 and err.count("\n") == 1, repr(err)
    assert re.search(rf"{re.escape(str(data))}, data row [1-4]: a score overflowed", err), err
    assert sorted(os.listdir(tmp_path)) == ["d.csv"]


@pytest.mark.slow
@pytest.mark.cluster  # --workers 2: a LocalCluster
def test_a_worker_error_on_bad_data_is_one_line_without_the_workers_logs(tmp_path):
    pytest.importorskip("distributed")
    data = tmp_path / "d.csv"
    data.write_text(OVERFLOWING)
    out = tmp_path / "m.npz"
    r = subprocess.run(
        [sys.executable, "-m", "perceptrons", "train", str(data), "--workers", "2", "--epochs", "2"]
        + ["--scale", "none", "-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and not out.exists()
    assert r.stderr.count("\n") == 1 and "overflowed" in r.stderr, r.stderr


@pytest.mark.parametrize(
    "logger, message, shown",
    [
        ("distributed.worker", "Compute Failed\nKey: k\nException: \"PerceptronsError('row 2')\"\n", False),
        ("distributed.worker", "Compute Failed\nKey: k\nException: \"PerceptronsTypeError('x')\"\n", False),
        ("distributed.worker", "Compute Failed\nKey: k\nException: \"ZeroDivisionError('x')\"\n", True),
        ("distributed.worker", "Failed to communicate with scheduler during heartbeat.", False),
        ("distributed.worker.state_machine", "Async instruction for <Task> ended with CancelledError", False),
        ("distributed.worker", "Worker lost: tasks recomputed", True),
    ],
)
def test_the_worker_log_filter_drops_only_what_the_client_reports(logger, message, shown):
    from perceptrons.distributed._engine import _ReportedByClient

    record = logging.LogRecord(logger, logging.ERROR, __file__, 1, message, (), None)
    assert bool(_ReportedByClient().filter(record)) == shown


def test_the_fuzzers_checks_catch_a_reader_that_lets_a_bad_value_through(tmp_path, monkeypatch):
    # the checks can fail: the in-memory reader, made to return an infinite value, is "broken"
    import perceptrons.io.readers as readers

    real = readers.read_data

    def leaky(path, **kw):
        X, y = real(path, **kw)
        X = X.copy()
        X[0, 0] = np.inf
        return X, y

    monkeypatch.setattr(readers, "read_data", leaky)
    filename, data = df.seed_files()["csv"]
    (tmp_path / filename).write_bytes(data)
    name, call = next(df.readers("csv", str(tmp_path / filename)))
    assert name == "read_data"
    with pytest.raises(df.Broken, match="X"):
        call()


# ---------------------------------------------------------------------- memory
@pytest.fixture
def one_gib(monkeypatch):
    import perceptrons._core.memory as memory

    monkeypatch.setattr(memory, "available_bytes", lambda: 1 << 30)


@pytest.mark.parametrize("stream", [False, True])
def test_weights_wider_than_memory_are_refused_before_they_are_made(run_cli, tmp_path, one_gib, stream):
    # one feature index of 2**28 asks for 2**28 weights (and coef_): numpy would hand out the
    # zeroed pages lazily, and the kernel kill the process once the loops touched them
    data = tmp_path / "d.svm"
    data.write_text(f"1 1:0.5\n-1 {2**28}:1.0\n")
    out = tmp_path / "m.npz"
    code, _, err = run_cli(["train", str(data), "-o", str(out), *(["--stream"] if stream else [])])
    assert code == 2 and err.count("\n") == 1, err
    # the column scales (the default model's pipeline) and the weights are checked together, first
    assert "the column scales and the weights of 268,435,456 features need" in err
    assert "GiB, more than this machine has available (1.0 GiB)" in err
    assert "renumber the features" in err
    assert sorted(os.listdir(tmp_path)) == ["d.svm"]


WIDE = 2**25  # columns: binary weights of float32 + coef_ of float64 take 0.375 GiB


@pytest.mark.parametrize(
    "name, classes, available, refused",
    [
        ("Perceptron", 2, 0.55, None),
        ("Perceptron", 3, 1.0, "for 3 classes need 1.1 GiB"),  # a row of weights a class
        ("AveragedPerceptron", 2, 0.55, "features need 0.6 GiB"),  # and the averaging sum u
        ("SequencePerceptron", 3, 1.0, "features and 0 edge features for 3 tags need 1.9 GiB"),  # and the final
    ],
)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # one epoch on three rows
def test_the_memory_check_counts_classes_averaging_and_tags(monkeypatch, name, classes, available, refused):
    import scipy.sparse as sp

    import perceptrons
    import perceptrons._core.memory as memory

    monkeypatch.setattr(memory, "available_bytes", lambda: int(available * 2**30))
    X = sp.csr_matrix((np.ones(3), ([0, 1, 2], [0, 1, 2])), shape=(3, WIDE))  # binary features
    y = [0, 1, 2] if classes == 3 else [0, 1, 0]
    kwargs = {"lengths": [3]} if name == "SequencePerceptron" else {}
    est = getattr(perceptrons, name)(max_epochs=1)
    if refused is None:
        est.fit(X, y, **kwargs)
        assert est.coef_.shape == (1, WIDE)
        return
    with pytest.raises(PerceptronsError, match=re.escape(refused) + ".*more than this machine has available"):
        est.fit(X, y, **kwargs)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # one epoch
def test_the_memory_check_counts_second_order_tag_triples(monkeypatch):
    # 200 tags: T³ = 8,000,000 triples, their weights, averaging sums and final weights 183 MiB;
    # first order needs a few MiB
    import perceptrons
    import perceptrons._core.memory as memory

    monkeypatch.setattr(memory, "available_bytes", lambda: 64 << 20)
    X = np.eye(200)
    y = np.arange(200)
    perceptrons.SequencePerceptron(max_epochs=1).fit(X, y, lengths=[200])
    with pytest.raises(PerceptronsError, match=r"for 200 tags with 8,000,000 tag triples need 0\.2 GiB"):
        perceptrons.SequencePerceptron(max_epochs=1, markov_order=2).fit(X, y, lengths=[200])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # one epoch
@pytest.mark.filterwarnings("ignore:The number of unique classes")  # one token a tag, on purpose
def test_the_memory_check_counts_the_decoding_tables(monkeypatch):
    # 40 tags, second order: 20,000 bytes a token of the longest sequence (its pair states),
    # 26,560 for the probabilities; 4,000 tokens need 80 MB and 106 MB
    import perceptrons
    import perceptrons._core.memory as memory

    X, y = np.eye(40), np.arange(40)
    clf = perceptrons.SequencePerceptron(max_epochs=1, markov_order=2).fit(X, y, lengths=[40])
    long = np.tile(X, (100, 1))
    monkeypatch.setattr(memory, "available_bytes", lambda: 64 << 20)
    for call in (clf.predict, lambda *a: clf.predict(*a, return_conf=True)):
        with pytest.raises(
            PerceptronsError, match=r"decoding tables of a 4,000-token sequence with 40 tags need 0\.1 GiB"
        ):
            call(long, [4000])
    assert clf.predict(long, [2000, 2000]).shape == (4000,)  # split: 40 MB
    with pytest.raises(PerceptronsError, match=r"4,000-token sequence .*\(markov_order=1\) needs T times less"):
        perceptrons.SequencePerceptron(max_epochs=1, markov_order=2).fit(long, np.tile(y, 100), lengths=[4000])
    first = perceptrons.SequencePerceptron(max_epochs=1).fit(long, np.tile(y, 100), lengths=[4000])  # 3.2 MB
    assert first.predict(long, [4000]).shape == (4000,)


def test_the_tagger_checks_its_decoding_tables(monkeypatch):
    import perceptrons._core.memory as memory
    from perceptrons import Tagger

    words = ["the", "dog", "runs", "fast", "."]
    tags = ["DT", "NN", "VBZ", "RB", "."]
    tagger = Tagger(markov_order=2, max_epochs=2, min_count=1).fit([words] * 3, [tags] * 3)
    monkeypatch.setattr(memory, "available_bytes", lambda: 64 << 20)
    long = words * 40_000  # 200,000 tokens: 5 tags of a second order need 400 bytes a token
    with pytest.raises(
        PerceptronsError, match=r"decoding tables of a 200,000-token sequence with 5 tags need 0\.1 GiB"
    ):
        tagger.tag(long)
    assert len(tagger.tag(words)) == 5

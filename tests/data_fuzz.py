"""Fuzzing of the data readers: mutate valid files of every format, read them, check the result.

``python tests/data_fuzz.py --cases 20000`` (``make fuzz``) writes one small valid file of each
format the library reads — CSV, TSV, LIBSVM, Vowpal Wabbit text (each also gzipped), Parquet,
``.npz``, CoNLL-U, plain text to tag, a Brown clusters file, a point set for ``vc``, IDX — then runs cases in worker
subprocesses.  Case *i* is drawn from ``default_rng([seed, i])``: one to three mutations of one
file, among

* bytes: bit flips, a byte replaced or inserted (NUL, CR, a lone UTF-8 lead or continuation
  byte, a byte order mark, each format's separators), a range deleted or repeated, a truncation;
* lines: one deleted, repeated, swapped with another, or split;
* numbers: one replaced by a hostile spelling (``1e999``, ``nan``, ``-0``, 2³¹, 2⁶³, 30 nines, ...);
* for ``.npz``, half the time its arrays rather than its bytes: another dtype, shape or special
  values (``model_fuzz.mutate_array``), an array removed or added;

and for a gzipped file, either its text is mutated and compressed again (so the mutation reaches
the parser) or its compressed bytes are.

Each case reads the mutated file through every reader of its format (one case in eight: of
another format, as a wrong ``--format`` does): the in-memory reader and the streaming one with
small blocks, as a user's command would.  Outcomes: *read* (every reader
returned rows that hold: finite values, CSR structure in range, one label a row) or *refused*
(every failing reader raised ``PerceptronsError`` with a one-line message naming the file).
Failures: any other exception, a result that does not hold, a message without the file, a
case that raised the worker's peak memory past :data:`MEMORY_BASE` plus
:data:`MEMORY_PER_INPUT_BYTE` per byte of its input, and a crash of the worker.  With ``--cli``, each case also runs the command a user would on the file
(``train``, ``train --stream``, ``predict``, ``evaluate``, ``analyze``, ``trace``, ``report``,
``tag train``, ``tag predict``, ``tag evaluate``, ``vc``): it must exit 0, or 2 with one line on
standard error and no new file.
"""

import contextlib
import gzip
import io
import os
import re
import sys
import tempfile
import time
import traceback

import numpy as np
from fuzz_harness import argument_parser, run_workers, summary, worker_loop
from model_fuzz import mutate_array

HOSTILE_BYTES = [
    b"\x00",
    b"\r",
    b"\n",
    b"\t",
    b" ",
    b":",
    b"|",
    b"#",
    b",",
    b'"',
    b"'",
    b"-",
    b"+",
    b"e",
    b".",
    b"_",
    b"=",
    b"\\",
    b"\xff",
    b"\xc3",
    b"\x80",
    b"\xef\xbb\xbf",
    "é".encode(),
    "\u2028".encode(),
    b"\x0b",
    b"\x0c",
]
HOSTILE_NUMBERS = [
    "1e999",
    "-1e999",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "-0",
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999999999999",
    "1e-400",
    "0x10",
    "1_000",
    "",
    "1e",
    "--1",
    "3.4e38",
    "1e308",
]
#: what no word or tag read from CoNLL-U holds: the tab, line breaks, other control characters
CONTROL = re.compile("[\x00-\x1f\x7f\x85\u2028\u2029]")
NUMBER = re.compile(rb"[-+]?\d+(\.\d*)?([eE][-+]?\d+)?")

ROWS = [
    ("1", [0.5, -1.25, 3.0, 0.0], "yes"),
    ("-1", [1e-3, 2.0, 0.0, 7.5], "no"),
    ("1", [0.0, 0.0, 1.0, -2.5e2], "yes"),
    ("-1", [4.0, -0.5, 0.25, 1.0], "no"),
]


def seed_files():
    """name → (file name, bytes): one small valid file of each format."""
    csv = "a,b,c,d,label\n" + "".join(",".join(map(repr, x)) + f",{t}\n" for _, x, t in ROWS)
    tsv = csv.replace(",", "\t")
    svm = "".join(f"{y} " + " ".join(f"{j + 1}:{v!r}" for j, v in enumerate(x) if v) + "\n" for y, x, _ in ROWS)
    svm = "# a comment\n" + svm + "1 qid:3 2:1 4:1 # end\n"
    vw = "".join(f"{y} 0.5 'r{k}|f a:{x[0]!r} b:{x[1]!r} |g w{k} c:{x[2]!r}\n" for k, (y, x, _) in enumerate(ROWS))
    conllu = (
        "# sent_id = 1\n1-2\tThedog\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tdog\tdog\tNOUN\tNN\t_\t3\tnsubj\t_\t_\n"
        "3\tbarks\tbark\tVERB\tVBZ\t_\t0\troot\t_\t_\n4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n"
        "# sent_id = 2\n1\tA\ta\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\tcat\tNOUN\tNN\t_\t3\tnsubj\t_\t_\n"
        "2.1\tsat\tsit\tVERB\tVBD\t_\t_\t_\t0:root\t_\n"
        "3\tsleeps\tsleep\tVERB\tVBZ\t_\t0\troot\t_\t_\n4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n"
    )
    files = {
        "csv": ("d.csv", csv.encode()),
        "tsv": ("d.tsv", tsv.encode()),
        "libsvm": ("d.svm", svm.encode()),
        "vw": ("d.vw", vw.encode()),
        "csv.gz": ("d.csv.gz", gzip.compress(csv.encode(), mtime=0)),
        "libsvm.gz": ("d.svm.gz", gzip.compress(svm.encode(), mtime=0)),
        "vw.gz": ("d.vw.gz", gzip.compress(vw.encode(), mtime=0)),
        "conllu": ("d.conllu", conllu.encode()),
        "text": ("d.txt", b"The dog barks .\nA cat sleeps .\n\nDogs bark .\n"),
        "clusters": ("c.paths", b"0\tthe\t10\n10\tdog\t3\n110\tcat\t2\n111\tbarks\n"),
        "npz": ("d.npz", _npz()),
        "parquet": ("d.parquet", _parquet(csv)),
        "points": ("p.txt", b"a 0 0\nb 1 0.5\nc -0.5 1\nd 2 2\n"),
        "idx": ("d.idx", b"\x00\x00\x08\x02" + (3).to_bytes(4, "big") + (4).to_bytes(4, "big") + bytes(range(12))),
    }
    return files


def _npz():
    buf = io.BytesIO()
    X = np.array([x for _, x, _ in ROWS])
    np.savez_compressed(buf, X=X, y=np.array([float(y) for y, _, _ in ROWS]))
    return buf.getvalue()


def _parquet(csv):
    import pyarrow.csv as pc
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(pc.read_csv(io.BytesIO(csv.encode())), buf, row_group_size=2)
    return buf.getvalue()


# ----------------------------------------------------------------------------- mutations
def mutate_text(rng, data, what):
    """One mutation of ``data``; its name is appended to ``what``."""
    n = len(data)
    kind = rng.integers(9)
    if kind == 0 and n:
        k = int(rng.integers(n))
        what.append(f"flip@{k}")
        return data[:k] + bytes([data[k] ^ (1 << int(rng.integers(8)))]) + data[k + 1 :]
    if kind in (1, 2):
        k = int(rng.integers(n + 1))
        b = HOSTILE_BYTES[rng.integers(len(HOSTILE_BYTES))]
        what.append(f"{'replace' if kind == 1 else 'insert'}@{k}={b!r}")
        return data[:k] + b + data[k + (kind == 1) :]
    if kind == 3 and n:
        a = int(rng.integers(n))
        b = min(n, a + int(rng.integers(1, 12)))
        what.append(f"delete@{a}:{b}")
        return data[:a] + data[b:]
    if kind == 4 and n:
        a = int(rng.integers(n))
        b = min(n, a + int(rng.integers(1, 40)))
        what.append(f"repeat@{a}:{b}")
        return data[:b] + data[a:b] * int(rng.integers(1, 4)) + data[b:]
    if kind == 5:
        k = int(rng.integers(n + 1))
        what.append(f"truncate@{k}")
        return data[:k]
    if kind == 6:
        numbers = list(NUMBER.finditer(data))
        if numbers:
            m = numbers[rng.integers(len(numbers))]
            v = HOSTILE_NUMBERS[rng.integers(len(HOSTILE_NUMBERS))]
            what.append(f"number@{m.start()}={v}")
            return data[: m.start()] + v.encode() + data[m.end() :]
    lines = data.split(b"\n")
    k = int(rng.integers(len(lines)))
    op = int(rng.integers(4))
    what.append(f"line{('-del', '-repeat', '-swap', '-split')[op]}@{k}")
    if op == 0:
        del lines[k]
    elif op == 1:
        lines.insert(k, lines[k])
    elif op == 2:
        j = int(rng.integers(len(lines)))
        lines[k], lines[j] = lines[j], lines[k]
    else:
        cut = int(rng.integers(len(lines[k]) + 1))
        lines[k : k + 1] = [lines[k][:cut], lines[k][cut:]]
    return b"\n".join(lines)


def mutate_npz(rng, data):
    """An ``.npz`` data set with one or two of its arrays changed (dtype, shape, values), or an
    array removed or added, written by numpy (stored or compressed)."""
    arrays = dict(np.load(io.BytesIO(data)))
    what = []
    for _ in range(int(rng.integers(1, 3))):
        name = ("X", "y", "other")[rng.integers(3)]
        if name == "other":
            k = ("X", "y")[rng.integers(2)]
            if rng.random() < 0.5:
                arrays.pop(k, None)
                what.append(f"{k} removed")
            else:
                arrays["w"] = arrays.get(k, np.zeros(3))
                what.append("w added")
        elif name in arrays:
            arrays[name], how = mutate_array(rng, arrays[name])
            what.append(f"{name} {how}")
    buf = io.BytesIO()
    (np.savez_compressed if rng.random() < 0.5 else np.savez)(buf, **arrays)
    return buf.getvalue(), "arrays: " + ", ".join(what)


def mutate(rng, name, data):
    """``(mutated bytes, description)``: 1–3 mutations; a gzip's text or its compressed bytes;
    for ``.npz``, half the time its arrays instead of its bytes."""
    if name == "npz" and rng.random() < 0.5:
        return mutate_npz(rng, data)
    what = []
    inner = name.endswith(".gz") and rng.random() < 0.7
    if inner:
        data = gzip.decompress(data)
    for _ in range(int(rng.integers(1, 4))):
        data = mutate_text(rng, data, what)
    if inner:
        data = gzip.compress(data, mtime=0)
        what.insert(0, "text")
    return data, " ".join(what)


# ----------------------------------------------------------------------------- what must hold
class Broken(AssertionError):
    """A reader returned what the rest of the library must not be given."""


def _labels_hold(y, unlabeled):
    """Finite labels; NaN too (an unlabeled example) where the reader was told to allow them."""
    return y.dtype.kind != "f" or np.all(np.isfinite(y) | (unlabeled & np.isnan(y)))


def check_rows(X, y, where, unlabeled=False):
    import scipy.sparse as sp

    n = y.shape[0]
    if y.ndim != 1 or not _labels_hold(y, unlabeled):
        raise Broken(f"{where}: labels {y!r}")
    if sp.issparse(X):
        check_csr(X.indptr, X.indices, X.data, n, X.shape[1], where)
    elif X.ndim != 2 or X.shape[0] != n or not np.isfinite(X).all():
        raise Broken(f"{where}: X {X.shape} for {n} labels, finite {np.isfinite(X).all()}")


def check_csr(indptr, indices, data, n, width, where):
    if indptr.shape != (n + 1,) or indptr[0] != 0 or np.any(np.diff(indptr) < 0) or indptr[-1] != indices.size:
        raise Broken(f"{where}: indptr {indptr} for {n} rows and {indices.size} indices")
    if indices.size and (indices.min() < 0 or (width is not None and indices.max() >= width)):
        raise Broken(f"{where}: indices {indices.min()}..{indices.max()} for width {width}")
    if data is not None and (data.shape != indices.shape or not np.isfinite(data).all()):
        raise Broken(f"{where}: values {data}")


def check_blocks(blocks, width, where, unlabeled=False, hashed=None):
    """Each block holds; a hashed source's CSR blocks are as wide as its hash space (a model
    trained on them must have a column for any name)."""
    for b in blocks:
        if hashed is not None and b.X is None and b.n_features != hashed and b.width:
            raise Broken(f"{where}: a hashed block {b.n_features} wide, not the hash space's {hashed}")
        if b.weight is not None and (b.weight.shape != b.y.shape or not np.isfinite(b.weight).all()):
            raise Broken(f"{where}: importances {b.weight}")
        if not _labels_hold(b.y, unlabeled):
            raise Broken(f"{where}: labels {b.y}")
        if b.X is not None:
            if b.X.shape[0] != b.n_rows or not np.isfinite(b.X).all():
                raise Broken(f"{where}: X {b.X.shape} for {b.n_rows} labels")
        else:
            check_csr(b.indptr, b.indices, b.data, b.n_rows, width, where)


def check_sentences(sentences, where):
    for s in sentences:
        if len(s.words) != len(s.tags) or not s.words:
            raise Broken(f"{where}: {len(s.words)} words and {len(s.tags)} tags")
        for t in (*s.words, *s.tags):
            if not isinstance(t, str) or not t or CONTROL.search(t):
                raise Broken(f"{where}: token {t!r}")


def readers(name, path):
    """(reader name, call) for every reader of the format ``name``; a call checks what it reads."""
    from perceptrons.io.readers import read_data
    from perceptrons.io.sources import Source

    fmt = name.removesuffix(".gz")
    if fmt in ("csv", "tsv", "libsvm", "vw", "parquet"):
        if not name.endswith(".gz"):  # the in-memory readers take plain files
            yield "read_data", lambda: check_rows(*read_data(path, fmt=fmt), "read_data")
        for hash_bits in (None, 6, 2):  # 2 bits: narrower than the LIBSVM seed's indices
            src = Source(path, fmt, hash_bits=hash_bits, block_bytes=64)
            yield (
                f"stream(hash_bits={hash_bits})",
                lambda src=src: check_blocks(src.blocks(), src.hashed_width, "stream", hashed=src.hashed_width),
            )
        if fmt in ("csv", "tsv", "parquet"):  # a column of raw text, tokenised and hashed
            src = Source(path, fmt, text="a", block_bytes=64)
            yield (
                "stream(text=a)",
                lambda: check_blocks(src.blocks(), src.hashed_width, "stream", hashed=src.hashed_width),
            )
        if fmt != "libsvm":  # what `predict` reads: rows without a label too
            if fmt == "vw" or not name.endswith(".gz"):
                yield (
                    "read_data(require_labels=False)",
                    lambda: check_rows(*read_data(path, fmt=fmt, require_labels=False), "read_data", unlabeled=True),
                )
            src = Source(path, fmt, block_bytes=64, require_labels=False)
            yield "stream(unlabeled)", lambda: check_blocks(src.blocks(), src.hashed_width, "stream", unlabeled=True)
    elif fmt == "npz":
        yield "read_data", lambda: check_rows(*read_data(path, fmt="npz"), "read_data")
    elif fmt == "conllu":
        from types import SimpleNamespace

        from perceptrons.io.conllu import iter_conllu, read_conllu
        from perceptrons.io.conllu_stream import stream_conllu
        from perceptrons.structured.corpus import read_corpus

        def corpus(c):
            numbered = read_corpus(path, c)
            return [SimpleNamespace(words=w, tags=t) for w, t in zip(numbered.words(), numbered.tags())]

        for column in ("upos", "xpos"):
            yield f"read_conllu({column})", lambda c=column: check_sentences(read_conllu(path, c, True), "read")
            yield f"iter_conllu({column})", lambda c=column: check_sentences(list(iter_conllu(path, c)), "iter")
            yield (
                f"stream_conllu({column})",
                lambda c=column: check_sentences(list(stream_conllu(path, c, True, block_bytes=64)), "stream"),
            )
            yield f"read_corpus({column})", lambda c=column: check_sentences(corpus(c), "corpus")
    elif fmt == "clusters":
        from perceptrons.structured.clusters import load_clusters

        def clusters():
            c = load_clusters(path)
            if any(not p or p.strip("01") for p in c.paths.values()):
                raise Broken(f"clusters: {c.paths}")

        yield "load_clusters", clusters
    elif fmt == "text":  # what `tag predict` reads from a file that is not CoNLL-U
        from perceptrons.io.lines import utf8_lines

        yield "utf8_lines", lambda: [line.split() for _, line in utf8_lines(path)]

        def raw():  # `tag predict --pretrained`: the text cut into sentences and words
            from perceptrons.text.sentences import sentence_word_spans

            for _, line in utf8_lines(path):
                cut = sentence_word_spans(line)
                spans = [span for words in cut for span in words]
                if not all(cut) or any(b <= a or a < d for (_, d), (a, b) in zip([(0, 0), *spans], spans)):
                    raise Broken(f"raw text: {line!r} cut into {cut}")

        yield "sentence_word_spans", raw
    elif fmt == "points":  # `vc --points`
        from perceptrons.cli.vc import read_points

        def points():
            names, P = read_points(path)
            if len(names) != P.shape[0] or not np.isfinite(P).all():
                raise Broken(f"points: {names} {P}")

        yield "read_points", points
    elif fmt == "idx":
        from perceptrons.io.idx import read_idx

        yield "read_idx", lambda: read_idx(path)


#: the most a case may add to the worker's peak memory: room for a first compilation (numba,
#: LLVM) and the readers' buffers, plus a generous share per input byte.  A reader or command
#: that densified a sparse file of a few bytes standing for gigabytes would pass it by far.
MEMORY_BASE = 512 << 20
MEMORY_PER_INPUT_BYTE = 10_000


def peak_rss():
    """This process's peak resident memory (``VmHWM``), in bytes, or 0 where it cannot be read."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        return 0


def run_case(files, names, seed, i, workdir, cli=None):
    from perceptrons._core.errors import PerceptronsError

    before = peak_rss()
    rng = np.random.default_rng([seed, i])
    base = names[rng.integers(len(names))]
    filename, data = files[base]
    path = os.path.join(workdir, f"case{i}-{filename}")
    # one case in eight reads the file as another format, as a wrong --format does
    fmt = names[rng.integers(len(names))] if rng.random() < 0.125 else base
    try:
        mutated, what = mutate(rng, base, data)
        if fmt != base:
            what = f"read as {fmt}: {what}"
        with open(path, "wb") as f:
            f.write(mutated)
    except Exception as exc:  # noqa: BLE001 - a bug of the fuzzer, reported as such
        return "harness-error", base, "", f"{type(exc).__name__}: {exc}"[:200]
    outcome = "read"
    try:
        for reader, call in readers(fmt, path):
            try:
                call()
            except PerceptronsError as exc:
                msg = str(exc)
                if "\n" in msg or path not in msg:
                    return "bad-message", base, what, f"{reader}: {msg[:200]}"
                outcome = "refused"
            except Broken as exc:
                return "broken", base, what, f"{reader}: {str(exc)[:200]}"
        if cli is not None:
            problem = cli(fmt, path)
            if problem:
                return "cli", base, what, problem
        grown = peak_rss() - before
        if grown > MEMORY_BASE + MEMORY_PER_INPUT_BYTE * len(mutated):
            return "memory", base, what, f"peak RSS grew {grown >> 20} MiB for a {len(mutated)}-byte input"
        return outcome, base, what, ""
    except Exception as exc:  # noqa: BLE001 - the point is to catch what the readers let through
        tb = traceback.format_exc().strip().splitlines()
        where = tb[-3].strip()[:120] if len(tb) > 2 else ""
        return "exception", base, what, f"{type(exc).__name__}: {str(exc)[:160]} @ {where}"
    finally:
        if os.path.exists(path):
            os.unlink(path)


# ----------------------------------------------------------------------------- the CLI
def cli_runner(workdir):
    """A check of the command a user runs on a file: exit 0, or 2 with one line and no output file."""
    from perceptrons.cli import main

    def run(argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(argv)
                code = 0
            except SystemExit as exc:
                code = exc.code
        return code, err.getvalue()

    # a model trained on each seed that predict/evaluate can take (the file's own format)
    models = {}
    seeds = seed_files()
    trainings = {
        "csv": ["train"],
        "tsv": ["train"],
        "libsvm": ["train"],
        "vw": ["train", "--stream"],
        "parquet": ["train"],
        "npz": ["train"],
        "conllu": ["tag", "train", "--epochs", "2"],
    }
    for name, argv in trainings.items():
        src = os.path.join(workdir, seeds[name][0])
        with open(src, "wb") as f:
            f.write(seeds[name][1])
        models[name] = os.path.join(workdir, f"{name}.npz.model")
        code, err = run([*argv, src, "-o", models[name]])
        assert code == 0, err

    def commands(name, path, out):
        fmt = name.removesuffix(".gz")
        if fmt in ("csv", "tsv", "libsvm", "vw", "parquet", "npz"):
            given = ["--format", fmt]  # the file's own format, or another one, as a user may give
            yield ["train", path, *given, "--epochs", "2", "-o", out]
            if fmt != "npz":
                yield ["train", path, *given, "--stream", "--epochs", "2", "-o", out]
                # the epoch cache of the run before, read back (or rebuilt) under another option
                yield ["train", path, *given, "--stream", "--epochs", "2", "--cache", out + ".cache", "-o", out]
                yield ["train", path, *given, "--stream", "--hash-bits", "6", "--cache", out + ".cache", "-o", out]
            stream = [[], ["--stream"]] if fmt != "npz" else [[]]
            for streamed in stream:
                yield ["predict", models[fmt], path, *given, *streamed, "-o", out]
                yield ["evaluate", models[fmt], path, *given, *streamed]
            yield ["analyze", path, *given, "--max-epochs", "50"]
            yield ["trace", path, *given, "--epochs", "3"]
            yield ["report", path, *given, "--epochs", "20", "-o", out]
        elif fmt == "conllu":
            yield ["tag", "train", path, "--epochs", "2", "-o", out]
            yield ["tag", "train", path, "--stream", "--chunk-sentences", "1", "--epochs", "2", "-o", out]
            yield ["tag", "predict", models["conllu"], path, "--format", "conllu", "-o", out]
            yield ["tag", "predict", models["conllu"], path, "--format", "conllu", "--confidence", "-o", out]
            yield ["tag", "evaluate", models["conllu"], path]
        elif fmt == "text":
            for given in ("text", "conllu"):  # the file's format, and a wrong --format
                yield ["tag", "predict", models["conllu"], path, "--format", given, "-o", out]
            yield ["tag", "predict", models["conllu"], path, "--format", "text", "--confidence", "-o", out]
            yield ["tag", "predict", "--pretrained", "en", path, "-o", out]
            yield ["tag", "predict", "--pretrained", "en", path, "--format", "conllu", "-o", out]
        elif fmt == "points":
            for concept in ("halfplanes", "disks", "rectangles"):
                yield ["vc", "--concept", concept, "--points", path]
        elif fmt == "clusters":
            yield ["tag", "train", os.path.join(workdir, seeds["conllu"][0]), "--clusters", path, "-o", out]

    def check(name, path):
        """The commands that read ``path`` as the format ``name``: a problem, or ""."""
        out = path + ".out"
        cache = out + ".cache"
        try:
            for argv in commands(name, path, out):
                had_cache = os.path.exists(cache)  # an earlier command's, which this one may read back
                code, err = run(argv)
                written = [p for p in (out, cache) if os.path.exists(p) and not (p == cache and had_cache)]
                if code == 0:
                    if os.path.exists(out):
                        os.unlink(out)
                    if "--cache" not in argv and os.path.exists(cache):  # the default cache: not kept
                        os.unlink(cache)
                    continue
                if code != 2 or err.count("\n") != 1 or not err.startswith("error: "):
                    return f"{' '.join(argv[:2])}: exit {code}: {err[-300:]!r}"
                if written:
                    return f"{' '.join(argv[:2])}: exit 2 but {written} written"
            return ""
        finally:
            if os.path.exists(cache):
                os.unlink(cache)

    return check


def worker(args):
    files = seed_files()
    names = sorted(files)
    with tempfile.TemporaryDirectory() as workdir:
        cli = cli_runner(workdir) if args.cli else None
        worker_loop(args.start, args.stop, lambda i: run_case(files, names, args.seed, i, workdir, cli))


FAILING = {"exception", "broken", "bad-message", "cli", "harness-error", "memory"}


def fuzz(cases, seed=0, workers=2, cli=False):
    """Run ``cases`` cases in worker subprocesses; returns (counts, failures)."""
    counts, failures, _ = run_workers(__file__, cases, seed, workers, FAILING, extra=["--cli"] if cli else [])
    return counts, failures


def main():
    ap = argument_parser(__doc__, default_cases=20000)
    ap.add_argument("--cli", action="store_true", help="also run the user's commands on each file")
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return 0
    t0 = time.perf_counter()
    counts, failures = fuzz(args.cases, args.seed, args.workers, args.cli)
    return summary(args, counts, failures, time.perf_counter() - t0, shown=80)


if __name__ == "__main__":
    sys.exit(main())

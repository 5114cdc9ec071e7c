"""Fuzzing of the model loader: mutate valid model files of every estimator, load, use.

``python tests/model_fuzz.py --cases 10000`` (``make fuzz``) builds valid model files of every
estimator and variant, then runs cases in worker subprocesses.  Case *i* is drawn from
``default_rng([seed, i])``: one mutation of one model file —

* raw bytes: bit flips, truncations (checksum left as it is);
* arrays: another dtype, another shape, special values (−1, the size, 2³¹, 2⁶³ − 1, NaN, ±inf,
  1e308), huge finite values in float64 (beyond float32, large enough to overflow a score),
  character codes beyond Unicode or lone surrogates in text, removed, added, renamed;
* metadata: any field, at any depth, replaced by another JSON type, removed or added;
* container: compressed members, duplicate or extra members, Fortran order, big-endian,
  a pickled object array, a header declaring a huge shape, deep JSON nesting;

with the checksum recomputed after every mutation but the raw-byte ones, so the mutated
content reaches the loader's field checks.  A loaded model is then used: its float arrays must
be finite, and ``predict`` / ``decision_function`` / ``partial_fit`` / ``tag`` run on it.

Outcomes: *refused* (``PerceptronsError`` at load), *used* (loaded and used without error),
*refused at use* (``PerceptronsError`` from predict: allowed, but counted); failures are a crash
(the worker died: a signal or an abort — the next worker resumes after the case), any other
exception, and an accepted model holding a non-finite weight.
"""

import argparse
import io
import json
import os
import sys
import tempfile
import time
import traceback
import zipfile
from pathlib import Path

import numpy as np
from fuzz_harness import argument_parser, run_workers, summary, worker_loop

SPECIALS = [
    -1,
    0,
    1,
    2**31,
    2**31 - 1,
    2**63 - 1,
    -(2**63),
    255,
    float("nan"),
    float("inf"),
    float("-inf"),
    1e308,
    -1e308,
    0.5,
]
JSON_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2**31,
    2**64,
    -(2**70),
    0.5,
    -1e308,
    1e308,
    "",
    "x",
    "rbf",
    [],
    [1, 2],
    ["a"],
    {},
    {"a": 1},
    {"__dict__": [[1, 2]]},
    [[[[[]]]]],
    "A" * 1000,
]
DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex128",
    "<U3",
    "S3",
    ">f8",
    ">i8",
]


# ----------------------------------------------------------------------------- valid models
def corpus():
    words = "the dog runs fast . a cat sleeps here . dogs and cats play together".split()
    tags = {
        "the": "DET",
        "a": "DET",
        "dog": "NOUN",
        "cat": "NOUN",
        "dogs": "NOUN",
        "cats": "NOUN",
        ".": "PUNCT",
        "runs": "VERB",
        "sleeps": "VERB",
        "play": "VERB",
        "fast": "ADV",
        "here": "ADV",
        "and": "CCONJ",
        "together": "ADV",
    }
    sents = [words[0:5], words[5:10], words[10:]]
    return sents, [[tags[w] for w in s] for s in sents]


def build_models(directory):
    """Valid model files of every estimator and variant: {name: path}."""
    import scipy.sparse as sp

    from perceptrons import (
        ALMA,
        AROW,
        ROMMA,
        SCW,
        AveragedPerceptron,
        KernelPerceptron,
        PassiveAggressive,
        PassiveAggressiveClassifier,
        Perceptron,
        PocketPerceptron,
        SequencePerceptron,
        Tagger,
        VotedPerceptron,
        Winnow,
        save_model,
    )

    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    y2 = (X[:, 0] > 0).astype(int)
    y3 = np.argmax(X, axis=1)
    Xs = sp.csr_matrix(np.where(np.abs(X) > 0.5, X, 0).astype(np.float32))
    specs = {
        "perceptron": (Perceptron(max_epochs=3), X, y2),
        "perceptron3": (Perceptron(max_epochs=3), X, np.array(["a", "b", "c"])[y3]),
        "pocket": (PocketPerceptron(max_epochs=3), X, y2),
        "pocket3": (PocketPerceptron(max_epochs=3, ratchet=False), X, y3),
        "averaged": (AveragedPerceptron(max_epochs=3), Xs, y2),
        "averaged3": (AveragedPerceptron(max_epochs=3, class_weight={0: 1.0, 1: 2.0, 2: 1.0}), X, y3),
        "voted": (VotedPerceptron(max_epochs=3), X, y2),
        "voted3": (VotedPerceptron(max_epochs=3, max_vectors=4), X, y3),
        "kernel": (KernelPerceptron(max_epochs=3), X, y2),
        "kernel_avg3": (KernelPerceptron(kernel="poly", averaged=True, max_epochs=3), X, y3),
        "kernel_voted": (KernelPerceptron(voted=True, max_epochs=3), X, y2),
        "kernel_voted3": (KernelPerceptron(voted=True, max_epochs=3), X, y3),
        "kernel_budget": (KernelPerceptron(budget=5, max_epochs=3, random_state=0), X, y2),
        "kernel_pre": (KernelPerceptron(kernel="precomputed", max_epochs=3), X @ X.T, y2),
        # the online family: its extra state (a covariance, full as a square root or diagonal;
        # negative weights; a scale and a count) and scikit-learn's PA with its averaged arrays
        "pa_avg3": (PassiveAggressive(average=True, max_epochs=3), X, y3),
        "arow_full": (AROW(covariance="full", max_epochs=3), X, y2),
        "arow_diag3": (AROW(covariance="diagonal", average=True, max_epochs=3), Xs, y3),
        "scw2": (SCW(variant="II", max_epochs=3), X, y2),
        "alma3": (ALMA(max_epochs=3), X, y3),
        "romma": (ROMMA(aggressive=True, max_epochs=3), X, y2),
        "winnow3": (Winnow(max_epochs=3), (np.abs(X) > 0.5).astype(float), y3),
        "sklearn_pa_avg3": (PassiveAggressiveClassifier(average=True, max_iter=3, tol=None), X, y3),
    }
    paths = {}
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (est, Xf, yf) in specs.items():
            est.fit(Xf, yf)
            paths[name] = os.path.join(directory, name + ".npz")
            save_model(est, paths[name])
        for name, (pipe, Xf, yf) in pipelines(rng).items():  # the command line's models: a column pipeline first
            pipe.fit(Xf, yf)
            paths[name] = os.path.join(directory, name + ".npz")
            save_model(pipe, paths[name], info={"label_column": "y"})
        sents, tags = corpus()
        for name, kw in {"seq": {}, "seq2": {"markov_order": 2}}.items():
            lengths = [3, 4, 5]
            Xq = sp.csr_matrix((rng.random((12, 6)) > 0.5).astype(float))
            yq = np.array(["D", "N", "V"])[rng.integers(0, 3, 12)]
            est = SequencePerceptron(max_epochs=3, **kw).fit(Xq, yq, lengths=lengths)
            paths[name] = os.path.join(directory, name + ".npz")
            save_model(est, paths[name])
        clusters = os.path.join(directory, "paths")
        with open(clusters, "w") as f:
            for i, w in enumerate(sorted({w for s in sents for w in s})):
                f.write(f"{format(i + 2, 'b')}\t{w}\t3\n")
        for name, kw in {"tagger": {}, "tagger_clusters": {"clusters": clusters}}.items():
            est = Tagger(max_epochs=2, **kw).fit(sents, tags)
            paths[name] = os.path.join(directory, name + ".npz")
            save_model(est, paths[name], info={"tag_column": "upos"})  # as `tag train` writes it
    return paths


def pipelines(rng):
    """Pipelines of every transformer a model file holds, each ending in one of our estimators,
    and scikit-learn's calibration of ours, in a pipeline and alone."""
    import scipy.sparse as sp
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.compose import ColumnTransformer
    from sklearn.feature_extraction import FeatureHasher
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MaxAbsScaler, OneHotEncoder, StandardScaler

    from perceptrons import AveragedPerceptron, KernelPerceptron, Perceptron
    from perceptrons.column_scaler import ColumnStandardScaler

    X = rng.standard_normal((40, 3)) * [1, 100, 5000]
    X[::6, 1] = np.nan
    y = (X[:, 0] > 0).astype(int)
    T = np.empty((40, 4), dtype=object)
    T[:, :2] = X[:, :2]
    T[:, 2] = rng.choice(["red", "green", "blue"], 40)
    T[:, 3] = [f"id{i}" for i in rng.integers(0, 30, 40)]
    T[::5, 2] = np.nan
    used = np.sort(rng.choice(5000, 12, replace=False))
    W = sp.csr_matrix(
        (np.nan_to_num(X).repeat(4, axis=1).ravel(), np.tile(used, 40), np.arange(0, 481, 12)), (40, 5000)
    )
    fill = {"strategy": "constant", "fill_value": "<missing>"}
    columns = ColumnTransformer(
        [
            ("numbers", make_pipeline(SimpleImputer(add_indicator=True), StandardScaler()), [0, 1]),
            ("text2", make_pipeline(SimpleImputer(**fill), OneHotEncoder(handle_unknown="ignore")), [2]),
            ("text3", make_pipeline(SimpleImputer(**fill), FeatureHasher(n_features=16, input_type="string")), [3]),
        ]
    )
    return {
        "pipe_table": (make_pipeline(columns, AveragedPerceptron(max_epochs=3)), T, y),
        "pipe_dense": (make_pipeline(SimpleImputer(), StandardScaler(), Perceptron(max_epochs=3)), X, y),
        "pipe_maxabs": (
            make_pipeline(SimpleImputer(strategy="median"), MaxAbsScaler(), KernelPerceptron(max_epochs=2)),
            X,
            y,
        ),
        # a hashed space's scalers: 12 columns of 5000 used, so the file lists the columns
        "pipe_wide": (make_pipeline(MaxAbsScaler(), StandardScaler(with_mean=False), Perceptron(max_epochs=3)), W, y),
        # a streamed table's: its columns of numbers standardised among hashed text
        "pipe_column_scaler": (
            make_pipeline(ColumnStandardScaler(columns=used[:5]), AveragedPerceptron(max_epochs=3)),
            W,
            y,
        ),
        # calibrated: the command line's --calibrate, isotonic on three classes and Platt's sigmoid
        "pipe_isotonic": (
            make_pipeline(
                columns, CalibratedClassifierCV(AveragedPerceptron(max_epochs=3), method="isotonic", ensemble=False)
            ),
            T,
            np.digitize(X[:, 0], [-0.5, 0.5]),
        ),
        "calibrated": (
            CalibratedClassifierCV(Perceptron(max_epochs=3), method="sigmoid", cv=3, ensemble=False),
            np.nan_to_num(X),
            y,
        ),
    }


# ----------------------------------------------------------------------------- raw access
def read_raw(path):
    """(meta, arrays, member order) of one of *our* files, read without the loader's checks."""
    with zipfile.ZipFile(path) as z:
        order = [n[:-4] for n in z.namelist()]
        arrays = {n[:-4]: np.load(io.BytesIO(z.read(n)), allow_pickle=False) for n in z.namelist()}
    meta = json.loads(bytes(arrays.pop("__meta__")).decode())
    meta.pop("sha256")
    return meta, arrays, order


def npy_bytes(a, allow_pickle=False, version=None):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, a, allow_pickle=allow_pickle)
    else:
        np.lib.format.write_array(buf, a, version=version, allow_pickle=allow_pickle)
    return buf.getvalue()


def write_raw(path, meta, arrays, *, checksum=True, compress=False, extra=(), members=None, splice=None):
    """A model file with the checksum recomputed (``_digest`` of the mutated content);
    ``splice`` (text) replaces the metadata's closing brace, for JSON json.dumps cannot write."""
    from perceptrons.io.model_file import _digest

    meta = dict(meta)
    if checksum:
        try:
            meta["sha256"] = _digest(meta, arrays)
        except (TypeError, ValueError):  # an array the digest cannot hash: write it anyway
            meta["sha256"] = "0" * 64
    text = json.dumps(meta)
    if splice is not None:
        text = text[:-1] + splice + "}"
    blob = np.frombuffer(text.encode(), dtype=np.uint8)
    if members is None:
        members = [("__meta__.npy", npy_bytes(blob))]
        for k, v in arrays.items():
            members.append((k + ".npy", npy_bytes(v, allow_pickle=v.dtype.hasobject)))
    members = list(members) + list(extra)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as z:
        for name, payload in members:
            z.writestr(name, payload)


# ----------------------------------------------------------------------------- mutations
def _paths(value, prefix=()):
    """Every path to a value in nested JSON."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _set(root, path, value, delete=False):
    node = root
    for p in path[:-1]:
        node = node[p]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value


def mutate_array(rng, a):
    """One change of an array's dtype, shape or values."""
    how = rng.integers(0, 3)
    if how == 0:
        dt = np.dtype(DTYPES[rng.integers(len(DTYPES))])
        try:
            return a.astype(dt), f"dtype {dt.str}"
        except (ValueError, TypeError, OverflowError):
            return np.zeros(a.shape, dt), f"dtype {dt.str} (zeros)"
    if how == 1:
        choice = rng.integers(0, 6)
        if choice == 0 and a.size:
            return a.reshape(-1)[:-1].copy(), "drop last"
        if choice == 1:
            return np.concatenate([a.reshape(-1), a.reshape(-1)[:1]]) if a.size else np.zeros(1, a.dtype), "one more"
        if choice == 2:
            return a[None].copy(), "extra axis"
        if choice == 3:
            return np.ascontiguousarray(a.T) if a.ndim > 1 else a.reshape(-1, 1), "transposed"
        if choice == 4:
            return np.zeros((0,) + a.shape[1:], a.dtype), "empty"
        return np.zeros((), a.dtype) if a.dtype.kind != "U" else np.array("x"), "0-d"
    b = a.copy()
    if b.size and b.dtype.kind == "U" and b.dtype.itemsize and rng.random() < 0.5:
        # numpy stores any 32-bit code: beyond U+10FFFF, or a lone surrogate
        code = (0x110000, 0xFFFFFFFF, 0xD800)[rng.integers(3)]
        b.view(np.uint32).reshape(-1)[rng.integers(b.size * (b.dtype.itemsize // 4))] = code
        return b, f"character code {code:#x}"
    if b.size and b.dtype.kind == "f" and rng.random() < 0.2:
        # finite, but beyond float32 and large enough for scores to overflow: a tagger's
        # float32 weights would become inf, a linear score inf or NaN
        b = b.astype(np.float64)
        b.reshape(-1)[rng.integers(b.size, size=rng.integers(1, 4))] = (1e300, -1e300, 1e39)[rng.integers(3)]
        return b, "huge finite values"
    if not b.size or b.dtype.kind not in "biuf":
        return b[::-1].copy(), "reversed"
    flat = b.reshape(-1)
    v = SPECIALS[rng.integers(len(SPECIALS))]
    special = rng.random() < 0.3
    if special:
        v = [a.size, len(a) if a.ndim else 1, int(a.max()) + 1 if a.dtype.kind in "iu" else 1.0][rng.integers(3)]
    try:
        with np.errstate(all="ignore"):
            flat[rng.integers(flat.size, size=rng.integers(1, 4))] = v
    except (OverflowError, ValueError):
        flat[rng.integers(flat.size)] = -1 if flat.dtype.kind == "i" else 0
    return b, f"value {v!r}"


def mutate(rng, src, dst):
    """Write one mutation of the file ``src`` to ``dst``; returns its description."""
    kind = [
        "bitflip",
        "truncate",
        "array",
        "array",
        "array",
        "array",
        "meta",
        "meta",
        "meta",
        "drop_array",
        "extra_array",
        "rename_array",
        "container",
    ][rng.integers(13)]
    blob = Path(src).read_bytes()
    if kind == "bitflip":
        data = bytearray(blob)
        for _ in range(rng.integers(1, 9)):
            pos = rng.integers(len(data))
            data[pos] ^= 1 << int(rng.integers(8))
        Path(dst).write_bytes(bytes(data))
        return kind
    if kind == "truncate":
        Path(dst).write_bytes(blob[: rng.integers(len(blob))])
        return kind
    meta, arrays, order = read_raw(src)
    names = sorted(arrays)
    name = names[rng.integers(len(names))]
    if kind == "array":
        arrays[name], what = mutate_array(rng, arrays[name])
        write_raw(dst, meta, arrays)
        return f"array {name}: {what}"
    if kind == "drop_array":
        del arrays[name]
        write_raw(dst, meta, arrays)
        return f"drop {name}"
    if kind == "extra_array":
        arrays["zz_extra"] = np.zeros(3)
        write_raw(dst, meta, arrays)
        return "extra array"
    if kind == "rename_array":
        arrays[name + "_x"] = arrays.pop(name)
        write_raw(dst, meta, arrays)
        return f"rename {name}"
    if kind == "meta":
        paths = [p for p in _paths(meta) if p]
        path = paths[rng.integers(len(paths))]
        r = rng.random()
        if r < 0.15 and isinstance(path[-1], str):
            _set(meta, path, None, delete=True)
            what = "deleted"
        elif r < 0.2:
            node = meta
            for p in path[:-1]:
                node = node[p]
            if isinstance(node, dict):
                node["zz_extra"] = 1
            what = "sibling added"
        else:
            v = JSON_VALUES[rng.integers(len(JSON_VALUES))]
            _set(meta, path, json.loads(json.dumps(v)))
            what = f"= {str(v)[:20]}"
        write_raw(dst, meta, arrays)
        return f"meta {'.'.join(map(str, path))} {what}"
    # container-level
    choice = rng.integers(0, 9)
    if choice == 0:
        write_raw(dst, meta, arrays, compress=True)
        return "compressed members"
    if choice == 1:
        write_raw(dst, meta, arrays, extra=[(name + ".npy", npy_bytes(arrays[name]))])
        return "duplicate member"
    if choice == 2:
        write_raw(dst, meta, arrays, extra=[(f"x{i}.npy", npy_bytes(np.zeros(1))) for i in range(100)])
        return "100 extra members"
    if choice == 3:
        arrays[name] = (
            np.asfortranarray(arrays[name])
            if arrays[name].ndim > 1
            else arrays[name].astype(arrays[name].dtype.newbyteorder(">"))
        )
        write_raw(dst, meta, arrays)
        return f"fortran/big-endian {name}"
    if choice == 4:
        arrays[name] = np.array([1, "x", None], dtype=object)
        write_raw(dst, meta, arrays)
        return f"pickled object array {name}"
    if choice == 5:  # a header declaring 2**40 float64 over a tiny body
        header = npy_bytes(np.zeros(2))
        fake = header.replace(b"(2,)", b"(1099511627776,)")
        members = [(n + ".npy", npy_bytes(a)) for n, a in arrays.items() if n != name]
        blob_meta = np.frombuffer(json.dumps(dict(meta, sha256="0" * 64)).encode(), dtype=np.uint8)
        write_raw(
            dst,
            meta,
            arrays,
            checksum=False,
            members=[("__meta__.npy", npy_bytes(blob_meta)), (name + ".npy", fake)] + members,
        )
        return f"huge header {name}"
    if choice == 6:
        depth = int(rng.integers(20, 200000))
        write_raw(dst, meta, arrays, splice=', "zz_deep": ' + "[" * depth + "1" + "]" * depth)
        return f"JSON nested {depth} deep"
    if choice == 7:
        write_raw(dst, meta, arrays, extra=[("notes.txt", b"hello")])
        return "non-array member"
    arrays[name] = arrays[name].copy()
    members = [("__meta__.npy", npy_bytes(np.frombuffer(json.dumps(dict(meta, sha256="0")).encode(), np.uint8)))]
    members += [(n + ".npy", npy_bytes(a, version=(3, 0) if n == name else None)) for n, a in arrays.items()]
    write_raw(dst, meta, arrays, checksum=False, members=members)
    return "npy version 3 member"


# ----------------------------------------------------------------------------- using a model
def float_arrays(obj, seen=None):
    """Every float ndarray an estimator holds (its attributes, state dicts, nested models)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    items = obj.items() if isinstance(obj, dict) else vars(obj).items() if hasattr(obj, "__dict__") else ()
    for k, v in items:
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            yield k, v
        elif isinstance(v, dict) or (hasattr(v, "__dict__") and type(v).__module__.startswith("perceptrons")):
            yield from float_arrays(v, seen)


def use(est):
    """Predict with a loaded model (and continue training where the estimator can)."""
    import scipy.sparse as sp

    name = type(est).__name__
    rng = np.random.default_rng(1)
    if name == "Pipeline":
        first = est.steps[0][1]
        X = rng.standard_normal((6, first.n_features_in_))
        if type(first).__name__ == "ColumnTransformer":
            X = X.astype(object)
            for part, _, cols in first.transformers_:
                if part.startswith("text"):
                    X[:, cols] = rng.choice(["red", "blue", "never seen"], (6, len(cols)))
        est.predict(X)
        est.predict_proba(X) if hasattr(est, "predict_proba") else est.decision_function(X)
        return
    if name == "CalibratedClassifierCV":
        X = rng.standard_normal((6, est.n_features_in_))
        est.predict(X)
        est.predict_proba(X)
        return
    if name == "Tagger":
        sents, _ = corpus()
        est.predict(sents + [["unseen", "words", "here"]])
        est.tag(sents[0] + ["unseen"], return_conf=True, use_tagdict=False)
        est.predict(sents, return_conf=True)
        return
    if name == "SequencePerceptron":
        X = sp.csr_matrix((rng.random((7, est.n_features_in_)) > 0.5).astype(float))
        est.predict(X, lengths=[3, 4])
        est.predict(X, lengths=[3, 4], return_conf=True)
        return
    X = rng.standard_normal((6, est.n_features_in_))
    est.predict(X)
    est.decision_function(X)
    if hasattr(est, "partial_fit"):
        y = est.classes_[rng.integers(0, len(est.classes_), 6)]
        est.partial_fit(X, y)
        est.predict(X)


def run_case(models, names, seed, i, workdir):
    from perceptrons import load_model
    from perceptrons._core.errors import PerceptronsError

    rng = np.random.default_rng([seed, i])
    base = names[rng.integers(len(names))]
    dst = os.path.join(workdir, f"case{i}.npz")
    try:
        what = mutate(rng, models[base], dst)
    except Exception as exc:  # noqa: BLE001 - a bug of the fuzzer, reported as such
        return "harness-error", base, "", f"{type(exc).__name__}: {exc}"[:200]
    try:
        try:
            est = load_model(dst)
        except PerceptronsError as exc:
            msg = str(exc)
            ok = "\n" not in msg and dst in msg
            return ("refused" if ok else "bad-message"), base, what, msg[:200]
        bad = [k for k, v in float_arrays(est) if v.size and not np.isfinite(v).all()]
        if bad:
            return "nonfinite", base, what, ",".join(bad)
        try:
            use(est)
        except PerceptronsError as exc:
            return "refused-at-use", base, what, str(exc)[:200]
        return "used", base, what, ""
    except Exception as exc:  # noqa: BLE001 - the point is to catch what the loader let through
        tb = traceback.format_exc().strip().splitlines()
        return (
            "exception",
            base,
            what,
            f"{type(exc).__name__}: {str(exc)[:160]} @ {tb[-3].strip()[:120] if len(tb) > 2 else ''}",
        )
    finally:
        if os.path.exists(dst):
            os.unlink(dst)


def worker(args):
    models = json.loads(Path(args.models).read_text())
    names = sorted(models)
    with tempfile.TemporaryDirectory() as workdir:
        worker_loop(args.start, args.stop, lambda i: run_case(models, names, args.seed, i, workdir))


# ----------------------------------------------------------------------------- the harness
FAILING = {"exception", "nonfinite", "bad-message", "harness-error"}


def fuzz(cases, seed=0, workers=2):
    """Run ``cases`` cases in worker subprocesses; returns (counts, failures, the cases used or
    refused at use)."""
    with tempfile.TemporaryDirectory() as d:
        index = os.path.join(d, "models.json")
        Path(index).write_text(json.dumps(build_models(d)))
        return run_workers(
            __file__, cases, seed, workers, FAILING, noted={"refused-at-use", "used"}, extra=["--models", index]
        )


def main():
    ap = argument_parser(__doc__, default_cases=10000)
    ap.add_argument("--verbose", action="store_true", help="also list the cases refused at use and used")
    ap.add_argument("--models", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return 0
    t0 = time.perf_counter()
    counts, failures, notes = fuzz(args.cases, args.seed, args.workers)
    if args.verbose:
        for f in sorted(notes, key=lambda n: n[1] == "used")[:300]:
            print("NOTE", *f)
    return summary(args, counts, failures, time.perf_counter() - t0)


if __name__ == "__main__":
    sys.exit(main())

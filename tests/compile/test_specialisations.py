"""One compiled specialisation per storage and dtype: no loop is compiled twice for
arrays that differ only in their writeable flag, nor for a literal integer beside an int64.

numba types an argument by its dtype, dimensions and layout, but also by whether the array is
writeable and whether an integer is a literal constant.  Each such difference compiled a loop
again: 5.5 s on a fresh install for the tagger's first word beyond ASCII after an ASCII one,
~20 ms of cache load in every process after (:mod:`perceptrons._core.readonly`).  A workload of the
public paths runs in a fresh process, so that the signatures seen are its own: taggers fitted
and loaded, ASCII and other words, one sentence and a corpus, with probabilities; the linear
and kernel estimators on writable rows, a read-only memory map and CSR, fitted and loaded; a
streamed fit; the separability test, whose perceptron runs the estimators' epoch loop.
Booleans that are literal on purpose (a loop's variants chosen at compile time) are left alone.
"""

import json
import os
import re
import subprocess
import sys

import pytest

WORKLOAD = r"""
import importlib, json, pkgutil, sys
import numpy as np, scipy.sparse as sp
import numba
import perceptrons
import perceptrons._jit
from perceptrons import stream
from perceptrons.io.conllu import read_conllu
from perceptrons.persistence import load_model, save_model
from perceptrons.structured.corpus import read_corpus
from perceptrons.structured.tagging import Tagger
from perceptrons.structured.tagger_stream import fit_stream

dev, tmp = sys.argv[1], sys.argv[2]
sents = read_conllu(dev)
plain = [s for s in sents if all(w.isascii() for w in s.words)][:400]
words, tags = [s.words for s in plain], [s.tags for s in plain]
everything = [s.words for s in sents]
tagger = Tagger(max_epochs=2).fit(words, tags, dev=(words[:50], tags[:50]))
save_model(tagger, f"{tmp}/tagger.model")
for m in (tagger, load_model(f"{tmp}/tagger.model")):
    m.tag(["The", "cat", "sat", "."])
    m.tag(["Zoë", "sat", "."])
    m.tag(["Naïve", "cats"], return_conf=True)
    m.predict(everything)
    m.predict(everything, return_conf=True)
Tagger(max_epochs=1).fit(read_corpus(dev, "upos")).predict(everything[:20])
fit_stream(Tagger(max_epochs=1, shuffle=False), [dev])

rng = np.random.default_rng(0)
X = rng.normal(size=(300, 8))
np.save(f"{tmp}/X.npy", X)
rows = (X, np.load(f"{tmp}/X.npy", mmap_mode="r"), sp.csr_matrix(X))
labels = ((X[:, 0] > 0).astype(int), np.digitize(X[:, 1], [-0.5, 0.5]))
names = ("Perceptron", "AveragedPerceptron", "VotedPerceptron", "PocketPerceptron", "KernelPerceptron")
for name in names:
    for y in labels:
        for data in rows:
            est = getattr(perceptrons, name)(max_epochs=2).fit(data, y)
            save_model(est, f"{tmp}/est.model")
            load_model(f"{tmp}/est.model").predict(data)
            est.predict(data)
with open(f"{tmp}/rows.svm", "w") as f:
    for label, row in zip(labels[0], X):
        f.write(f"{label} " + " ".join(f"{j + 1}:{v:.6f}" for j, v in enumerate(row)) + "\n")
stream.fit(perceptrons.Perceptron(max_epochs=2), f"{tmp}/rows.svm")
stream.fit(perceptrons.Perceptron(max_epochs=2), f"{tmp}/rows.svm", cache=f"{tmp}/rows.cache")
from perceptrons.theory import is_separable
is_separable(X, labels[0])

signatures = {}
for info in pkgutil.iter_modules(perceptrons._jit.__path__):
    mod = importlib.import_module("perceptrons._jit." + info.name)
    for name, f in vars(mod).items():
        if isinstance(f, numba.core.registry.CPUDispatcher) and f.__module__ == mod.__name__ and f.signatures:
            signatures[f"{info.name}.{name}"] = [[str(a) for a in sig] for sig in f.signatures]
print(json.dumps(signatures))
"""


def _accidental(arg):
    """An argument's type with what should not make a second specialisation taken out."""
    return re.sub(r"Literal\[int\]\(-?\d+\)", "int64", arg.replace("readonly ", ""))


def accidental_splits(signatures):
    """{kernel: [signatures…]} of the kernels compiled more than once for types that differ only
    in the writeable flag or a literal integer."""
    splits = {}
    for kernel, sigs in signatures.items():
        groups = {}
        for sig in sigs:
            groups.setdefault(tuple(map(_accidental, sig)), []).append(sig)
        for same in groups.values():
            if len(same) > 1:
                args = [j for j in range(len(same[0])) if len({s[j] for s in same}) > 1]
                splits.setdefault(kernel, []).extend([s[j] for j in args] for s in same)
    return splits


def test_the_detector_finds_what_it_is_for():
    sigs = {
        "a.flag": [["readonly array(uint8, 1d, C)", "int64"], ["array(uint8, 1d, C)", "int64"]],
        "a.literal": [["Literal[int](0)"], ["int64"]],
        "a.dtypes": [["array(float32, 2d, C)"], ["array(float64, 2d, C)"]],
        "a.switch": [["Literal[bool](True)"], ["Literal[bool](False)"]],
    }
    assert accidental_splits(sigs) == {
        "a.flag": [["readonly array(uint8, 1d, C)"], ["array(uint8, 1d, C)"]],
        "a.literal": [["Literal[int](0)"], ["int64"]],
    }


@pytest.mark.slow
@pytest.mark.data
def test_no_loop_is_compiled_twice_for_the_same_storage(shared_data, tmp_path):
    dev = shared_data("ud-english-ewt") / "dev.conllu"
    # an empty compile cache: a loop called from compiled code shows its signatures only when
    # compiled (a cached caller holds its callees' code); the JIT's own specialisations, so
    # not the kernels compiled ahead of time (perceptrons._compile.aot)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), PERCEPTRONS_NO_AOT="1")
    done = subprocess.run(
        [sys.executable, "-c", WORKLOAD, str(dev), str(tmp_path)], capture_output=True, text=True, timeout=900, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    signatures = json.loads(done.stdout.strip().splitlines()[-1])
    # the workload reached the loops it is meant to cover
    for kernel in ("word_cache.cache_words", "word_cache.tag_cached", "structured.train_epoch", "linear.epoch_binary"):
        assert kernel in signatures, kernel
    # none: the attribute pass too interns through a read-only view (perceptrons._jit.view)
    assert accidental_splits(signatures) == {}
    # a first-order tagger without edge features compiles no other decoder, nor the code of the
    # weights it does not have (its loops are given None for them: perceptrons._jit.decode)
    unused = {"decode.greedy", "decode.viterbi2", "structured.transitions"} & set(signatures)
    assert not unused, unused

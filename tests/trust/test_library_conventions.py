"""Library conventions every public function keeps, checked over all of them at once.

* A path argument of the wrong type (an int, None, a list where one path is expected) raises
  our error naming the argument, before anything is opened: ``open(123)`` would read file
  descriptor 123.
* An unfitted estimator raises scikit-learn's ``NotFittedError`` wherever it is used,
  including the streaming helpers (not an ``AttributeError`` on ``classes_``).
"""

import pytest
from sklearn.exceptions import NotFittedError

from perceptrons import AveragedPerceptron, KernelPerceptron, Perceptron, Tagger, load_model, save_model, stream
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.arrow import delimited_blocks, parquet_blocks
from perceptrons.io.cache import fingerprint, open_cache
from perceptrons.io.conllu import iter_conllu, read_conllu, write_conllu
from perceptrons.io.conllu_stream import stream_conllu
from perceptrons.io.delimited import read_csv, read_tsv
from perceptrons.io.idx import read_idx
from perceptrons.io.libsvm import libsvm_blocks, read_libsvm
from perceptrons.io.npz import read_npz
from perceptrons.io.parquet_rows import read_parquet
from perceptrons.io.readers import read_data
from perceptrons.io.sources import Source
from perceptrons.io.vw import libsvm_to_vw, read_vw, vw_blocks

#: (name, call with the bad path, the parameter its error names)
PATH_TAKERS = [
    ("read_data", read_data, "path"),
    ("read_csv", read_csv, "path"),
    ("read_tsv", read_tsv, "path"),
    ("read_libsvm", read_libsvm, "path"),
    ("read_vw", read_vw, "path"),
    ("read_npz", read_npz, "path"),
    ("read_parquet", read_parquet, "path"),
    ("read_idx", read_idx, "path"),
    ("read_conllu", read_conllu, "path"),
    ("iter_conllu", lambda p: list(iter_conllu(p)), "path"),
    ("stream_conllu", lambda p: list(stream_conllu(p)), "path"),
    ("write_conllu", lambda p: write_conllu(p, [], []), "path"),
    ("libsvm_blocks", lambda p: list(libsvm_blocks(p)), "path"),
    ("vw_blocks", lambda p: list(vw_blocks(p)), "path"),
    ("delimited_blocks", lambda p: list(delimited_blocks(p)), "path"),
    ("parquet_blocks", lambda p: list(parquet_blocks(p)), "path"),
    ("libsvm_to_vw src", lambda p: libsvm_to_vw(p, "out.vw"), "src"),
    ("libsvm_to_vw dst", lambda p: libsvm_to_vw("in.svm", p), "dst"),
    ("open_cache", lambda p: open_cache(p, {}), "path"),
    ("fingerprint", fingerprint, "paths"),
    ("Source", Source, "spec"),
    ("stream.fit", lambda p: stream.fit(Perceptron(), p), "source"),
    ("save_model", lambda p: save_model(Perceptron().fit([[1.0], [-1.0]], [1, -1]), p), "path"),
    ("load_model", load_model, "path"),
]


@pytest.mark.parametrize("name, call, param", PATH_TAKERS, ids=[t[0] for t in PATH_TAKERS])
@pytest.mark.parametrize("bad", [3, None, 2.5, object()], ids=["int", "None", "float", "object"])
def test_a_path_of_the_wrong_type_is_refused_naming_the_argument(tmp_path, monkeypatch, name, call, param, bad):
    monkeypatch.chdir(tmp_path)  # a path that slipped through would be looked for here
    with pytest.raises(PerceptronsError, match=f"'{param}' parameter"):
        call(bad)


def _fitted_free(tmp_path):
    path = tmp_path / "d.svm"
    path.write_text("1 1:1\n-1 1:-1\n")
    return path


@pytest.mark.parametrize(
    "name, call",
    [
        ("stream.predict_blocks", lambda est, p: list(stream.predict_blocks(est, p))),
        ("stream.evaluate", lambda est, p: stream.evaluate(est, p)),
        ("predict", lambda est, p: est.predict([[1.0]])),
        ("decision_function", lambda est, p: est.decision_function([[1.0]])),
        ("save_model", lambda est, p: save_model(est, p.with_suffix(".npz"))),
    ],
)
@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, KernelPerceptron])
def test_an_unfitted_estimator_raises_not_fitted_everywhere(tmp_path, name, call, cls):
    with pytest.raises(NotFittedError):
        call(cls(), _fitted_free(tmp_path))


@pytest.mark.parametrize(
    "call", [lambda t: t.tag(["a"]), lambda t: t.predict([["a"]]), lambda t: save_model(t, "t.npz")]
)
def test_an_unfitted_tagger_raises_not_fitted(tmp_path, monkeypatch, call):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(NotFittedError):
        call(Tagger())

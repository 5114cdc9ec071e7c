"""Every argument of the public functions and fit methods that is not data is checked before any
work: a bad value is one line naming it, never Python's own TypeError from deep inside (an
int called at the end of the first epoch), a number taken as a file descriptor, or a loop that
never ends.  The theory functions have their own table (theory/test_theory_params.py)."""

import os
import signal
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from refusals import refusal_failure

from perceptrons import (
    AveragedPerceptron,
    KernelPerceptron,
    Perceptron,
    PocketPerceptron,
    SequencePerceptron,
    Tagger,
    VotedPerceptron,
    load_model,
    save_model,
    stream,
    trace_updates,
)
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.registry import CLASSIFIERS, estimator_class
from perceptrons.datasets import noisy_blobs, separable
from perceptrons.io.readers import read_data
from perceptrons.io.sources import Source
from perceptrons.lifting import circle_from_plane, plane_from_circle
from perceptrons.plotting import plot_separator, save_figure
from perceptrons.report.html import write_report
from perceptrons.structured.corpus import read_corpus

NAN, INF = float("nan"), float("inf")
X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.5], [-2.0, -0.3], [0.5, 1.5], [-0.7, -2.0]])
Y = np.array([1, 1, 0, 0, 1, 0])
SENTS = [["the", "dog", "barks"], ["a", "cat", "sleeps"]] * 3
TAGS = [["DET", "NOUN", "VERB"]] * 6
#: not a path: ints and bools are file descriptors to open() and os.path.isfile()
NOT_PATHS = [0, 1, True, 1.5, None, b"x", ["a.csv"]]
NOT_CALLABLES = [5, "f", np.ones(3), True]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("api")
    csv = d / "d.csv"
    csv.write_text("a,b,y\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(X, Y)))
    model = d / "m.npz"
    save_model(Perceptron().fit(X, Y), model)
    conllu = d / "t.conllu"
    conllu.write_text("".join(f"1\t{w}\t{w}\t{t}\t{t}\t_\t0\troot\t_\t_\n\n" for w, t in zip(SENTS[0], TAGS[0])))
    return {"dir": d, "csv": str(csv), "model": str(model), "conllu": str(conllu)}


def _cases(f):
    est = Perceptron().fit(X, Y)
    tagger = Tagger(max_epochs=1, min_count=1).fit(SENTS, TAGS)
    L = [3, 3]
    seq = SequencePerceptron(max_epochs=2).fit(X, Y, L)
    S = np.asarray(X @ seq.emission_weights())
    # a compiled decoder reads n_classes scores a row: (6, 1) read past each row, and the array
    not_scores = [None, [1.0], "x", np.zeros((6, 1)), np.zeros((6, 5)), np.zeros((6, 2), dtype=int), np.zeros(6)]
    not_bools = ["x", 2, None, np.ones(3)]
    return [
        # (call taking the bad value, its name in the message, bad values)
        *[
            (lambda v, c=c: c(max_epochs=2).fit(X, Y, callback=v), "callback", NOT_CALLABLES)
            for c in (Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron, KernelPerceptron)
        ],
        (lambda v: SequencePerceptron(max_epochs=2).fit(X, Y, L, callback=v), "callback", NOT_CALLABLES),
        (lambda v: SequencePerceptron(max_epochs=2).fit(X, Y, L, X_edge=v), "X_edge", ["x", {}, np.ones((6, 2, 2))]),
        (lambda v: seq.predict_from_scores(v, L), "scores", not_scores),
        (lambda v: seq.confidences_from_scores(v, L, Y), "scores", not_scores),
        (lambda v: seq.predict_from_scores(S, L, assume_binary=v), "assume_binary", not_bools),
        (lambda v: SequencePerceptron(max_epochs=2).fit(X, Y, L, assume_binary=v), "assume_binary", not_bools),
        # score compared whatever it was given: a scalar y scored 0.0, a short one broadcast
        (lambda v: seq.score(X, v, L), "gold tags", [5, "x", None, Y[:3], np.ones((6, 2))]),
        # nested classes were flattened: [[0, 1]] was taken for [0, 1]
        (lambda v: Perceptron().partial_fit(X, Y, classes=v), "classes", [[[0, 1]], 1, "x"]),
        (lambda v: Perceptron().partial_fit(X, Y, classes=[0, 1]).partial_fit(X, Y, classes=v), "classes", [[[0, 1]]]),
        (lambda v: SequencePerceptron().partial_fit(X, Y, L, classes=v), "classes", [[[0, 1]], 1]),
        # an array's repr spans lines; the refusal does not
        (lambda v: seq.predict(X, L, return_conf=v), "return_conf", [np.ones((2, 2)), np.arange(100)]),
        (lambda v: Tagger(max_epochs=1, min_count=1).fit(SENTS, TAGS, callback=v), "callback", NOT_CALLABLES),
        # known() looked up a str's characters, and raised "can only concatenate str" on a pair
        (lambda v: tagger.known(v), "sentences", ["the dog", None, 5, [[("a", "DET")]], {"a": 1}]),
        (lambda v: Tagger(max_epochs=1, shuffle=False).fit_stream(f["conllu"], callback=v), "callback", NOT_CALLABLES),
        (lambda v: Tagger(max_epochs=1, shuffle=False).fit_stream(f["conllu"], column=v), "column", ["x", ["upos"], 3]),
        (lambda v: Tagger(max_epochs=1, shuffle=False).fit_stream(v), "paths", [0, True, None, 1.5, [0], [True]]),
        (lambda v: stream.fit(Perceptron(), f["csv"], callback=v), "callback", NOT_CALLABLES),
        (lambda v: stream.fit(Perceptron(), f["csv"], progress=v), "progress", NOT_CALLABLES),
        (lambda v: stream.fit(Perceptron(), f["csv"], cache=v), "cache", [0, 1, True, 1.5, b"x"]),
        (
            lambda v: stream.fit(Perceptron(), f["csv"], shuffle_buffer=v),
            "shuffle_buffer",
            [0, -1, 0.5, NAN, "x", True],
        ),
        (lambda v: stream.fit(Perceptron(), v), "source", NOT_PATHS),
        (lambda v: stream.evaluate(est, v), "source", NOT_PATHS),
        (lambda v: Source(v), "spec", NOT_PATHS),
        (lambda v: Source(f["csv"], block_bytes=v), "block_bytes", [0, -1, 0.5, NAN, INF, "x", True, None]),
        (lambda v: save_model(est, v), "path", NOT_PATHS),
        (lambda v: save_model(est, f["dir"] / "n.npz", info=v), "info", [NAN, "x", True, [1]]),
        (lambda v: load_model(v), "path", NOT_PATHS),
        (lambda v: load_model(f["model"], expect=v), "expect", [1, [1], True, {"a"}]),
        (lambda v: load_model(f["model"], with_info=v), "with_info", [1, "x", None]),
        (lambda v: read_data(v), "path", NOT_PATHS),
        (lambda v: read_corpus(v), "path", NOT_PATHS),
        (lambda v: read_corpus(f["conllu"], column=v), "column", ["x", ["upos"], {}, None]),
        (lambda v: write_report(v, X, Y), "path", NOT_PATHS),
        (lambda v: trace_updates(X, Y, lazy=v), "lazy", [1, "x", None, NAN]),
        (lambda v: separable(v), "n_samples", [0, -1, 0.5, NAN, "x", True, None]),
        (lambda v: separable(10, v), "n_features", [0, -1, 0.5, NAN, "x", True]),
        (lambda v: separable(v, v), "more than this machine has available", [10**19]),
        (lambda v: noisy_blobs(v), "more than this machine has available", [10**19]),
        (lambda v: separable(10, 2, v), "margin", [-0.1, 1, 1.5, NAN, INF, "x", None]),
        (lambda v: separable(10, 2, random_state=v), "random_state", [-1, 0.5, NAN, "x", True]),
        (lambda v: separable(10, 2, bias=v), "bias", [1, "x", None]),
        (lambda v: noisy_blobs(v), "n_samples", [0, -1, 0.5, NAN, "x", True, None]),
        (lambda v: noisy_blobs(10, v), "noise", [-0.1, 1.5, NAN, INF, "x", None]),
        (lambda v: circle_from_plane(v, 0.0), "coef", [[1.0], "x", [1.0, NAN, 1.0], [1.0, INF, 1.0]]),
        (lambda v: circle_from_plane([-2.0, -4.0, 1.0], v), "intercept", [NAN, INF, "x", [1.0, 2.0], None]),
        (lambda v: plane_from_circle(v, 1.0), "center", [[], "x", [NAN, 0.0]]),
        (lambda v: plane_from_circle([0.0, 0.0], v), "radius", [-1, NAN, INF, "x", None]),
        (lambda v: plot_separator(v, X, Y), "coef_", [None, "x", KernelPerceptron().fit(X, Y)]),
        (lambda v: save_figure(None, v), "path", NOT_PATHS),
    ]


def _hung(signum, frame):
    raise TimeoutError("still running after 60 s")


@pytest.mark.slow
def test_a_bad_argument_is_one_line_naming_it(files, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where a bad value taken as a name would write
    previous = signal.signal(signal.SIGALRM, _hung)  # separable(margin=1.5) never returned
    failures = []
    for call, name, values in _cases(files):
        for value in values:
            signal.alarm(60)
            try:
                failures.append(refusal_failure(call, name, value))
            finally:
                signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)
    failures = [f for f in failures if f]
    assert not failures, "\n".join(failures)


def test_a_file_descriptor_number_is_not_read_as_a_path(tmp_path):
    """``read_corpus(1)`` opened descriptor 1, read standard output and closed it (the
    process's output was gone); now it is refused before any open."""
    code = (
        "import sys\n"
        "from perceptrons.structured.corpus import read_corpus\n"
        "try:\n    read_corpus(1)\nexcept ValueError as e:\n    print('refused:', e)\n"
        "print('stdout still open')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "refused: The 'path' parameter of read_corpus must be a path" in out.stdout
    assert "stdout still open" in out.stdout


def test_tags_that_are_not_labels_are_refused():
    """A tag sequence given as a str was taken character by character; a tag that is itself a
    sequence raised numpy's "inhomogeneous shape" ValueError."""
    with pytest.raises(PerceptronsError, match=r"tags\[1\]: expected a list of tags, got a string 'NV'"):
        Tagger(max_epochs=1).fit([["a", "b"], ["c", "d"]], [["N", "V"], "NV"])
    for bad in (["N"], ("N", "X")):
        with pytest.raises(PerceptronsError, match=f"tags: a tag of type {type(bad).__name__}"):
            Tagger(max_epochs=1).fit([["a", "b"], ["c", "d"]], [["N", "V"], [bad, "V"]])


def test_good_values_of_the_same_arguments_still_work(files, tmp_path):
    seen = []
    Perceptron(max_epochs=2).fit(X, Y, callback=lambda *a: seen.append(a))
    assert seen
    stream.fit(Perceptron(max_epochs=2), files["csv"], cache=tmp_path / "c.cache", shuffle_buffer=2, progress=print)
    assert Source(files["csv"], block_bytes=1).spec == files["csv"]
    assert load_model(files["model"], expect=["Perceptron"], with_info=True)[1] == {}
    save_model(Perceptron().fit(X, Y), tmp_path / "m.npz", info={"label_column": "y"})
    assert read_corpus(files["conllu"], column="upos").lengths.tolist() == [1, 1, 1]
    assert Tagger(max_epochs=1, min_count=1).fit(SENTS, [[1, 2, 3]] * 6).tags_.tolist() == [1, 2, 3]
    Xs, ys, u, c = separable(50, 20, margin=0.1, random_state=0)  # the cube's share of the ball: 2.5e-8
    assert np.all(np.abs(Xs @ u + c) >= 0.1) and np.all(np.linalg.norm(Xs, axis=1) <= 1)
    coef, intercept = plane_from_circle([1.0, 2.0], 0)
    assert coef.tolist() == [-2.0, -4.0, 1.0] and intercept == 5.0
    assert os.path.isfile(write_report(tmp_path / "r.html", X, Y, fit_intercept=True))


def test_forced_values_that_do_not_compare_with_the_tags_leave_tokens_free():
    """``forced`` as an object array of None raised "'<' not supported between NoneType and
    NoneType" (numpy's sorted search); a value that is not a tag means a free token."""
    seq = SequencePerceptron(max_epochs=2).fit(X, Y, [3, 3])
    free = seq.predict(X, [3, 3])
    none = np.array([None] * 6, dtype=object)
    assert seq.predict(X, [3, 3], forced=none).tolist() == free.tolist()
    one = none.copy()
    one[1] = 1 - free[1]  # a tag among the Nones: that token takes it
    assert seq.predict(X, [3, 3], forced=one)[1] == 1 - free[1]
    assert seq.predict(X, [3, 3], forced=np.array([None, [1], {}, 1.5, "x", None], dtype=object)).shape == (6,)


def test_a_margin_the_ball_almost_never_meets_is_refused_not_a_hang():
    with pytest.raises(PerceptronsError, match=r"\d+ of \d+ points drawn in the unit ball of 100 dimensions"):
        separable(100, 100, margin=0.6, random_state=0)


def test_a_refusal_shows_the_value_given():
    with pytest.raises(PerceptronsError, match=r"'paths' parameter of Tagger.fit_stream .* Got 5 instead"):
        Tagger(max_epochs=1, shuffle=False).fit_stream(5)
    with pytest.raises(PerceptronsError, match=r"'callback' parameter of Perceptron must be None or a callable. Got 5"):
        Perceptron().fit(X, Y, callback=5)


@pytest.mark.parametrize("name", [n for n in CLASSIFIERS if n not in ("Tagger",)])
@pytest.mark.parametrize("column", [["p", "q"] * 3, pd.Categorical(["p", "q"] * 3)], ids=["object", "category"])
def test_a_dataframe_column_of_text_is_named(name, column):
    """scikit-learn's conversion said only "could not convert string to float: 'p'"."""
    frame = pd.DataFrame({"a": X[:, 0], "colour": column})
    with pytest.raises(PerceptronsError, match=r"X column 'colour' holds text \((object|str|category), e\.g\. 'p'\)"):
        if name == "SequencePerceptron":
            estimator_class(name)().fit(frame, Y, [3, 3])
        else:
            estimator_class(name)().fit(frame, Y)
    numbers = pd.DataFrame({"a": X[:, 0], "b": pd.Series(X[:, 1].tolist(), dtype=object)})  # numbers as objects
    estimator_class("Perceptron")(max_epochs=2).fit(numbers, Y)

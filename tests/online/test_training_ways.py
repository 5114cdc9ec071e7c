"""Every learner of the online family trains every way through the one protocol: a streamed fit
and parameter mixing on one shard give the in-memory fit's weights exactly, and the command line
trains, evaluates and predicts with each, its parameters given with --param."""

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import (
    ALMA,
    AROW,
    ROMMA,
    SCW,
    ConfidenceWeighted,
    PassiveAggressive,
    SecondOrderPerceptron,
    Winnow,
    load_model,
    stream,
)
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.readers import read_data
from perceptrons.io.sources import Source


@pytest.fixture
def cli_run(run_cli):
    """The CLI through its real entry point: (exit code, stdout + stderr) as attributes."""

    def go(*args):
        code, out, err = run_cli([str(a) for a in args])
        return SimpleNamespace(exit_code=code, output=out + err)

    return go


LEARNERS = {
    "pa": lambda: PassiveAggressive(variant="pa2", C=0.5, average=True),
    "arow-full": lambda: AROW(r=2.0, covariance="full"),
    "arow-diagonal": lambda: AROW(covariance="diagonal", average=True),
    "cw": lambda: ConfidenceWeighted(covariance="diagonal"),
    "scw": lambda: SCW(variant="II"),
    "sop": lambda: SecondOrderPerceptron(a=0.5),
    "alma": lambda: ALMA(alpha=0.8),
    "romma": lambda: ROMMA(aggressive=True),
    "winnow": lambda: Winnow(),
}


def write_libsvm(path, X, y):
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            lo, hi = X.indptr[i], X.indptr[i + 1]
            f.write(f"{y[i]} " + " ".join(f"{j + 1}:{v:g}" for j, v in zip(X.indices[lo:hi], X.data[lo:hi])) + "\n")
    return path


def problem(seed, n=400, d=30, k=2):
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=0.3, random_state=seed, format="csr")
    X.data = np.round(rng.normal(size=X.nnz), 2)
    y = np.argmax(X @ rng.normal(size=(d, k)) + 0.3 * rng.normal(size=(n, k)), axis=1)
    return X, y


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("name", list(LEARNERS))
def test_a_streamed_fit_is_the_in_memory_fit(tmp_path, name, k):
    path = write_libsvm(tmp_path / "d.svm", *problem(k, k=k))
    X, y = read_data(path)  # the values the stream reads (float32)
    if name == "arow-full" and k == 3:  # a full covariance is of two classes: refused, both ways
        for fit in (lambda: LEARNERS[name]().fit(X, y), lambda: stream.fit(LEARNERS[name](), path)):
            with pytest.raises(PerceptronsError, match=r"covariance='full'\) takes two classes; with 3"):
                fit()
        return
    a = LEARNERS[name]().set_params(max_epochs=3).fit(X, y)
    b = stream.fit(LEARNERS[name]().set_params(max_epochs=3), Source(path, block_bytes=2048))  # many blocks
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert a.mistakes_per_epoch_ == b.mistakes_per_epoch_ and a.n_updates_ == b.n_updates_
    assert stream.evaluate(b, path)["accuracy"] == pytest.approx(a.score(X, y))


@pytest.mark.parametrize("name", list(LEARNERS))
def test_partial_fit_passes_continue_the_fit(name):
    """Three partial_fit passes are three epochs of fit (cyclic order): the state carries over."""
    X, y = problem(5)
    a = LEARNERS[name]().set_params(max_epochs=3).fit(X, y)
    b = LEARNERS[name]()
    for _ in range(3):
        b.partial_fit(X, y, classes=np.unique(y))
    if a.n_epochs_ == 3:  # fit stops early at an epoch without updates; then the passes go on
        np.testing.assert_array_equal(a.coef_, b.coef_)
        assert a.mistakes_per_epoch_ == b.mistakes_per_epoch_


@pytest.mark.cluster
@pytest.mark.parametrize("name", list(LEARNERS))
def test_one_shard_of_parameter_mixing_is_the_serial_fit(name):
    pytest.importorskip("distributed")
    from perceptrons import distributed
    from perceptrons.distributed._engine import connect

    X, y = problem(7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        serial = LEARNERS[name]().set_params(max_epochs=3).fit(X, y)
        with connect(n_workers=1) as client:
            mixed = distributed.fit(LEARNERS[name]().set_params(max_epochs=3), X, y, shards=1, client=client)
            two = distributed.fit(LEARNERS[name]().set_params(max_epochs=3), X, y, shards=2, client=client)
    if serial.n_epochs_ == 3:
        np.testing.assert_array_equal(mixed.coef_, serial.coef_)
        np.testing.assert_array_equal(mixed.intercept_, serial.intercept_)
        assert mixed.mistakes_per_epoch_ == serial.mistakes_per_epoch_
    assert two.score(X, y) > 0.6  # two shards mix into a model that still classifies


@pytest.mark.parametrize(
    "model, params, kind",
    [
        ("pa", ["--param", "variant=pa2", "--param", "C=0.1"], "PassiveAggressive"),
        ("arow", ["--param", "r=0.5", "--param", "covariance=diagonal"], "AROW"),
        ("cw", ["--param", "eta=0.8"], "ConfidenceWeighted"),
        ("scw", ["--param", "variant=II"], "SCW"),
        ("sop", [], "SecondOrderPerceptron"),
        ("alma", ["--param", "alpha=0.5"], "ALMA"),
        ("romma", ["--param", "aggressive=true"], "ROMMA"),
        ("winnow", ["--param", "alpha=1.5"], "Winnow"),
    ],
)
def test_the_command_line_trains_each_with_its_parameters(tmp_path, cli_run, model, params, kind):
    path = write_libsvm(tmp_path / "d.svm", *problem(3))
    out = tmp_path / "m.npz"
    r = cli_run("train", path, "--model", model, *params, "--epochs", 3, "-o", out)
    assert r.exit_code == 0, r.output
    loaded = load_model(out)
    est = loaded.steps[-1][1] if hasattr(loaded, "steps") else loaded
    assert type(est).__name__ == kind
    for name, value in (p.split("=") for p in params[1::2]):
        assert str(est.get_params()[name]).lower() == value.lower()
    r = cli_run("evaluate", out, path)
    assert r.exit_code == 0 and "accuracy" in r.output, r.output
    r = cli_run("train", path, "--model", model, *params, "--stream", "--epochs", 2, "-o", tmp_path / "s.npz")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--model", "pa", "--param", "C=0"], "--param: C=0: expected a float in the range (0.0, inf)"),
        (["--model", "cw", "--param", "eta=1.2"], "--param: eta=1.2: expected a float in the range (0.5, 1.0)"),
        (["--model", "arow", "--param", "r=-1"], "--param: r=-1: expected a float in the range (0.0, inf)"),
        (["--model", "winnow", "--param", "alpha=1"], "--param: alpha=1: expected a float in the range (1.0, inf)"),
        (["--model", "pa", "--param", "gamma=1"], "gamma: PassiveAggressive has no such parameter; it takes C, "),
        (["--model", "pa", "--param", "max_epochs=3"], "max_epochs: set it with --epochs"),
        (["--model", "pa", "--param", "C"], "'C' is not NAME=VALUE"),
        (["--model", "pa", "--param", "C=inf"], "--param: C=inf: not finite; expected a finite number"),
        (["--model", "arow", "--param", "r=NaN"], "--param: r=NaN: not finite"),
        (["--model", "arow", "--margin", "1"], "--margin: applies only to the perceptrons and the kernel model"),
        (["--model", "pa", "--order", "random-mistake"], "random-mistake is the perceptrons' order"),
    ],
)
def test_bad_parameters_of_the_online_family_are_one_line(tmp_path, cli_run, args, message):
    path = write_libsvm(tmp_path / "d.svm", *problem(3))
    r = cli_run("train", path, *args, "-o", tmp_path / "m.npz")
    assert r.exit_code == 2 and message in r.output, r.output
    assert "Traceback" not in r.output and not (tmp_path / "m.npz").exists()

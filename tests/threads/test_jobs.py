"""``n_jobs``: its range, negative counts, more threads than cores, and the command line's --n-jobs."""

import warnings

import numpy as np
import pytest

from perceptrons import AveragedPerceptron, Perceptron, Tagger
from perceptrons._core.errors import PerceptronsError
from perceptrons.threads.jobs import MAX_THREADS, cores, threads_of


@pytest.mark.parametrize("n_jobs", [0, 1.5, "2", True, MAX_THREADS + 1, 1024])
@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron])
def test_a_bad_n_jobs_is_refused_in_one_line(cls, n_jobs):
    """Above MAX_THREADS too: 1,024 threads (the command line's limit before) failed after 72 s
    in numba's compiler with a traceback ("Tuple 'ws' length must be smaller than 1000")."""
    X = np.eye(4)
    with pytest.raises(
        PerceptronsError, match=r"^The 'n_jobs' parameter of \w+ must be None, an int in the range \[1, 256\]"
    ):
        cls(n_jobs=n_jobs).fit(X, [0, 1, 0, 1])


def test_the_command_lines_limit_is_the_librarys():
    from perceptrons.cli._options import JOBS

    assert JOBS.high == MAX_THREADS


def test_the_tagger_refuses_a_bad_n_jobs():
    with pytest.raises(PerceptronsError, match="'n_jobs' parameter of Tagger"):
        Tagger(n_jobs=0).fit([["a", "b"]], [["X", "Y"]])


def test_negative_counts_are_counted_back_from_the_cores():
    n = cores()
    assert threads_of(-1, "Perceptron") == n
    assert threads_of(None, "Perceptron") == threads_of(1, "Perceptron") == 1
    if n >= 2:
        assert threads_of(-2, "Perceptron") == n - 1
    with pytest.raises(
        PerceptronsError, match=rf"^The 'n_jobs' parameter of Perceptron is {-n - 1}, which leaves no thread"
    ):
        threads_of(-n - 1, "Perceptron")


def test_every_core_of_a_machine_of_more_than_max_threads_is_max_threads():
    with pytest.warns(UserWarning, match="n_jobs=-1 is 384 of this machine's 384 cores; a fit trains in at most 256"):
        assert threads_of(-1, "Perceptron", n_cores=384) == MAX_THREADS
    assert threads_of(-200, "Perceptron", n_cores=384) == 185


def test_more_threads_than_cores_warn_and_train_that_many():
    """The model depends on the number of threads, not on the machine: 2·cores threads are
    2·cores threads, with a warning that they share fewer cores."""
    n = cores()
    rng = np.random.default_rng(0)
    X = rng.standard_normal((400, 3))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(400) > 0, 1, -1)
    with pytest.warns(UserWarning, match=rf"n_jobs={2 * n} threads share this process's {n} core"):
        many = AveragedPerceptron(n_jobs=2 * n, max_epochs=3).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        one = AveragedPerceptron(max_epochs=3).fit(X, y)
    assert not np.array_equal(many.coef_, one.coef_)  # 2·n shards mixed: another model


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--n-jobs", "0"], "--n-jobs': 0 threads; expected a number of threads in [1, 256], or -1 for every core"),
        (["--n-jobs", "-2"], "--n-jobs': -2 is out of range; expected a number of threads in [1, 256], or -1"),
        (["--n-jobs", "1.5"], "--n-jobs': '1.5' is not an integer"),
        (
            ["--n-jobs", "2", "--model", "pocket"],
            "--n-jobs: applies only with --model perceptron, averaged or an online",
        ),
        (["--n-jobs", "2", "--order", "random-mistake"], "in the order cyclic or shuffle (random-mistake makes one"),
        (
            ["--param", "mix_every=2"],
            "--param mix_every: applies only with --n-jobs 2 or more (in memory), or --workers",
        ),
        (["--n-jobs", "1", "--param", "mix_every=2"], "--param mix_every: applies only with --n-jobs 2 or more"),
        (["--stream", "--param", "mix_every=2"], "--param mix_every: applies only with --n-jobs 2 or more"),
        (["--workers", "2", "--rounds", "3", "--param", "mix_every=2"], "give --rounds or --param mix_every, not both"),
        (["--n-jobs", "2", "--param", "mix_every=0"], "mix_every=0: expected None or an int in the range [1, inf)"),
    ],
)
def test_the_cli_refuses_a_bad_n_jobs(tmp_path, run_cli, argv, message):
    data = tmp_path / "d.csv"
    data.write_text("a,b,label\n0,1,x\n1,0,y\n0,2,x\n2,0,y\n")
    code, out, err = run_cli(["train", str(data), "-o", str(tmp_path / "m.npz"), *argv])
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert not (tmp_path / "m.npz").exists()


def test_the_cli_takes_n_jobs_1_wherever_a_fit_is_one_thread(tmp_path, run_cli):
    """``--n-jobs 1``, the default, was refused with --stream as an option without effect."""
    data = tmp_path / "d.csv"
    data.write_text("a,b,label\n0,1,x\n1,0,y\n0,2,x\n2,0,y\n")
    for extra in (["--stream"], ["--model", "pocket"], ["--order", "random-mistake"]):
        code, out, err = run_cli(["train", str(data), "-o", str(tmp_path / "m.npz"), "--n-jobs", "1", *extra])
        assert code == 0, (extra, err)


def test_the_cli_trains_an_online_model_in_threads(tmp_path, run_cli):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 3))
    data = tmp_path / "d.csv"
    data.write_text("a,b,c,label\n" + "".join(f"{a},{b},{c},{'x' if a + b > 0 else 'y'}\n" for a, b, c in X))
    code, out, err = run_cli(["train", str(data), "--model", "pa", "--n-jobs", "2", "-o", str(tmp_path / "m.npz")])
    assert code == 0, err
    from perceptrons import load_model

    model = load_model(str(tmp_path / "m.npz"))
    assert model[-1].n_jobs == 2 if hasattr(model, "steps") else model.n_jobs == 2

"""The command line end to end: train → predict → evaluate on every file format, and the demo."""

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

from perceptrons import load_model
from perceptrons.datasets import separable


@pytest.fixture
def files(tmp_path):
    X, y, _, _ = separable(300, 3, margin=0.05, random_state=1)
    csv = tmp_path / "train.csv"
    csv.write_text("a,b,c,label\n" + "".join(f"{r[0]},{r[1]},{r[2]},{t}\n" for r, t in zip(X, y)))
    tsv = tmp_path / "train.tsv"
    tsv.write_text("label\ta\tb\tc\n" + "".join(f"{t}\t{r[0]}\t{r[1]}\t{r[2]}\n" for r, t in zip(X, y)))
    svm = tmp_path / "train.svm"
    dump_svmlight_file(X, y, str(svm), zero_based=False)
    npz = tmp_path / "train.npz"
    np.savez(npz, X=X, y=y)
    return {"csv": csv, "tsv": tsv, "svm": svm, "npz": npz, "X": X, "y": y, "dir": tmp_path}


@pytest.mark.parametrize("fmt", ["csv", "tsv", "svm", "npz"])
@pytest.mark.parametrize("model", ["perceptron", "pocket", "averaged", "voted"])
def test_train_predict_evaluate(run_cli, files, fmt, model):
    extra = ["--label", "label"] if fmt == "tsv" else []
    out = files["dir"] / f"{model}-{fmt}.npz"
    code, stdout, err = run_cli(["train", str(files[fmt]), "-o", str(out), "--model", model, *extra])
    assert code == 0, err
    assert "converged yes" in stdout and "train acc  1.0000" in stdout
    est = load_model(out)
    assert np.all(est.predict(files["X"]) == files["y"])
    code, stdout, err = run_cli(["predict", str(out), str(files[fmt]), *extra])
    assert code == 0, err
    assert [int(v) for v in stdout.split()] == files["y"].tolist()
    code, stdout, err = run_cli(["evaluate", str(out), str(files[fmt]), *extra])
    assert code == 0, err
    assert "accuracy  1.0000" in stdout and "confusion matrix" in stdout


def test_train_reports_test_accuracy_and_options(run_cli, files):
    out = files["dir"] / "m.npz"
    code, stdout, err = run_cli(
        [
            "train",
            str(files["csv"]),
            "-o",
            str(out),
            "--order",
            "shuffle",
            "--seed",
            "3",
            "--epochs",
            "2",
            "--init",
            "random",
            "--test",
            str(files["svm"]),
        ]
    )
    assert code == 0, err
    assert "test acc" in stdout
    est = load_model(out)[-1]  # the CSV's column pipeline, then the estimator
    assert est.get_params()["order"] == "shuffle" and est.get_params()["random_state"] == 3
    assert est.n_epochs_ <= 2


def test_predict_writes_a_file(run_cli, files):
    out = files["dir"] / "m.npz"
    run_cli(["train", str(files["csv"]), "-o", str(out)])
    features = files["dir"] / "features.csv"
    X = files["X"]
    features.write_text("a,b,c\n" + "".join(f"{r[0]},{r[1]},{r[2]}\n" for r in X))
    pred = files["dir"] / "pred.txt"
    code, _, err = run_cli(["predict", str(out), str(features), "-o", str(pred)])
    assert code == 0, err
    assert [int(v) for v in pred.read_text().split()] == files["y"].tolist()


@pytest.mark.parametrize("label", ["a\nb", "a\rb", "a\x00b", "a\u2028b"])
def test_labels_that_cannot_be_written_one_per_line_are_refused(run_cli, tmp_path, label):
    """Predictions are written one per line: a label with a line break or a control character
    would split or garble them.  Training refuses such labels; a model file holding one (trained
    in Python, or tampered) is refused by predict."""
    from perceptrons import Perceptron, save_model

    X = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, 2.0], [2.0, 0.0]])
    y = np.array([label, "z", label, "z"])
    np.savez(tmp_path / "d.npz", X=X, y=y)
    code, _, err = run_cli(["train", str(tmp_path / "d.npz"), "-o", str(tmp_path / "m.npz")])
    assert code == 2 and "d.npz: label" in err and repr(label) in err and not (tmp_path / "m.npz").exists()
    save_model(Perceptron().fit(X, y), tmp_path / "py.npz")
    code, _, err = run_cli(["predict", str(tmp_path / "py.npz"), str(tmp_path / "d.npz"), "-o", str(tmp_path / "p")])
    assert code == 2 and "py.npz: model class label" in err and not (tmp_path / "p").exists()
    assert "Traceback" not in err


@pytest.mark.parametrize("stream", [[], ["--stream"]], ids=["memory", "stream"])
def test_labels_never_seen_in_training_count_as_errors_with_a_note(run_cli, tmp_path, stream):
    """A class too rare to fall in a random training split: train --test and evaluate refused the
    whole file; they count its rows as errors, as scikit-learn's accuracy_score does."""
    (tmp_path / "tr.csv").write_text("a,b,label\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n")
    (tmp_path / "te.csv").write_text("a,b,label\n0,0,0\n1,1,8\n0,1,7\n1,1,1\n")
    model = tmp_path / "m.npz"
    code, out, err = run_cli(
        ["train", str(tmp_path / "tr.csv"), "--test", str(tmp_path / "te.csv"), "-o", str(model), *stream]
    )
    assert code == 0 and ("test rows have labels not seen in training" in out or "(7, 8): their 2 rows count" in out)
    hits = float(re.search(r"test acc\s+([0-9.]+)", out).group(1))
    assert hits <= 0.5
    code, out, err = run_cli(["evaluate", str(model), str(tmp_path / "te.csv"), "--json"])
    assert code == 0, err
    result = json.loads(out)
    assert result["classes"] == [0, 1, 7, 8] and result["accuracy"] <= 0.5
    assert result["notes"][-1] == "labels not seen in training (7, 8): their 2 rows count as errors"
    assert {c["class"]: c["recall"] for c in result["per_class"]}[7] == 0.0


EMPTY_PATHS = [
    (["train", "", "-o", "m.npz"], "DATA"),
    (["train", "d.csv", "-o", "m.npz", "--test", ""], "--test"),
    (["train", "d.csv", "-o", "m.npz", "--stream", "--cache", ""], "--cache"),
    (["predict", "", "d.csv"], "MODEL"),
    (["predict", "m.npz", ""], "DATA"),
    (["predict", "m.npz", "d.csv", "-o", ""], "-o"),
    (["evaluate", "", "d.csv"], "MODEL"),
    (["evaluate", "m.npz", ""], "DATA"),
    (["trace", ""], "DATA"),
    (["analyze", ""], "DATA"),
    (["report", ""], "DATA"),
    (["report", "d.csv", "-o", ""], "-o"),
    (["demo", "--out", ""], "--out"),
    (["vc", "--concept", "halfplanes", "--points", ""], "--points"),
    (["tag", "train", "", "-o", "t.npz"], "TRAIN"),
    (["tag", "train", "s.conllu", "-o", "t.npz", "--dev", ""], "--dev"),
    (["tag", "predict", "", "s.conllu"], "MODEL"),
    (["tag", "predict", "t.npz", ""], "FILE"),
    (["tag", "predict", "t.npz", "s.conllu", "-o", ""], "-o"),
    (["tag", "evaluate", "t.npz", ""], "TEST"),
]


@pytest.mark.parametrize(("argv", "option"), EMPTY_PATHS, ids=[" ".join(a) or "''" for a, _ in EMPTY_PATHS])
def test_an_empty_path_is_named_for_every_path_argument(run_cli, tmp_path, monkeypatch, argv, option):
    """Every path argument and option refuses "" with the same line naming it; the checks
    further on named the path as nothing (": no such file"). Nothing is written."""
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(argv)
    assert code == 2 and f"{option}: an empty path; expected a file name" in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_an_empty_clusters_name_is_named(run_cli, tmp_path):
    code, _, err = run_cli(["tag", "train", str(tmp_path / "s.conllu"), "-o", str(tmp_path / "t"), "--clusters", ""])
    assert code == 2 and "--clusters': an empty name; expected one of ['spacy-en'] or a Brown 'paths' file" in err, err


def test_messages_name_what_failed(run_cli, tmp_path):
    """An empty -o, a file read from standard input where files are needed, an empty
    --templates, and a value megabytes long each get one short line naming the option."""
    (tmp_path / "d.csv").write_text("a,b,label\n0,0,0\n1,1,1\n")
    code, _, err = run_cli(["train", str(tmp_path / "d.csv"), "-o", ""])
    assert code == 2 and "-o: an empty path; expected a file name" in err
    code, _, err = run_cli(["tag", "train", "-", "-o", str(tmp_path / "t.npz")])
    assert code == 2 and "TRAIN: -: tag train reads files" in err
    conllu = tmp_path / "s.conllu"
    conllu.write_text("1\tA\ta\tDET\tDT\t_\t0\troot\t_\t_\n\n")
    code, _, err = run_cli(["tag", "train", str(conllu), "--templates", "", "-o", str(tmp_path / "t.npz")])
    assert code == 2 and "'--templates': unknown template set ''" in err
    code, _, err = run_cli(["train", str(tmp_path / "d.csv"), "--label", "x" * 100_000, "-o", str(tmp_path / "m.npz")])
    assert code == 2 and len(err) < 600 and "more characters)" in err and err.count("\n") == 1


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", [["analyze"], ["trace"], ["evaluate", "MODEL"], ["predict", "MODEL"]])
def test_a_full_standard_output_is_named(tmp_path, command):
    """Output to a full disk (``/dev/full``): one line naming standard output, exit 2."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    data = tmp_path / "d.csv"
    np.savetxt(data, np.column_stack([X, X[:, 0] > 0]), delimiter=",", header="a,b,c,label", comments="", fmt="%g")
    model = tmp_path / "m.npz"
    subprocess.run(
        [sys.executable, "-m", "perceptrons", "train", str(data), "-o", str(model)], check=True, capture_output=True
    )
    args = [str(model) if a == "MODEL" else a for a in command]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "perceptrons", *args, str(data)], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert done.returncode == 2 and done.stderr == "error: standard output: cannot write: No space left on device\n"


UNUSED = [
    (["train", "D", "--budget", "5"], "--budget: applies only with --model kernel"),
    (["train", "D", "--averaged"], "--averaged: applies only with --model kernel"),
    (["train", "D", "--gamma", "2"], "--gamma: applies only with --model kernel and a kernel other than linear"),
    (["train", "D", "--model", "kernel", "--kernel", "linear", "--gamma", "2"], "--gamma: applies only"),
    (["train", "D", "--model", "kernel", "--degree", "2"], "--degree: applies only with --model kernel --kernel poly"),
    (["train", "D", "--model", "kernel", "--coef0", "1"], "--coef0: applies only"),
    (["train", "D", "--model", "kernel", "--init", "random"], "--init: applies only to the perceptrons"),
    (["train", "D", "--max-vectors", "3"], "--max-vectors: applies only with --model voted"),
    (["train", "D", "--hash-bits", "4"], "--hash-bits: applies only with --stream"),
    (["train", "D", "--cache", "c.cache"], "--cache: applies only with --stream"),
    (["train", "D", "--shuffle-buffer", "9"], "--shuffle-buffer: applies only with --stream"),
    (["train", "D", "--stream", "--order", "cyclic", "--shuffle-buffer", "9"], "--shuffle-buffer: applies only"),
    (["train", "S", "--label", "y"], "--label: applies only to CSV, TSV and Parquet data"),
    (["predict", "M", "D", "--text", "a"], "--text: applies only with --stream"),
    (["evaluate", "M", "S", "--label", "y"], "--label: applies only to CSV, TSV and Parquet data"),
    (["trace", "D", "--example", "gormley"], "give a DATA file or --example, not both"),
    # a seed where nothing is drawn at random: a user believing the run was seeded is misled
    (["train", "D", "--order", "cyclic", "--seed", "3"], "--seed: applies only where something is drawn at random"),
    (
        [
            "train",
            "D",
            "--order",
            "cyclic",
            "--model",
            "kernel",
            "--budget",
            "2",
            "--budget-policy",
            "oldest",
            "--seed",
            "3",
        ],
        "--seed",
    ),
    (["train", "D", "--order", "cyclic", "--stream", "--seed", "3"], "--seed: applies only"),
    (["trace", "D", "--seed", "3"], "--seed: applies only with --order shuffle or random-mistake"),
]


@pytest.mark.parametrize(("argv", "expected"), UNUSED, ids=[" ".join(a) for a, _ in UNUSED])
def test_options_that_would_be_ignored_are_refused(run_cli, tmp_path, argv, expected):
    """An option given where it has no effect stops the run with one line, rather than being
    ignored: --gamma on a linear model, --hash-bits without --stream, --label on LIBSVM data..."""
    (tmp_path / "d.csv").write_text("a,b,label\n0,0,0\n1,1,1\n0,1,0\n")
    (tmp_path / "d.svm").write_text("0 1:1\n1 2:1\n")
    code, _, err = run_cli(["train", str(tmp_path / "d.csv"), "-o", str(tmp_path / "m.npz")])
    assert code == 0, err
    names = {"D": tmp_path / "d.csv", "S": tmp_path / "d.svm", "M": tmp_path / "m.npz"}
    args = [str(names.get(a, a)) for a in argv]
    if argv[0] == "train":
        args += ["-o", str(tmp_path / "out.npz")]
    code, _, err = run_cli(args)
    assert code == 2 and expected in err and "Traceback" not in err
    assert not (tmp_path / "out.npz").exists()


def test_python_dash_m_and_help():
    done = subprocess.run([sys.executable, "-m", "perceptrons", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for name in ("train", "predict", "evaluate", "trace", "demo"):
        assert name in done.stdout


@pytest.mark.parametrize(("before", "handler"), [(0, "_leave"), (2, "freeze")])
def test_the_program_collects_less_often_and_leaves_without_the_shutdown(monkeypatch, before, handler):
    # main() as the program (argv None) raises the youngest generation's threshold and ends the
    # process itself at exit, with its status, unless exit handlers were registered before it
    # started (a wrapper's): then it freezes what is left; a caller passing argv keeps its
    # collector and its exit
    import atexit
    import gc

    from perceptrons import cli
    from perceptrons.cli import YOUNG_THRESHOLD, main

    registered = []
    monkeypatch.setattr(atexit, "register", registered.append)
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: before)
    old = gc.get_threshold()
    try:
        monkeypatch.setattr(sys, "argv", ["perceptrons", "--version"])
        with pytest.raises(SystemExit, match="0"):
            main()
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *old[1:])
        assert registered == [getattr(cli, handler, None) or gc.freeze] and cli._STATUS == [0]
    finally:
        gc.set_threshold(*old)
        cli._STATUS.clear()
    registered.clear()
    with pytest.raises(SystemExit, match="0"):
        main(["--version"])
    assert gc.get_threshold() == old and registered == [] and cli._STATUS == []


@pytest.mark.parametrize(("args", "status"), [(["--version"], 0), (["train", "no-such.csv", "-o", "m.npz"], 2)])
def test_the_program_runs_the_exit_handlers_of_its_run_then_leaves_with_its_status(tmp_path, args, status):
    """The exit handlers registered during a run (numba's, pyarrow's, temporary files') run
    before the program ends itself; its output is flushed and its status kept.  A handler
    registered before the program started runs too: the program then leaves as Python leaves."""
    code = (
        "import atexit, sys\n"
        "from perceptrons import cli\n"
        "run = cli._run\n"
        "def traced(argv):\n"
        "    atexit.register(lambda: print('handler ran', flush=True))\n"
        "    print('buffered, not flushed')\n"
        "    run(argv)\n"
        "cli._run = traced\n"
        f"sys.argv = ['perceptrons', *{args!r}]\n"
        "cli.main()\n"
    )
    wrapped = "import atexit\natexit.register(lambda: print('wrapper ran', flush=True))\n" + code
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == status, done.stderr
    assert done.stdout.splitlines()[0] == "buffered, not flushed" and "handler ran" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-c", wrapped], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == status and done.stdout.splitlines()[-1] == "wrapper ran", done.stdout + done.stderr


def test_help_does_not_import_numba():
    code = "import sys; from perceptrons.cli import cli; print('numba' in sys.modules, 'sklearn' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "False"]


@pytest.mark.slow
def test_demo_runs_and_writes_figures(run_cli, tmp_path):
    code, out, err = run_cli(["demo", "--out", str(tmp_path / "fig")])
    assert code == 0, err
    # the four models of one data set differ where they do: in what they predict with
    rows = [line.split("│")[3:] for line in out.splitlines() if "breast cancer" in line]
    assert len(rows) == 4 and len({tuple(r[-2:]) for r in rows}) > 1, out
    assert "they differ in the hypothesis they predict with" in out
    pngs = sorted(p.name for p in (tmp_path / "fig").iterdir())
    assert {"separable_2d.png", "pocket_vs_pla.png", "four_runs.png"} <= set(pngs)
    assert "report.html" in pngs  # the interactive report, beside the figures
    for p in (tmp_path / "fig").glob("*.png"):
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_ctrl_c_ends_training_and_writes_nothing(tmp_path):
    import time

    from tests.processes import interrupt

    rng = np.random.default_rng(0)
    X = rng.standard_normal((5000, 5))
    y = (X[:, 0] + rng.standard_normal(5000) > 0).astype(int)  # noisy: never converges
    data = tmp_path / "noisy.npz"
    np.savez(data, X=X, y=y)
    out = tmp_path / "m.npz"
    proc = subprocess.Popen(
        [sys.executable, "-m", "perceptrons", "train", str(data), "-o", str(out), "--epochs", "100000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(6)
    assert proc.poll() is None, proc.communicate()
    stdout, stderr = interrupt(proc)
    assert proc.returncode == 130, (stdout, stderr)
    assert "interrupted; nothing was written" in stderr and "Traceback" not in stderr
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["noisy.npz"]


def _stderr_of(args, terminal, tmp_path, prelude=""):
    """A command's standard error, written to a pseudo-terminal or to a file; and whether the
    process imported ``rich``.  ``prelude``: Python run before the command."""
    import pty

    code = (
        prelude + "import sys; from perceptrons.cli import main\n"
        "try:\n    main(sys.argv[1:])\n"
        "except SystemExit:\n    pass\n"
        "print('rich' in sys.modules, end='')"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    if terminal:
        master, slave = pty.openpty()
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *map(str, args)], stdout=subprocess.PIPE, stderr=slave, env=env
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the terminal closes when the process ends
                break
            if not chunk:
                break
            chunks.append(chunk)
        out = proc.communicate()[0]
        os.close(master)
        return b"".join(chunks).decode(), out.decode()
    with open(tmp_path / "err", "w+b") as err:
        out = subprocess.run(
            [sys.executable, "-c", code, *map(str, args)], stdout=subprocess.PIPE, stderr=err, env=env, check=True
        ).stdout
        err.seek(0)
        return err.read().decode(), out.decode()


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [True, False])
def test_progress_bar_only_on_a_terminal(files, tmp_path, terminal):
    # on a terminal the epochs are drawn with rich; redirected, nothing is written and rich is
    # not even imported (its import is ~25 ms of a command's start)
    # (`train` imports rich anyway, through scikit-learn's callbacks; `tag train` does not)
    conllu = tmp_path / "t.conllu"
    conllu.write_text("1\tThe\t_\tDET\t_\t_\t_\t_\t_\t_\n2\tdog\t_\tNOUN\t_\t_\t_\t_\t_\t_\n\n" * 20)
    err, out = _stderr_of(["tag", "train", conllu, "-o", tmp_path / "m.npz", "--epochs", "3"], terminal, tmp_path)
    assert out.endswith(str(terminal))
    if terminal:
        assert "epoch" in err and "sentences wrong" in err and "0:00:0" in err  # the bar's columns
    else:
        assert err == ""
    err, _ = _stderr_of(["train", files["csv"], "-o", tmp_path / "l.npz", "--epochs", "3"], terminal, tmp_path)
    assert ("mistakes" in err and "0:00:0" in err) if terminal else err == ""
    assert (tmp_path / "m.npz").exists()


@pytest.mark.slow
def test_progress_bar_where_no_thread_can_be_started(files, tmp_path):
    """A process at its thread limit (``can't start new thread``) still trains with its bar on a
    terminal: rich's thread that redraws the bar is not started, and the bar is redrawn at each
    update instead."""
    no_threads = (
        "import threading\n"
        'def refuse(self):\n    raise RuntimeError("can\'t start new thread")\n'
        "threading.Thread.start = refuse\n"
    )
    conllu = tmp_path / "t.conllu"
    conllu.write_text("1\tThe\t_\tDET\t_\t_\t_\t_\t_\t_\n2\tdog\t_\tNOUN\t_\t_\t_\t_\t_\t_\n\n" * 20)
    err, out = _stderr_of(
        ["tag", "train", conllu, "-o", tmp_path / "m.npz", "--epochs", "3"], True, tmp_path, no_threads
    )
    assert "Traceback" not in err and "epoch" in err and "sentences wrong" in err
    assert (tmp_path / "m.npz").exists()
    err, _ = _stderr_of(["train", files["csv"], "-o", tmp_path / "l.npz", "--epochs", "3"], True, tmp_path, no_threads)
    assert "Traceback" not in err and "mistakes" in err
    assert (tmp_path / "l.npz").exists()


@pytest.mark.parametrize("fmt", ["csv", "tsv", "parquet"])
def test_predict_reads_rows_whose_label_is_missing(run_cli, files, tmp_path, fmt):
    # a file to predict often keeps its label column, empty: predict reads it (in memory and
    # streamed); evaluate and train still refuse it with the row
    import pyarrow as pa
    import pyarrow.parquet as pq

    X = files["X"][:6]
    labels = ["", "NA", " ", "1", "", "nan"]
    path = tmp_path / f"new.{fmt}"
    if fmt == "parquet":
        table = {"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "label": pa.array([None, None, None, "1", None, None])}
        pq.write_table(pa.table(table), path)
    else:
        sep = "," if fmt == "csv" else "\t"
        path.write_text(
            sep.join("abc")
            + f"{sep}label\n"
            + "".join(f"{sep.join(map(repr, r.tolist()))}{sep}{t}\n" for r, t in zip(X, labels))
        )
    model = tmp_path / "m.npz"
    assert run_cli(["train", str(files["csv"]), "-o", str(model)])[0] == 0
    expected = [str(v) for v in load_model(model).predict(X)]
    for extra in ([], ["--stream"]):
        code, out, err = run_cli(["predict", str(model), str(path), *extra])
        assert code == 0 and out.split() == expected, err
        code, out, err = run_cli(["evaluate", str(model), str(path), *extra])
        assert code == 2 and err.count("\n") == 1, err
        assert "label" in err and ("row 1" in err if fmt == "parquet" else "line 2" in err), err


@pytest.mark.parametrize(
    "rows, separable",
    [("0,0,0\n1,0,0\n0,3,1\n2,3,1\n", True), ("0,0,0\n1,1,0\n0,1,1\n1,0,1\n", False)],
    ids=["separable", "xor"],
)
def test_analyze_json_holds_the_figures_of_the_analysis(run_cli, tmp_path, rows, separable):
    """``analyze --json`` is one JSON object with the figures of
    :func:`perceptrons.theory.analysis.analyze` on the same data, and the bound of its case."""
    import json

    from perceptrons.io.readers import read_data
    from perceptrons.theory.analysis import analyze

    data = tmp_path / "d.csv"
    data.write_text("a,b,label\n" + rows)
    code, out, err = run_cli(["analyze", str(data), "--json"])
    assert code == 0, err
    got = json.loads(out)
    a = analyze(*read_data(str(data)))
    assert got["separable"] is separable and got["samples"] == 4 and got["features"] == 2
    # XOR's four points: no direction beats 4 mistakes in 4 trials, γ → ∞ (null)
    trivial = not separable and a.bound >= a.n_samples * (1 - 1e-9)
    assert (got["radius"], got["gamma"], got["mistakes"]) == (a.radius, None if trivial else a.gamma, a.mistakes)
    assert got["bound"]["mistakes_at_most"] == (a.n_samples if trivial else a.bound)
    assert got["bound"]["name"] == ("Novikoff" if separable else "Freund-Schapire")
    assert got["mistakes"] <= got["bound"]["mistakes_at_most"]
    if separable:
        assert got["pla"]["converged"] is True and got["support_examples"] == a.n_support
    else:
        assert sorted(i for i, _ in got["witness"]) == [0, 1, 2, 3] and got["D"] == (None if trivial else a.D)
        assert got["bound"]["trivial"] is trivial


@pytest.mark.slow
def test_a_terminal_never_shows_an_impossible_rate(tmp_path):
    """What a terminal shows while a file streams: every rate is rows (bytes) counted since the
    pass's clock started over at least ``MIN_RATE_SECONDS``, so none can pass the file's rows
    (bytes) over that time.  The rate once shown rows × 10⁹ (a clock of one nanosecond)."""
    import re

    from perceptrons.cli._stream import MIN_RATE_SECONDS

    rng = np.random.default_rng(0)
    n = 400_000
    X = rng.normal(size=(n, 6)).round(4)
    data = tmp_path / "big.csv"
    with open(data, "w") as f:
        f.write("a,b,c,d,e,f,label\n")
        np.savetxt(f, np.column_stack([X, X[:, 0] > 0]), delimiter=",", fmt=["%.4f"] * 6 + ["%d"])
    err, _ = _stderr_of(
        ["train", data, "--stream", "-o", tmp_path / "m.npz", "--epochs", "2", "--model", "perceptron"], True, tmp_path
    )
    row_rates = [int(r.replace(",", "")) for r in re.findall(r"([\d,]+) rows/s", err)]
    byte_rates = [int(r.replace(",", "")) for r in re.findall(r"([\d,]+) MB/s", err)]
    assert row_rates, err[-2000:]  # a 25 MB file takes longer than MIN_RATE_SECONDS to parse
    assert max(row_rates) <= n / MIN_RATE_SECONDS
    assert max(byte_rates, default=0) <= data.stat().st_size / 1e6 / MIN_RATE_SECONDS + 1
    assert (tmp_path / "m.npz").exists()


@pytest.mark.slow
def test_a_terminal_shows_the_kernel_cost_before_training(tmp_path):
    rng = np.random.default_rng(2)
    data = tmp_path / "d.csv"
    data.write_text("a,b,label\n" + "".join(f"{a:.3f},{b:.3f},{int(a * b > 0)}\n" for a, b in rng.normal(size=(60, 2))))
    err, _ = _stderr_of(["train", data, "-o", tmp_path / "k.npz", "--model", "kernel"], True, tmp_path)
    assert "kernel     an epoch costs up to 60² = 3.6e+03 kernel evaluations" in err, err


def test_analyze_model_gives_its_papers_bound(run_cli, tmp_path):
    """``analyze --model`` adds :func:`perceptrons.theory.mistake_bound` of that learner (its
    ``--param`` and ``--passes``), or the reason the theorem does not apply, in the text and in
    ``--json``; every name ``--model`` offers is one the function takes."""
    import json

    from perceptrons import AROW, KernelPerceptron, PassiveAggressive
    from perceptrons._core.registry import CLI_NAMES
    from perceptrons.cli.analyze import BOUNDED
    from perceptrons.io.readers import read_data
    from perceptrons.theory import mistake_bound
    from perceptrons.theory.mistake_bounds import _BOUNDS

    assert {CLI_NAMES[n] for n in BOUNDED} == set(_BOUNDS) & set(CLI_NAMES.values())
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = (X @ [1.0, -2.0] > 0).astype(int)
    y[:6] = 1 - y[:6]  # not separable
    data = tmp_path / "d.csv"
    data.write_text("a,b,label\n" + "".join(f"{a!r},{b!r},{c}\n" for (a, b), c in zip(X.tolist(), y.tolist())))
    code, out, err = run_cli(["analyze", str(data), "--model", "arow", "--param", "r=0.5", "--passes", "2", "--json"])
    assert code == 0, err
    got = json.loads(out)["mistake_bound"]
    mb = mistake_bound(AROW(r=0.5), *read_data(str(data)), passes=2)
    assert (got["theorem"], got["at_most"], got["observed"]) == (mb.theorem, mb.bound, mb.observed)
    code, out, err = run_cli(["analyze", str(data), "--model", "pa", "--param", "variant=pa2"])
    assert code == 0, err
    mb = mistake_bound(PassiveAggressive(variant="pa2"), *read_data(str(data)))
    assert f"bound       {mb.theorem}: {mb.bound:.6g} mistakes at most" in out.splitlines()
    assert f"run         {mb.observed} mistakes (within the bound)" in out.splitlines()
    # a theorem these data do not meet: said, not an error
    code, out, err = run_cli(["analyze", str(data), "--model", "pa", "--param", "variant=pa"])
    assert code == 0 and "bound       none here: PA on data that are not separable: Theorem 3 needs" in out
    code, out, err = run_cli(["analyze", str(data), "--model", "pa", "--param", "variant=pa", "--json"])
    assert "Theorem 3 needs" in json.loads(out)["mistake_bound"]["refused"]
    # the kernel perceptron's, in its kernel's feature space (margin 0: its default is 1)
    code, out, err = run_cli(["analyze", str(data), "--model", "kernel", "--param", "margin=0", "--json"])
    got = json.loads(out)["mistake_bound"]
    mb = mistake_bound(
        KernelPerceptron(margin=0, fit_intercept=True), *read_data(str(data))
    )  # analyze folds the bias in
    assert code == 0 and (got["theorem"], got["observed"]) == (mb.theorem, mb.observed) and mb.holds
    code, out, err = run_cli(["analyze", str(data), "--model", "kernel"])
    assert code == 0 and "bound       none here: the perceptron's bounds here are for margin=0" in out
    # bad options: one line, exit 2
    for argv, says in [
        (["--model", "pa", "--param", "C=0"], "--param"),
        (["--param", "C=1"], "--param: applies only with --model"),
        (["--model", "svm"], "--model"),
        (["--model", "pa", "--passes", "0"], "--passes"),
    ]:
        code, out, err = run_cli(["analyze", str(data), *argv])
        assert code == 2 and says in err and "Traceback" not in err, (argv, err)
    # more trials than memory holds: refused before the run, naming the file and --passes
    big = tmp_path / "big.csv"
    big.write_text("a,b,label\n" + "".join(f"{i % 7},{i % 11},{i % 2}\n" for i in range(5000)))
    code, out, err = run_cli(["analyze", str(big), "--model", "pa", "--passes", "1000000"])
    assert code == 2 and f"{big}: --passes 1000000: the bound's curves over 1,000,000 × 5,000 trials need" in err, err


def test_analyze_takes_each_class_against_the_rest(run_cli, tmp_path):
    """On three classes, ``analyze`` analyses each class against the rest: the figures of
    :func:`perceptrons.theory.analysis.analyze` on that two-class problem."""
    import json

    from perceptrons.io.readers import read_data
    from perceptrons.theory.analysis import analyze

    rng = np.random.default_rng(3)
    centres = {"a": (0, 0), "b": (6, 0), "c": (3, 5)}
    rows = [(x + rng.normal(0, 0.6), y + rng.normal(0, 0.6), c) for c, (x, y) in centres.items() for _ in range(15)]
    data = tmp_path / "three.csv"
    data.write_text("x1,x2,label\n" + "".join(f"{a:.3f},{b:.3f},{c}\n" for a, b, c in rows))
    code, out, err = run_cli(["analyze", str(data)])
    assert code == 0, err
    assert "3 classes: each class against the rest" in out
    assert [line for line in out.splitlines() if line.startswith("class ")] == [
        f"class {c!r} against the rest (15 / 30)" for c in "abc"
    ]
    code, out, err = run_cli(["analyze", str(data), "--json"])
    got = json.loads(out)
    X, y = read_data(str(data))
    assert got["classes"] == ["a", "b", "c"]
    for c, part in zip("abc", got["one_vs_rest"]):
        a = analyze(X, np.where(y == c, "this class", "the rest"))
        assert part["class"] == c and part["separable"] == bool(a.certificate.separable)
        # the command reads the table through its column pipeline, the library here through
        # read_data: the same numbers, whose solver's last digit may differ (seen on one machine)
        assert part["mistakes"] == a.mistakes
        assert part["radius"] == pytest.approx(a.radius, rel=1e-12)
        assert part["gamma"] == pytest.approx(a.gamma, rel=1e-9)
        assert part["mistakes"] <= part["bound"]["mistakes_at_most"]


def test_analyze_and_report_read_a_table_with_text_and_gaps(run_cli, tmp_path):
    """A table as a user has it: a missing cell takes its column's mean, a text column of few
    values becomes its one-hot columns, one of many values is left out; each said in a note.
    The numbers keep their units (the theory measures the data as they are)."""
    import json

    rows = ["size,colour,id,label"]
    rng = np.random.default_rng(0)
    for i in range(130):
        c = i % 2
        size = "NA" if i % 17 == 3 else f"{rng.normal(10 + 5 * c, 1):.2f}"
        rows.append(f"{size},{['red', 'blue'][c] if i % 11 else ''},id{i},{['no', 'yes'][c]}")
    data = tmp_path / "t.csv"
    data.write_text("\n".join(rows) + "\n")
    code, out, err = run_cli(["analyze", str(data), "--json"])
    assert code == 0, err
    got = json.loads(out)
    assert got["features"] == 1 + 3  # size; colour's red, blue and missing levels; id left out
    assert "column 'id': text of 130 values, left out (more than 100 for one-hot)" in got["notes"]
    assert any("column 'size': number, imputed by the mean" in n for n in got["notes"])
    assert any("column 'colour': text, one-hot, 2 levels, missing as the level" in n for n in got["notes"])
    code, out, err = run_cli(["report", str(data), "-o", str(tmp_path / "r.html")])
    assert code == 0 and (tmp_path / "r.html").exists(), err
    assert "note: column 'colour': text, one-hot" in err


def test_the_projectrons_train_from_the_command_line(run_cli, files):
    """--budget-policy takes the two projectrons, whose tolerance goes through --param and is
    refused, naming itself, with a policy that does not read it."""
    out = files["dir"] / "projectron.npz"
    argv = ["train", str(files["csv"]), "-o", str(out), "--model", "kernel", "--budget", "20"]
    code, stdout, err = run_cli([*argv, "--budget-policy", "projectron++", "--param", "projection_tolerance=0.2"])
    assert code == 0, err
    pipeline = load_model(out)
    model = pipeline[-1]  # after the column scaling the command line learns
    assert model.budget_policy == "projectron++" and model.projection_tolerance == 0.2
    assert model.support_.shape[0] <= 20 and model.n_removed_ == 0
    assert (pipeline.predict(files["X"]) == files["y"]).mean() > 0.9
    out.unlink()
    code, _, err = run_cli([*argv, "--budget-policy", "bpa", "--param", "projection_tolerance=0.2"])
    assert code == 2 and "projection_tolerance=0.2 is the projectron's" in err and "Traceback" not in err
    assert not out.exists()


def test_analyze_says_when_no_direction_beats_the_trivial_bound(run_cli, tmp_path):
    """On rows that no direction separates better than n mistakes in n trials (points repeated
    with both labels), the Freund–Schapire optimum is the limit γ → ∞: the output says so, not
    the γ and D where the search stopped."""
    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n" + "".join(f"{i % 3},{i % 2},{i % 2 ^ (i // 6) % 2}\n" for i in range(24)))
    code, out, err = run_cli(["analyze", str(data)])
    assert code == 0, err
    assert "F–S bound   24 mistakes in one pass at most: the trivial bound of n trials" in out
    assert "gamma = " not in out
    import json

    code, out, err = run_cli(["analyze", str(data), "--json"])
    got = json.loads(out)
    assert code == 0 and got["gamma"] is None and got["D"] is None, got  # as the text: γ → ∞, not 1e17
    assert got["bound"]["mistakes_at_most"] == 24 and got["bound"]["trivial"] is True


def test_an_interrupt_after_a_file_was_put_in_place_names_it(run_cli, tmp_path, monkeypatch):
    """A Ctrl-C just after the model replaced the old file said "nothing was written"."""
    import perceptrons.persistence as persistence

    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n1,2,p\n2,1,q\n3,3,p\n0,1,q\n")
    model = tmp_path / "m.npz"
    real = persistence.save_model

    def save_then_interrupted(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(persistence, "save_model", save_then_interrupted)
    code, _, err = run_cli(["train", str(data), "-o", str(model)])
    assert code == 130 and f"interrupted after writing {model}" in err, err
    assert model.exists()
    monkeypatch.setattr(persistence, "save_model", real)
    assert run_cli(["train", str(data), "-o", str(model)])[0] == 0  # a later run in the process starts afresh


def test_ctrl_c_within_a_kernel_epoch_ends_it_there(run_cli, tmp_path, monkeypatch):
    """An epoch of the kernel model can take minutes; Ctrl-C was acted on only at its end."""
    import os
    import signal

    from perceptrons import KernelPerceptron

    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n" + "".join(f"{i % 7},{i % 5},{i % 2}\n" for i in range(40)))
    went_on = []

    def fit(self, X, y, callback=None, progress=None, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the first epoch runs
        progress(1, 10, 40)
        went_on.append(True)  # reached only when the interrupt waited for the epoch's end
        return self

    monkeypatch.setattr(KernelPerceptron, "fit", fit)
    code, _, err = run_cli(["train", str(data), "--model", "kernel", "-o", str(tmp_path / "m.npz")])
    assert code == 130 and "interrupted; nothing was written" in err, err
    assert not went_on


@pytest.mark.parametrize(
    "args, hint",
    [
        (["-o", "{d}/model.npz"], "-o"),
        (["-o", "{t}/m.npz", "--cache", "{d}/c.cache"], "--cache"),
        (["-o", "{d}/x.csv", "--data-glob"], "-o"),
    ],
    ids=["model in the directory", "cache in the directory", "model the glob matches"],
)
def test_an_output_among_the_shards_of_data_is_refused_on_the_first_run(run_cli, tmp_path, args, hint):
    """The first run went through; the next read the model as a shard ("shards/model.npz is npz
    by its name, shards/a.csv is csv") or refused it as DATA itself."""
    shards = tmp_path / "shards"
    shards.mkdir()
    (shards / "a.csv").write_text("a,b,y\n" + "".join(f"{i % 7},{i % 3},{i % 2}\n" for i in range(50)))
    data = str(shards / "*.csv") if "--data-glob" in args else str(shards)
    argv = [a.format(d=shards, t=tmp_path) for a in args if a != "--data-glob"]
    code, _, err = run_cli(["train", data, "--stream", *argv])
    assert code == 2 and f"Invalid value for {hint}" in err and "is among DATA's shards" in err, err
    assert sorted(p.name for p in shards.iterdir()) == ["a.csv"]


def test_a_float32_npz_trains_without_a_warning(run_cli, tmp_path):
    """The check for columns whose square overflows compared float32 maxima with √(float64 max),
    which numpy cast to float32: "RuntimeWarning: overflow encountered in cast" on every such file."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3)).astype(np.float32)
    np.savez(tmp_path / "f.npz", X=X, y=(X[:, 0] > 0).astype(int))
    code, out, err = run_cli(["train", str(tmp_path / "f.npz"), "-o", str(tmp_path / "m.npz")])
    assert code == 0 and "warning" not in err.lower(), err


def test_a_table_model_streaming_a_libsvm_file_says_so_not_that_label_was_given(run_cli, tmp_path):
    """The stream's reader was handed the model's own label column and said "--label and --text
    apply to CSV/TSV/Parquet, not to libsvm" to a user who gave neither."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    rows = list(zip(X.tolist(), y.tolist()))
    (tmp_path / "t.csv").write_text("a,b,label\n" + "".join(f"{a!r},{b!r},{c}\n" for (a, b), c in rows))
    (tmp_path / "t.svm").write_text("".join(f"{c} 1:{a!r} 2:{b!r}\n" for (a, b), c in rows))
    for extra in ([], ["--stream"]):
        model = str(tmp_path / f"m{len(extra)}.npz")
        assert run_cli(["train", str(tmp_path / "t.csv"), "-o", model, *extra])[0] == 0
        for command in ("evaluate", "predict"):
            code, out, err = run_cli([command, model, str(tmp_path / "t.svm"), "--stream"])
            assert code == 2 and "is libsvm, but the model was trained on a table" in err, err
            assert "--label and --text" not in err
            assert ("without --stream (by position)" in err) == (not extra)


@pytest.mark.parametrize("stream", [False, True])
def test_predict_header_writes_csv_that_reads_back(run_cli, tmp_path, stream):
    """``--header`` says its output is CSV, but labels went out unquoted: ``a,b`` read back as
    two fields."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    labels = ['"a,b"' if a > 0 else '"say ""hi"""' for a in X[:, 0].tolist()]
    rows = "".join(f"{a!r},{b!r},{c}\n" for (a, b), c in zip(X.tolist(), labels))
    (tmp_path / "t.csv").write_text("a,b,label\n" + rows)
    model = str(tmp_path / "m.npz")
    extra = ["--stream"] if stream else []
    assert run_cli(["train", str(tmp_path / "t.csv"), "-o", model, *extra])[0] == 0
    code, out, err = run_cli(["predict", model, str(tmp_path / "t.csv"), "--header", "-o", str(tmp_path / "p.csv")])
    assert code == 0, err
    back = pd.read_csv(tmp_path / "p.csv")
    assert list(back.columns) == ["prediction"] and set(back["prediction"]) <= {"a,b", 'say "hi"'}

"""The report, Python side: its numbers are the library's, the file is self-contained and written
atomically, the CLI fails cleanly, and a 10,000-update trace stays under 2 MB.

The page itself is tested in a real browser in ``test_report_browser.py``.
"""

import json
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from perceptrons import PocketPerceptron, VotedPerceptron, trace_updates
from perceptrons._core.errors import PerceptronsError
from perceptrons.datasets import gormley_example, noisy_blobs, separable
from perceptrons.report import build_report, report_data, write_report
from perceptrons.report._models import epoch_errors, make
from perceptrons.report._theory import sparsest_witness
from perceptrons.report._trace import W_BUDGET
from perceptrons.theory import fs_optimal_direction, is_separable, max_margin, online_mistakes, radius


def big_trace():
    """2-D separable data far from the origin: R/γ* is large and the PLA makes 10,111 updates."""
    X, y, _, _ = separable(200, 2, margin=0.01, random_state=1)
    return X + 5.0, y


def embedded(html):
    """The JSON data block of a report page."""
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def augmented(u, fit_intercept):
    return list(u.w_after) + ([u.b_after[0]] if fit_intercept else [])


# ------------------------------------------------------------------ the numbers are the library's
def test_gormley_numbers_are_the_library_values():
    X, y = gormley_example()
    d = report_data(X, y, fit_intercept=False)
    mm = max_margin(X, y, fit_intercept=False)
    th = d["theory"]
    assert th["R"] == radius(X, fit_intercept=False)
    assert th["max_margin"]["gamma"] == mm.gamma
    assert th["max_margin"]["coef"] == mm.coef.tolist()
    assert th["max_margin"]["support"] == mm.support.tolist()
    assert th["max_margin"]["bound"] == (radius(X, fit_intercept=False) / mm.gamma) ** 2
    assert th["separable"] and th["freund_schapire"] is None
    cert = is_separable(X, y, fit_intercept=False)
    assert th["certificate"]["coef"] == cert.coef.tolist() and th["certificate"]["margin"] == cert.margin
    # the worked example: w goes (0,0) -> (1,-2) -> (2,-1) -> (3,1), on examples 1, 3, 5
    t = d["trace"]
    assert t["w"] == [[0, 0], [1, -2], [2, -1], [3, 1]]
    assert t["index"] == [0, 2, 4] and t["epoch"] == [1, 1, 1] and t["score"] == [0, -1, 0]
    assert t["n_updates"] == 3 and t["n_epochs"] == 2 and t["converged"] and not t["truncated"]
    assert t["t"] == [1, 3, 5]
    assert t["norm"] == [np.sqrt(5), np.sqrt(5), np.sqrt(10)]
    assert np.allclose(t["dot"], [1, 2, 3])
    assert t["errors"] == [int(np.sum((X @ w >= 0) != (y > 0))) for w in np.array(t["w"][1:])]
    assert d["data"]["y"] == y.tolist() and d["data"]["labels"] == ["-1", "1"]
    assert d["fit_intercept"] is False and d["model"] == "perceptron"


@pytest.mark.parametrize("model", ["perceptron", "pocket", "averaged", "voted"])
def test_trace_and_theory_with_an_intercept(model):
    X, y, _, _ = separable(60, 2, margin=0.05, random_state=3)
    d = report_data(X, y, model=model, random_state=7)
    est, ups = trace_updates(X, y, max_epochs=1000)
    t = d["trace"]
    assert t["index"] == [u.index for u in ups] and t["epoch"] == [u.epoch for u in ups]
    assert t["score"] == [u.score for u in ups]
    W = np.array([augmented(u, True) for u in ups])
    assert t["stride"] == 1 and t["w"] == [[0.0, 0.0, 0.0]] + W.tolist()
    mm = max_margin(X, y)
    w_star = np.r_[mm.coef, mm.intercept]
    assert t["dot"] == (W @ w_star).tolist() and t["norm"] == np.linalg.norm(W, axis=1).tolist()
    assert d["theory"]["R"] == radius(X) and d["theory"]["max_margin"]["gamma"] == mm.gamma
    assert t["mistakes_per_epoch"] == est.mistakes_per_epoch_
    final = d["final"]
    ref = make(model, max_epochs=1000).fit(X, y)
    assert final["coef"] == ref.coef_[0].tolist() and final["train_errors"] == int(np.sum(ref.predict(X) != y))
    assert ("grid" in final) == (model == "voted")
    if model == "voted":  # the vote drawn from a grid of its own predictions
        x0, x1, y0, y1 = d["data"]["domain"]
        centre = [x0 + 0.5 * (x1 - x0) / 64, y0 + 0.5 * (y1 - y0) / 64]
        assert final["grid"][0] == ("1" if ref.predict([centre])[0] == 1 else "0")


@pytest.mark.slow
def test_checkpoints_thin_out_but_every_step_is_recoverable():
    X, y = big_trace()
    d = report_data(X, y)
    t = d["trace"]
    _, ups = trace_updates(X, y, max_epochs=1000)
    assert t["n_updates"] == len(ups) >= 10_000 and not t["truncated"]
    stride = t["stride"]
    assert stride == -(-(len(ups) + 1) * 3 // W_BUDGET) > 1
    W = np.array([[0.0, 0.0, 0.0]] + [augmented(u, True) for u in ups])
    assert t["w"] == W[::stride].tolist()
    # what the page does between checkpoints: add y·z of the logged examples, in order
    Z = np.hstack([X, np.ones((len(X), 1))]) * np.where(y > 0, 1.0, -1.0)[:, None]
    for k in (1, stride - 1, 777, len(ups)):
        w = np.array(t["w"][k // stride])
        for m in range(k // stride * stride, k):
            w = w + Z[t["index"][m]]
        assert w.tolist() == W[k].tolist()


def test_the_trace_kept_is_cut_at_max_updates():
    X, y = noisy_blobs(120, random_state=0)
    d = report_data(X, y, max_updates=100)
    t = d["trace"]
    assert t["truncated"] and len(t["index"]) == 100 and t["n_updates"] > 100
    assert t["max_epochs"] == 50  # inseparable: the default run is 50 epochs


def test_inseparable_data_get_a_small_witness_and_the_freund_schapire_bound():
    X, y = noisy_blobs(200, random_state=0)
    d = report_data(X, y)
    th = d["theory"]
    assert not th["separable"] and th["max_margin"] is None
    cert = th["certificate"]
    lam = np.array(cert["multipliers"])
    idx = np.array(cert["examples"])
    assert lam.min() > 0 and np.isclose(lam.sum(), 1.0) and len(idx) <= 4  # Carathéodory: p + 1
    s = np.where(y[idx] > 0, 1.0, -1.0)
    Z = np.hstack([X[idx], np.ones((len(idx), 1))]) * s[:, None]
    assert np.linalg.norm(lam @ Z) <= 1e-9 * th["R"]
    assert np.allclose(cert["positive_point"], cert["negative_point"])  # one point in both hulls
    fs, u = fs_optimal_direction(X, y)
    f = th["freund_schapire"]
    assert f["u"] == u.tolist() and f["gamma"] == fs.gamma and f["D"] == fs.D and f["bound"] == fs.bound
    assert f["one_pass_mistakes"] == online_mistakes(X, y) <= fs.bound


def test_rows_of_zeros_get_the_trivial_freund_schapire_bound():
    """Every row zero with both labels: no direction beats n mistakes in n trials; the report
    stopped with an error here, and now shows that bound."""
    X = np.zeros((8, 2))
    y = np.array([0, 1] * 4)
    f = report_data(X, y)["theory"]["freund_schapire"]
    assert f["bound"] == pytest.approx(8.0, rel=1e-9)
    assert f["one_pass_mistakes"] == online_mistakes(X, y) == 8


def test_sparsest_witness_through_the_origin():
    # XOR through the origin: the point (0, 0) alone proves it (no hyperplane through 0 can
    # put it strictly on a side)
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([0, 0, 1, 1])
    cert = report_data(X, y, fit_intercept=False)["theory"]["certificate"]
    assert cert["examples"] == [0] and cert["positive_point"] is None and cert["negative_point"] == [0, 0]
    lam = sparsest_witness(X * np.array([-1, -1, 1, 1.0])[:, None], np.full(4, 0.25))
    assert np.isclose(lam.sum(), 1) and np.linalg.norm(lam @ (X * np.array([-1, -1, 1, 1.0])[:, None])) < 1e-12


def test_the_voted_curve_is_the_references_vote_after_each_epoch():
    """The curve keeps each example's vote over the finished vectors and scores each vector
    once (scoring the whole vote each epoch took over an hour on 50,000 examples); after each
    epoch it equals the pure-Python oracle's voted perceptron of that many epochs."""
    import reference as ref

    X, y = noisy_blobs(60, random_state=4)
    pm = np.where(y == np.unique(y)[1], 1, -1)
    curve = epoch_errors(X, y, True, 8)["voted"]
    want = []
    for epochs in range(1, 9):
        vectors = ref.voted(X.tolist(), pm.tolist(), max_epochs=epochs)
        want.append(sum(p != t for p, t in zip(ref.voted_predict(vectors, X.tolist()), pm.tolist())))
    assert curve == want and max(want) > 0


def test_epoch_curves_and_four_runs_are_the_estimators_own():
    X, y = noisy_blobs(100, random_state=2)
    d = report_data(X, y, model="pocket", random_state=5)
    curves = d["epochs"]
    n_epochs = len(curves["perceptron"])
    assert n_epochs == 50 and curves == epoch_errors(X, y, True, n_epochs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        pocket = PocketPerceptron(max_epochs=n_epochs).fit(X, y)
    assert curves["pocket"] == [int(e) for e in pocket.pocket_errors_]
    runs = d["runs"]
    test = np.array(runs["test"])
    train = np.setdiff1d(np.arange(len(y)), test)
    assert len(test) == 30 and [r["seed"] for r in runs["runs"]] == [5, 6, 7, 8]
    for r in runs["runs"]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est = PocketPerceptron(order="random-mistake", init="random", max_epochs=5000, random_state=r["seed"])
            est.fit(X[train], y[train])
        assert r["coef"] == est.coef_[0].tolist()
        assert r["e_in"] == np.mean(est.predict(X[train]) != y[train])
        assert r["e_out"] == np.mean(est.predict(X[test]) != y[test])


def test_few_examples_hold_none_out():
    X, y = gormley_example()
    runs = report_data(X, y, fit_intercept=False, model="voted")["runs"]
    assert runs["test"] == [] and all(r["e_out"] is None for r in runs["runs"])
    assert all(0 <= r["e_in"] <= 1 and r["converged"] for r in runs["runs"])


def test_more_than_two_features_have_no_domain():
    X, y, _, _ = separable(80, 5, margin=0.05, random_state=2)
    d = report_data(X, y, model="voted")
    assert d["data"]["d"] == 5 and d["data"]["domain"] is None and "grid" not in d["final"]
    assert len(d["trace"]["w"][0]) == 6


# ------------------------------------------------------------------ the HTML file
def test_the_page_is_self_contained():
    X, y = gormley_example()
    html = build_report(X, y, fit_intercept=False)
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    # nothing that would make a browser fetch: no external script, style, font, image or link
    assert not re.search(r"<(link|img|iframe|object|embed)\b", html, re.I)
    assert not re.search(r"<script[^>]+src=", html, re.I)
    assert not re.search(r"@import|@font-face|url\(\s*['\"]?(https?:|//)", html, re.I)
    assert not re.search(r"\b(fetch|XMLHttpRequest|WebSocket|EventSource|sendBeacon)\b", html)
    # the only http text is the SVG namespace name, which is an identifier, not a request
    assert set(re.findall(r"https?://[^\s\"'<>)]+", html)) == {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in html  # and the browser is told to refuse any request
    assert embedded(html) == report_data(X, y, fit_intercept=False)


def test_text_from_the_data_cannot_break_out_of_the_page():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    y = np.array(["</script><b>x", "</script><b>x", "{{script}}", "{{script}}"])
    html = build_report(X, y, title="<i>{{css}}</i> & co")
    assert html.count("</script>") == 2  # the data block's and the program's, nothing else
    assert "<title>&lt;i&gt;{{css}}&lt;/i&gt; &amp; co</title>" in html
    assert embedded(html)["data"]["labels"] == ["</script><b>x", "{{script}}"]


@pytest.mark.slow
def test_size_of_a_10000_update_trace():
    X, y = big_trace()
    html = build_report(X, y)
    data = embedded(html)
    assert data["trace"]["n_updates"] >= 10_000 and len(data["trace"]["index"]) == data["trace"]["n_updates"]
    size = len(html.encode("utf-8"))
    assert size <= 2_000_000, f"{size / 1e6:.2f} MB"


# ------------------------------------------------------------------ writing
def test_write_report_replaces_atomically(tmp_path, monkeypatch):
    X, y = gormley_example()
    out = tmp_path / "r.html"
    out.write_text("old")
    targets = []
    real_replace = os.replace

    def spy(src, dst):
        targets.append((os.path.dirname(src), os.path.basename(src), dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    assert write_report(out, X, y, fit_intercept=False) == str(out)
    # a temporary file in the same directory, renamed over the destination
    assert [(d, dst) for d, _, dst in targets] == [(str(tmp_path), str(out))] and targets[0][1] != "r.html"
    assert embedded(out.read_text())["trace"]["n_updates"] == 3
    assert os.listdir(tmp_path) == ["r.html"]


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    X, y = gormley_example()
    out = tmp_path / "r.html"
    out.write_text("old")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(PerceptronsError, match="r.html: cannot write: No space left on device"):
        write_report(out, X, y)
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["r.html"]


def test_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "r.html"
    out.write_text("old")
    with pytest.raises(PerceptronsError, match="1 class"):
        write_report(out, [[0.0], [1.0], [2.0]], [0, 0, 0])
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["r.html"]


@pytest.mark.parametrize(
    "X,y,kwargs,fragment",
    [
        (
            [[float(i)] for i in range(11)],
            list(range(11)),
            {},
            "for at most 10 classes (a page holds one report a class)",
        ),
        ([[0.0], [1.0]], [1, 1], {}, "y has 1 class"),
        ([[0.0], [np.nan]], [0, 1], {}, "X contains nan at row 1, column 0"),
        ([[0.0], [1.0]], [0, 1, 1], {}, "one label per row of X"),
        ([0.0, 1.0], [0, 1], {}, "2-D array"),
        ([["a"], ["b"]], [0, 1], {}, "X must be numeric"),
        (np.zeros((2, 50_001)), [0, 1], {}, "takes at most 100000"),
        ([[0.0], [1.0]], [0, 1], {"model": "kernel"}, "'model' parameter must be one of"),
        ([[0.0], [1.0]], [0, 1], {"fit_intercept": "yes"}, "'fit_intercept' parameter must be a bool"),
        ([[0.0], [1.0]], [0, 1], {"max_updates": 0}, "'max_updates' parameter must be an int"),
        ([[0.0], [1.0]], [0, 1], {"max_epochs": 0}, "'max_epochs' parameter"),
        ([[0.0], [1.0]], [0, 1], {"random_state": 2**32}, "'random_state' parameter"),
        ([[0.0], [1.0]], [0, 1], {"title": 3}, "'title' parameter must be None or a str"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(X, y, kwargs, fragment):
    with pytest.raises(PerceptronsError) as exc:
        report_data(X, y, **kwargs)
    assert fragment in str(exc.value)


def test_import_perceptrons_does_not_load_the_report():
    code = "import sys, perceptrons; print(any(m.startswith('perceptrons.report') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


# ------------------------------------------------------------------ the command line
def write_csv(path, X, y, header="a,b,label"):
    path.write_text(header + "\n" + "".join(f"{r[0]!r},{r[1]!r},{t}\n" for r, t in zip(X.tolist(), y)))
    return path


def test_cli_writes_the_report(run_cli, tmp_path):
    X, y = gormley_example()
    data = write_csv(tmp_path / "g.csv", X, y)
    out = tmp_path / "g.html"
    code, stdout, err = run_cli(["report", str(data), "-o", str(out), "--no-intercept", "--model", "averaged"])
    assert code == 0, err
    assert stdout == f"report: {out}\n"
    assert embedded(out.read_text()) == report_data(X, y, fit_intercept=False, model="averaged")


def test_cli_label_column_and_default_output(run_cli, tmp_path, monkeypatch):
    X, y = gormley_example()
    data = tmp_path / "g.csv"
    data.write_text("cls,a,b\n" + "".join(f"{t},{r[0]},{r[1]}\n" for r, t in zip(X.tolist(), y)))
    monkeypatch.chdir(tmp_path)
    code, stdout, err = run_cli(["report", "g.csv", "--label", "cls", "--seed", "3", "--title", "Six points"])
    assert code == 0, err
    d = embedded((tmp_path / "report.html").read_text())
    assert d["title"] == "Six points" and d["runs"]["runs"][0]["seed"] == 3 and d["fit_intercept"]


@pytest.mark.parametrize(
    "argv,files,fragment",
    [
        (["report", "{d}/absent.csv"], {}, "absent.csv: no such file"),
        (
            ["report", "{d}/many.csv", "-o", "{d}/out.html"],
            {"many.csv": "a,label\n" + "".join(f"{i},{i}\n" for i in range(11))},
            "y has 11 classes",
        ),
        (["report", "{d}/g.csv", "-o", "{d}/out.html", "--model", "kernel"], {}, "'kernel' is not one of"),
        (["report", "{d}/g.csv", "-o", "{d}/no/such/dir.html"], {}, "does not exist"),
        (["report", "{d}/g.csv", "-o", "{d}/g.csv"], {}, "is the same file as DATA"),
        (["report", "{d}/g.csv", "-o", "{d}/out.html", "--label", "zzz"], {}, "no label column 'zzz'"),
        (["report", "{d}/inf.csv", "-o", "{d}/out.html"], {"inf.csv": "a,label\ninf,0\n2,1\n"}, "not finite"),
        (["report", "{d}/g.csv", "-o", "{d}/out.html", "--epochs", "0"], {}, "--epochs"),
        (["report", "{d}/g.csv", "-o", "{d}/out.html", "--seed", "-1"], {}, "--seed"),
    ],
)
def test_cli_bad_input_one_line_exit_2_nothing_written(run_cli, tmp_path, argv, files, fragment):
    X, y = gormley_example()
    write_csv(tmp_path / "g.csv", X, y)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "out.html").write_text("old")
    before = sorted(os.listdir(tmp_path))
    code, stdout, err = run_cli([a.replace("{d}", str(tmp_path)) for a in argv])
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1 and fragment in err, err
    assert "Traceback" not in err and stdout == ""
    assert (tmp_path / "out.html").read_text() == "old" and sorted(os.listdir(tmp_path)) == before


@pytest.mark.slow
def test_cli_no_traceback_in_a_real_process(tmp_path):
    data = tmp_path / "one.csv"
    data.write_text("a,label\n1,0\n2,0\n")
    done = subprocess.run(
        [sys.executable, "-m", "perceptrons", "report", str(data), "-o", str(tmp_path / "r.html")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0 and "1 class" in done.stderr
    assert not (tmp_path / "r.html").exists()


@pytest.mark.slow
def test_demo_writes_the_report(run_cli, tmp_path):
    code, out, err = run_cli(["demo", "--out", str(tmp_path / "demo")])
    assert code == 0, err
    page = tmp_path / "demo" / "report.html"
    assert f"report: {page}" in out
    data = embedded(page.read_text())
    X, y, _, _ = separable(400, 2, margin=0.05, random_state=0)
    assert data["data"]["X"] == X.tolist() and data["theory"]["separable"] and data["data"]["d"] == 2


@pytest.mark.slow
def test_voted_final_model_is_a_grid_of_its_predictions():
    X, y = noisy_blobs(60, random_state=4)
    d = report_data(X, y, model="voted")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = VotedPerceptron(max_epochs=50).fit(X, y)
    x0, x1, y0, y1 = d["data"]["domain"]
    gx = x0 + (np.arange(64) + 0.5) * (x1 - x0) / 64
    gy = y0 + (np.arange(64) + 0.5) * (y1 - y0) / 64
    P = np.column_stack([np.tile(gx, 64), np.repeat(gy, 64)])
    assert d["final"]["grid"] == "".join("1" if v == 1 else "0" for v in ref.predict(P))


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout here")
def test_a_report_to_standard_output_by_name_ends_with_the_page(tmp_path):
    """``-o /dev/stdout`` is standard output as ``-o -`` is: the summary line was printed after
    ``</html>`` into the page."""
    X, y, _, _ = separable(30, 2, margin=0.05, random_state=0)
    data = write_csv(tmp_path / "sep.csv", X, y)
    done = subprocess.run(
        [sys.executable, "-m", "perceptrons", "report", str(data), "-o", "/dev/stdout"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("</html>") and "report: " not in done.stdout


def test_multiclass_data_give_one_report_a_class_against_the_rest():
    import numpy as np

    from perceptrons.report import report_data

    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2)) + np.repeat([[0, 0], [5, 0], [0, 5]], 10, axis=0)
    y = np.repeat(["x", "y", "z"], 10)
    d = report_data(X, y, fit_intercept=True)
    assert d["classes"] == ["x", "y", "z"] and len(d["one_vs_rest"]) == 3
    for c, part in zip("xyz", d["one_vs_rest"]):
        alone = report_data(X, (y == c).astype(int))
        assert part["data"]["labels"] == [f"not {c}", c]
        assert part["trace"] == alone["trace"] and part["theory"] == alone["theory"]
    with pytest.raises(PerceptronsError, match="at most 10"):
        report_data(np.arange(22.0).reshape(11, 2), np.arange(11))


def test_the_figures_draw_in_the_report_colours_and_markers():
    """A PNG figure and the page read alike: the classes' colours and markers and the four
    runs' colours are the report's (its CSS variables)."""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_hex

    from perceptrons import plotting
    from perceptrons.datasets import gormley_example

    css = (Path(plotting.__file__).parent / "report" / "assets" / "report.css").read_text()
    var = dict(re.findall(r"--([a-z0-9]+):\s*(#[0-9a-f]{6});", css))
    assert [c for _, c in plotting.CLASS_STYLE] == [var["neg"], var["pos"]]
    assert list(plotting.RUN_COLOURS) == [var[f"run{i}"] for i in range(4)]
    X, y = gormley_example()
    fig = plotting.plot_runs([(f"run {i}", [1.0, i - 2.0], 0.0, 0.0, 0.0) for i in range(5)], X, y)
    ax = fig.axes[0]
    dots = [to_hex(coll.get_facecolor()[0]) for coll in ax.collections]
    assert dots == [var["neg"], var["pos"]]  # classes[0] first
    assert [to_hex(line.get_color()) for line in ax.lines] == [var[f"run{i % 4}"] for i in range(5)]

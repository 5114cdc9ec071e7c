"""perceptrons demo: the embedded default — generated data and scikit-learn's bundled data only."""

import os

import click

from perceptrons.cli._naming import note_path
from perceptrons.cli._options import DEMO_SEED


@click.command(name="demo")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="demo-output",
    callback=note_path,
    show_default=True,
    help="Directory for the figures (created if absent).",
)
@click.option("--seed", type=DEMO_SEED, default=0, show_default=True)
def command(out_dir, seed):
    """Train the family on a generated 2-D separable set, noisy 2-D data and the breast-cancer
    data bundled with scikit-learn; print a summary table, write PNG figures and an
    interactive HTML report of the separable set."""
    # checked before the imports and the training, so a bad --out costs nothing
    parent = os.path.dirname(os.path.abspath(out_dir))
    if not os.path.isdir(parent):
        raise click.BadParameter(f"{out_dir}: the directory {parent!r} does not exist", param_hint="--out")
    where = out_dir if os.path.isdir(out_dir) else parent  # the figures' temporary files go there
    if not os.access(where, os.W_OK | os.X_OK):
        raise click.BadParameter(f"{out_dir}: cannot create a file in {where!r}: permission denied", param_hint="--out")
    try:  # made now: an empty name, a name too long or a file system that refuses fails here, named
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise click.BadParameter(
            f"{out_dir!r}: cannot make this directory ({exc.strerror})", param_hint="--out"
        ) from None
    import warnings

    import numpy as np
    from rich.console import Console
    from rich.table import Table
    from sklearn.datasets import load_breast_cancer
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    from perceptrons import AveragedPerceptron, Perceptron, PocketPerceptron, VotedPerceptron, plotting
    from perceptrons.datasets import noisy_blobs, separable
    from perceptrons.report import write_report

    warnings.simplefilter("ignore", ConvergenceWarning)
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    table = Table(title="perceptrons demo")
    for col in ("data", "model", "epochs", "updates", "converged", "train acc", "test acc"):
        table.add_column(col, justify="right" if col not in ("data", "model") else "left", no_wrap=True)

    def row(data, est, Xtr, ytr, Xte, yte):
        name = type(est).__name__.replace("Perceptron", "") or "Perceptron"
        table.add_row(
            data,
            name,
            str(est.n_epochs_),
            str(est.n_updates_),
            "yes" if est.converged_ else "no",
            f"{est.score(Xtr, ytr):.3f}",
            f"{est.score(Xte, yte):.3f}",
        )

    figures = []
    # 1. A separable 2-D set: the PLA converges (Novikoff) and draws its line.
    X, y, _, _ = separable(400, 2, margin=0.05, random_state=seed)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, random_state=seed)
    pla = Perceptron().fit(Xtr, ytr)
    row("2-D separable", pla, Xtr, ytr, Xte, yte)
    figures.append(
        plotting.save_figure(plotting.plot_separator(pla, Xtr, ytr), os.path.join(out_dir, "separable_2d.png"))
    )
    # the same data as one interactive page: step through the PLA, the proof's bounds, four runs
    report = write_report(
        os.path.join(out_dir, "report.html"), X, y, random_state=seed, title="perceptrons demo: 2-D separable data"
    )

    # 2. Four seeds, four hyperplanes, their in- and out-of-sample errors (Succinctly, Fig. 19).
    runs = []
    for s in range(4):
        est = Perceptron(order="random-mistake", init="random", max_epochs=5000, random_state=seed + s).fit(Xtr, ytr)
        runs.append(
            (f"seed {seed + s}", est.coef_[0], est.intercept_[0], 1 - est.score(Xtr, ytr), 1 - est.score(Xte, yte))
        )
    figures.append(plotting.save_figure(plotting.plot_runs(runs, Xtr, ytr), os.path.join(out_dir, "four_runs.png")))

    # 3. Noisy 2-D data: the PLA oscillates, the pocket does not (Succinctly, Fig. 18).
    Xn, yn = noisy_blobs(400, noise=0.1, random_state=seed)
    Xntr, Xnte, yntr, ynte = train_test_split(Xn, yn, test_size=0.5, random_state=seed)
    pocket = PocketPerceptron(max_epochs=60, order="shuffle", random_state=seed).fit(Xntr, yntr)
    last = Perceptron(max_epochs=60, order="shuffle", random_state=seed)
    pla_errors = []
    for _ in range(60):  # the same shuffled run, epoch by epoch, to read the last iterate's error
        last.partial_fit(Xntr, yntr, classes=np.unique(yn))
        pla_errors.append(int(np.sum(last.predict(Xntr) != yntr)))
    for est in (last, pocket):
        row("2-D noisy", est, Xntr, yntr, Xnte, ynte)
    figures.append(
        plotting.save_figure(
            plotting.plot_error_curves(pla_errors, pocket.pocket_errors_, len(yntr)),
            os.path.join(out_dir, "pocket_vs_pla.png"),
        )
    )

    # 4. Breast cancer (bundled with scikit-learn), standardised, 70/30 split.  In shuffled
    # order: in the file's order this split happens to give the four hypotheses the same test
    # accuracy, which reads as one model printed four times.
    Xb, yb = load_breast_cancer(return_X_y=True)
    Xbtr, Xbte, ybtr, ybte = train_test_split(Xb, yb, test_size=0.3, random_state=seed, stratify=yb)
    scaler = StandardScaler().fit(Xbtr)
    Xbtr, Xbte = scaler.transform(Xbtr), scaler.transform(Xbte)
    for cls in (Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron):
        est = cls(max_epochs=50, order="shuffle", random_state=seed)
        row("breast cancer", est.fit(Xbtr, ybtr), Xbtr, ybtr, Xbte, ybte)

    figures += _extra_figures(out_dir, seed)
    console.print(table)
    click.echo(
        "The models of a data set make the same updates in the same order: they differ in the "
        "hypothesis they predict with (the last, the best seen, the average, the vote)."
    )
    for path in figures:
        click.echo(f"figure: {path}")
    click.echo(f"report: {report}")


def _extra_figures(out_dir, seed):
    """A circle learned as a plane in 3-D (Har-Peled, Theorem 30.2.1)."""
    import numpy as np

    from perceptrons import CircleLift, Perceptron, plotting
    from perceptrons.lifting import circle_from_plane

    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(300, 2))
    centre, radius = np.array([0.4, -0.3]), 1.1
    dist = np.linalg.norm(X - centre, axis=1)
    keep = np.abs(dist - radius) > 0.08  # a margin around the circle, so the lifted set is separable
    X, y = X[keep], np.where(dist[keep] < radius, 1, -1)
    est = Perceptron(max_epochs=100_000).fit(CircleLift().fit_transform(X), y)
    circle = circle_from_plane(est.coef_[0], est.intercept_[0])
    title = (
        f"PLA on (x, y, x²+y²): {est.n_updates_} updates; circle centre "
        f"({circle.center[0]:.2f}, {circle.center[1]:.2f}), radius {circle.radius:.2f} "
        f"(true ({centre[0]}, {centre[1]}), {radius})"
    )
    fig = plotting.plot_circle_lift(X, y, est, title=title)
    return [plotting.save_figure(fig, os.path.join(out_dir, "circle_lift.png"))]

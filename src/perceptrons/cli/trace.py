"""perceptrons trace DATA: every update of the PLA, as the lecture notes show it."""

import click

from perceptrons.cli._common import FORMAT_OPTION, LABEL_OPTION
from perceptrons.cli._naming import note_input
from perceptrons.cli._options import EPOCHS, SEED, refuse_unused


@click.command(name="trace")
@click.argument("data", type=click.Path(dir_okay=False), required=False, callback=note_input)
@click.option(
    "--example",
    type=click.Choice(["gormley"]),
    default=None,
    help="Trace a worked example of the seed notes instead of a file.",
)
@LABEL_OPTION
@FORMAT_OPTION
@click.option("--epochs", type=EPOCHS, default=100, show_default=True)
@click.option(
    "--order", type=click.Choice(["cyclic", "shuffle", "random-mistake"]), default="cyclic", show_default=True
)
@click.option("--seed", type=SEED, default=None)
@click.option("--no-intercept", is_flag=True, help="No bias term (the worked example has none).")
def command(data, example, label, fmt, epochs, order, seed, no_intercept):
    """Run the PLA on DATA and print each update: example, prediction, w_k -> w_k+1.

    The vectors are printed dense: sparse DATA (LIBSVM) is densified, and refused first when
    its rows × columns would not fit twice in the available memory."""
    import numpy as np

    from perceptrons.linear.trace import trace_updates

    if example is not None and data is not None:
        raise click.UsageError("give a DATA file or --example, not both")
    refuse_unused(click.get_current_context(), {"seed": (order != "cyclic", "with --order shuffle or random-mistake")})
    if example == "gormley":
        from perceptrons.datasets import gormley_example

        X, y = gormley_example()
        no_intercept = True
    elif data is None:
        raise click.BadParameter("give a DATA file or --example gormley", param_hint="DATA")
    else:
        from perceptrons._core.memory import densify
        from perceptrons.cli._common import check_label_text, read_any_base
        from perceptrons.io.readers import read_data

        (X, y), _ = read_any_base(lambda zero: read_data(data, label=label, fmt=fmt, zero_based=zero))
        check_label_text(y, f"{data}: label")  # printed as it is: a control character would reach the terminal
        # the trace replays dense rows; the estimator holds a second copy as its operand
        X = densify(X, str(data), copies=2, why="the trace prints dense vectors")
    # the updates are printed as they are replayed: a long run never holds them all
    est, updates = trace_updates(
        X, y, fit_intercept=not no_intercept, max_epochs=epochs, order=order, random_state=seed, lazy=True
    )

    def vec(w, b):
        body = ", ".join(_num(v) for v in np.ravel(w))
        return f"({body})" if no_intercept else f"({body}; b={_num(b[0])})"

    binary = len(est.classes_) == 2
    expr = "y·(w·x)" if no_intercept else "y·(w·x+b)"
    w0, b0 = est.initial_
    click.echo(f"w_1 = {vec(w0, b0)}" if binary else "W_1 = 0")
    n_updates = 0
    for u in updates:
        n_updates += 1
        x = "(" + ", ".join(_num(v) for v in u.x) + ")"
        if binary:
            click.echo(
                f"epoch {u.epoch}  example {u.index + 1}  x={x} y={u.label}  "
                f"{expr}={_num(u.score)} ≤ 0: mistake  "
                f"w_{u.k} = {vec(u.w_before, u.b_before)} -> w_{u.k + 1} = {vec(u.w_after, u.b_after)}"
            )
        else:
            click.echo(
                f"epoch {u.epoch}  example {u.index + 1}  x={x} y={u.label}  "
                f"margin over runner-up {_num(u.score)}: mistake  update k={u.k}"
            )
    click.echo(
        f"{n_updates} updates in {est.n_epochs_} epochs; mistakes per epoch {est.mistakes_per_epoch_}; "
        f"{'converged' if est.converged_ else 'not converged'}"
    )


def _num(v):
    v = float(v) + 0.0
    return str(int(v)) if v == int(v) else f"{v:.4g}"

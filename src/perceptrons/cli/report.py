"""perceptrons report DATA: one self-contained, interactive HTML page of the PLA on DATA.

Everything the page shows is computed here, by the library (the trace, R, γ*, the certificate,
the bounds, four runs); the page only draws it, and needs no network to open.  The file is
written whole or not at all.
"""

import click

from perceptrons.cli._common import ENCODING_OPTION, ENCODING_WHERE, FORMAT_OPTION, LABEL_OPTION, is_text_table
from perceptrons.cli._naming import note_input, note_path
from perceptrons.cli._options import DEMO_SEED, EPOCHS, refuse_unused
from perceptrons.cli._paths import check_output_path
from perceptrons.report import write_report
from perceptrons.report.data import MODELS


@click.command(name="report")
@click.argument("data", type=click.Path(dir_okay=False), callback=note_input)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default="report.html",
    show_default=True,
    callback=note_path,
    help="The HTML file to write (- for standard output).",
)
@click.option(
    "--model",
    type=click.Choice(MODELS),
    default="perceptron",
    show_default=True,
    help="The estimator whose final separator and four runs are shown.",
)
@LABEL_OPTION
@FORMAT_OPTION
@ENCODING_OPTION
@click.option("--no-intercept", is_flag=True, help="No bias term: separators through the origin.")
@click.option(
    "--epochs",
    type=EPOCHS,
    default=None,
    help="Epoch limit of the PLA run [default: 1000 on separable data, 50 otherwise].",
)
@click.option("--seed", type=DEMO_SEED, default=0, show_default=True, help="Seed of the four runs (seed … seed+3).")
@click.option("--title", default=None, help="Title of the page [default: The perceptron, seen].")
def command(data, output, model, label, fmt, encoding, no_intercept, epochs, seed, title):
    """Write an interactive HTML report of the PLA on DATA: step through its updates, watch the
    convergence proof's quantities against their bounds, see the separability certificate,
    four runs, and edit the points in the page.  More than two classes (at most 10): each
    against the rest, picked in the page.

    The page embeds every value: sparse DATA (LIBSVM) is densified, and refused first when it
    has more than 100,000 values (rows × columns)."""
    from perceptrons.cli._prepare import read_for_theory

    refuse_unused(click.get_current_context(), {"encoding": (is_text_table(data, fmt), ENCODING_WHERE)})

    check_output_path(output, inputs=[("DATA", data)], stream_ok=True)
    X, y, notes = read_for_theory(data, label, fmt, encoding)
    if y is None:
        raise click.BadParameter(f"{data}: no label column", param_hint="DATA")
    write_report(
        output,
        X,
        y,
        model=model,
        fit_intercept=not no_intercept,
        max_epochs=epochs,
        random_state=seed,
        title=title,
    )
    from perceptrons.io.atomic import output_target

    for line in notes:
        click.echo(f"note: {line}", err=True)
    if output_target(output)[0] == "file":  # not after the page on standard output (-, /dev/stdout)
        click.echo(f"report: {output}")

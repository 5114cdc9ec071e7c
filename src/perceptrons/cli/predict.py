"""perceptrons predict MODEL DATA [-o OUT]: one predicted label per line.

DATA ``-`` is standard input (give ``--format``); without ``-o``, or with ``-o -``, the labels
go to standard output.
"""

import click

from perceptrons.cli._common import FORMAT_OPTION, LABEL_OPTION, load_classifier, predict_in_chunks, read_for_model
from perceptrons.cli._naming import note_input, note_path
from perceptrons.cli._paths import check_output_path


@click.command(name="predict")
@click.argument("model", type=click.Path(dir_okay=False), callback=note_path)
@click.argument("data", type=click.Path(dir_okay=False), callback=note_input)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    callback=note_path,
    help="Write labels here instead of stdout.",
)
@LABEL_OPTION
@FORMAT_OPTION
def command(model, data, output, label, fmt):
    """Predict a label for every row of DATA with the model saved in MODEL."""
    check_output_path(output, [("MODEL", model), ("DATA", data)], stream_ok=True)
    from perceptrons.io.atomic import atomic_output

    est, info = load_classifier(model)
    X, _ = read_for_model(data, est, label, fmt, info)
    pred = predict_in_chunks(est, X)
    with atomic_output(output or "-") as out:
        for start in range(0, len(pred), 1 << 16):  # text of a block of rows at a time, not of all rows
            out.write("".join(f"{p}\n" for p in pred[start : start + (1 << 16)]))
    if output and output != "-":
        click.echo(f"{X.shape[0]} predictions -> {output}", err=True)

"""perceptrons predict MODEL DATA [-o OUT]: one predicted label per line."""

import click

from perceptrons.cli._common import FORMAT_OPTION, LABEL_OPTION, check_output_path, load_classifier, read_for_model


@click.command(name="predict")
@click.argument("model", type=click.Path(dir_okay=False))
@click.argument("data", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write labels here instead of stdout.")
@LABEL_OPTION
@FORMAT_OPTION
def command(model, data, output, label, fmt):
    """Predict a label for every row of DATA with the model saved in MODEL."""
    if output:
        check_output_path(output)
    est, info = load_classifier(model)
    X, _ = read_for_model(data, est, label, fmt, info)
    text = "".join(f"{p}\n" for p in est.predict(X))
    if output:
        from perceptrons.io.model_file import atomic_write_bytes

        atomic_write_bytes(output, text.encode())
        click.echo(f"{X.shape[0]} predictions -> {output}", err=True)
    else:
        click.echo(text, nl=False)

"""perceptrons evaluate MODEL DATA: accuracy and confusion matrix."""

import click

from perceptrons.cli._common import FORMAT_OPTION, LABEL_OPTION, load_classifier, read_for_model


@click.command(name="evaluate")
@click.argument("model", type=click.Path(dir_okay=False))
@click.argument("data", type=click.Path(dir_okay=False))
@LABEL_OPTION
@FORMAT_OPTION
def command(model, data, label, fmt):
    """Accuracy and confusion matrix of MODEL on the labelled rows of DATA."""
    from rich.console import Console
    from rich.table import Table
    from sklearn.metrics import confusion_matrix

    est, info = load_classifier(model)
    X, y = read_for_model(data, est, label, fmt, info)
    if y is None:
        raise click.BadParameter(f"{data}: has no label column to evaluate against", param_hint="DATA")
    pred = est.predict(X)
    classes = est.classes_
    unknown = sorted(set(y.tolist()) - set(classes.tolist()))
    if unknown:
        raise click.BadParameter(f"{data}: labels {unknown[:5]} were not seen in training (model classes {classes.tolist()})")
    cm = confusion_matrix(y, pred, labels=classes)
    click.echo(f"samples   {X.shape[0]}")
    click.echo(f"accuracy  {(pred == y).mean():.4f}")
    table = Table(title="confusion matrix (rows: true, columns: predicted)")
    table.add_column("")
    for c in classes:
        table.add_column(str(c), justify="right")
    for c, row in zip(classes, cm):
        table.add_row(str(c), *[str(v) for v in row])
    Console().print(table)

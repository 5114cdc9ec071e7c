"""perceptrons predict MODEL DATA [-o OUT]: one predicted label per line.

DATA ``-`` is standard input (give ``--format``); without ``-o``, or with ``-o -``, the labels
go to standard output.
"""

import click

from perceptrons.cli._common import (
    FORMAT_OPTION,
    LABEL_OPTION,
    LABEL_WHERE,
    labelled_by_name,
    load_classifier,
    predict_in_chunks,
)
from perceptrons.cli._naming import note_input, note_path
from perceptrons.cli._options import refuse_unused
from perceptrons.cli._paths import check_output_path
from perceptrons.cli._prepare import read_for_saved
from perceptrons.cli._stream import HASH_BITS, read_options


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
@click.option("--stream", is_flag=True, help="Read DATA block by block and write labels as they come.")
@click.option("--hash-bits", type=HASH_BITS, default=None, help="--stream: the hash width the model was trained with.")
@click.option("--text", "text_column", default=None, help="--stream: the CSV/Parquet text column, as in training.")
def command(model, data, output, label, fmt, stream, hash_bits, text_column):
    """Predict a label for every row of DATA with the model saved in MODEL."""
    refuse_unused(
        click.get_current_context(),
        {
            "hash_bits": (stream, "with --stream"),
            "text_column": (stream, "with --stream"),
            "label": (labelled_by_name(data, fmt), LABEL_WHERE),
        },
    )
    check_output_path(output, [("MODEL", model), ("DATA", data)], stream_ok=True)
    from perceptrons.io.atomic import atomic_output

    est, info = load_classifier(model)
    stream, fmt, hash_bits, text_column = read_options(info, model, data, stream, fmt, hash_bits, text_column)
    if stream:
        from perceptrons import stream as streaming
        from perceptrons.cli._stream import source_of

        src = source_of(data, fmt, label or info.get("label_column"), hash_bits, text_column, require_labels=False)
        n = 0
        with atomic_output(output or "-") as out:
            for _, pred in streaming.predict_blocks(est, src):
                out.write("".join(f"{p}\n" for p in pred))
                n += len(pred)
        if output and output != "-":
            click.echo(f"{n} predictions -> {output}", err=True)
        return
    X, _, _, notes = read_for_saved(data, est, info, model, label, fmt, require_labels=False)
    for line in notes:
        click.echo(f"note: {line}", err=True)
    pred = predict_in_chunks(est, X)
    with atomic_output(output or "-") as out:
        for start in range(0, len(pred), 1 << 16):  # text of a block of rows at a time, not of all rows
            out.write("".join(f"{p}\n" for p in pred[start : start + (1 << 16)]))
    if output and output != "-":
        click.echo(f"{X.shape[0]} predictions -> {output}", err=True)

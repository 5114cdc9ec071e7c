"""perceptrons predict MODEL DATA [-o OUT]: one predicted label per line.

DATA ``-`` is standard input (give ``--format``); without ``-o``, or with ``-o -``, the labels
go to standard output.
"""

import click

from perceptrons.cli._common import (
    ENCODING_OPTION,
    ENCODING_WHERE,
    FORMAT_OPTION,
    LABEL_OPTION,
    LABEL_WHERE,
    is_text_table,
    labelled_by_name,
    load_classifier,
    predict_in_chunks,
    stored_encoding,
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
@ENCODING_OPTION
@click.option("--stream", is_flag=True, help="Read DATA block by block and write labels as they come.")
@click.option("--hash-bits", type=HASH_BITS, default=None, help="--stream: the hash width the model was trained with.")
@click.option("--text", "text_column", default=None, help="--stream: the CSV/Parquet text column, as in training.")
@click.option("--header", is_flag=True, help="Start with a line naming the columns (CSV).")
@click.option(
    "--scores",
    is_flag=True,
    help="Add the decision values (CSV): one column per class, or for two classes one, the second class's.",
)
@click.option(
    "--proba",
    is_flag=True,
    help="Add the class probabilities (CSV), one column per class: for a model trained with --calibrate.",
)
@click.option("--id", "id_column", default=None, help="Tables: start each line with this column of DATA (CSV).")
def command(
    model, data, output, label, fmt, encoding, stream, hash_bits, text_column, header, scores, proba, id_column
):
    """Predict a label for every row of DATA with the model saved in MODEL.

    One label per line; with --scores, --proba or --id, comma-separated lines (quoted as CSV needs)."""
    refuse_unused(
        click.get_current_context(),
        {
            "hash_bits": (stream, "with --stream"),
            "text_column": (stream, "with --stream"),
            "label": (labelled_by_name(data, fmt), LABEL_WHERE),
            "encoding": (is_text_table(data, fmt), ENCODING_WHERE),
            "scores": (not stream, "in memory (without --stream)"),
            "proba": (not stream, "in memory (without --stream)"),
            "id_column": (not stream and labelled_by_name(data, fmt), "to a CSV, TSV or Parquet table in memory"),
        },
    )
    check_output_path(output, [("MODEL", model), ("DATA", data)], stream_ok=True)
    from perceptrons.io.atomic import atomic_output

    est, info = load_classifier(model)
    stream, fmt, hash_bits, text_column = read_options(info, model, data, stream, fmt, hash_bits, text_column)
    given = [name for name, on in (("--scores", scores), ("--proba", proba), ("--id", id_column)) if on]
    if stream and given:  # a streamed model reads by the streamed readers, which write labels only
        raise click.BadParameter(
            f"{model}: a model trained with --stream predicts block by block, labels only; {given[0]} applies "
            "to a model trained in memory",
            param_hint=given[0],
        )
    encoding = encoding or stored_encoding(info, model)
    if stream:
        from perceptrons import stream as streaming
        from perceptrons.cli._stream import columns_to_read, label_to_read, source_of, stored_reading

        # a missing number is imputed by the model, or refused with its row when it imputes none
        read = dict(require_labels=False, encoding=encoding, keep_missing=True, **stored_reading(info))
        src = source_of(data, fmt, label_to_read(info, model, data, fmt, label), hash_bits, text_column, **read)
        if label is None:
            width = getattr(est, "n_features_in_", None)
            stored_label, labelled = columns_to_read(info, src, data, rows_to_predict=True, n_features=width)
            if not labelled:  # the same copy of standard input, which can be read only once
                src = src.unlabelled()
        n = 0
        with atomic_output(output or "-") as out:
            if header:
                out.write("prediction\n")
            for _, pred in streaming.predict_blocks(est, src):
                out.write(_label_lines(pred, header))
                n += len(pred)
        if output and output != "-":
            click.echo(f"{n} predictions -> {output}", err=True)
        return
    X, _, _, notes = read_for_saved(data, est, info, model, label, fmt, require_labels=False, encoding=encoding)
    for line in notes:
        click.echo(f"note: {line}", err=True)
    ids = _ids(data, id_column, label or info.get("label_column"), fmt, encoding) if id_column else None
    if scores and proba:
        raise click.UsageError("--scores and --proba: give one (a calibrated model's probabilities replace its scores)")
    if scores or proba:
        pred, values = _with_values(est, X, model, "predict_proba" if proba else "decision_function")
    else:
        pred, values = predict_in_chunks(est, X), None
    with atomic_output(output or "-") as out:
        if ids is None and values is None:
            if header:
                out.write("prediction\n")
            for start in range(0, len(pred), 1 << 16):  # text of a block of rows at a time, not of all rows
                out.write(_label_lines(pred[start : start + (1 << 16)], header))
        else:
            _write_csv(out, est, pred, values, ids, id_column, header, "proba" if proba else "score")
    if output and output != "-":
        click.echo(f"{X.shape[0]} predictions -> {output}", err=True)


def _ids(data, column, label, fmt, encoding):
    """The ``--id`` column of DATA, as text; a missing id is empty (not ``nan``).  A Parquet
    column is written as its values print, whatever its type (a CSV's is its text): an integer
    row id was refused as "the model was trained on text in this column"."""
    import numpy as np

    from perceptrons.cli._prepare import data_format
    from perceptrons.io.readers import read_table

    if data_format(data, fmt) == "parquet":
        import pyarrow.parquet as pq

        names = pq.ParquetFile(data).schema_arrow.names  # DATA was read as Parquet just before
        if column not in names:
            raise click.BadParameter(
                f"{data} has no column {column!r}; its columns are {names[:20]}", param_hint="--id"
            )
        values = pq.read_table(data, columns=[column]).column(0).to_pylist()
        return np.array(["" if v is None else str(v) for v in values], dtype=object)
    ids = read_table(
        data,
        label=label,
        fmt=fmt,
        names=[column],
        kinds=["text"],
        require_labels=False,
        wanted_by="given to --id",
        encoding=encoding,
    ).X[:, 0]
    return np.array([v if isinstance(v, str) else "" for v in ids], dtype=object)


def _with_values(est, X, model_path, method):
    """``(predictions, values)``, a block of rows at a time: n × k decision values
    (``decision_function``) or probabilities (``predict_proba``)."""
    import numpy as np

    from perceptrons.cli._common import PREDICT_CHUNK_BYTES

    if not hasattr(est, method):
        if method == "predict_proba":
            raise click.BadParameter(
                f"{model_path}: the model was not calibrated; train it with --calibrate sigmoid or isotonic",
                param_hint="--proba",
            )
        why = "; it is calibrated: --proba gives its probabilities" if hasattr(est, "predict_proba") else ""
        raise click.BadParameter(f"{model_path}: the model has no decision values{why}", param_hint="--scores")
    k = len(est.classes_)
    step = max(1, PREDICT_CHUNK_BYTES // (8 * k))
    pred, values = [], []
    for i in range(0, X.shape[0], step):
        s = np.asarray(getattr(est, method)(X[i : i + step]), dtype=np.float64)
        pred.append(est.predict(X[i : i + step]))  # the model's own rule, ties included
        values.append(s.reshape(s.shape[0], -1))
    return np.concatenate(pred), np.concatenate(values)


def _label_lines(pred, as_csv):
    """One label a line; quoted as CSV needs with ``--header``, whose output is a CSV file (a
    label ``a,b`` was two fields there)."""
    if not as_csv:
        return "".join(f"{p}\n" for p in pred)
    import csv
    import io

    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([p] for p in pred.tolist())
    return buf.getvalue()


def _write_csv(out, est, pred, values, ids, id_column, header, kind="score"):
    """Comma-separated lines: the id, the prediction, the scores or probabilities (``kind``;
    ``repr`` of each float, exact)."""
    import csv

    import numpy as np

    writer = csv.writer(out, lineterminator="\n")
    if header:
        names = ([id_column] if ids is not None else []) + ["prediction"]
        if values is not None:
            classes = est.classes_.tolist()
            names += [f"{kind}_{c}" for c in (classes[1:] if values.shape[1] == 1 else classes)]
        writer.writerow(names)
    for start in range(0, len(pred), 1 << 16):
        stop = start + (1 << 16)
        columns = ([ids[start:stop].tolist()] if ids is not None else []) + [pred[start:stop].tolist()]
        if values is not None:
            columns += [list(map(repr, col.tolist())) for col in np.asarray(values[start:stop]).T]
        writer.writerows(zip(*columns))

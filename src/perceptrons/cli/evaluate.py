"""perceptrons evaluate MODEL DATA: accuracy and confusion matrix.

The matrix is printed whole up to ``MAX_MATRIX_CLASSES`` classes; beyond that, the most frequent
confusions.  It is counted sparsely (one code per (true, predicted) pair), so 10,000 classes cost
memory in the number of samples, not 10,000².
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
    weighted_line,
)
from perceptrons.cli._naming import note_input, note_path
from perceptrons.cli._options import refuse_unused
from perceptrons.cli._prepare import read_for_saved
from perceptrons.cli._stream import (
    HASH_BITS,
    columns_to_read,
    label_to_read,
    read_options,
    source_of,
    stored_reading,
)

#: print the whole k × k matrix up to this many classes
MAX_MATRIX_CLASSES = 20
#: otherwise print this many of the most frequent confusions
TOP_CONFUSIONS = 20


@click.command(name="evaluate")
@click.argument("model", type=click.Path(dir_okay=False), callback=note_path)
@click.argument("data", type=click.Path(dir_okay=False), callback=note_input)
@LABEL_OPTION
@FORMAT_OPTION
@ENCODING_OPTION
@click.option("--stream", is_flag=True, help="Read DATA block by block (files larger than memory).")
@click.option("--hash-bits", type=HASH_BITS, default=None, help="--stream: the hash width the model was trained with.")
@click.option("--text", "text_column", default=None, help="--stream: the CSV/Parquet text column, as in training.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Write one JSON object: samples, accuracy, per-class precision, recall, F1 and support, and the "
    "confusion matrix's non-zero cells.",
)
def command(model, data, label, fmt, encoding, stream, hash_bits, text_column, as_json):
    """Accuracy and confusion matrix of MODEL on DATA, a label on every row (one missing is refused with its line)."""
    refuse_unused(
        click.get_current_context(),
        {
            "hash_bits": (stream, "with --stream"),
            "text_column": (stream, "with --stream"),
            "label": (labelled_by_name(data, fmt), LABEL_WHERE),
            "encoding": (is_text_table(data, fmt), ENCODING_WHERE),
        },
    )
    est, info = load_classifier(model)
    stream, fmt, hash_bits, text_column = read_options(info, model, data, stream, fmt, hash_bits, text_column)
    encoding = encoding or stored_encoding(info, model)
    if stream:
        # a missing number is imputed by the model, or refused with its row when it imputes none
        read = {"encoding": encoding, "keep_missing": True, **stored_reading(info)}
        src = source_of(data, fmt, label_to_read(info, model, data, fmt, label), hash_bits, text_column, **read)
        if label is None:
            columns_to_read(info, src, data, rows_to_predict=False, n_features=getattr(est, "n_features_in_", None))
        return _evaluate_stream(est, src, as_json)
    from perceptrons.stream import WeightedHits

    X, y, weight, notes = read_for_saved(data, est, info, model, label, fmt, encoding=encoding)
    if y is None:
        raise click.BadParameter(f"{data}: has no label column to evaluate against", param_hint="DATA")
    import numpy as np

    from perceptrons._core.labels import alike, unseen_note

    pred = alike(predict_in_chunks(est, X), y)
    note = unseen_note(y, est.classes_)  # their rows count as errors, as scikit-learn counts them
    notes = notes + [note] if note else notes
    classes = np.union1d(est.classes_, y) if note else est.classes_
    hits = pred == y
    tally = WeightedHits()
    tally.add(hits, weight)
    cells = confusion_counts(y, pred, classes)
    if as_json:
        return _print_json(X.shape[0], hits.mean(), tally, cells, classes, notes)
    _print_accuracy(X.shape[0], hits.mean(), tally)
    for line in notes:
        click.echo(f"note      {line}")
    _print_confusions(*cells, classes)


def _print_accuracy(n, accuracy, tally):
    """The rows, their accuracy, and the accuracy by their importance weights when they have
    them (Vowpal Wabbit weighs its average loss so)."""
    click.echo(f"samples   {n}")
    click.echo(f"accuracy  {accuracy:.4f}")
    if tally.weighted:
        click.echo(weighted_line(tally.accuracy()))


def _print_json(n, accuracy, tally, cells, classes, notes):
    """The evaluation as one JSON object on standard output (labels as the model holds them)."""
    import json

    import numpy as np

    true, predicted, counts = cells
    k = len(classes)
    support = np.bincount(true, weights=counts, minlength=k).astype(np.int64)
    claimed = np.bincount(predicted, weights=counts, minlength=k).astype(np.int64)
    hits = np.bincount(true[true == predicted], weights=counts[true == predicted], minlength=k).astype(np.int64)
    per_class = []
    for c, h, s, p in zip(classes.tolist(), hits.tolist(), support.tolist(), claimed.tolist()):
        precision = h / p if p else 0.0  # scikit-learn's zero_division=0
        recall = h / s if s else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        per_class.append({"class": c, "precision": precision, "recall": recall, "f1": f1, "support": s})
    out = {
        "samples": int(n),
        "accuracy": float(accuracy),
        "classes": classes.tolist(),
        "per_class": per_class,
        "confusion": [[int(t), int(p), int(c)] for t, p, c in zip(true.tolist(), predicted.tolist(), counts.tolist())],
        "confusion_cells": "[true class index, predicted class index, count], non-zero cells only",
        "notes": notes,
    }
    if tally.weighted:
        out["weighted_accuracy"] = tally.accuracy()
    click.echo(json.dumps(out, ensure_ascii=False))


def _evaluate_stream(est, src, as_json=False):
    """``evaluate --stream``: the confusion counts are summed block by block."""
    import numpy as np

    from perceptrons import stream
    from perceptrons._core.labels import alike, unseen_note
    from perceptrons.stream import WeightedHits

    model_classes = est.classes_
    cells = {}  # (true label, predicted label): count
    n = correct = 0
    unseen = []
    tally = WeightedHits()
    for block, pred in stream.predict_blocks(est, src):
        where = f"{block.path}, data rows from {block.line}"
        y = stream.labels_as_classes(block.y, model_classes, where)
        pred = alike(pred, y)
        if unseen_note(y, model_classes):  # counted as errors, as every evaluation counts them
            unseen.append(y[~np.isin(y, alike(model_classes, y))])
        labels = np.union1d(model_classes, y)
        t, p, c = confusion_counts(y, pred, labels)
        for a, b, count in zip(labels[t].tolist(), labels[p].tolist(), c.tolist()):
            cells[(a, b)] = cells.get((a, b), 0) + count
        n += len(y)
        hits = pred == y
        correct += int(np.count_nonzero(hits))
        tally.add(hits, block.weight)
    classes = np.union1d(model_classes, np.concatenate(unseen)) if unseen else model_classes
    notes = [unseen_note(np.concatenate(unseen), model_classes)] if unseen else []
    keys = sorted(cells, key=lambda ab: (np.searchsorted(classes, ab[0]), np.searchsorted(classes, ab[1])))
    true = np.searchsorted(classes, np.array([a for a, _ in keys], dtype=classes.dtype)).astype(np.int64)
    predicted = np.searchsorted(classes, np.array([b for _, b in keys], dtype=classes.dtype)).astype(np.int64)
    counts = np.array([cells[ab] for ab in keys], dtype=np.int64)
    if as_json:
        return _print_json(n, correct / max(n, 1), tally, (true, predicted, counts), classes, notes)
    _print_accuracy(n, correct / max(n, 1), tally)
    for line in notes:
        click.echo(f"note      {line}")
    _print_confusions(true, predicted, counts, classes)


def confusion_counts(y, pred, classes):
    """``(true index, predicted index, count)`` arrays of the non-zero cells of the confusion
    matrix, by one sort of ``true · k + predicted`` codes (no k × k array)."""
    import numpy as np

    k = len(classes)
    codes = np.searchsorted(classes, y).astype(np.int64) * k + np.searchsorted(classes, pred)
    cells, counts = np.unique(codes, return_counts=True)
    return cells // k, cells % k, counts


def _print_confusions(true, predicted, counts, classes):
    import numpy as np
    from rich.console import Console
    from rich.table import Table

    k = len(classes)
    console = Console()
    why = f"{k} classes (it is printed up to {MAX_MATRIX_CLASSES})"
    if k <= MAX_MATRIX_CLASSES:
        cm = np.zeros((k, k), dtype=np.int64)
        cm[true, predicted] = counts
        table = Table()
        table.add_column("", no_wrap=True)
        for c in classes:
            table.add_column(str(c), justify="right", no_wrap=True)
        for c, row in zip(classes, cm):
            table.add_row(str(c), *[str(v) for v in row])
        need = Console(width=1 << 16).measure(table).maximum  # its natural width (a measure is capped at the console's)
        if need > console.width and not console.is_terminal:  # a file or a pipe: whole, at its width
            console = Console(width=need)
        if need <= console.width:
            # the title on a line of its own: as the table's title it wraps to the table's width
            click.echo("confusion matrix (rows: true, columns: predicted)")
            console.print(table)
            return
        # squeezed into the terminal, every name and count became "…"
        why = f"{k} classes need {need} columns, the terminal has {console.width}; --json gives it whole"
    off = true != predicted
    order = np.argsort(-counts[off], kind="stable")[:TOP_CONFUSIONS]
    t, p, n = true[off][order], predicted[off][order], counts[off][order]
    click.echo(f"confusion matrix not shown: {why}; {int(off.sum())} distinct confusions, the {len(n)} most frequent:")
    table = Table(title="most frequent confusions")
    for col in ("true", "predicted", "count"):
        table.add_column(col, justify="right" if col == "count" else "left")
    for a, b, c in zip(t.tolist(), p.tolist(), n.tolist()):
        table.add_row(str(classes[a]), str(classes[b]), str(c))
    console.print(table)

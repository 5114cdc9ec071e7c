"""The command line on files as spreadsheets, reports and UCI write them, against scikit-learn on
the same numbers parsed correctly, all in this run.

Each case is a training file and a held-out file written the way people's files are (numbers with
thousands separators, currency signs, percentages, ISO dates, accounting's negatives in
parentheses, a unit after each number, ``?`` for an unknown value, ``;``
as the separator with decimal commas, a trailing separator on every line, Excel's ``sep=`` line,
a gzip file), with the class following the numbers.  Each contestant runs as a whole process:

* ``perceptrons train TRAIN -o M`` then ``perceptrons evaluate M TEST``, no options, with the
  ``perceptrons`` command of this tree or of another one (``--old DIR``: a checkout's
  ``src``, run with this interpreter); with ``--stream``, each tree once more with
  ``train --stream`` (the streamed reader and its model; ``evaluate`` reads as it trained);
* the anchor, in this process: ``make_pipeline(SimpleImputer(), StandardScaler(),
  LogisticRegression())`` on the arrays the files were written from.

Run: ``python benchmarks/bench_messy_csv.py [--old DIR] [--stream]``.  Held-out accuracy is printed; a
command that fails prints its error's first words.
"""

import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _common import table
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler


def _signal(n, seed):
    """Five columns whose sum, with noise, decides the class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    Z = rng.normal(size=(n, 5)) + 1.2 * y[:, None]
    return Z, y


def _write(path, header, rows, sep=",", first=None, trailing=False, packed=False):
    end = sep if trailing else ""
    lines = ([first] if first else []) + [sep.join(header) + end] + [sep.join(r) + end for r in rows]
    text = "\n".join(lines) + "\n"
    if packed:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)


def _case(kind, n, seed, path):
    """Write one file of ``kind``; returns the arrays it was written from (NaN: unknown)."""
    Z, y = _signal(n, seed)
    income = 40000 + 15000 * Z[:, 0]
    price = 20 + 5 * Z[:, 1]
    rate = np.clip(50 + 15 * Z[:, 2], 0, 100).round()
    day = (200 + 60 * Z[:, 3]).round()
    size = Z[:, 4].round(3)
    clean = np.column_stack([income.round(), price.round(2), rate / 100, day, size])
    header = ["income", "price", "rate", "signup", "size", "label"]
    labels = [["no", "yes"][c] for c in y]
    dates = (np.datetime64("2020-01-01") + day.astype(int)).astype(str)
    if kind == "thousands, currency, percent, dates":
        rows = [
            [f'"{a:,.0f}"', f"${b:.2f}", f"{c:.0f}%", d, f"{e}", t]
            for a, b, c, d, e, t in zip(income, price, rate, dates, size, labels)
        ]
        _write(path, header, rows)
    elif kind == "accounting negatives, units":
        rows = [
            [f"{a:.0f}", f"{b:.2f} kg", f"{c:g}", f"{d:g}", f"({-e})" if e < 0 else f"{e}", t]
            for a, b, c, d, e, t in zip(income, price, rate / 100, day, size, labels)
        ]
        _write(path, header, rows)
    elif kind == "'?' for unknown (UCI)":
        unknown = np.random.default_rng(seed + 7).random(clean.shape) < 0.08
        clean[unknown] = np.nan
        rows = [["?" if np.isnan(v) else f"{v:g}" for v in r] + [t] for r, t in zip(clean, labels)]
        _write(path, header, rows)
    elif kind == "';' and decimal commas":
        rows = [[f"{v:g}".replace(".", ",") for v in r] + [t] for r, t in zip(clean, labels)]
        _write(path, header, rows, sep=";")
    elif kind == "a separator ending every line":
        rows = [[f"{v:g}" for v in r] + [t] for r, t in zip(clean, labels)]
        _write(path, header, rows, trailing=True)
    elif kind == "Excel's sep= line, tabs":
        rows = [[f"{v:g}" for v in r] + [t] for r, t in zip(clean, labels)]
        _write(path, header, rows, sep="\t", first="sep=\t")
    elif kind == ".csv.gz":
        rows = [[f"{v:g}" for v in r] + [t] for r, t in zip(clean, labels)]
        _write(path, header, rows, packed=True)
    return clean, np.array(labels)


ACCURACY = re.compile(r"accuracy\s+([0-9.]+)")
KINDS = (
    "thousands, currency, percent, dates",
    "accounting negatives, units",
    "'?' for unknown (UCI)",
    "';' and decimal commas",
    "a separator ending every line",
    "Excel's sep= line, tabs",
    ".csv.gz",
)


def _ours(env, train, test, model, options=()):
    """Held-out accuracy of train (with ``options``) + evaluate, or the error's first words."""
    exe = [sys.executable, "-m", "perceptrons"]
    r = subprocess.run([*exe, "train", str(train), "-o", str(model), *options], capture_output=True, text=True, env=env)
    if r.returncode:
        return f"train fails: {r.stderr.strip().splitlines()[-1][7:60]}"
    r = subprocess.run([*exe, "evaluate", str(model), str(test)], capture_output=True, text=True, env=env)
    if r.returncode:
        return f"evaluate fails: {r.stderr.strip().splitlines()[-1][7:60]}"
    return f"{float(ACCURACY.search(r.stdout).group(1)):.4f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", help="another checkout, run from its src")
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--stream", action="store_true", help="each tree with train --stream too")
    args = parser.parse_args()
    trees = {"this tree": (dict(os.environ), ())}
    if args.old:
        trees["--old"] = ({**os.environ, "PYTHONPATH": str(Path(args.old).resolve() / "src")}, ())
    if args.stream:
        trees.update({f"{name}, --stream": (env, ("--stream",)) for name, (env, _) in list(trees.items())})
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for k, kind in enumerate(KINDS):
            ext = ".csv.gz" if kind == ".csv.gz" else ".csv"
            train, test = tmp / f"train{k}{ext}", tmp / f"test{k}{ext}"
            Xa, ya = _case(kind, args.rows, 2 * k, train)
            Xb, yb = _case(kind, args.rows, 2 * k + 1, test)
            anchor = make_pipeline(SimpleImputer(), StandardScaler(), LogisticRegression()).fit(Xa, ya).score(Xb, yb)
            row = [kind, f"{anchor:.4f}"]
            for env, options in trees.values():
                row.append(_ours(env, train, test, tmp / f"m{k}-{len(row)}.npz", options))
            rows.append(row)
    table(
        f"Held-out accuracy, {args.rows} rows to train and {args.rows} to test, no options",
        ["file", "scikit-learn (parsed by hand)", *trees],
        rows,
    )


if __name__ == "__main__":
    main()

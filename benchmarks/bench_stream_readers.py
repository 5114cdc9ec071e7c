"""The streaming CSV and Parquet readers against pyarrow's own streaming readers: speed and memory.

The CSV stream reads runs of whole lines and parses each with ``pyarrow.csv.read_csv``; the
anchor is ``pyarrow.csv.open_csv`` with its defaults (threads, read-ahead), which it replaced
because its memory grew with the file.  The Parquet stream reads without pre-buffering; the
anchor is ``ParquetFile.iter_batches`` with its defaults.  Two rows a format: the reading
alone, and the blocks a fit takes (our conversion and checks included, against the same
anchor, which converts nothing).  Each
contestant iterates the whole file in its own process (``python -m``), so that its peak RSS
(VmHWM, read at exit) is its own; the contestants take turns (interleaved), medians of
``BENCH_REPEATS`` (default 3).  Files (``BENCH_STREAM_ROWS`` rows, default 5 M, 8 numeric
columns and the label; ~300 MB of CSV) go to ``PERCEPTRONS_BENCH_DATA``.

The ratio column is the anchor's time over ours (above 1: ours is faster) and our peak RSS
over the anchor's.
"""

import os
import statistics
import sys
import tempfile
from pathlib import Path

from _common import table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from zipf_data import run_with_peak_rss  # noqa: E402

WORK = Path(os.environ.get("PERCEPTRONS_BENCH_DATA", Path(tempfile.gettempdir()) / "perceptrons-bench"))
ROWS = int(float(os.environ.get("BENCH_STREAM_ROWS", "5e6")))
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))

#: (format, what ours does, ours, the anchor): each contestant is ``read(how, path)`` in its own process
CONTESTS = [
    ("csv", "read: runs of lines + read_csv", "csv-runs", "csv-open_csv"),
    ("parquet", "read: iter_batches, no pre-buffering", "parquet-nopre", "parquet-default"),
    ("csv", "blocks as a fit takes them", "csv-blocks", "csv-open_csv"),
    ("parquet", "blocks as a fit takes them", "parquet-blocks", "parquet-default"),
]
ANCHORS = {"csv-open_csv": "pyarrow open_csv, defaults", "parquet-default": "pyarrow iter_batches, defaults"}


def files():
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pc
    import pyarrow.parquet as pq

    WORK.mkdir(parents=True, exist_ok=True)
    csv, parquet = WORK / f"readers-{ROWS}.csv", WORK / f"readers-{ROWS}.parquet"
    if not csv.exists():
        rng = np.random.default_rng(0)
        with open(csv, "w") as f:
            f.write(",".join(f"f{j}" for j in range(8)) + ",label\n")
            for start in range(0, ROWS, 500_000):
                n = min(500_000, ROWS - start)
                X = rng.standard_normal((n, 8)).round(4)
                np.savetxt(f, np.column_stack([X, (X[:, 0] > 0)]), fmt=["%.4f"] * 8 + ["%d"], delimiter=",")
    if not parquet.exists():
        with pc.open_csv(csv) as reader, pq.ParquetWriter(parquet, reader.schema) as w:
            for batch in reader:
                w.write_table(pa.Table.from_batches([batch]), row_group_size=65_536)
    return {"csv": csv, "parquet": parquet}


def read(how, path):
    """Iterate every row of ``path`` as ``how`` says; the rows read.

    ``csv-runs`` and ``parquet-nopre`` are how :mod:`perceptrons.io.arrow` reads, without its
    conversion to blocks (``csv-blocks``, ``parquet-blocks``); the anchors are pyarrow's own
    streaming readers with their defaults.
    """
    import pyarrow as pa
    import pyarrow.csv as pc
    import pyarrow.parquet as pq

    rows, block = 0, 1 << 22
    if how == "csv-runs":
        from perceptrons.io.chunks import line_chunks

        names = None
        for buf, n, _ in line_chunks(path, block):
            table = pc.read_csv(pa.py_buffer(buf[:n].tobytes()), read_options=pc.ReadOptions(column_names=names))
            names, rows = table.column_names, rows + table.num_rows
    elif how == "csv-open_csv":
        for b in pc.open_csv(path, read_options=pc.ReadOptions(block_size=block)):
            rows += b.num_rows
    elif how in ("parquet-nopre", "parquet-default"):
        pf = (
            pq.ParquetFile(path, pre_buffer=False, buffer_size=1 << 20)
            if how == "parquet-nopre"
            else pq.ParquetFile(path)
        )
        for b in pf.iter_batches(batch_size=block // (8 * 9)):
            rows += b.num_rows
    else:
        from perceptrons.io.arrow import delimited_blocks, parquet_blocks

        reader = delimited_blocks if how == "csv-blocks" else parquet_blocks
        for b in reader(path, block_bytes=block):
            rows += b.n_rows
    return rows


def main():
    paths = files()
    rows = []
    for fmt, what, ours, anchor in CONTESTS:
        runs = {ours: [], anchor: []}
        for _ in range(REPEATS):
            for how in (ours, anchor):
                code, wall, peak, out, err = run_with_peak_rss(
                    "bench_stream_readers", [how, paths[fmt]], cwd=Path(__file__).parent
                )
                assert code == 0 and int(out) == ROWS, (code, out, err)
                runs[how].append((wall, peak))
        mb = paths[fmt].stat().st_size / 1e6
        (tw, pw), (ta, pa_) = (
            (statistics.median(t for t, _ in runs[h]), statistics.median(p for _, p in runs[h])) for h in (ours, anchor)
        )
        rows.append(
            [
                fmt,
                what,
                f"{mb / tw:,.0f}",
                f"{pw:,.0f}",
                ANCHORS[anchor],
                f"{mb / ta:,.0f}",
                f"{pa_:,.0f}",
                f"{ta / tw:.2f}",
                f"{pw / pa_:.2f}",
            ]
        )
    table(
        f"streaming readers, {ROWS:,} rows (a whole process each: start-up, imports, reading), "
        f"medians of {REPEATS} interleaved",
        ["format", "ours", "MB/s", "peak MiB", "anchor", "MB/s", "peak MiB", "speed ratio", "memory ratio"],
        rows,
    )


if __name__ == "__main__":
    if len(sys.argv) == 3:  # one contestant, in its own process
        print(read(sys.argv[1], sys.argv[2]))
    else:
        main()

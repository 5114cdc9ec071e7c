"""The streaming CSV and Parquet readers against pyarrow's own streaming readers: speed and memory.

The CSV stream reads runs of whole lines and parses each with ``pyarrow.csv.read_csv`` on one
thread; the anchor is ``pyarrow.csv.open_csv`` with its defaults (threads, read-ahead), which
it replaced because its memory grew with the file.  The Parquet stream reads without
pre-buffering, one thread; the anchor is ``ParquetFile.iter_batches`` with its defaults.  Each
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

#: each contestant, as a module run in its own process: ``python -m bench_stream_readers KIND PATH``
KINDS = {
    "csv": ("ours: runs of lines + read_csv", "anchor: pyarrow open_csv"),
    "parquet": ("ours: iter_batches, no pre-buffer", "anchor: iter_batches, defaults"),
}


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
        with pc.open_csv(csv) as reader:
            with pq.ParquetWriter(parquet, reader.schema) as w:
                for batch in reader:
                    w.write_table(pa.Table.from_batches([batch]), row_group_size=65_536)
    return {"csv": csv, "parquet": parquet}


def read(kind, who, path):
    """Iterate every batch of ``path``; the rows read."""
    rows = 0
    if who == "ours":
        from perceptrons.io.arrow import delimited_blocks, parquet_blocks

        blocks = delimited_blocks(path, block_bytes=1 << 22) if kind == "csv" else parquet_blocks(path, block_bytes=1 << 22)
        for b in blocks:
            rows += b.n_rows
        return rows
    import pyarrow.csv as pc
    import pyarrow.parquet as pq

    batches = pc.open_csv(path, read_options=pc.ReadOptions(block_size=1 << 22)) if kind == "csv" else (
        pq.ParquetFile(path).iter_batches(batch_size=104_857)
    )
    for b in batches:
        rows += b.num_rows
    return rows


def main():
    paths = files()
    rows = []
    for kind, (ours_name, anchor_name) in KINDS.items():
        runs = {"ours": [], "anchor": []}
        for _ in range(REPEATS):
            for who in ("ours", "anchor"):
                code, wall, peak, out, err = run_with_peak_rss(
                    "bench_stream_readers", [who, kind, paths[kind]], cwd=Path(__file__).parent
                )
                assert code == 0 and int(out) == ROWS, (code, out, err)
                runs[who].append((wall, peak))
        mb = paths[kind].stat().st_size / 1e6
        (tw, pw), (ta, pa_) = (
            (statistics.median(t for t, _ in runs[w]), statistics.median(p for _, p in runs[w])) for w in ("ours", "anchor")
        )
        rows.append([kind, ours_name, f"{mb / tw:,.0f}", f"{pw:,.0f}", anchor_name, f"{mb / ta:,.0f}", f"{pa_:,.0f}",
                     f"{ta / tw:.2f}", f"{pw / pa_:.2f}"])
    table(
        f"streaming readers, {ROWS:,} rows (whole process: start-up, imports, read), medians of {REPEATS} interleaved",
        ["format", "ours", "MB/s", "peak MiB", "anchor", "MB/s", "peak MiB", "speed ratio", "memory ratio"],
        rows,
    )


if __name__ == "__main__":
    if len(sys.argv) == 4:  # one contestant, in its own process
        print(read(sys.argv[2], sys.argv[1], sys.argv[3]))
    else:
        main()

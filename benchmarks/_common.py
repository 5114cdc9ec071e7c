"""What the benchmark scripts share: where the data lives, timing, and the table printer."""

import statistics
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def interleaved(fns, repeats):
    """Median seconds of each function, run in turn A, B, C, A, B, C, ... so that a noisy,
    shared machine slows every contestant alike rather than whichever ran during a burst."""
    times = [[] for _ in fns]
    for _ in range(repeats):
        for t, fn in zip(times, fns):
            start = time.perf_counter()
            fn()
            t.append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def table(title, header, rows):
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)))

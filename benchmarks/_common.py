"""What the benchmark scripts share: where the data lives, timing, and the table printer."""

import contextlib
import functools
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


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


def nltk_as_saved(tagger):
    """NLTK's ``PerceptronTagger`` as saved and loaded (what ``save_to_json`` writes and
    ``load_from_json`` reads, without the files), as ours is read from its model file: NLTK's
    weights built up by training lie scattered in memory, and a tagger straight out of
    ``train()`` tags ~1.7x slower."""
    import json

    from nltk.tag.perceptron import PerceptronTagger

    loaded = PerceptronTagger(load=False)
    loaded.decode_json_params(json.loads(json.dumps(p)) for p in tagger.encode_json_obj())
    return loaded


@functools.cache
def _compiled_reader():
    """A compiled loop that reads a float64 array once (its sum): fastmath lets LLVM unroll it
    into vector adds on several accumulators, so it waits on memory, not on its additions."""
    import numpy as np
    from numba import njit

    @njit(fastmath=True)
    def read(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s

    read(np.ones(1024))  # compiled before the first timing
    return read


def read_bandwidth(a):
    """Bytes per second read from the float64 array ``a`` (far larger than the caches): the
    faster of numpy's ``sum`` and a compiled read loop, each timed once, one after the other.

    numpy's pairwise sum alone is not the machine's read bandwidth: on an AMD EPYC it read at
    9.7 GB/s where the compiled loop read the same array at 12.5 (medians of 9 interleaved
    rounds), so alone it flattered every ratio taken against it.
    """
    compiled = _compiled_reader()
    best = 0.0
    for read in (a.sum, lambda: compiled(a)):
        start = time.perf_counter()
        read()
        best = max(best, a.nbytes / (time.perf_counter() - start))
    return best


def speed_rows(times, anchor):
    """Rows ``[name, median ms, range ms, speed vs anchor]`` of ``times`` (name → seconds of
    each run), the anchor's median over each one's."""
    base = statistics.median(times[anchor])
    rows = []
    for name, ts in times.items():
        med = statistics.median(ts)
        rows.append([name, f"{med * 1000:.0f}", f"{min(ts) * 1000:.0f}–{max(ts) * 1000:.0f}", f"{base / med:.2f}"])
    return rows


def table(title, header, rows):
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    for r in rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)))


def compile_bytecode():
    """Write the package's bytecode, as ``pip install`` does, before timing whole processes.

    Python only writes a module's bytecode on import when it may (``PYTHONDONTWRITEBYTECODE``
    unset, a writable tree), so a source checkout can leave every timed process compiling the
    modules it imports from source: tens of milliseconds that an installed package never pays.
    """
    import compileall

    import perceptrons

    compileall.compile_dir(Path(perceptrons.__file__).parent, quiet=1)


def machine_line():
    """CPU model, data caches (per core L1/L2, shared L3) and the transparent-huge-page mode:
    what a latency-bound loop's speed depends on, printed beside its table."""
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    caches = []
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        kind = (index / "type").read_text().strip()
        if kind != "Instruction":
            caches.append(f"L{(index / 'level').read_text().strip()} {(index / 'size').read_text().strip()}")
    thp = Path("/sys/kernel/mm/transparent_hugepage/enabled")
    mode = thp.read_text().split("[")[1].split("]")[0] if thp.exists() else "unknown"
    cores = os.cpu_count()
    return f"{model}, {cores} cores, caches {', '.join(caches) or 'unknown'}, transparent huge pages: {mode}"


@contextlib.contextmanager
def streaming_neighbour(mib=64):
    """A second process that reads a ``mib`` MiB array over and over, on the other core: a tenant
    streaming through the shared L3 and the memory bus, as the other tenants of a shared machine
    do at times.  It lets a benchmark measure both conditions in one run."""
    code = f"import numpy as np\na = np.ones({mib} * 2**20 // 8)\nwhile True:\n    a.sum()\n"
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        time.sleep(1.0)  # numpy imported and the loop running before the first timing
        yield
    finally:
        proc.terminate()
        proc.wait()

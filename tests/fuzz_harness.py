"""Running fuzzing cases in worker subprocesses, so that a crash of the interpreter is a result.

A fuzzing script runs as ``script --worker --seed S --start A --stop B [its own options]`` and
prints ``BEGIN i`` before case *i* and ``END [i, outcome, base, what, detail]`` (JSON) after it.
:func:`run_workers` splits the cases between workers; when a worker dies (a signal, an abort),
the case it had begun is recorded as a crash and a new worker resumes after it.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np


def run_workers(script, cases, seed, workers, failing, noted=(), extra=()):
    """Run cases ``0 .. cases - 1`` of ``script`` in ``workers`` subprocesses.

    Parameters
    ----------
    script : str
        The fuzzing script (run with this interpreter).
    cases, seed, workers : int
    failing : set of str
        The outcomes that are failures; ``crash`` always is.
    noted : set of str
        Outcomes listed besides the counts.
    extra : sequence of str
        More arguments for every worker.

    Returns
    -------
    counts : dict of outcome → cases
    failures : list of (i, outcome, base, what, detail)
    notes : list of (i, outcome, base, what, detail), the cases of a ``noted`` outcome
    """
    bounds = np.linspace(0, cases, workers + 1).astype(int)
    counts, failures, notes = {}, [], []
    with tempfile.TemporaryDirectory() as logs:

        def start(a, b):
            # output to files, not pipes: a pipe nobody reads yet would stop its worker when full
            cmd = [sys.executable, script, "--worker", "--seed", str(seed), "--start", str(a), "--stop", str(b), *extra]
            out, err = (open(os.path.join(logs, f"{a}.{kind}"), "w+") for kind in ("out", "err"))
            return subprocess.Popen(cmd, stdout=out, stderr=err, text=True), a, b, out, err

        running = [start(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
        while running:
            proc, a, b, out, err = running.pop(0)
            proc.wait()
            out.seek(0)
            err.seek(0)
            lines, tail = out.read().splitlines(), err.read().strip()[-300:]
            out.close()
            err.close()
            last_begin, done = None, a
            for line in lines:
                if line.startswith("BEGIN "):
                    last_begin = int(line.split()[1])
                elif line.startswith("END "):
                    i, outcome, base, what, detail = json.loads(line[4:])
                    counts[outcome] = counts.get(outcome, 0) + 1
                    done, last_begin = i + 1, None
                    if outcome in failing:
                        failures.append((i, outcome, base, what, detail))
                    elif outcome in noted:
                        notes.append((i, outcome, base, what, detail))
            if proc.returncode != 0 or last_begin is not None:
                i = last_begin if last_begin is not None else done
                counts["crash"] = counts.get("crash", 0) + 1
                failures.append((i, "crash", "", f"exit {proc.returncode}", tail))
                if i + 1 < b:
                    running.append(start(i + 1, b))
    return counts, failures, notes


def worker_loop(start, stop, run_case):
    """The worker's side: run cases ``start .. stop - 1``, printing the protocol lines."""
    for i in range(start, stop):
        print(f"BEGIN {i}", flush=True)
        outcome = run_case(i)
        print("END " + json.dumps([i, *outcome]), flush=True)


def argument_parser(doc, default_cases):
    """The options every fuzzing script takes: ``--cases``, ``--seed``, ``--workers``, and the
    worker's own (hidden)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--cases", type=int, default=default_cases)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--stop", type=int, help=argparse.SUPPRESS)
    return ap


def summary(args, counts, failures, seconds, shown=50):
    """Print the failures (the first ``shown``) and the counts; the exit status: 1 when a case
    failed or did not run."""
    for f in failures[:shown]:
        print("FAIL", *f)
    total = sum(counts.values())
    print(
        f"{total} cases in {seconds:.0f} s (seed {args.seed}): "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    )
    return 1 if failures or total < args.cases else 0

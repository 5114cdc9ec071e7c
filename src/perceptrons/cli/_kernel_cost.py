"""What a kernel model's training will cost, said before it starts.

The dual PLA keeps the score of every training row: each mistake computes its example's kernel
row against all n rows and adds it in (Freund & Schapire 1999, §2; the budget's removals cost
a row each too).  An epoch thus costs up to n² kernel evaluations, whatever the budget: on
32,561 rows, 10⁹ evaluations of d multiply-adds, minutes where a linear epoch takes
milliseconds.  The estimate times a block of the model's own kernel on the data, so it holds for
this machine, this kernel and this width.
"""

import sys
import time
from typing import NamedTuple

import click

#: an epoch estimated to last longer than this many seconds gets a warning
SLOW_EPOCH = 60.0

#: the block timed: rows against columns of the training data
ROWS, COLUMNS = 32, 2048


class Cost(NamedTuple):
    """The most an epoch of the dual PLA can cost on this data."""

    rows: int
    evaluations: int  # n², one kernel row of n for each of up to n mistakes
    seconds: float  # at the rate measured on a block of the data
    cache_bytes: int  # the kernel-row cache: at most cache_size MB, at most the whole matrix
    score_bytes: int  # the scores of every row, one per class column


def kernel_cost(estimator, X):
    """The :class:`Cost` of an epoch of ``estimator`` (a KernelPerceptron, unfitted) on dense ``X``."""
    import numpy as np

    from perceptrons.kernel.kernels import USES_GAMMA, KernelBlock, resolve_gamma

    n = X.shape[0]
    gamma = resolve_gamma(estimator.gamma, X) if estimator.kernel in USES_GAMMA else 0.0
    block = KernelBlock(estimator.kernel, gamma, estimator.degree, estimator.coef0, X.dtype)
    rows, cols = X[: min(n, ROWS)], X[: min(n, COLUMNS)]
    block.block(rows, cols)  # the first call pays for the BLAS threads' start
    start = time.perf_counter()
    block.block(rows, cols)
    per_evaluation = (time.perf_counter() - start) / (rows.shape[0] * cols.shape[0])
    itemsize = np.dtype(X.dtype).itemsize
    cache = min(int(estimator.cache_size * 2**20), n * n * itemsize)
    return Cost(n, n * n, n * n * per_evaluation, cache, n * 8)


def _duration(seconds):
    if seconds < 60:
        return f"{seconds:.2g} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def cost_line(cost):
    """The cost in one line of the run's summary."""
    return (
        f"an epoch costs up to {cost.rows:,}² = {cost.evaluations:.3g} kernel evaluations (a row of "
        f"{cost.rows:,} per mistake), at most about {_duration(cost.seconds)} here; "
        f"memory {(cost.cache_bytes + cost.score_bytes) / 1e6:,.0f} MB with the kernel-row cache"
    )


def slow_warning(cost):
    """The warning for an epoch estimated past :data:`SLOW_EPOCH`, or None."""
    if cost.seconds <= SLOW_EPOCH:
        return None
    return (
        f"--model kernel on {cost.rows:,} rows: an epoch may take up to {_duration(cost.seconds)} "
        f"({cost.evaluations:.3g} kernel evaluations); the cost grows with the square of the rows: "
        "train on a sample, or a linear model on kernel features (scikit-learn's Nystroem) in a Pipeline"
    )


def say_cost(cost):
    """The kernel model's cost before it trains: on a terminal, where someone waits for it; and
    as a warning line wherever the output goes, when an epoch may pass a minute."""
    if sys.stderr.isatty():
        click.echo(f"kernel     {cost_line(cost)}", err=True)
    warning = slow_warning(cost)
    if warning:
        click.echo(f"warning: {warning}", err=True)

"""Memory the machine can still give, and allocations checked against it.

numpy gets a large zeroed array from the kernel at once, whatever its size: the pages are only
given when first touched.  An allocation larger than memory therefore succeeds, and the process
is killed (SIGKILL, no message) once a loop has touched enough of it.  So sizes that come from
input, such as the width a feature index implies, are checked first.
"""

import os

import numpy as np

from perceptrons._core.errors import PerceptronsError


def available_bytes():
    """Memory the machine can still give (``MemAvailable``), or None where it cannot be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_allocation(n_bytes, what, hint=""):
    """Refuse an allocation of ``n_bytes`` for ``what`` when more than the available memory.

    Parameters
    ----------
    n_bytes : int
    what : str
        What needs it, as the message names it ("the weights of 2,147,483,648 features").
    hint : str
        What the user can do, appended to the message.

    Raises
    ------
    PerceptronsError
    """
    avail = available_bytes()
    if avail is not None and n_bytes > avail:
        raise PerceptronsError(
            f"{what} need {n_bytes / 2**30:,.1f} GiB, more than this machine has available "
            f"({avail / 2**30:,.1f} GiB){'; ' + hint if hint else ''}"
        )


def densify(X, name="X", *, copies=1, max_values=None, why="", hint=""):
    """Sparse ``X`` as a C-contiguous dense array, its size checked before it is allocated.

    A sparse matrix of a few bytes can stand for a dense one of gigabytes (one feature index of
    3·10⁷ in a LIBSVM file), so every densification goes through here: the rows × columns ×
    itemsize it would allocate, times the ``copies`` its caller makes of them, is refused when it
    passes ``max_values`` (the caller's own limit) or the machine's available memory.

    Parameters
    ----------
    X : array-like or scipy sparse matrix
        Dense input is returned as it is.
    name : str
        The data's name in the message ("X", "w.svm").
    copies : int
        Dense arrays of X's size the caller holds at once (X, an augmented copy, a scaled one).
    max_values : int, optional
        The caller's own limit on rows × columns (the report embeds every value).
    why : str
        Why the caller needs dense rows, named in the message ("the report embeds every value").
    hint : str
        What the user can do, appended to the message.

    Returns
    -------
    ndarray or the input

    Raises
    ------
    PerceptronsError
        Before any allocation.
    """
    import scipy.sparse as sp  # only sparse input reaches this; dense callers stay light

    if not sp.issparse(X):
        return X
    n, d = (int(s) for s in X.shape)
    values = n * d
    what = f"the {n:,} × {d:,} dense values of {name}" + (f" ({why})" if why else "")
    if max_values is not None and values > max_values:
        raise PerceptronsError(
            f"{what} are {values:,}, more than the {max_values:,} this takes{'; ' + hint if hint else ''}"
        )
    check_allocation(values * X.dtype.itemsize * copies, what + (f", {copies} copies," if copies > 1 else ""), hint)
    return np.ascontiguousarray(X.toarray())


class LoadBudget:
    """What an in-memory read may hold, counted as it decodes, refused before it passes.

    A file's size does not tell what its rows take in memory: a gzip of repetitive rows inflates
    far beyond any assumed ratio, and a short CSV row becomes a row array and a label object of
    a hundred bytes or more.  So a reader adds up what its arrays hold as it reads, and this
    refuses, naming the line reached, once that passes :data:`SHARE` of the memory that was
    available when the read began: the rows are copied once more (into one matrix) and a fit
    needs its own operand beside them.

    Parameters
    ----------
    path : str
        The file, as messages name it.
    """

    #: the share of the available memory the decoded rows may take
    SHARE = 0.5
    #: the environment variable that lowers the budget (bytes, or with a K, M or G suffix), for
    #: a machine shared with other work
    ENV = "PERCEPTRONS_MAX_READ_MEMORY"

    def __init__(self, path):
        avail = available_bytes()
        limits = [int(avail * self.SHARE)] if avail is not None else []
        self.path = path
        self.limit = min(limits + [cap] if (cap := _env_bytes(self.ENV)) is not None else limits, default=None)

    def check(self, held, where):
        """Raise when ``held`` bytes of decoded rows pass the budget.

        Parameters
        ----------
        held : int
            Bytes the reader's arrays and objects hold so far.
        where : str
            How far the read got ("d.svm, line 1,200,000").

        Raises
        ------
        PerceptronsError
        """
        if self.limit is not None and held > self.limit:
            raise PerceptronsError(
                f"{where}: the rows read so far take {_size(held)} in memory, more than the {_size(self.limit)} "
                f"a read may take (half the available memory, or {self.ENV}); use --stream to train "
                "and predict block by block"
            )


def _size(n):
    return f"{n / 2**30:,.1f} GiB" if n >= 2**30 else f"{n / 2**20:,.1f} MiB"


def _env_bytes(name):
    """The byte count an environment variable sets (``512M``, ``2G``, ``1000000``), or None.

    Raises
    ------
    PerceptronsError
        A value that is not a positive count.
    """
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit() or int(digits) == 0:
        raise PerceptronsError(f"{name}={text!r}: expected a positive number of bytes (e.g. 512M, 2G)")
    return int(digits) * scale

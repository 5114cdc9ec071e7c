"""Memory the machine can still give, and allocations checked against it.

numpy gets a large zeroed array from the kernel at once, whatever its size: the pages are only
given when first touched.  An allocation larger than memory therefore succeeds, and the process
is killed (SIGKILL, no message) once a loop has touched enough of it.  So sizes that come from
input, such as the width a feature index implies, are checked first.
"""

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

"""Arrays handed to compiled code read-only, whatever the caller's flag.

numba types an array by its dtype, dimensions, layout *and* its writeable flag, and compiles a
function once more for each type it meets.  A user's rows may be a writable array or a
read-only memory map; a word's UTF-8 comes from ``bytes`` (read-only) or from a scratch array; a
tagger's vocabulary is packed from ``bytes`` when fitted and read into a fresh array when
loaded; a model unpickled off a memory map (joblib) holds read-only arrays.  Each difference
was a second specialisation of the same loop: seconds of compilation on a fresh install (5.5 s
for a tagger's first word beyond ASCII after ASCII ones), and a cache load of up to ~20 ms a
process after.  So the arrays a loop only reads reach it through :func:`read_only`, and the
loop has one specialisation per dtype and storage (``tests/compile/test_specialisations.py``).
"""

import numpy as np


def read_only(a: np.ndarray) -> np.ndarray:
    """``a`` itself if it is read-only, else a read-only view of it (no copy).

    Parameters
    ----------
    a : ndarray

    Returns
    -------
    ndarray
        The same memory, not writeable through this array.
    """
    if not a.flags.writeable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


def writable(state: dict) -> dict:
    """``state`` with each read-only array replaced by a writable copy, to train on.

    A model unpickled off a memory map (``joblib.load(..., mmap_mode="r")``) holds read-only
    arrays: predicting reads them, but ``partial_fit`` or a warm ``fit`` writes its weights, and
    numba refused a write to a read-only array with an internal typing error.

    Parameters
    ----------
    state : dict
        Name → value; values that are not arrays are kept as they are.

    Returns
    -------
    dict
    """
    return {k: v.copy() if isinstance(v, np.ndarray) and not v.flags.writeable else v for k, v in state.items()}

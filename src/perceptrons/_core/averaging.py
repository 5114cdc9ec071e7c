"""The averaged perceptron's weights from its running sums, written once.

Daumé's trick: beside the last iterate ``w`` keep ``u = Σ_t t·Δ_t`` (each update ``Δ_t`` weighted by
the visit counter ``t`` when it was made); then the mean of the iterates over ``T`` visits is
``w − u/T``, computed at the end instead of summing ``T`` vectors (Daumé III, 2006, "Practical
Structured Learning Techniques for Natural Language Processing", §2.2.1; Freund & Schapire 1999
for the averaged perceptron itself).
"""


def mean_of_iterates(w, u, visits):
    """``w − u / visits``: the mean of the ``visits`` iterates (``w`` itself when there were none).

    >>> import numpy as np
    >>> mean_of_iterates(np.array([2.0]), np.array([1.0]), 2)
    array([1.5])
    """
    return w if visits == 0 else w - u / visits

"""The kernel perceptron's budget: its policies, the checks of its parameters, and what a run of
each policy needs made ready before the compiled loop starts.

The drop policies (``random``, ``oldest``, ``forgetron``, ``bpa``) make room for a new support
example by dropping one.  The projectrons (Orabona, Keshet & Caputo 2009, "Bounded kernel-based
online learning", JMLR 10) drop none: they project an update onto the span of the kept examples
(:mod:`perceptrons._jit.dual`), which needs the inverse of the kept examples' Gram matrix, the
kernel's diagonal, and every kept example's Gram row at hand at once.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._jit.dual import BPA, FORGETRON, OLDEST, PROJECTRON, PROJECTRON_PP, RANDOM

#: ``budget_policy`` -> the compiled loop's code
POLICIES = {
    "random": RANDOM,
    "oldest": OLDEST,
    "forgetron": FORGETRON,
    "bpa": BPA,
    "projectron": PROJECTRON,
    "projectron++": PROJECTRON_PP,
}
#: the policies that project onto the kept examples' span
PROJECTING = ("projectron", "projectron++")
#: their tolerance η when none is given: the sparseness parameter's default in the authors' own
#: implementation (the DOGMA library)
DEFAULT_TOLERANCE = 0.1


def check(budget, policy, tolerance, voted):
    """Refuse budget parameters that do not go together.

    Raises
    ------
    PerceptronsError
        ``voted=True`` with a budget, or a ``projection_tolerance`` without a projectron.
    """
    if voted and budget is not None:
        raise PerceptronsError(
            f"voted=True keeps one record per update, so its memory grows with the data; it "
            f"cannot honour budget={budget} — drop voted=True (the last iterate stays within it)"
        )
    if tolerance is not None and (budget is None or policy not in PROJECTING):
        raise PerceptronsError(
            f"projection_tolerance={tolerance!r} is the projectron's: it applies with a budget "
            f"and budget_policy='projectron' or 'projectron++', not with budget={budget!r}, "
            f"budget_policy={policy!r}"
        )


def rows_needed(budget, policy):
    """The Gram rows a run must be able to cache at once: a projected update reads every kept
    example's row and the new example's (with fewer, fetching one would evict another for ever)."""
    return budget + 2 if budget is not None and policy in PROJECTING else 0


def prepare(state, budget, policy, tolerance, diagonal, gram):
    """Make ``state`` (:class:`perceptrons.kernel._train.DualState`) ready for a run under
    ``policy``: the kernel's diagonal ``diagonal()`` where the policy reads it (BPA, the
    projectrons), and for a projectron the inverse Gram matrix of the kept examples, from
    ``gram(kept)`` (their Gram matrix), and its tolerance."""
    if budget is None:
        return
    if policy in ("bpa", *PROJECTING):
        state.kdiag = np.ascontiguousarray(diagonal(), dtype=np.float64)
    if policy in PROJECTING:
        state.project(gram, DEFAULT_TOLERANCE if tolerance is None else tolerance)

"""The online family's update rules by name: which compiled loop runs each, and its parameters.

The one table of the family's loops (:mod:`perceptrons._jit.online`, ``second_order``, ``scaled``
and ``winnow``).  An estimator names its
rule and its parameters (:meth:`~perceptrons.online.learner.OnlineLearner.hyper`); ``fit``,
``partial_fit``, a streamed fit and a worker of parameter mixing all run :func:`run_rule` with
them, so a rule added here trains every way.

Only the compiled loops are imported: no estimator.
"""

import numpy as np

from perceptrons._jit import online as PA
from perceptrons._jit import scaled as SC
from perceptrons._jit import second_order as SO
from perceptrons._jit import winnow as WI

#: rule name -> (loop on two classes, loop on more, the rule's code in the loop)
RULES = {
    "pa": (PA.pa_binary, PA.pa_multiclass, PA.PA),
    "pa1": (PA.pa_binary, PA.pa_multiclass, PA.PA1),
    "pa2": (PA.pa_binary, PA.pa_multiclass, PA.PA2),
    "arow-diagonal": (SO.second_order_diag_binary, SO.second_order_diag_multiclass, SO.AROW),
    "arow-full": (SO.second_order_full_binary, None, SO.AROW),
    "cw-diagonal": (SO.second_order_diag_binary, SO.second_order_diag_multiclass, SO.CW),
    "cw-full": (SO.second_order_full_binary, None, SO.CW),
    "scw1-diagonal": (SO.second_order_diag_binary, SO.second_order_diag_multiclass, SO.SCW1),
    "scw1-full": (SO.second_order_full_binary, None, SO.SCW1),
    "scw2-diagonal": (SO.second_order_diag_binary, SO.second_order_diag_multiclass, SO.SCW2),
    "scw2-full": (SO.second_order_full_binary, None, SO.SCW2),
    "sop-diagonal": (SO.second_order_diag_binary, SO.second_order_diag_multiclass, SO.SOP),
    "sop-full": (SO.second_order_full_binary, None, SO.SOP),
    "alma": (SC.scaled_binary, SC.scaled_multiclass, SC.ALMA),
    "romma": (SC.scaled_binary, SC.scaled_multiclass, SC.ROMMA),
    "romma-aggressive": (SC.scaled_binary, SC.scaled_multiclass, SC.ROMMA_AGGRESSIVE),
    "winnow-positive": (WI.winnow_binary, WI.winnow_multiclass, WI.WINNOW_POSITIVE),
    "winnow-balanced": (WI.winnow_binary, WI.winnow_multiclass, WI.WINNOW_BALANCED),
}


def run_rule(rule, hyper, fit_intercept, state, Xop, yi, scale, perm):
    """One pass of ``rule`` over the rows, updating ``state``'s arrays in place.

    Parameters
    ----------
    rule : str
        A key of :data:`RULES`.
    hyper : tuple of float
        The rule's parameters after its code, as the loop reads them.
    fit_intercept : bool
    state : LinearState
    Xop : ndarray or tuple of ndarray
        The rows as a compiled loop reads them.
    yi : ndarray of shape (n,), int64
    scale : ndarray of shape (n,), float64
    perm : ndarray of shape (m,), int64, or None

    Returns
    -------
    (mistakes, updates) : (int, int)
        ``mistakes`` < 0 is ``−1 − i`` for row ``i`` whose score is not finite.
    """
    binary_loop, multiclass_loop, code = RULES[rule]
    loop = binary_loop if state.w.ndim == 1 else multiclass_loop
    params = np.array((code, *hyper), dtype=np.float64)
    arrays = tuple(state)
    if state.extra.size == 0:  # none kept: empty, with the dimensions a loop's code indexes it by
        arrays = arrays[:-1] + (np.zeros((0,) + state.w.shape[1:]),)
    mistakes, updates = loop(Xop, yi, scale, perm, arrays, bool(fit_intercept), params)
    return int(mistakes), int(updates)


#: the rules that keep their weights as a scale times a vector within an epoch
SCALED = ("alma", "romma", "romma-aggressive")


def end_epoch(rule, state):
    """What a rule does once an epoch's passes are over, whatever blocks they came in: ALMA
    and ROMMA write their scale into the weights (:func:`perceptrons._jit.scaled.fold_scale`).
    """
    if rule in SCALED:
        SC.fold_scale(state.w, state.b, state.extra)

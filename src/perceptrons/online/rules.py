"""The online family's update rules by name: which compiled loop runs each, and its parameters.

The one table of the family's loops (:mod:`perceptrons._jit.online`).  An estimator names its
rule and its parameters (:meth:`~perceptrons.online.learner.OnlineLearner.hyper`); ``fit``,
``partial_fit``, a streamed fit and a worker of parameter mixing all run :func:`run_rule` with
them, so a rule added here trains every way.

Only the compiled loops are imported: no estimator.
"""

import numpy as np

from perceptrons._jit import online as K

#: rule name -> (loop on two classes, loop on more, the rule's code in the loop)
RULES = {
    "pa": (K.pa_binary, K.pa_multiclass, K.PA),
    "pa1": (K.pa_binary, K.pa_multiclass, K.PA1),
    "pa2": (K.pa_binary, K.pa_multiclass, K.PA2),
    "arow-diagonal": (K.second_order_diag_binary, K.second_order_diag_multiclass, K.AROW),
    "arow-full": (K.second_order_full_binary, None, K.AROW),
    "cw-diagonal": (K.second_order_diag_binary, K.second_order_diag_multiclass, K.CW),
    "cw-full": (K.second_order_full_binary, None, K.CW),
    "scw1-diagonal": (K.second_order_diag_binary, K.second_order_diag_multiclass, K.SCW1),
    "scw1-full": (K.second_order_full_binary, None, K.SCW1),
    "scw2-diagonal": (K.second_order_diag_binary, K.second_order_diag_multiclass, K.SCW2),
    "scw2-full": (K.second_order_full_binary, None, K.SCW2),
    "sop-diagonal": (K.second_order_diag_binary, K.second_order_diag_multiclass, K.SOP),
    "sop-full": (K.second_order_full_binary, None, K.SOP),
    "alma": (K.scaled_binary, K.scaled_multiclass, K.ALMA),
    "romma": (K.scaled_binary, K.scaled_multiclass, K.ROMMA),
    "romma-aggressive": (K.scaled_binary, K.scaled_multiclass, K.ROMMA_AGGRESSIVE),
    "winnow-positive": (K.winnow_binary, K.winnow_multiclass, K.WINNOW_POSITIVE),
    "winnow-balanced": (K.winnow_binary, K.winnow_multiclass, K.WINNOW_BALANCED),
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
    and ROMMA write their scale into the weights (:func:`perceptrons._jit.online.fold_scale`).
    """
    if rule in SCALED:
        K.fold_scale(state.w, state.b, state.extra)

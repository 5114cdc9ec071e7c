"""The structured perceptron's running weights, their averaging sums, and the final weights
made from them (Collins 2002, §2.5: the averaged parameters, computed lazily as W − U / C).
"""

import numpy as np

from perceptrons._core.memory import check_allocation
from perceptrons._core.params import seed_of

_PARTS = ("W", "trans", "E", "trans2", "start", "stop")


class RunningWeights:
    """Training state of :class:`~perceptrons.structured._sequence_model.SequenceModel`: the
    weights as training moves them (``_state``) and the final weights the model predicts with."""

    def _init_state(self, d, n_edge=0, w_dtype=np.float64):
        T = len(self.classes_)
        triples = T**3 if self.markov_order == 2 else 0
        # the weights, their averaging sums, and the final (averaged) weights made at the end:
        # a fit that passes here must not run out of memory after its last epoch
        check_allocation(
            (d * T + n_edge * T * T) * (np.dtype(w_dtype).itemsize + 16) + triples * 24,
            f"the weights of {d:,} features and {n_edge:,} edge features for {T:,} tags"
            + (f" with {triples:,} tag triples" if triples else ""),
        )
        self.n_edge_features_in_ = n_edge
        self._state = {
            "W": np.zeros((d, T), dtype=w_dtype),
            "trans": np.zeros((T, T)),
            "E": np.zeros((n_edge, T, T)),
            "trans2": np.zeros((T, T, T) if self.markov_order == 2 else (0, 0, 0)),
            "start": np.zeros(T),
            "stop": np.zeros(T),
            "U": np.zeros((d, T)),
            "Utrans": np.zeros((T, T)),
            "UE": np.zeros((n_edge, T, T)),
            "Utrans2": np.zeros((T, T, T) if self.markov_order == 2 else (0, 0, 0)),
            "Ustart": np.zeros(T),
            "Ustop": np.zeros(T),
            "count": np.zeros(1, dtype=np.int64),
        }
        self.mistakes_per_epoch_, self.token_mistakes_per_epoch_, self.dev_scores_ = [], [], []
        self.n_epochs_ = 0
        self._rng = np.random.default_rng(seed_of(self.random_state))
        # the weights are all 0: made on the first read, which a fit's epochs come before (a copy
        # of W as float64, ~20 ms on EWT, that training did not read)
        self._average_later()

    def _finalize(self, W=None):
        """Final weights from the running state: the lazy average W − U / C, or W itself.  ``W``:
        the final emission weights when made already (:meth:`compact_single_precision`)."""
        from perceptrons._jit.structured import lazy_average

        self.__dict__.pop("_final_stale", None)
        s = self._state
        c = self._average_count()
        if W is None:
            W = lazy_average(s["W"], s["U"], c) if c else s["W"].astype(np.float64)
        # the small parts in numpy, the same IEEE operations: no compiled kernel to load for
        # each of their shapes
        parts = [s[k] - s["U" + k] / c if c else s[k].astype(np.float64) for k in _PARTS[1:]]
        self._set_final(W, *parts)

    def _average_count(self):
        """C of the average W − U / C; 0.0 when the final weights are W itself."""
        c = int(self._state["count"][0])
        return float(c) if self.averaged and c > 0 else 0.0

    def compact_single_precision(self) -> np.ndarray:
        """Drop the emission weight rows that are all zero and cast the others to float32:
        :meth:`prune_features` then :meth:`to_single_precision`, in one compiled pass.

        After a fit whose final weights are not made yet, the pass reads the running sums, so
        the float64 average of every row is never stored (EWT: 282,142 rows, half of them zero).

        Returns
        -------
        keep : ndarray of bool, shape (n_features,)
            The features kept, as :meth:`prune_features` takes them.
        """
        from perceptrons._jit.structured import nonzero_rows32

        stale = "_final_stale" in self.__dict__
        if stale:  # W − U / c from the running sums (W itself when c is 0)
            final = (self._state["W"], self._state["U"], self._average_count())
        else:
            final = (self.emission_weights(), np.zeros((0, 0)), 0.0)
        rows, n_kept, keep = nonzero_rows32(*final)
        W = rows[:n_kept].copy()  # not a view that would keep every row alive
        del rows
        if stale:
            self._finalize(W)
        else:
            self._W_final = W
        self.coef_ = self._W_final.T
        self.n_features_in_ = int(W.shape[0])
        self._state = None
        return keep.view(np.bool_)

    def _restart_from_final(self):
        """After loading: continue online training from the stored final weights."""
        final = self._final_weights()
        self._init_state(self.n_features_in_, self.n_edge_features_in_)
        for k, v in zip(_PARTS, final):
            self._state[k][...] = v
        self._finalize()

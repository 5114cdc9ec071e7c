r"""Training across a Dask cluster by iterative parameter mixing (McDonald, Hall & Mann 2010).

The data are split into S shards that stay where they are: scattered once from memory, read by
the workers from their files, or the persisted partitions of Dask collections.  Each epoch every
shard runs one epoch of the serial estimator's own compiled loop from the current mixed weights,
and the client mixes them, ``w = Σᵢ μᵢ wᵢ`` — uniformly (μᵢ = 1/S) or by errors (μᵢ = kᵢ/Σk,
kᵢ the shard's mistakes).  Per epoch only the weights (and the averaging sums) travel.

Error-weighted mixing keeps Novikoff's bound whatever S is (McDonald et al., Theorem 3): on data
separable with margin γ and radius R, Σₙ Σᵢ μᵢ,ₙ kᵢ,ₙ ≤ (R/γ)² — :func:`mixing_bound` reports
both sides.  One-shot mixing (train each shard to the end, average once) has no such guarantee
and can fail to separate separable data (their Theorem 2).

The engine is ``dask.distributed`` (the ``perceptrons[distributed]`` extra): a ``LocalCluster``
of worker processes by default, or any scheduler.  Importing :mod:`perceptrons` does not import
Dask; this package imports it when a fit starts.

References
----------
McDonald, R., Hall, K. and Mann, G. (2010). "Distributed Training Strategies for the Structured
Perceptron". Proceedings of NAACL-HLT, 456–464.
"""

from perceptrons.distributed._engine import WorkerLostWarning
from perceptrons.distributed.linear import fit
from perceptrons.distributed.tagger import fit_sequences, fit_tagger
from perceptrons.distributed.theory import MixingBound, mistake_sum, mixing_bound

__all__ = ["MixingBound", "WorkerLostWarning", "fit", "fit_sequences", "fit_tagger", "mistake_sum", "mixing_bound"]

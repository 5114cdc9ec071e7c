"""The bound of a model's visit counter, read from model files and kept by every training call.

Averaging weighs each update by the visit counter in float64, exact for integers up to 2**53
only, and the compiled loops count in int64, which wraps at 2**63.  A model file is untrusted
input: its counters are read with this bound, and a call that continues a counter checks its
room before the first visit.
"""

from perceptrons._core.errors import PerceptronsError

#: the most example visits a model may count
MAX_VISITS = 2**53


def check_visit_room(count, visits):
    """Refuse a training call that could carry the visit counter ``count`` past
    :data:`MAX_VISITS` with up to ``visits`` more visits (a loaded model near the bound)."""
    if count + visits > MAX_VISITS:
        raise PerceptronsError(
            f"the model has counted {count} example visits, and this call may make {visits} more: "
            f"past 2**53 ({MAX_VISITS}), where the averaged weights are no longer exact"
        )

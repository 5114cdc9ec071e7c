"""The mix of S shards' weights and averaging sums sent whole (:func:`perceptrons.distributed._mixing.mix`):
one pass over the arrays, which the threads of a fit run on slices of them in parallel
(:mod:`perceptrons.threads.mixing`)."""

from numba import njit

from perceptrons._compile.flags import NJIT_STRICT


@njit(**NJIT_STRICT)
def mix_whole(w0, ws, u0, us, mu, cs, C, whole, w_out, u_out):
    """Mix the shards' ``ws`` into ``w_out``, and their sums ``us`` into ``u_out``.

    Per value, with w̄ = ``w0`` and ū = ``u0`` where every shard started, in this order of
    operations (that of the rows that travel, in :func:`~perceptrons.distributed._mixing.mix`):

        w = Σᵢ μᵢ wᵢ + (1 − Σᵢ μᵢ)·w̄, rounded to ``w_out``'s dtype
        u = (b + Σᵢ uᵢ) + ((C·w − Σᵢ cᵢ wᵢ) + (Σᵢ cᵢ − C)·w̄)

    with b = (1 − S)·ū when the shards' sums started from ū (``whole``), ū when from zero.

    Parameters
    ----------
    w0 : ndarray, 1-d
    ws : tuple of ndarray
        The S shards' weights, 1-d, of ``w0``'s length.
    u0 : ndarray, 1-d, float64
        Empty when the weights are not averaged (then ``us`` and ``u_out`` are not read).
    us : tuple of ndarray
    mu : ndarray of shape (S,), float64
    cs : ndarray of shape (S,), int64
        Each shard's visit count at the end; ``C`` the mixed one.
    whole : bool
    w_out, u_out : ndarray, 1-d
        May be ``w0`` and ``u0`` themselves: each value is read before it is written.
    """
    S = len(ws)
    cover = 0.0
    total_c = 0
    for i in range(S):
        cover += mu[i]
        total_c += cs[i]
    keep = 1.0 - cover
    back = float(total_c - C)
    summed = u0.shape[0] > 0
    for j in range(w0.shape[0]):
        a = 0.0
        for i in range(S):
            a += mu[i] * float(ws[i][j])  # float64 also where the plain-Python body runs
        wbar = float(w0[j])
        w_out[j] = a + keep * wbar
        if summed:
            w = float(w_out[j])
            su = 0.0
            scw = 0.0
            for i in range(S):
                su += us[i][j]
                scw += float(cs[i]) * float(ws[i][j])
            base = float(1 - S) * u0[j] if whole else u0[j]
            u_out[j] = (base + su) + ((float(C) * w - scw) + back * wbar)

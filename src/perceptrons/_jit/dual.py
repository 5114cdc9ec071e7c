"""Compiled loops of the kernel (dual) perceptron: arrays in, arrays out.

The dual hypothesis is ``f_k(x) = Σ_j A[j, k]·K(x_j, x) + b[k]`` (binary: one column,
``A[j, 0] = Σ a·y_j`` over the mistakes on ``j``).  Instead of re-summing over the support
examples at every visit, the epoch keeps ``Ft[k, i] = Σ_j A[j, k]·K(x_j, x_i)`` for every
training example and, on a mistake on example ``j``, adds ``±a·K(x_j, ·)`` (one kernel row) to
the one or two columns that change.  A visit then costs O(K) and a mistake O(n): the loop only
ever reads the kernel rows of support examples — which is what makes it fast when most visits
are correct.  Kernel rows live in a row cache owned by Python (``rows``/``slot_of``); when the
loop needs a row that is not cached it returns early, Python computes a block of rows with BLAS,
and the loop resumes at the same visit (nothing has been changed for that visit yet).

Conventions as in :mod:`perceptrons._jit.linear`: a mistake is ``y·f(x) ≤ tau`` (multiclass:
true score minus runner-up score ≤ tau, runner-up ties to the lowest index); the update is
``a·y`` with ``a`` the example's weight; zero-weight examples are skipped as if absent; the
averaged coefficients use Daumé's trick (``U += c·Δ``, mean of the T iterates ``= A − U/T``).
"""

import numpy as np
from numba import njit

from perceptrons._compile.flags import NJIT

NEED_NOTHING = -1
# which support example a full budget drops (``budget_policy``); the two projectrons drop none:
# they project a new example onto the support's span instead of adding it
RANDOM, OLDEST, FORGETRON, BPA, PROJECTRON, PROJECTRON_PP = 0, 1, 2, 3, 4, 5


@njit(**NJIT)
def _runner_up(Ft, b, i, k_true):
    """Best class other than ``k_true`` for example ``i``; ties go to the lowest index."""
    best = -np.inf
    r = -1
    for k in range(Ft.shape[0]):
        if k != k_true:
            s = Ft[k, i] + b[k]
            if r < 0 or s > best:
                best = s
                r = k
    return r


@njit(**dict(NJIT, inline="always"))  # a literal row 0 would compile it again
def _add_row(Ft, k, coef, row):
    """Ft[k, :] += coef · row (row may be float32; the scores stay float64)."""
    for q in range(Ft.shape[1]):
        Ft[k, q] += coef * row[q]


@njit(**dict(NJIT, inline="always"))
def _add_rows(Ft, cls, di, row_i, dm, row_m, n_cls):
    """``Ft[k, :] += di[j]·row_i + dm[j]·row_m`` for the ``n_cls`` classes ``k = cls[j]``: a full
    budget's update adds the new example's row and takes the dropped one's (and, with BPA, what
    it carries over) to every class either touches, one pass over each class's scores.

    Class by class rather than position by position: the inner loop then runs along contiguous
    rows and compiles to vector instructions (3–4x faster on MNIST's ten classes), and the two
    rows it reads again for each class stay in cache."""
    for j in range(n_cls):
        f = Ft[cls[j]]
        gi = di[j]
        gm = dm[j]
        for q in range(f.shape[0]):
            f[q] += gi * row_i[q] + gm * row_m[q]


@njit(**NJIT)
def _bpa_choice(ring, head, size, budget, A, row_i, kdiag, i):
    """The position (from ``head``) of the kept example whose removal, its coefficients carried
    over to the new example ``i`` as far as ``i`` represents it, changes the hypothesis least:
    ``‖A[r]‖² · (K(r, r) − K(r, i)² / K(i, i))`` (BPA-S, Wang & Vucetic 2010, eq. 12)."""
    best = np.inf
    q_best = 0
    kii = kdiag[i]
    for q in range(size):
        r = ring[(head + q) % budget]
        norm2 = 0.0
        for kk in range(A.shape[1]):
            norm2 += A[r, kk] * A[r, kk]
        kri = row_i[r]
        loss = norm2 * (kdiag[r] - (kri * kri / kii if kii > 0.0 else 0.0))
        if loss < best:
            best = loss
            q_best = q
    return q_best


@njit(**NJIT)
def _forgetron_shrink(sigma, mu, mistakes, q_sum):
    """The Forgetron's shrink φ of the removal of an example of weight σ whose margin under the
    hypothesis with the new example is μ (Dekel, Shalev-Shwartz & Singer 2008, the self-tuned
    Forgetron, Fig. 3): the largest φ ∈ (0, 1] with ψ(σφ, μ) + Q ≤ 15/32·M, ψ(λ, μ) = λ² + 2λ − 2λμ;
    returns (φ, ψ(σφ, μ))."""
    room = 15.0 / 32.0 * mistakes - q_sum
    if sigma <= 0.0:
        return 1.0, 0.0
    psi_full = sigma * sigma + 2.0 * sigma - 2.0 * sigma * mu
    if psi_full <= room:
        return 1.0, psi_full
    # σ²φ² + 2σ(1 − μ)φ − room = 0, its root in (0, 1]; none when the room is gone: φ = 0
    disc = (1.0 - mu) * (1.0 - mu) + max(room, 0.0)
    phi = (-(1.0 - mu) + np.sqrt(disc)) / sigma
    phi = min(1.0, max(0.0, phi))
    lam = sigma * phi
    return phi, lam * lam + 2.0 * lam - 2.0 * lam * mu


@njit(**NJIT)
def _project(Kinv, ring, size, row_i, k, d):
    """The projection of example i onto the span of the ``size`` kept examples ``ring[:size]``:
    ``k[q] = K(x_ring[q], x_i)`` from i's Gram row, ``d = K_S⁻¹ k`` (its coefficients over the
    kept examples); returns ``k·d``, the squared norm of the projection (Orabona, Keshet &
    Caputo 2009, eq. 5)."""
    for q in range(size):
        k[q] = row_i[ring[q]]
    kd = 0.0
    for q in range(size):
        s = 0.0
        for p in range(size):
            s += Kinv[q, p] * k[p]
        d[q] = s
        kd += k[q] * s
    return kd


@njit(**NJIT)
def _grow_inverse(Kinv, size, d, delta2):
    """``Kinv`` (the inverse of the kept examples' Gram matrix) grown by one example whose
    projection coefficients are ``d`` and squared distance from the span ``delta2`` (> 0): the
    block inverse ``[[K⁻¹ + d dᵀ/δ², −d/δ²], [−dᵀ/δ², 1/δ²]]``, O(size²)."""
    for q in range(size):
        for p in range(size):
            Kinv[q, p] += d[q] * d[p] / delta2
        Kinv[q, size] = -d[q] / delta2
        Kinv[size, q] = -d[q] / delta2
    Kinv[size, size] = 1.0 / delta2


@njit(**NJIT)
def _projected_step(loss, norm2, delta2, eta, two):
    """Projectron++'s step on a margin error (Orabona, Keshet & Caputo 2009, Fig. 3; as the
    authors' DOGMA library computes it, with δ² the squared distance): 0 (no update) unless
    ``loss − δ²/η > 0``, else ``min(1, loss/‖Pφ‖², 2·(loss − δ²/η)/‖Pφ‖²)``.  ``two``: a
    multiclass update moves two score columns, so its direction's squared norm and distance
    are twice one example's."""
    scale = 2.0 if two else 1.0
    n2 = scale * norm2
    excess = loss - ((scale * delta2 / eta if eta > 0.0 else np.inf) if delta2 > 0.0 else 0.0)
    if excess <= 0.0 or n2 <= 0.0:
        return 0.0
    return min(1.0, loss / n2, 2.0 * excess / n2)


@njit(**NJIT)
def _add_coef(A, b, U, ub, j, col, coef, fit_b, averaging, c):
    """``coef`` added to example j's coefficient of score column ``col``, to the bias with it (the
    weight of a constant feature every kept example carries), and ``c·coef`` to the averaging
    sums (Daumé's trick); the training scores are the caller's."""
    A[j, col] += coef
    if fit_b:
        b[col] += coef
    if averaging:
        U[j, col] += c * coef
        if fit_b:
            ub[col] += c * coef


@njit(**NJIT)
def _dual_step(A, b, U, ub, Ft, j, col, coef, row, fit_b, averaging, c):
    """``coef`` added to example j's coefficient of score column ``col`` (:func:`_add_coef`) and
    ``coef·K(x_j, ·)`` to every training score."""
    _add_coef(A, b, U, ub, j, col, coef, fit_b, averaging, c)
    _add_row(Ft, col, coef, row)


@njit(**NJIT)
def epoch_dual(data, start, rule, weights, gram, budgeted, log, stats):
    """Visit ``perm[start:]``; returns ``(position, example)`` of a missing kernel row, or
    ``(len(perm), -1)`` when the epoch is complete.

    The arguments, bundled by what they are (each a tuple, unpacked below):

    * ``data = (yi, scale, perm)``: class indices (n,) int64, update scales (n,) float64, the
      visiting order (m,) int64;
    * ``start``: the position in ``perm`` to go on from;
    * ``rule = (tau, fit_b, binary)``: the margin, whether the bias learns, two classes or more;
    * ``weights = (Ft, b, A, U, ub, alpha, count)``: Ft (K, n) float64 scores; b, ub (K,);
      A (n, K) coefficients; U (n, K) or (0, K) when not averaging; alpha (n,) int64 mistakes
      per example; count (1,) visits so far;
    * ``gram = (rows, slot_of, stamp, clock)``: the Gram rows kept (capacity, n); slot_of (n,)
      int64 (-1: not kept); stamp (capacity,) int64 last use; clock (1,);
    * ``budgeted = (budget, policy, ring, ring_state, in_support, rand, kdiag, forget, Kinv,
      eta)``: with ``budget > 0``, ring (budget,) int64 of kept examples, ring_state [head, size],
      in_support (n,) uint8, rand (len(perm),) uniforms, kdiag (n,) the kernel's diagonal
      K(x_i, x_i), forget (1,) the Forgetron's running Q; ``policy`` (RANDOM, OLDEST, FORGETRON,
      BPA) picks the example a full budget drops: at random; the oldest; the oldest, the
      hypothesis then shrunk by the Forgetron's φ; the one whose removal BPA-S finds cheapest,
      its coefficients carried over to the new example.  PROJECTRON and PROJECTRON_PP drop none
      (Orabona, Keshet & Caputo 2009): a new example whose squared distance from the kept
      examples' span is at most ``eta``, or any once the budget is full, is projected onto it
      (its update made on the kept examples' coefficients, ``d = K_S⁻¹ k``, every score moved by
      the kept rows), else kept; ``Kinv`` (budget, budget) holds ``K_S⁻¹`` over the ring's
      positions (a projectron's ring only grows).  PROJECTRON_PP also updates, by projection,
      on a margin error (0 < margin < 1 after the mistake test), with
      :func:`_projected_step`'s step;
    * ``log = (log_j, log_r, log_c, log_a, n_log)`` (voted): example, runner-up (-1 binary),
      visit counter and signed step of each update, written from ``n_log[0]`` on while there
      is room;
    * ``stats`` (2,) int64 accumulates [mistakes, removals].
    """
    yi, scale, perm = data
    tau, fit_b, binary = rule
    Ft, b, A, U, ub, alpha, count = weights
    rows, slot_of, stamp, clock = gram
    budget, policy, ring, ring_state, in_support, rand, kdiag, forget = budgeted[:8]
    Kinv = budgeted[8]  # by index, not unpacked: the loop writes it (see perceptrons._jit)
    eta = budgeted[9]
    projecting = budget > 0 and policy >= PROJECTRON
    proj_k = np.empty(max(budget, 1))  # a new example's kernel values against the kept ones
    proj_d = np.empty(max(budget, 1))  # and its projection coefficients
    log_j, log_r, log_c, log_a, n_log = log
    averaging = U.shape[0] > 0
    carry = np.zeros(A.shape[1])  # BPA: the coefficients carried over to the new example
    drop = np.zeros(A.shape[1])  # the dropped example's coefficients, to take from Ft
    gain = np.zeros(A.shape[1])  # the new example's, to add to Ft
    cls = np.empty(A.shape[1], dtype=np.int64)
    di = np.empty(A.shape[1])
    dm = np.empty(A.shape[1])
    n_all = A.shape[0]
    c = count[0]
    for t in range(start, perm.shape[0]):
        i = perm[t]
        a = scale[i]
        if a == 0.0:
            continue
        if binary:
            y = 1.0 if yi[i] == 1 else -1.0
            value = y * (Ft[0, i] + b[0])  # the example's margin
            k = 0
            r = -1
        else:
            k = yi[i]
            r = _runner_up(Ft, b, i, k)
            value = (Ft[k, i] + b[k]) - (Ft[r, i] + b[r])
        mistake = value <= tau
        if projecting:
            if not mistake and not (policy == PROJECTRON_PP and value < 1.0):
                c += 1
                continue
            si = slot_of[i]
            if si < 0:
                count[0] = c
                return t, i
            size = ring_state[1]
            member = in_support[i] == 1
            if member:  # its own coefficient: the projection is the example itself
                norm2 = kdiag[i]
                delta2 = 0.0
            else:
                norm2 = _project(Kinv, ring, size, rows[si], proj_k, proj_d)
                delta2 = max(kdiag[i] - norm2, 0.0)  # max: rounding must not make it negative
            # kept when far enough from the span; within 1e-10·K(x, x) of it counts as in it, or
            # its 1/δ² would make K_S⁻¹ meaningless
            keep = not member and mistake and size < budget and delta2 > max(eta, 1e-10 * kdiag[i])
            amount = a if mistake else a * _projected_step(1.0 - value, norm2, delta2, eta, not binary)
            if amount == 0.0:
                c += 1
                continue
            if not member and not keep:
                # projected: the update lands on the kept examples' coefficients, and each of
                # their rows moves the scores; every row must be at hand before anything changes
                for q in range(size):
                    if slot_of[ring[q]] < 0:
                        count[0] = c
                        return t, ring[q]
                for q in range(size):
                    j = ring[q]
                    sj = slot_of[j]
                    stamp[sj] = clock[0]
                    clock[0] += 1
                    coef = amount * proj_d[q]
                    if binary:
                        _dual_step(A, b, U, ub, Ft, j, k, coef * y, rows[sj], fit_b, averaging, c)
                    else:
                        _dual_step(A, b, U, ub, Ft, j, k, coef, rows[sj], fit_b, averaging, c)
                        _dual_step(A, b, U, ub, Ft, j, r, -coef, rows[sj], fit_b, averaging, c)
            else:
                if keep:
                    _grow_inverse(Kinv, size, proj_d, delta2)
                    ring[size] = i  # a projectron's ring only grows: its head stays 0
                    ring_state[1] = size + 1
                    in_support[i] = 1
                stamp[si] = clock[0]
                clock[0] += 1
                if binary:
                    _dual_step(A, b, U, ub, Ft, i, k, amount * y, rows[si], fit_b, averaging, c)
                else:
                    _dual_step(A, b, U, ub, Ft, i, k, amount, rows[si], fit_b, averaging, c)
                    _dual_step(A, b, U, ub, Ft, i, r, -amount, rows[si], fit_b, averaging, c)
            alpha[i] += 1
            stats[0] += 1
            c += 1
            continue
        if mistake:
            si = slot_of[i]
            if si < 0:
                count[0] = c
                return t, i
            carried = False
            shrink = 1.0
            dropped = -1
            if budget > 0 and in_support[i] == 0:
                head = ring_state[0]
                size = ring_state[1]
                if size == budget:
                    if policy == RANDOM:
                        q = min(int(rand[t] * size), size - 1)
                    elif policy == BPA:
                        q = _bpa_choice(ring, head, size, budget, A, rows[si], kdiag, i)
                    else:
                        q = 0
                    pos = (head + q) % budget
                    m = ring[pos]
                    sm = slot_of[m]
                    if sm < 0:
                        count[0] = c
                        return t, m
                    if policy == BPA and kdiag[i] > 0.0:
                        carried = True
                        for kk in range(A.shape[1]):
                            carry[kk] = A[m, kk] * rows[si][m] / kdiag[i]
                    elif policy == FORGETRON:
                        # m's margin under the hypothesis with the new example (its step a·y,
                        # or a to the true class and −a to the runner-up)
                        kim = rows[si][m]
                        sigma = 0.0
                        for kk in range(A.shape[1]):
                            sigma = max(sigma, abs(A[m, kk]))
                        if binary:
                            ym = 1.0 if yi[m] == 1 else -1.0
                            mu = ym * (Ft[0, m] + b[0] + a * (1.0 if yi[i] == 1 else -1.0) * kim)
                        else:
                            km = yi[m]
                            sc = np.empty(A.shape[1])
                            for kk in range(A.shape[1]):
                                sc[kk] = Ft[kk, m] + b[kk]
                            sc[yi[i]] += a * kim
                            sc[r] -= a * kim
                            rm = -1
                            best_other = -np.inf
                            for kk in range(A.shape[1]):
                                if kk != km and (rm < 0 or sc[kk] > best_other):
                                    best_other = sc[kk]
                                    rm = kk
                            mu = sc[km] - best_other
                        shrink, psi = _forgetron_shrink(sigma, mu, float(stats[0] + 1), forget[0])
                        forget[0] += psi
                    # The bias is the weight of a constant feature that every kept example
                    # carries, so a dropped example takes its share of the bias with it.  Its row
                    # leaves Ft with the new example's update below, in the same pass.
                    dropped = sm
                    for kk in range(A.shape[1]):
                        drop[kk] = -A[m, kk]
                        if A[m, kk] != 0.0:
                            if fit_b:
                                b[kk] -= A[m, kk]
                            A[m, kk] = 0.0
                        if averaging:
                            if fit_b:
                                ub[kk] -= U[m, kk]
                            U[m, kk] = 0.0
                    in_support[m] = 0
                    # The slot at ``head`` fills the hole, then ``head`` advances: for the
                    # oldest policy q == 0 and this is a plain FIFO pop.
                    ring[pos] = ring[head]
                    head = (head + 1) % budget
                    size -= 1
                    stats[1] += 1
                ring[(head + size) % budget] = i
                ring_state[0] = head
                ring_state[1] = size + 1
                in_support[i] = 1
            row = rows[si]
            stamp[si] = clock[0]
            clock[0] += 1
            if binary:
                step = a * y
                A[i, 0] += step
                if dropped < 0:
                    _add_row(Ft, 0, step, row)
                if fit_b:
                    b[0] += step
                if averaging:
                    U[i, 0] += c * step
                    if fit_b:
                        ub[0] += c * step
            else:
                step = a
                A[i, k] += a
                A[i, r] -= a
                if dropped < 0:
                    _add_row(Ft, k, a, row)
                    _add_row(Ft, r, -a, row)
                if fit_b:
                    b[k] += a
                    b[r] -= a
                if averaging:
                    U[i, k] += c * a
                    U[i, r] -= c * a
                    if fit_b:
                        ub[k] += c * a
                        ub[r] -= c * a
            if carried:  # BPA: the removed example's coefficients, as far as i represents it
                for kk in range(A.shape[1]):
                    if carry[kk] != 0.0:  # its scores: in the pass below
                        _add_coef(A, b, U, ub, i, kk, carry[kk], fit_b, averaging, c)
            if dropped >= 0:  # one pass over the new row and the dropped one
                for kk in range(A.shape[1]):
                    gain[kk] = carry[kk] if carried else 0.0
                if binary:
                    gain[0] += step
                else:
                    gain[k] += a
                    gain[r] -= a
                n_cls = 0
                for kk in range(A.shape[1]):
                    if gain[kk] != 0.0 or drop[kk] != 0.0:
                        cls[n_cls] = kk
                        di[n_cls] = gain[kk]
                        dm[n_cls] = drop[kk]
                        n_cls += 1
                _add_rows(Ft, cls, di, row, dm, rows[dropped], n_cls)
            if shrink < 1.0:  # the Forgetron: the whole hypothesis shrunk by φ
                for kk in range(A.shape[1]):
                    for q in range(n_all):
                        if averaging and A[q, kk] != 0.0:
                            U[q, kk] += c * (shrink - 1.0) * A[q, kk]
                        A[q, kk] *= shrink
                        Ft[kk, q] *= shrink
                    if averaging and fit_b:
                        ub[kk] += c * (shrink - 1.0) * b[kk]
                    b[kk] *= shrink
            alpha[i] += 1
            stats[0] += 1
            p = n_log[0]
            if p < log_j.shape[0]:
                log_j[p] = i
                log_r[p] = r
                log_c[p] = c
                log_a[p] = step
                n_log[0] = p + 1
        c += 1
    count[0] = c
    return perm.shape[0], NEED_NOTHING


@njit(**NJIT)
def voted_scores(Kb, upd_sv, upd_true, upd_runner, upd_step, weights, fit_b, binary, out):
    """Survival-weighted votes of every intermediate hypothesis, replayed from the update log.

    Kb (n_test, n_sv) kernel values against the support examples; update t touched support
    example ``upd_sv[t]`` with ``upd_step[t]`` (binary: signed ``a·y``; multiclass: ``+a`` to
    class ``upd_true[t]``, ``−a`` to ``upd_runner[t]``); ``weights`` (m + 1,) is the number of
    visits each hypothesis survived (index 0: the initial zero hypothesis).  ``out`` receives
    (n_test, 2) votes for (negative, positive) when binary, else (n_test, n_classes).
    The state per test point is one score vector: O(K) memory, O(m·K) time.
    """
    m = upd_sv.shape[0]
    k_s = 1 if binary else out.shape[1]
    s = np.zeros(k_s)
    for p in range(Kb.shape[0]):
        s[:] = 0.0
        for q in range(out.shape[1]):
            out[p, q] = 0.0
        for t in range(m + 1):
            if t > 0:
                kv = Kb[p, upd_sv[t - 1]]
                a = upd_step[t - 1]
                if binary:
                    s[0] += a * kv + (a if fit_b else 0.0)
                else:
                    d = a * kv + (a if fit_b else 0.0)
                    s[upd_true[t - 1]] += d
                    s[upd_runner[t - 1]] -= d
            w = weights[t]
            if w == 0.0:
                continue
            if binary:
                out[p, 1 if s[0] >= 0.0 else 0] += w
            else:
                best = 0
                for q in range(1, k_s):
                    if s[q] > s[best]:
                        best = q
                out[p, best] += w
    return out

"""The theory section of the report: R, the separability certificate, γ* and the bounds.

Everything is measured as the PLA sees the data (DESIGN §2): with ``fit_intercept=True`` over
the augmented vectors zᵢ = (xᵢ, 1), so R, γ*, (R/γ*)² and the trace speak of the same points.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import fs_optimal_direction, is_separable, max_margin, online_mistakes, radius
from perceptrons.theory._common import SCALE_HINT, radius_of, squared_ratio

#: multipliers below this fraction of the largest are solver noise of an interior-point method,
#: not examples of the witness: they are left out of the drawing (the witness point uses them all)
WITNESS_CUTOFF = 1e-6


def theory_section(X, y, fit_intercept):
    """R, the certificate, and γ* with (R/γ*)² (separable) or the Freund–Schapire bound (not).

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), two labels
    fit_intercept : bool

    Returns
    -------
    dict
        ``R``, ``separable``, ``certificate``, ``max_margin`` (None when not separable) and
        ``freund_schapire`` (None when separable).
    """
    R = radius(X, fit_intercept=fit_intercept)
    cert = is_separable(X, y, fit_intercept=fit_intercept)
    out = {"R": R, "separable": bool(cert.separable), "certificate": _certificate(cert, X, y, fit_intercept)}
    out["max_margin"] = out["freund_schapire"] = None
    if cert.separable:
        mm = max_margin(X, y, fit_intercept)
        if not mm.separable:
            raise PerceptronsError(
                f"the separability LP found a separator but the max-margin QP reports {mm.status}: "
                f"the margin is below the solvers' tolerance; {SCALE_HINT}"
            )
        out["max_margin"] = {
            "gamma": mm.gamma,
            "coef": mm.coef,
            "intercept": mm.intercept,
            "support": mm.support,
            # Block–Novikoff: k ≤ (R/γ*)², with R and γ* over the same (augmented) vectors
            "bound": squared_ratio(R, mm.gamma),
        }
    else:
        fs, u = fs_optimal_direction(X, y, fit_intercept=fit_intercept)
        out["freund_schapire"] = {
            "u": u,
            "gamma": fs.gamma,
            "D": fs.D,
            "bound": fs.bound,
            "one_pass_mistakes": online_mistakes(X, y, fit_intercept=fit_intercept),
        }
    return out


def _certificate(cert, X, y, fit_intercept):
    """The certificate as the page draws it: a strict separator, or the two convex combinations."""
    base = {"separable": bool(cert.separable), "method": cert.method, "summary": cert.summary()}
    if cert.separable:
        return {**base, "coef": cert.coef, "intercept": cert.intercept, "margin": cert.margin}
    pos = y == cert.classes[1]
    s = np.where(pos, 1.0, -1.0)
    Z = (np.hstack([X, np.ones((X.shape[0], 1))]) if fit_intercept else X) * s[:, None]
    lam = sparsest_witness(Z, cert.multipliers)
    # p = Σ⁺λx/Σ⁺λ and q = Σ⁻λx/Σ⁻λ: equal with a folded bias (both hulls hold the point);
    # through the origin q is a positive multiple of p, so the ray from the origin is drawn —
    # or one side has no weight and the other's combination is the origin itself
    p, q = (_combination(X[side], lam[side]) for side in (pos, ~pos))
    R = radius_of(Z)
    keep = np.flatnonzero(lam > 0)
    return {
        **base,
        "examples": keep,
        "multipliers": lam[keep],
        "positive_point": p,
        "negative_point": q,
        "residual": float(np.linalg.norm(lam @ Z) / R),
    }


def _combination(X, lam):
    mass = lam.sum()
    return (lam @ X) / mass if mass > 0 else None


def sparsest_witness(Z, lam, tol=1e-9):
    """Carathéodory's reduction of a witness: λ ≥ 0, Σλ = 1, Σ λᵢ zᵢ = 0 on at most p + 1 rows.

    An interior-point solver returns multipliers spread over every example; the same
    certificate holds on at most p + 1 of them (p = len(zᵢ)): while more rows carry weight,
    a null vector v of their zᵢ other than λ itself exists, and λ − t·v (t as large as keeps
    λ ≥ 0) zeroes one row and still sums the zᵢ to 0.  Two positive and two negative points
    whose segments cross are a picture a student can check by eye; two hundred are not.

    Parameters
    ----------
    Z : ndarray of shape (n, p)
        Signed rows yᵢ·zᵢ.
    lam : ndarray of shape (n,)
        The library's multipliers (:attr:`SeparabilityResult.multipliers`).
    tol : float, default=1e-9
        Largest ‖Σ λᵢ zᵢ‖ / max ‖zᵢ‖ accepted; a reduction that drifts beyond it is dropped
        for ``lam`` as given.

    Returns
    -------
    ndarray of shape (n,)
    """
    lam = np.maximum(np.asarray(lam, dtype=np.float64), 0.0)
    lam = lam / lam.sum()
    R = radius_of(Z)
    out = np.where(lam >= WITNESS_CUTOFF * lam.max(), lam, 0.0)
    support = np.flatnonzero(out)
    while support.shape[0] > Z.shape[1] + 1:
        M = Z[support].T
        _, sv, Vt = np.linalg.svd(M)
        rank = int(np.sum(sv > sv[0] * 1e-12))
        null = Vt[rank:]
        cur = out[support] / np.linalg.norm(out[support])
        # a null vector independent of λ: the basis vector least parallel to it, λ projected out
        v = null[np.argmin(np.abs(null @ cur))]
        v = v - (v @ cur) * cur
        if not np.any(v > 0):
            v = -v
        ratio = np.where(v > 0, out[support] / np.where(v > 0, v, 1.0), np.inf)
        j = int(np.argmin(ratio))
        out[support] -= ratio[j] * v
        out[support[j]] = 0.0
        # what rounding leaves of a zeroed row is not weight
        out[out <= 1e-12 * out.max()] = 0.0
        support = np.flatnonzero(out)
    out /= out.sum()
    return out if np.linalg.norm(out @ Z) <= tol * R else lam

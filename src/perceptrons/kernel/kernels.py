"""The kernel registry: name → function computing a block of kernel values with BLAS.

Every kernel is ``X·Yᵀ`` (one matrix product, the only O(n·m·d) step) followed by an
elementwise map done in place, so a block costs one GEMM plus one pass over its output.
Names and parameters are those of :class:`sklearn.svm.SVC`, so a user can switch between the two:

=============  ===========================================
``linear``     ``K(x, y) = x·y``
``poly``       ``K(x, y) = (gamma·x·y + coef0) ** degree``
``rbf``        ``K(x, y) = exp(−gamma·‖x − y‖²)``
``sigmoid``    ``K(x, y) = tanh(gamma·x·y + coef0)``
=============  ===========================================

plus ``"precomputed"`` (the user passes the kernel matrix) and any Python callable
``kernel(X, Y) -> (len(X), len(Y))``.  ``gamma="scale"`` is ``1 / (n_features · X.var())``
(1 when the variance is 0) and ``gamma="auto"`` is ``1 / n_features``, as in scikit-learn.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.finite import SCALE_FEATURES, largest_magnitude


def sq_norms(X):
    """‖x_i‖² of every row, in float64 (the RBF map subtracts them from 2·x·y)."""
    X64 = X.astype(np.float64, copy=False)
    return np.einsum("ij,ij->i", X64, X64)


def linear(X, Y, gamma, degree, coef0, x_sq=None, y_sq=None):
    """``x·y``."""
    return X @ Y.T


def poly(X, Y, gamma, degree, coef0, x_sq=None, y_sq=None):
    """``(gamma·x·y + coef0) ** degree``.

    A value beyond the float range is refused here, naming the parameters: a large gamma, coef0
    or degree overflows on features of any size.  (A product ``x·y`` already infinite, from
    features beyond the range, is not an overflow of these steps; the caller's score check
    names the features.)
    """
    G = X @ Y.T
    try:
        with np.errstate(over="raise"):
            G *= gamma
            G += coef0
            np.power(G, degree, out=G)
    except FloatingPointError:
        top = max(largest_magnitude(X), largest_magnitude(Y))
        raise PerceptronsError(
            f"kernel 'poly': (gamma·x·y + coef0) ** degree overflows {G.dtype} with gamma={gamma:.3g}, "
            f"coef0={coef0:.3g}, degree={degree} on features up to {top:.3g}; choose a smaller gamma, "
            f"coef0 or degree, or {SCALE_FEATURES}"
        ) from None
    return G


def rbf(X, Y, gamma, degree, coef0, x_sq=None, y_sq=None):
    """``exp(−gamma·‖x − y‖²)`` with ``‖x − y‖² = ‖x‖² + ‖y‖² − 2·x·y`` (clipped at 0).

    The distances come first and gamma last: ``2·gamma`` overflows for a gamma above ~9e307
    (inf − inf then made NaN kernel values), where ``gamma·d²`` only grows to inf, whose
    exponential is 0, as the formula says.
    """
    x_sq = sq_norms(X) if x_sq is None else x_sq
    y_sq = sq_norms(Y) if y_sq is None else y_sq
    G = X @ Y.T
    G *= -2.0
    G += x_sq.astype(G.dtype)[:, None]
    G += y_sq.astype(G.dtype)[None, :]
    # Rounding can make a squared distance slightly negative, i.e. a kernel value above 1.
    np.maximum(G, 0.0, out=G)
    with np.errstate(over="ignore"):  # gamma·d² beyond the float range: exp(−inf) = 0, as it should
        G *= -gamma
    np.exp(G, out=G)
    return G


def sigmoid(X, Y, gamma, degree, coef0, x_sq=None, y_sq=None):
    """``tanh(gamma·x·y + coef0)``."""
    G = X @ Y.T
    G *= gamma
    G += coef0
    np.tanh(G, out=G)
    return G


#: name -> block function ``f(X, Y, gamma, degree, coef0, x_sq, y_sq) -> (len(X), len(Y))``
KERNELS = {"linear": linear, "poly": poly, "rbf": rbf, "sigmoid": sigmoid}
#: every name the ``kernel`` parameter accepts
KERNEL_NAMES = tuple(KERNELS) + ("precomputed",)
#: kernels whose formula uses gamma
USES_GAMMA = ("poly", "rbf", "sigmoid")


def resolve_gamma(gamma, X):
    """The number ``"scale"`` / ``"auto"`` stand for on the training matrix ``X``.

    ``X.var()`` overflows for features above ~1e152 (gamma 0, every kernel value 1) and
    underflows below ~1e-154 (gamma 1 by the zero-variance rule).  Beyond 2^±400, ``"scale"``
    therefore takes the variance of X scaled by a power of two to size ~1 and scales gamma back,
    which is exact: the same gamma, bit for bit, as the unscaled formula wherever that holds.
    (Within that range X is not copied.)  A gamma beyond the float64 range is refused.
    """
    if gamma == "scale":
        top = largest_magnitude(X)
        power = 0 if 2.0**-400 <= top <= 2.0**400 or top == 0 else int(np.frexp(top)[1])
        var = float(np.var(np.ldexp(X, -power) if power else X, dtype=np.float64))
        if var == 0:
            return 1.0
        scaled = np.ldexp(1.0 / (X.shape[1] * var), -2 * power)
        if not 0 < scaled < np.inf:
            raise PerceptronsError(
                f"gamma='scale' is 1 / (n_features * X.var()), {'above' if power < 0 else 'below'} the "
                f"float64 range for features up to {top:.3g}; {SCALE_FEATURES}"
            )
        return float(scaled)
    if gamma == "auto":
        return 1.0 / X.shape[1]
    return float(gamma)


def check_feature_range(X, owner="KernelPerceptron"):
    """Refuse training rows whose kernel values the float type of ``X`` cannot hold.

    A kernel block starts from the products ``x·y`` and the norms ``‖x‖²``: with ``‖x‖²``
    beyond a quarter of the largest float, ``‖x‖² + ‖y‖² − 2·x·y`` may overflow (an RBF value
    then silently 0, a polynomial one inf); with every ``|x|`` below the square root of the
    smallest normal float, every product is subnormal or 0 (every kernel value ~coef0, a
    constant predictor).  ``gamma="scale"`` makes RBF, polynomial and sigmoid kernels the same
    at any scale in between.
    """
    info = np.finfo(X.dtype)
    top = largest_magnitude(X)
    with np.errstate(over="ignore"):  # an overflow is the finding, refused just below
        norm_sq = float(sq_norms(X).max()) if X.size else 0.0
    if norm_sq > float(info.max) / 4:
        raise PerceptronsError(
            f"{owner}: features up to {top:.3g} have squared row norms up to {norm_sq:.3g}, beyond the "
            f"{info.dtype} range of the kernel's inner products ({float(info.max) / 4:.3g}); {SCALE_FEATURES}"
        )
    if 0 < top < np.sqrt(float(info.smallest_normal)):
        raise PerceptronsError(
            f"{owner}: features of at most {top:.3g} multiply to below the smallest normal "
            f"{info.dtype} ({float(info.smallest_normal):.3g}), so every kernel value loses them; {SCALE_FEATURES}"
        )


def kernel_label(kernel):
    """How error messages name a kernel: its registry name or the callable's name."""
    if isinstance(kernel, str):
        return repr(kernel)
    return f"callable {getattr(kernel, '__name__', type(kernel).__name__)!r}"


class KernelBlock:
    """A kernel with its parameters fixed: ``block(X, Y)`` returns K(X, Y) as a dense array.

    Parameters
    ----------
    kernel : str or callable
        A name of :data:`KERNELS` or a callable; ``"precomputed"`` is handled by the caller.
    gamma, degree, coef0 : float
        ``gamma`` already resolved to a number.
    dtype : numpy dtype
        float32 input keeps float32 kernel rows (half the cache memory).
    """

    def __init__(self, kernel, gamma, degree, coef0, dtype):
        self.kernel, self.gamma, self.degree, self.coef0 = kernel, gamma, degree, coef0
        self.dtype = np.dtype(dtype)

    def block(self, X, Y, x_sq=None, y_sq=None):
        """K(X, Y), shape (len(X), len(Y)), in ``self.dtype``."""
        if callable(self.kernel):
            return self._call_user(X, Y)
        fn = KERNELS[self.kernel]
        X = X.astype(self.dtype, copy=False)
        Y = Y.astype(self.dtype, copy=False)
        G = fn(X, Y, self.gamma, self.degree, self.coef0, x_sq, y_sq)
        return np.ascontiguousarray(G, dtype=self.dtype)

    def diagonal(self, X, x_sq=None):
        """K(x_i, x_i) of every row, float64: from the squared norms for the named kernels, row by
        row for a callable.
        """
        if callable(self.kernel):
            return np.array([float(self._call_user(X[i : i + 1], X[i : i + 1])[0, 0]) for i in range(X.shape[0])])
        x_sq = sq_norms(X) if x_sq is None else x_sq
        if self.kernel == "rbf":
            return np.ones(X.shape[0])
        if self.kernel == "linear":
            return x_sq
        inner = self.gamma * x_sq + self.coef0
        return np.power(inner, self.degree) if self.kernel == "poly" else np.tanh(inner)

    def _call_user(self, X, Y):
        name = kernel_label(self.kernel)
        try:
            G = np.asarray(self.kernel(X, Y), dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise PerceptronsError(f"kernel {name} failed on blocks of shape {X.shape} and {Y.shape}: {exc}") from None
        expected = (X.shape[0], Y.shape[0])
        if G.shape != expected:
            raise PerceptronsError(
                f"kernel {name} returned an array of shape {G.shape}; expected {expected} "
                "(one row per row of X, one column per row of Y)"
            )
        if not np.all(np.isfinite(G)):
            raise PerceptronsError(
                f"kernel {name} returned NaN or infinite values; a kernel must return finite numbers"
            )
        return np.ascontiguousarray(G, dtype=self.dtype)

"""Centring chosen columns of sparse rows: the columns of numbers among hashed text.

A streamed table with a column of text is read as hashed rows (:mod:`perceptrons.io.arrow`):
each column of numbers is one slot, each word another.  scikit-learn's ``StandardScaler``
cannot centre such rows (centring every column fills in every zero), so the columns of
numbers stayed as read, all of one sign on many tables.  The perceptron's updates are sums of
rows, and rows that share one large common direction make a poor start: on MASS's ``crabs``
(200 rows sorted by species) the averaged perceptron scored 0.50 streamed, and 0.995 in memory,
where the columns are standardised.  Novikoff's bound (R/γ)² sees the same thing: subtracting
the mean shrinks the radius R of rows far from the origin.
"""

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from perceptrons._core.errors import PerceptronsError


class ColumnCentring(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    r"""Subtract each of the given columns' mean from the values the rows store in it.

    .. math::

        x_{ij} \leftarrow x_{ij} - \mu_j \quad \text{for every stored } x_{ij},\ j \in C,
        \qquad \mu_j = \frac{1}{|\{i : x_{ij} \text{ stored}\}|} \sum_{i : x_{ij} \text{ stored}} x_{ij}

    In sparse rows the mean is over the values stored in the column, and only those move: a row
    that stores nothing there (a missing number in hashed rows) stays at 0, which after centring
    is the mean, as the in-memory column pipeline imputes a missing number with its column's
    mean (scikit-learn's ``SimpleImputer``) before it standardises.  So a block of rows keeps its
    sparsity pattern.  Every other column is left as it is.  In dense rows every value counts.

    Parameters
    ----------
    columns : array-like of int
        The columns to centre (the slots of the columns of numbers).

    Attributes
    ----------
    columns_ : ndarray of int64
        The distinct columns, increasing.
    mean_ : ndarray of float64
        Each column's mean, in the order of ``columns_`` (0 for a column with no value stored).
    n_samples_seen_ : ndarray of int64
        The values each column's mean is over.
    n_features_in_ : int

    References
    ----------
    Novikoff, A. B. J. (1962). On convergence proofs on perceptrons. *Symposium on the
    Mathematical Theory of Automata*, 12, 615-622: the mistake bound (R/γ)², R the rows' radius.
    """

    def __init__(self, columns=()):
        self.columns = columns

    def fit(self, X, y=None):
        """Each column's mean over the rows of ``X``: :meth:`partial_fit` from nothing.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            All the rows at once.
        y : None
            Ignored, as a transformer's ``fit`` ignores it.

        Returns
        -------
        ColumnCentring
            This transformer, fitted.
        """
        for name in ("columns_", "mean_", "n_samples_seen_"):
            self.__dict__.pop(name, None)
        return self.partial_fit(X)

    def partial_fit(self, X, y=None):
        """Merge the rows of ``X`` into each column's mean (block by block: a stream's fit).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        self
        """
        first = not hasattr(self, "mean_")
        X = validate_data(self, X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=first)
        if first:
            cols = np.unique(np.asarray(self.columns, dtype=np.int64).ravel())
            if cols.size and (cols[0] < 0 or cols[-1] >= X.shape[1]):
                raise PerceptronsError(
                    f"ColumnCentring: columns must be in [0, {X.shape[1]}); got {int(cols[0])} to {int(cols[-1])}"
                )
            self.columns_ = cols
            self.mean_ = np.zeros(cols.shape[0])
            self.n_samples_seen_ = np.zeros(cols.shape[0], dtype=np.int64)
        sums, counts = self._sums(X)
        seen = self.n_samples_seen_ + counts
        # the running mean: old mean plus the block's share of its difference (exact for counts)
        step = np.divide(sums - counts * self.mean_, seen, out=np.zeros_like(self.mean_), where=seen > 0)
        self.mean_ = self.mean_ + step
        self.n_samples_seen_ = seen
        return self

    def _sums(self, X):
        """The sum and the count of the values ``X`` stores in each of ``columns_``."""
        if not hasattr(X, "indices"):
            return X[:, self.columns_].sum(axis=0, dtype=np.float64), np.full(self.columns_.shape[0], X.shape[0])
        at, pos = self._positions(X.indices)
        k = self.columns_.shape[0]
        sums = np.bincount(pos, weights=X.data[at].astype(np.float64), minlength=k)
        return sums, np.bincount(pos, minlength=k).astype(np.int64)

    def _positions(self, indices):
        """``(where in indices a centred column is, which of columns_ it is)``."""
        pos = np.searchsorted(self.columns_, indices)
        np.minimum(pos, max(self.columns_.shape[0] - 1, 0), out=pos)
        at = np.flatnonzero(self.columns_[pos] == indices) if self.columns_.size else np.zeros(0, np.int64)
        return at, pos[at]

    def centred(self, indices, data):
        """The stored values ``data`` of CSR rows, at column ``indices``, with the means subtracted.

        Parameters
        ----------
        indices, data : ndarray
            A CSR matrix's column indices and values (or a block's).

        Returns
        -------
        ndarray
            A new array of ``data``'s type.
        """
        check_is_fitted(self)
        at, pos = self._positions(indices)
        out = np.array(data, copy=True)
        out[at] -= self.mean_[pos].astype(out.dtype)
        return out

    def transform(self, X):
        """``X`` with the columns' means subtracted from their stored values.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        {ndarray, sparse matrix} of shape (n_samples, n_features)
            The same sparsity pattern as ``X``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=False, copy=True)
        if hasattr(X, "indices"):
            X.data = self.centred(X.indices, X.data)
        else:
            X[:, self.columns_] -= self.mean_.astype(X.dtype)
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

"""Standardising chosen columns of sparse rows: the columns of numbers among hashed text.

A streamed table with a column of text is read as hashed rows (:mod:`perceptrons.io.arrow`):
each column of numbers is one slot, each word another.  scikit-learn's ``StandardScaler``
cannot centre such rows (centring every column fills in every zero), so the columns of
numbers stayed as read, all of one sign on many tables.  The perceptron's updates are sums of
rows, and rows that share one large common direction make a poor start: on MASS's ``crabs``
(200 rows sorted by species) the averaged perceptron scored 0.50 streamed, and 0.995 in memory,
where the columns are standardised.  Novikoff's bound (R/γ)² sees the same thing: subtracting
the mean shrinks the radius R of rows far from the origin.  Dividing by the largest |x| after
centring left the numbers smaller than the words' ones, where memory standardises them: crabs
without its row numbers scored 0.83 streamed against 0.98 in memory.
"""

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from perceptrons._core.errors import PerceptronsError


def divisors(var):
    """What each column's values are divided by: the square root of its variance ``var``, or 1
    where that is below 10 ε (a column of equal values keeps them, as scikit-learn's scalers do).

    Parameters
    ----------
    var : ndarray of float64

    Returns
    -------
    ndarray of float64
    """
    std = np.sqrt(var)
    return np.where(std < 10 * np.finfo(np.float64).eps, 1.0, std)


class ColumnStandardScaler(OneToOneFeatureMixin, TransformerMixin, BaseEstimator):
    r"""Standardise the values that rows store in the given columns; leave every other column as it is.

    .. math::

        x_{ij} \leftarrow \frac{x_{ij} - \mu_j}{\sigma_j} \quad (j \in C,\ x_{ij} \text{ stored})

        \mu_j = \frac{1}{|S_j|} \sum_{i \in S_j} x_{ij}

        \sigma_j^2 = \frac{1}{n} \sum_{i \in S_j} (x_{ij} - \mu_j)^2

    where :math:`S_j` is the set of rows that store a value in column j and n the number of rows.
    In sparse rows only the stored values move: a row that stores nothing there (a missing
    number in hashed rows) stays at 0, which after centring is the mean.  That is what the
    in-memory column pipeline does, which fills a missing number with its column's mean
    (scikit-learn's ``SimpleImputer``) before it standardises (``StandardScaler``): the filled
    values add nothing to the sum of squares but count in n, as here.  So a block of rows keeps
    its sparsity pattern.  In dense rows a missing number is NaN, which is left out of the
    statistics and stays NaN, as scikit-learn's ``StandardScaler`` has it; every other value
    counts.  Fitted parts merge (:meth:`merge`): a cluster's workers fit one a shard.

    Parameters
    ----------
    columns : array-like of int
        The columns to standardise (the slots of the columns of numbers).
    with_mean : bool, default=True
        Subtract each column's mean.
    with_std : bool, default=True
        Divide by each column's standard deviation (1 for a column whose values are all equal).

    Attributes
    ----------
    columns_ : ndarray of int64
        The distinct columns, increasing.
    mean_ : ndarray of float64
        Each column's mean, in the order of ``columns_`` (0 for a column with no value stored).
    var_ : ndarray of float64
        Each column's variance, as above.
    scale_ : ndarray of float64 or None
        What each column's values are divided by: its standard deviation, or 1 where that is 0;
        None without ``with_std``.
    n_samples_seen_ : ndarray of int64
        The values each column's mean is over.
    n_rows_seen_ : int
        The rows seen, n above.
    n_features_in_ : int

    References
    ----------
    Novikoff, A. B. J. (1962). On convergence proofs on perceptrons. *Symposium on the
    Mathematical Theory of Automata*, 12, 615-622: the mistake bound (R/γ)², R the rows' radius.

    Chan, T. F., Golub, G. H. & LeVeque, R. J. (1983). Algorithms for computing the sample
    variance: analysis and recommendations. *The American Statistician*, 37(3), 242-247: the
    block-by-block merge of means and sums of squares.
    """

    _FITTED = ("columns_", "mean_", "var_", "scale_", "n_samples_seen_", "n_rows_seen_")

    def __init__(self, columns=(), with_mean=True, with_std=True):
        self.columns = columns
        self.with_mean = with_mean
        self.with_std = with_std

    def fit(self, X, y=None):
        """Each column's statistics over the rows of ``X``: :meth:`partial_fit` from nothing.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            All the rows at once.
        y : None
            Ignored, as a transformer's ``fit`` ignores it.

        Returns
        -------
        ColumnStandardScaler
            This transformer, fitted.
        """
        for name in self._FITTED:
            self.__dict__.pop(name, None)
        return self.partial_fit(X)

    def partial_fit(self, X, y=None):
        """Merge the rows of ``X`` into each column's statistics (block by block: a stream's fit).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        ColumnStandardScaler
            This transformer, fitted on every row given so far.
        """
        first = not hasattr(self, "mean_")
        X = validate_data(
            self, X, accept_sparse="csr", dtype=[np.float64, np.float32], reset=first, ensure_all_finite="allow-nan"
        )
        if first:
            cols = np.unique(np.asarray(self.columns, dtype=np.int64).ravel())
            if cols.size and (cols[0] < 0 or cols[-1] >= X.shape[1]):
                raise PerceptronsError(
                    f"ColumnStandardScaler: columns must be in [0, {X.shape[1]}); got {int(cols[0])} to {int(cols[-1])}"
                )
            self.columns_ = cols
            self.mean_ = np.zeros(cols.shape[0])
            self.n_samples_seen_ = np.zeros(cols.shape[0], dtype=np.int64)
            self.n_rows_seen_ = 0
            self.var_ = np.zeros(cols.shape[0])
        self._merge(*self._block_statistics(X), X.shape[0])
        return self

    def merge(self, other):
        """Merge the statistics of ``other``, fitted on other rows of the same width and columns,
        into this one's: as if this one had been fitted on both parts' rows.

        Parameters
        ----------
        other : ColumnStandardScaler
            Fitted.

        Returns
        -------
        ColumnStandardScaler
            This transformer.
        """
        check_is_fitted(self)
        check_is_fitted(other)
        if other.n_features_in_ != self.n_features_in_ or not np.array_equal(other.columns_, self.columns_):
            raise PerceptronsError("ColumnStandardScaler.merge: the two were fitted on other widths or columns")
        self._merge(other.n_samples_seen_, other.mean_, other.var_ * other.n_rows_seen_, other.n_rows_seen_)
        return self

    def _merge(self, count, mean, squares, rows):
        """Merge a part's (values a column, means, sums of squared deviations, rows) into the
        statistics: Chan et al.'s formula, exact for the counts.
        """
        seen = self.n_samples_seen_ + count
        delta = mean - self.mean_
        share = np.divide(count, seen, out=np.zeros_like(self.mean_), where=seen > 0)
        squares = self.var_ * self.n_rows_seen_ + squares + delta**2 * self.n_samples_seen_ * share
        self.mean_ = self.mean_ + delta * share
        self.n_samples_seen_ = seen
        self.n_rows_seen_ += int(rows)
        self.var_ = squares / max(self.n_rows_seen_, 1)
        self.scale_ = divisors(self.var_) if self.with_std else None

    def _block_statistics(self, X):
        """``(count, mean, sum of squared deviations)`` of the values ``X`` stores in each of ``columns_``."""
        if hasattr(X, "indices"):
            at, pos = self._positions(X.indices)
            values = X.data[at].astype(np.float64)
        else:
            pos = np.tile(np.arange(self.columns_.shape[0]), X.shape[0])
            values = X[:, self.columns_].astype(np.float64).ravel()
        given = ~np.isnan(values)  # a missing number: as if no value were stored
        pos, values = pos[given], values[given]
        k = self.columns_.shape[0]
        count = np.bincount(pos, minlength=k).astype(np.int64)
        mean = np.divide(np.bincount(pos, weights=values, minlength=k), count, out=np.zeros(k), where=count > 0)
        squares = np.bincount(pos, weights=(values - mean[pos]) ** 2, minlength=k)
        return count, mean, squares

    def _positions(self, indices):
        """``(where in indices a chosen column is, which of columns_ it is)``."""
        pos = np.searchsorted(self.columns_, indices)
        np.minimum(pos, max(self.columns_.shape[0] - 1, 0), out=pos)
        at = np.flatnonzero(self.columns_[pos] == indices) if self.columns_.size else np.zeros(0, np.int64)
        return at, pos[at]

    def scaled(self, indices, data):
        """The stored values ``data`` of CSR rows, at column ``indices``, standardised.

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
        out[at] = self._standardised(out[at], pos)
        return out

    def _standardised(self, values, pos):
        """``values`` of the chosen columns ``pos`` (positions in ``columns_``), standardised, in their type."""
        dtype = values.dtype
        values = values.astype(np.float64)
        if self.with_mean:
            values -= self.mean_[pos]
        if self.with_std:
            values /= self.scale_[pos]
        return values.astype(dtype)

    def transform(self, X):
        """``X`` with the chosen columns' stored values standardised.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        {ndarray, sparse matrix} of shape (n_samples, n_features)
            The same sparsity pattern as ``X``.
        """
        check_is_fitted(self)
        X = validate_data(
            self,
            X,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            reset=False,
            copy=True,
            ensure_all_finite="allow-nan",
        )
        if hasattr(X, "indices"):
            X.data = self.scaled(X.indices, X.data)
        elif self.columns_.size:
            X[:, self.columns_] = self._standardised(X[:, self.columns_], np.arange(self.columns_.shape[0]))
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.allow_nan = True
        return tags

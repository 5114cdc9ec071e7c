"""Feature templates for tagging (:mod:`~perceptrons.structured.templates`), mapped to integers
once per corpus.

Strings are handled once per word *type*, never per token: each distinct word gets a row of
attribute ids (its lower case, prefixes, suffixes, shape, flags, …; a few tens of thousands of
types in a corpus of a few hundred thousand tokens).  The feature of a token under a template
is an integer value computed with numpy from the attribute ids of its neighbours' types.  The values seen in training, sorted per
template, are the feature dictionary: a value's position in that table is its column in X.
Unseen values are simply absent, which is how unknown words fall back on their suffixes, shape
and context.  At prediction time the attribute rows of training words are reused, single-part
templates map values through a lookup array and conjunctions through a compiled hash table
(:mod:`~perceptrons.structured._feature_tables`); learning the map chunk by chunk is
:mod:`~perceptrons.structured._feature_fit`.

State is a string table (attribute values such as ``"s3=ing"``, as UTF-8 bytes + offsets), the
sorted int64 values per template and the attribute table of the training words: arrays only.

References
----------
Brown et al. (1992), "Class-Based n-gram Models of Natural Language", Computational Linguistics.
Koo, Carreras & Collins (2008), "Simple Semi-supervised Dependency Parsing", ACL (cluster prefixes).
Ratnaparkhi (1996), "A Maximum Entropy Model for Part-of-Speech Tagging", EMNLP (Table 1).
Collins (2002), "Discriminative Training Methods for Hidden Markov Models", EMNLP (§3).
"""

from typing import NamedTuple

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.structured._feature_fit import IncrementalFit
from perceptrons.structured._feature_tables import CompiledTables
from perceptrons.structured.templates import parse_templates
from perceptrons.structured.words import (
    ATTRIBUTES,
    BOS,
    EOS,
    attribute_table,
    composed,
    corpus_types,
    pack_strings,
    word_attributes,
)

_A = {a: i for i, a in enumerate(ATTRIBUTES)}


def _positions(lengths):
    """Each token's position in its sentence and the sentence's length (int64 arrays)."""
    lengths = np.asarray(lengths, dtype=np.int64)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(starts.shape[0], dtype=np.int64) - starts, np.repeat(lengths, lengths)


def _start_with_w(blob, offsets, ids):
    """Whether the strings ``ids`` (≥ 0) of a table (UTF-8 ``blob`` cut by ``offsets``) all
    start with "w=": read from the bytes, 1 ms for a tagger's 20,000 words against 31 ms for as
    many ``str.startswith``.
    """
    a = offsets[ids]
    if not np.all(offsets[ids + 1] - a >= 2):
        return False
    return bool(np.all(blob[a] == ord("w")) and np.all(blob[a + 1] == ord("=")))


class _Prepared(NamedTuple):
    """What the per-token passes read: token types and positions, the types' attribute ids,
    rare flags per token and per type row, the compiled templates and one-part columns per type.
    """

    tok: np.ndarray
    table: np.ndarray
    pos: np.ndarray
    slen: np.ndarray
    rare: np.ndarray
    rare_rows: np.ndarray
    spec: np.ndarray
    hashed: np.ndarray
    type_cols: np.ndarray


class FeatureMap(IncrementalFit, CompiledTables):
    """Templates → integer features for a corpus (fit once, transform new corpora).

    Parameters
    ----------
    templates : str or sequence of str
        ``"basic"``, ``"rich"``, template strings such as ``"l[-1]|l[0]"``, or those joined by commas.
    min_count : int
        Keep only features seen at least this often in training.
    rare_count : int
        Words seen fewer times in training (and unknown words) get no feature from the templates
        that name the word itself, only from its spelling and context, so that those templates
        are trained on the rare words they must stand in for (Ratnaparkhi 1996, §3); 0: off.
    clusters : WordClusters, default=None
        Word clusters for the ``bc*`` attributes; without them those attributes are absent.
    """

    def __init__(self, templates="rich", min_count=1, rare_count=0, clusters=None):
        self.templates, self._parsed = parse_templates(templates)
        self.clusters = clusters
        self.min_count = min_count
        self.rare_count = rare_count
        # templates that name the current word itself: withheld from rare words (Ratnaparkhi §3)
        self._identity = [any(a in (_A["w"], _A["l"]) and k == 0 for a, k in parts) for parts in self._parsed]
        # the one-part templates (indices, attribute read, whether it is the bias), and the
        # distinct offsets they read with each one's slot among them: scored once per word type
        one = [t for t, parts in enumerate(self._parsed) if len(parts) < 2]
        first = [self._parsed[t][0] if self._parsed[t] else (0, 0) for t in one]
        self._one_part = (
            np.array(one, dtype=np.int64),
            np.array([a for a, _ in first], dtype=np.int64),
            np.array([not self._parsed[t] for t in one], dtype=bool),
        )
        ks = np.array(sorted({k for _, k in first}), dtype=np.int64)
        self._offsets = (ks, np.searchsorted(ks, [k for _, k in first]).astype(np.int64))

    # ------------------------------------------------------------------ attribute tables
    def _table(self, types, grow):
        """(n_types + 2, n_attributes) attribute ids; the last two rows are BOS and EOS.

        ``grow``: the words' attribute strings join the vocabulary, numbered in order of first
        appearance (a new vocabulary without clusters by :func:`attribute_table`, compiled for
        ASCII words).  Otherwise the rows of training types are copied from ``type_table_``,
        and only the words never seen in training are looked at (:meth:`_lookup`).  Features
        are made from the words' composed form (:func:`~perceptrons.structured.words.composed`).
        """
        types = composed(types)
        vocab = self.vocab_
        table = np.full((len(types) + 2, len(ATTRIBUTES)), -1, dtype=np.int64)
        if not grow:
            rows, unseen = self._lookup(types)
            hit = rows >= 0
            table[:-2][hit] = self.type_table_[rows[hit]]
            table[:-2][~hit] = unseen
            self._rows = rows
        elif len(vocab) == 2 and self.clusters is None:  # a new vocabulary: compiled
            ids, strings = attribute_table(types, len(vocab))
            table[:-2] = ids
            vocab.update(zip(strings, range(2, 2 + len(strings))))
        else:
            for r, w in enumerate(types):
                table[r] = [
                    -1 if s is None else vocab.setdefault(s, len(vocab)) for s in word_attributes(w, self.clusters)
                ]
        table[-2, :] = vocab[BOS]
        table[-1, :] = vocab[EOS]
        return table

    def _values(self, tok, lengths, table, rare=None):
        """Yield (template index, values (n_tokens,) int64, −1 where the feature is absent): the
        incremental fit's path (:func:`perceptrons._jit.feature_fit.fit_columns` is the whole
        corpus's).

        A value is an attribute id, or ``v₁·V + v₂`` for a conjunction of two parts.  Tokens
        flagged in ``rare`` get no feature from templates that name the current word.
        """
        N = tok.shape[0]
        V = self.n_values_
        pos, slen = _positions(lengths)
        n_types = table.shape[0] - 2
        rows = {}

        def neighbour(k):
            if k not in rows:
                j = pos + k
                inside = (j >= 0) & (j < slen)
                shifted = tok[np.clip(np.arange(N) + k, 0, max(N - 1, 0))]
                rows[k] = np.where(inside, shifted, n_types if k < 0 else n_types + 1)
            return rows[k]

        for t, parts in enumerate(self._parsed):
            if not parts:
                yield t, np.zeros(N, dtype=np.int64)
                continue
            a, k = parts[0]
            v = table[neighbour(k), a]
            if len(parts) == 2:
                a2, k2 = parts[1]
                v2 = table[neighbour(k2), a2]
                v = np.where((v >= 0) & (v2 >= 0), v * V + v2, -1)
            if rare is not None and self._identity[t]:
                v = np.where(rare, -1, v)
            yield t, v

    # ------------------------------------------------------------------ public
    def fit_transform(self, sentences):
        """Build the feature dictionary on ``sentences`` (lists of words); return (X, lengths).

        Strings are looked at once per word type (:meth:`_table`); counting every template's
        values, keeping those seen ``min_count`` times and each token's columns is one compiled
        pass (:func:`perceptrons._jit.feature_fit.fit_columns`).
        """
        X, lengths = self.fit_binary(sentences)
        X.data = np.ones(X.nnz)  # the caller's own matrix: values it may write to
        return X, lengths

    def fit_binary(self, sentences):
        """:meth:`fit_transform` for a reader of where the 1s are, not of their values.

        The matrix's values are one read-only 1 seen through every stored entry.  The tagger's
        training reads the columns only (``assume_binary``): an array of 1s would be 8 bytes a
        token and template written and never read (70 MB on EWT train, 12–110 ms to allocate).
        """
        return self.fit_types(*corpus_types(sentences))

    def fit_types(self, tok, types, lengths):
        """:meth:`fit_binary` from token type ids and the distinct words (see :func:`corpus_types`)."""
        from perceptrons._jit.feature_fit import fit_columns

        if tok.shape[0] == 0:
            raise PerceptronsError("no tokens to learn features from")
        self.vocab_ = {BOS: 0, EOS: 1}
        self._tables = None
        table = self._table(types, grow=True)
        self.type_table_ = table[:-2].astype(np.int32)
        self.type_counts_ = np.bincount(tok, minlength=len(types)).astype(np.int32)
        rare = self.type_counts_[tok] < self.rare_count if self.rare_count > 0 else np.zeros(0, dtype=bool)
        self.n_values_ = V = len(self.vocab_)
        if V**2 * len(self._parsed) >= 2**62:
            raise PerceptronsError(f"too many attribute values ({V}) for 64-bit feature keys")
        pos, slen = _positions(lengths)
        col = np.empty((len(self._parsed), tok.shape[0]), dtype=np.int32)
        self.keys_, self.ptr_ = fit_columns(tok, pos, slen, table, self._spec(), rare, V, self.min_count, col)
        return self._csr(col), lengths

    def transform(self, sentences):
        """(X, lengths) of new sentences with the fitted dictionary; unseen features are dropped."""
        tok, types, lengths = corpus_types(sentences)
        return self.transform_types(tok, types, lengths)

    def transform_types(self, tok, types, lengths):
        """(X, lengths) from token type ids and the distinct words (see :func:`corpus_types`)."""
        indptr, indices = self.token_columns(tok, types, lengths)
        import scipy.sparse as sp  # the training path: tagging reads the compiled tables

        return sp.csr_matrix(
            (np.ones(indices.shape[0]), indices, indptr), shape=(tok.shape[0], len(self.keys_))
        ), lengths

    def token_columns(self, tok, types, lengths):
        """The CSR structure (indptr, indices) of the tokens' binary features, without a matrix.

        Strings are looked at once per type; everything per token is one compiled pass
        (:func:`perceptrons._jit.features.token_features`), which computes the same columns as
        the numpy path of :meth:`fit_transform`.
        """
        return self._columns(self._prepare(tok, types, lengths), np.arange(len(self._parsed)))

    def _prepare(self, tok, types, lengths):
        """Attribute table of the types, token positions, rare flags and one-part columns per type."""
        table = self._table(types, grow=False)
        pos, slen = _positions(lengths)
        rare, rare_rows = np.zeros(0, dtype=np.bool_), np.zeros(0, dtype=np.bool_)
        if self.rare_count > 0:
            counts = np.where(self._rows >= 0, self.type_counts_[np.maximum(self._rows, 0)], 0)
            rare_rows = np.concatenate([counts < self.rare_count, [False, False]])
            rare = rare_rows[tok]
        spec, luts, hashed = self._compiled()
        # one lookup per type (a few thousand), not per token; the bias reads value 0
        one, attr, bias = self._one_part
        vals = table[:, attr].T
        vals[bias] = 0
        type_cols = np.full((len(self._parsed), table.shape[0]), -1, dtype=np.int32)
        type_cols[one] = luts[one[:, None], vals]
        return _Prepared(tok, table.astype(np.int32), pos, slen, rare, rare_rows, spec, hashed, type_cols)

    def _columns(self, p, which):
        from perceptrons._jit.features import token_features

        N = p.tok.shape[0]
        indptr = np.empty(N + 1, dtype=np.int64)
        indices = np.empty(N * len(self._parsed), dtype=np.int32)
        col = np.empty((which.shape[0], N), dtype=np.int32)
        nnz = token_features(
            (p.tok, p.pos, p.slen),
            p.table,
            p.type_cols,
            p.spec,
            p.rare,
            self.n_values_,
            p.hashed,
            which.astype(np.int64),
            col,
            indptr,
            indices,
        )
        return indptr, indices[:nnz]

    def _csr(self, col):
        from perceptrons._jit.features import compact_rows

        indptr = np.empty(col.shape[1] + 1, dtype=np.int64)
        indices = np.empty(col.size, dtype=np.int32)
        nnz = compact_rows(col, indptr, indices)
        indices = indices[:nnz]
        import scipy.sparse as sp

        ones = np.broadcast_to(np.float64(1), (nnz,))
        return sp.csr_matrix((ones, indices, indptr), shape=(col.shape[1], len(self.keys_)))

    def prune(self, keep):
        """Keep only the features (columns) where ``keep`` (n_features,) is true.

        Used after training to drop features whose weights stayed zero: they cannot change a
        score, and every one removed is a lookup and a memory read saved at prediction time.
        """
        keep = np.asarray(keep, dtype=bool)
        if keep.shape != self.keys_.shape:
            raise PerceptronsError(f"keep must have one entry per feature ({self.keys_.shape[0]}); got {keep.shape}")
        kept = np.concatenate([[0], np.cumsum(keep)])
        self.keys_ = self.keys_[keep]
        self.ptr_ = kept[self.ptr_].astype(np.int64)
        self._tables = None
        return self

    @property
    def n_features(self):
        """Number of features (columns of X) the map produces."""
        return len(self.keys_)

    def known(self, word):
        """Whether ``word`` was seen in training."""
        return ("w=" + word) in self.vocab_

    # ------------------------------------------------------------------ state
    def to_arrays(self):
        """The string table as UTF-8 bytes + offsets, and the sorted keys."""
        try:
            blob, offsets = pack_strings(list(self.vocab_))
        except PerceptronsError as exc:  # a training word's lone surrogate: say where it is
            raise PerceptronsError(f"cannot store the features of the training words: {exc}") from None
        return {
            "vocab_bytes": blob,
            "vocab_offsets": offsets,
            "keys": self.keys_,
            "ptr": self.ptr_,
            "type_table": self.type_table_,
            "type_counts": self.type_counts_,
        }

    @classmethod
    def from_state(cls, st, templates, min_count, n_values, rare_count=0, clusters=None):
        """From a :class:`~perceptrons.io.model_state.ModelState` over :meth:`to_arrays`' arrays.

        Checked so that every lookup the compiled passes make stays in range: attribute ids
        index the string table, each template's keys are sorted, distinct and within its value
        range (one part: V values; two parts: V²), and ``ptr`` cuts the keys into the templates.
        """
        try:
            fm = cls(templates, min_count, rare_count, clusters)
        except PerceptronsError as exc:
            st.fail("templates", str(exc))
        return fm._restore(st, n_values)

    def _restore(self, st, n_values):
        """The fitted tables of :meth:`from_state`, read and checked."""
        strings = st.strings("vocab_bytes", "vocab_offsets")
        V = len(strings)
        st.require(V == n_values and V >= 2, "n_values", f"says {n_values} attribute values, the string table has {V}")
        self.vocab_ = dict(zip(strings, range(V)))
        # UTF-8 as st.strings checked it: the bytes the compiled lookups hash (see _vocab_hash)
        self._vocab_utf8 = (
            self.vocab_,
            st.array("vocab_bytes", ("uint8",), (None,)),
            st.array("vocab_offsets", ("int64",), (None,)),
        )
        st.require(
            len(self.vocab_) == V and BOS in self.vocab_ and EOS in self.vocab_,
            "vocab_bytes",
            f"expected distinct strings including {BOS!r} and {EOS!r}",
        )
        st.require(V * V * max(len(self._parsed), 1) < 2**62, "n_values", f"too many values ({V}) for 64-bit keys")
        self.n_values_ = V
        self.type_table_ = st.array("type_table", ("int32",), (None, len(ATTRIBUTES)), lo=-1, hi=V)
        words = self.type_table_[:, 0]
        st.require(
            bool(np.all(words >= 0)) and _start_with_w(*self._vocab_utf8[1:], words),
            "type_table",
            "column 0 must name each training word's 'w=' string",
        )
        self.type_counts_ = st.array("type_counts", ("int32",), (self.type_table_.shape[0],), lo=0)
        self.keys_ = st.array("keys", ("int64",), (None,), lo=0)
        self.ptr_ = st.array(
            "ptr", ("int64",), (len(self._parsed) + 1,), lo=0, hi=self.keys_.shape[0] + 1, increasing=True
        )
        st.require(
            self.ptr_[0] == 0 and self.ptr_[-1] == self.keys_.shape[0], "ptr", "must cut all the keys into templates"
        )
        for t, parts in enumerate(self._parsed):
            seg = self.keys_[self.ptr_[t] : self.ptr_[t + 1]]
            bound = V * V if len(parts) == 2 else V
            st.require(
                seg.size == 0 or (seg[-1] < bound and bool(np.all(seg[1:] > seg[:-1]))),
                "keys",
                f"template {self.templates[t]!r}: keys must be sorted, distinct and below {bound}",
            )
        self._tables = None
        return self

"""Streaming sources: a data file, a directory or a glob of shards, read as blocks of rows.

A :class:`Source` is re-readable: every call of :meth:`Source.blocks` reads its files again
from the start, in order, yielding :class:`~perceptrons.io.blocks.Block` s whose memory is
bounded by one block.  The format is chosen per source by ``fmt`` or by the first file's
extension (a ``.gz`` suffix is looked through):

=========  =====================================  ===========================================
format     extensions                             reader
=========  =====================================  ===========================================
libsvm     ``.svm .libsvm .svmlight .txt .t``     compiled parser (:mod:`perceptrons.io.libsvm`)
           or none
vw         ``.vw``                                compiled parser, names hashed (:mod:`perceptrons.io.vw`)
csv, tsv   ``.csv .tsv``                          ``pyarrow.csv.open_csv`` (:mod:`perceptrons.io.arrow`)
parquet    ``.parquet .pq``                       ``pyarrow.parquet.ParquetFile.iter_batches``
=========  =====================================  ===========================================
"""

import contextlib
import copy
import dataclasses
import functools
import glob
import json
import os
from numbers import Integral

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import Interval, check_bool, check_param, check_path
from perceptrons.io import arrow
from perceptrons.io.encodings import check_encoding
from perceptrons.io.hashing import DEFAULT_HASH_BITS
from perceptrons.io.parquet_columns import parquet_categories, parquet_columns
from perceptrons.io.readers import guess_format
from perceptrons.io.spool import Spool
from perceptrons.io.vw import check_hash_bits

STREAM_FORMATS = ("libsvm", "vw", "csv", "tsv", "parquet")
#: the characters that make DATA a glob of shards (in its last part)
GLOB_CHARS = frozenset("*?[")


def stream_format(path):
    """The format a file's name says (``.gz`` looked through), or its first line (:func:`guess_format`)."""
    return guess_format(path)


def shard_paths(spec):
    """The files ``spec`` names, in order: one file, every visible file of a directory, a glob,
    or ``["-"]`` for standard input.

    Raises
    ------
    PerceptronsError
        When nothing matches, or a directory holds no file.
    """
    spec = os.fspath(spec)
    if spec == "-":  # standard input, which a Source copies once (a file named "-" is ./-)
        return ["-"]
    if os.path.isdir(spec):
        paths = sorted(
            os.path.join(spec, n)
            for n in os.listdir(spec)
            if not n.startswith(".") and os.path.isfile(os.path.join(spec, n))
        )
        if not paths:
            raise PerceptronsError(f"{spec}: the directory holds no data file")
        return paths
    if GLOB_CHARS & set(os.path.basename(spec)) and not os.path.exists(spec):
        paths = sorted(p for p in glob.glob(spec) if os.path.isfile(p))
        if not paths:
            raise PerceptronsError(f"{spec}: no file matches this pattern")
        return paths
    if not os.path.exists(spec):
        raise PerceptronsError(f"{spec}: no such file")
    return [spec]  # a pipe or a device too: a Source copies it once, the cluster refuses it


class Source:
    r"""Rows of one or more files of one format, read block by block and in order.

    Parameters
    ----------
    spec : str or path-like
        A file, a directory (its visible files, sorted by name), a glob pattern
        (``"data/part-*.svm"``, sorted by name), or ``"-"``: standard input, copied once to an
        unlinked temporary file (``fmt`` must then be given), as a pipe or a device is.
    fmt : {"libsvm", "vw", "csv", "tsv", "parquet"}, optional
        By default chosen from the first file's extension.
    label : str, optional
        CSV/TSV/Parquet: the label column (default: the last column).
    hash_bits : int, optional
        Width 2**hash_bits of the hashed feature space, for formats whose features are names
        (Vowpal Wabbit text; CSV/Parquet with string or ``text`` columns).  Default 18.
    text : str, optional
        CSV/TSV/Parquet: a column of raw text, tokenised and hashed as scikit-learn's
        ``HashingVectorizer`` does.
    block_bytes : int, default=4 MiB
        Text read per block (LIBSVM, VW); CSV and Parquet read batches of about this size.
    require_labels : bool, default=True
        False reads rows to predict, whose labels may be missing (see
        :func:`~perceptrons.io.readers.read_data`); training and evaluation refuse such a source.
    encoding : str, default="utf-8"
        CSV/TSV: the files' text encoding (:func:`~perceptrons.io.encodings.check_encoding`).
    keep_missing : bool, default=False
        CSV/TSV/Parquet: a missing number is NaN in dense rows and left out of hashed ones, for
        a fit whose pipeline imputes it (:mod:`perceptrons.io.block_scaling`); by default it is
        refused with its line.
    labelled : bool, default=True
        CSV/TSV/Parquet: False reads rows to predict that have no label column at all (with
        ``require_labels=False`` and no ``label``): every column is a feature and every label
        the empty string.
    drop : sequence of str, default=()
        CSV/TSV/Parquet: feature columns left out, by name, before a cell of theirs is read
        (the command line's ``--drop``); the label cannot be one.
    categories : sequence of str, optional
        CSV/TSV/Parquet: a model's columns of words (:meth:`categories` of its training source), read
        as words whatever their cells; every other feature column must then hold numbers.
        None: the first run of the first file decides, as for training, and the other files are
        read with its kinds (a shard whose codes happen to be all numbers is still read as words).

    Examples
    --------
    >>> import os, tempfile
    >>> from perceptrons.io.sources import Source
    >>> d = tempfile.mkdtemp()
    >>> for k in range(2):
    ...     with open(os.path.join(d, f"part-{k}.svm"), "w") as f:
    ...         _ = f.write(f"1 1:1 3:1\n-1 2:{k + 1}\n")
    >>> src = Source(os.path.join(d, "part-*.svm"))
    >>> [b.n_rows for b in src.blocks()], src.fmt
    ([2, 2], 'libsvm')
    """

    def __init__(
        self,
        spec,
        fmt=None,
        *,
        label=None,
        hash_bits=None,
        text=None,
        block_bytes=1 << 22,
        require_labels=True,
        encoding="utf-8",
        keep_missing=False,
        labelled=True,
        drop=(),
        categories=None,
    ):
        self.spec = check_path(spec, "spec", "Source")
        self.encoding = check_encoding(encoding, "encoding")
        keep_missing = check_bool(keep_missing, "keep_missing")
        check_param(block_bytes, "block_bytes", (Interval(Integral, 1, None),), "Source")
        self.paths = shard_paths(self.spec)
        # standard input, a pipe or a device can be read once: it is copied to a file (below)
        spooled = self.spec == "-" or not os.path.isfile(self.paths[0])
        if fmt is None and self.spec == "-":
            raise PerceptronsError(
                "-: standard input has no file extension to tell its format; give --format "
                f"(one of {', '.join(STREAM_FORMATS)})"
            )
        self.fmt = fmt or stream_format(self.paths[0])
        if self.fmt not in STREAM_FORMATS:
            where = f"{self.paths[0]}: " if fmt is None else ""
            raise PerceptronsError(f"{where}--format must be one of {list(STREAM_FORMATS)} to stream; got {self.fmt!r}")
        odd = next((p for p in self.paths if fmt is None and stream_format(p) != self.fmt), None)
        if odd is not None:  # a model written into the data directory, say
            raise PerceptronsError(
                f"{self.spec}: {odd} is {stream_format(odd)} by its name, {self.paths[0]} is {self.fmt}; "
                "expected shards of one format (give --format, or move the other file out)"
            )
        if hash_bits is not None:
            check_hash_bits(hash_bits)
        if self.fmt in ("libsvm", "vw") and (text is not None or label is not None):
            raise PerceptronsError(f"{self.spec}: --label and --text apply to CSV/TSV/Parquet, not to {self.fmt}")
        self.label = label
        # rows to predict that come without their label column: every column a feature
        self.labelled = check_bool(labelled, "labelled")
        if not self.labelled and (require_labels or label is not None or self.fmt in ("libsvm", "vw")):
            raise PerceptronsError(
                f"{self.spec}: labelled=False is for a CSV, TSV or Parquet table to predict "
                "(require_labels=False) that has no label column; it takes no label name"
            )
        self.hash_bits = hash_bits
        self.drop = _column_names(drop, "drop")
        self._categories = None if categories is None else _column_names(categories, "categories")
        self._found = None  # the categories the first file's first run shows (categories())
        if self.drop and self.fmt in ("libsvm", "vw"):
            raise PerceptronsError(
                f"{self.spec}: drop (--drop) applies to a CSV, TSV or Parquet table, not to {self.fmt}"
            )
        # a LIBSVM or VW row has no missing number: its cache is the same either way
        self.keep_missing = keep_missing and self.fmt in ("csv", "tsv", "parquet")
        self.text = text
        self.block_bytes = int(block_bytes)
        self.require_labels = bool(require_labels)
        # after every option's check, so that a bad one does not consume standard input; the
        # copy is read again to rebuild a damaged epoch cache, to find an error's line, and to
        # see the first block's columns (hashed_width)
        self._spool = None
        if spooled:
            self._spool = Spool(text=self.fmt != "parquet", path=None if self.spec == "-" else self.spec)
            self.paths = [self._spool.path]

    def unlabelled(self):
        """The rows of this source read as rows to predict that have no label column
        (``labelled=False``): a new Source over the same files, and over the same copy of
        standard input, which can be read only once.

        Returns
        -------
        Source

        Raises
        ------
        PerceptronsError
            For a source that requires labels, or of LIBSVM or VW rows (they always have one).
        """
        if self.require_labels or self.fmt in ("libsvm", "vw"):
            raise PerceptronsError(
                f"{self.spec}: unlabelled() is for a CSV, TSV or Parquet table to predict (require_labels=False)"
            )
        other = copy.copy(self)
        other.label, other.labelled, other._found = None, False, None
        for name in ("_first_block", "hashed_width"):  # found by reading, with the label
            other.__dict__.pop(name, None)
        return other

    def check_labelled(self, what):
        """Raise when this source may yield rows without a label (``require_labels=False``).

        Parameters
        ----------
        what : str
            What needs every label ("training", "evaluation"), for the message.

        Raises
        ------
        PerceptronsError
        """
        if not self.require_labels:
            raise PerceptronsError(
                f"{self.spec}: {what} needs the label of every row; this source reads unlabeled "
                "examples (require_labels=False), which only predictions can use"
            )

    @functools.cached_property
    def hashed_width(self):
        """2**hash_bits when this source hashes feature names, else None (the width is found by reading).

        A CSV or Parquet source hashes when a feature column holds text, which its first block
        tells: so that a model is as wide as the hash space, not only as the hashes its training
        rows happened to reach, and a value never seen in training still has a column.
        """
        if self.fmt == "vw" or self.text is not None:
            return 2 ** (self.hash_bits or DEFAULT_HASH_BITS)
        if self.hash_bits is not None:
            return 2**self.hash_bits
        if self.fmt == "libsvm":
            return None
        width, _, _ = self._first_block
        return width or None

    @property
    def number_columns(self):
        """The columns (hashes) of the columns of numbers of a table read as hashed rows, which
        a fit may centre; empty for any other source.  Its first block tells.
        """
        return self._first_block[2] if self.fmt in ("csv", "tsv", "parquet") else ()

    @property
    def dense_rows(self):
        """Whether this source is a table read as dense rows (CSV, TSV or Parquet with no hashed
        names): the rows an imputer can take.  Its first block tells.
        """
        if self.fmt not in ("csv", "tsv", "parquet"):
            return False
        width, sparse, _ = self._first_block
        return width is not None and not sparse

    @functools.cached_property
    def _first_block(self):
        """(width, sparse, numbers) of the first block, or (None, None, ()) with no rows: read
        once, as the block itself would hold a few MB for the source's lifetime.
        """
        with contextlib.closing(self.blocks()) as blocks:
            first = next(blocks, None)
        return (None, None, ()) if first is None else (first.width, first.sparse, first.numbers)

    def reader_options(self):
        """The keyword arguments that read another file of this source as this one reads its
        files: its format, label, hashing, encoding, missing numbers, dropped columns, and its
        columns' kinds (:meth:`categories`, the first file's), as a cluster's workers read their
        shards.

        Returns
        -------
        dict
        """
        options = {"fmt": self.fmt, "label": self.label, "hash_bits": self.hash_bits, "text": self.text}
        options |= {"encoding": self.encoding, "keep_missing": self.keep_missing, "drop": list(self.drop)}
        if self.fmt in ("csv", "tsv", "parquet"):
            options["categories"] = self.categories()
        return options

    def options(self):
        """What, besides the files, decides the rows read (part of the epoch cache's fingerprint).

        Returns
        -------
        dict
        """
        options = {"fmt": self.fmt, "label": self.label, "hash_bits": self.hash_bits, "text": self.text}
        if self.encoding != "utf-8":  # UTF-8's caches keep the fingerprint they had before encodings
            options["encoding"] = self.encoding
        if self.keep_missing:
            options["keep_missing"] = True
        if not self.labelled:
            options["labelled"] = False
        if self.drop:  # the fingerprint takes scalars: the names as one JSON text
            options["drop"] = json.dumps(list(self.drop))
        if self._categories is not None:
            options["categories"] = json.dumps(list(self._categories))
        if self._spool is not None:  # another run's standard input is other data: never the same cache
            options["stdin"] = self._spool.nonce
        return options

    def column_names(self):
        """The first file's column names as its header (CSV, TSV) or schema (Parquet) gives
        them, the label's among them; None for LIBSVM and VW rows, which have no names.

        Returns
        -------
        list of str or None
        """
        if self.fmt not in ("csv", "tsv", "parquet"):
            return None
        if self.fmt == "parquet":
            return [n for n in _parquet_names(self._first_path) if n not in self.drop]
        options = self._delimited_options()
        return arrow.delimited_names(
            self._first_path, delimiter=options["delimiter"], encoding=self.encoding, drop=self.drop
        )

    def categories(self):
        """The feature columns read as words (hashed as categories) from a CSV, TSV or Parquet
        table, as its first file's first run (:func:`~perceptrons.io.arrow.delimited_categories`)
        or schema (:func:`~perceptrons.io.parquet_columns.parquet_categories`) decides, or as
        given; None for LIBSVM and VW rows, which have no columns.

        Returns
        -------
        list of str or None
        """
        if self._categories is None and self.fmt in ("csv", "tsv", "parquet"):
            if self._found is None:  # once: the summary and the model file both ask
                self._found = tuple(self._file_categories())
            return list(self._found)
        return None if self._categories is None else list(self._categories)

    def _parquet_file(self):
        """The first file as a ``pyarrow.parquet.ParquetFile``, refused with its reason when it is none."""
        import pyarrow.parquet as pq

        try:
            return pq.ParquetFile(self._first_path)
        except (OSError, ValueError) as exc:  # pyarrow's errors derive from these
            raise PerceptronsError(f"{self._first_path}: not a Parquet file ({exc})") from None

    def _file_categories(self):
        if self.fmt == "parquet":
            return parquet_categories(self._parquet_file(), self.label, self.text, self.drop)
        options = {k: v for k, v in self._delimited_options().items() if k not in ("labelled", "categories")}
        return arrow.delimited_categories(self._first_path, **options)

    def reading_notes(self):
        """How the first file's columns that are not plain numbers or text are read, for a
        summary: ``{name: how}`` (:func:`~perceptrons.io.arrow.delimited_notes`; a Parquet
        file's by its schema's types: dates as days, booleans as 1 and 0); empty for LIBSVM and VW.

        Returns
        -------
        dict of str to str
        """
        if self.fmt == "parquet":
            from perceptrons.io.arrow_numbers import read_as

            schema = self._parquet_file().schema_arrow
            kept = [n for n in _parquet_names(self._first_path) if n not in self.drop]
            label = self.label if self.label is not None else (kept[-1] if kept else None)
            return {n: read_as(schema.field(n).type) for n in kept if n != label and read_as(schema.field(n).type)}
        if self.fmt not in ("csv", "tsv"):
            return {}
        options = {k: v for k, v in self._delimited_options().items() if k != "labelled"}
        return arrow.delimited_notes(self._first_path, **options)

    @property
    def _first_path(self):
        """The first file read: the copy of standard input or of a pipe, or the first shard."""
        return self.paths[0] if self._spool is None else self._spool.path

    def _delimited_options(self):
        """What a CSV/TSV file of this source is read with, by :func:`~perceptrons.io.arrow.delimited_blocks`."""
        return {
            "label": self.label,
            "delimiter": "\t" if self.fmt == "tsv" else ",",
            "hash_bits": self.hash_bits,
            "text": self.text,
            "block_bytes": self.block_bytes,
            "encoding": self.encoding,
            "labelled": self.labelled,
            "drop": self.drop,
            "categories": self._categories,
        }

    def blocks(self):
        """Yield the rows of every file in order, as :class:`~perceptrons.io.blocks.Block` s."""
        if self._spool is not None:
            yield from self._spooled_blocks()
            return
        for path in self.paths:
            if not os.path.isfile(path):  # a shard removed since the pattern was expanded
                raise PerceptronsError(f"{path}: no such file (a shard of {self.spec})")
            yield from self._file_blocks(path)

    def _spooled_blocks(self):
        """The blocks of the copy of standard input (or of a pipe), named as the user named the
        input (``-``, the pipe's path) in their rows and in every message.
        """
        copy = self._spool.path
        try:
            for block in self._file_blocks(copy):
                yield dataclasses.replace(block, path=self.spec)
        except PerceptronsError as exc:
            raise PerceptronsError(str(exc).replace(copy, self.spec)) from None

    def _file_blocks(self, path):
        if self.fmt == "libsvm":
            from perceptrons.io.libsvm import libsvm_blocks

            if self.hash_bits is None:
                return libsvm_blocks(path, block_bytes=self.block_bytes)
            # --hash-bits B sets the width of LIBSVM rows too: an index past 2**B is refused at its line
            return libsvm_blocks(
                path,
                block_bytes=self.block_bytes,
                n_features=2**self.hash_bits,
                width_is=f"--hash-bits {self.hash_bits}'s",
            )
        if self.fmt == "vw":
            from perceptrons.io.vw import vw_blocks

            return vw_blocks(
                path,
                hash_bits=self.hash_bits or DEFAULT_HASH_BITS,
                block_bytes=self.block_bytes,
                require_labels=self.require_labels,
            )

        # the first file's kinds hold for the others, unless a model's are given
        later = self._categories is None and path != self.paths[0] and self.fmt in ("csv", "tsv", "parquet")
        categories = self.categories() if later else self._categories
        if self.fmt == "parquet":  # its strings are UTF-8
            return arrow.parquet_blocks(
                path,
                label=self.label,
                hash_bits=self.hash_bits,
                text=self.text,
                block_bytes=self.block_bytes,
                require_labels=self.require_labels,
                keep_missing=self.keep_missing,
                labelled=self.labelled,
                drop=self.drop,
                categories=categories,
            )
        options = self._delimited_options() | {"categories": categories}
        return arrow.delimited_blocks(
            path, require_labels=self.require_labels, keep_missing=self.keep_missing, **options
        )


def _column_names(value, name):
    """``value`` as a tuple of column names; a lone string (a name, not a list of them) or a
    name that is not a string is refused.
    """
    names = None if isinstance(value, str) or not hasattr(value, "__iter__") else tuple(value)
    if names is None or not all(isinstance(v, str) for v in names):
        raise PerceptronsError(f"Source: {name} must be a list of column names (strings); got {value!r:.80}")
    return names


def _parquet_names(path):
    """The column names of a Parquet file's schema (:func:`~perceptrons.io.arrow.parquet_blocks`
    refuses the same files, naming the reason, when it reads them).
    """
    arrow.need_pyarrow()
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return parquet_columns(pq.ParquetFile(path))
    except (pa.ArrowException, OSError, UnicodeDecodeError):
        raise PerceptronsError(f"{path}: not a Parquet file") from None

r"""The epoch cache: parsed rows in a compact binary file, written once, read back block by block.

``perceptrons train DATA --stream`` parses its data in a first pass and writes the blocks here;
later epochs read this file instead of parsing text again.  The file is untrusted input (it
sits on disk between runs, can be truncated by a full disk, edited, or left from another
version), so the reader checks everything before an array reaches compiled code, and says why
it refuses a file so that the caller can print "rebuilding the cache: <reason>".

What the checks promise: every field is validated, so no file makes the process crash or read
out of bounds, and the CRC-32 of each record and of the footer catch accidents (a truncated
write, a flipped bit, a bad copy).  They do not catch tampering: a cache whose label table or
rows were edited and its CRCs recomputed is read as written, as any unkeyed checksum allows,
and a model trained from it learns what it says.  Keep epoch caches where only their owner can
write, as with the model files (:mod:`perceptrons.io.model_file`).

Format (version 1; little-endian throughout; every section padded with zero bytes to a
multiple of 8 bytes, so each array starts 8-byte aligned)::

    file     := header record* footer trailer
    header   := magic b"\x89PCACHE\n" | version u32 | reserved u32 (0)            16 bytes
    record   := n_rows i64 | nnz i64 | flags u32 | reserved u32 (0)                 24 bytes
                rows      CSR only: row lengths int32 (n_rows), or indptr int64 (n_rows + 1)
                          when flag INDPTR64; indptr starts at 0 and ends at nnz
                indices   CSR only: int32 (nnz), 0-based column numbers
                values    CSR with flag VALUES: float32 (nnz); none for binary blocks.
                          Dense: n_rows x n_features of the footer's dtype, C order
                labels    int32 (n_rows): codes, indices into the footer's label table
                weights   float64 (n_rows), with flag WEIGHTS
                crc       u32: zlib.crc32 of the record from n_rows to the end of its last
                          section (padding included) | u32 (0)
    footer   := UTF-8 JSON object, see below
    trailer  := footer length u64 | crc32 of the footer u32 | u32 (0) | b"PCACHEOK"   24 bytes

Record flags: 1 CSR, 2 VALUES, 4 INDPTR64, 8 WEIGHTS; other bits are 0.  Dense records have
flags VALUES (| WEIGHTS) and nnz 0.  A record never has 0 rows: an empty block handed to the
writer is skipped, so a cache holds exactly the rows of the source.

The footer has exactly these fields: ``format`` ("perceptrons-epoch-cache"), ``version`` (the
header's), ``fingerprint`` (of the source, :func:`fingerprint`, whose options include the
readers' rules, :data:`READ_RULES`), ``storage`` ("dense" or
"csr"), ``values`` (dense: "float32" or "float64"; CSR: a list with "float32" or "none" per
block), ``n_features``, ``n_rows``, ``nnz`` (stored entries of the CSR blocks, 0 for dense),
``labels`` (``{"kind": "number" | "str", "values": [...]}``, in first-seen order), ``weights``
(whether any block has weights), ``n_blocks``, ``offsets`` (byte offset of each record) and
``block_rows`` (row count of each record).  Records are contiguous: the first starts right after
the header, each next one where the previous ends, and the footer where the last ends.

The trailer comes last so that a truncated file (a full disk, a killed copy) lacks it and is
refused at once; the writer never leaves one anyway, since it writes to a temporary file that
is renamed into place only when complete (:mod:`perceptrons.io.atomic`).
"""

from perceptrons.io.cache._epochs import epoch_cache, source_fingerprint
from perceptrons.io.cache._fingerprint import READ_RULES, SAMPLE_BYTES, file_identity, file_stamp, fingerprint
from perceptrons.io.cache._format import _HEADER as _HEADER
from perceptrons.io.cache._format import _RECORD as _RECORD
from perceptrons.io.cache._format import _TAIL as _TAIL
from perceptrons.io.cache._format import _TRAILER as _TRAILER
from perceptrons.io.cache._format import (
    END_MAGIC,
    FORMAT,
    MAGIC,
    MAX_FOOTER_BYTES,
    MAX_FOOTER_DEPTH,
    VERSION,
)
from perceptrons.io.cache._prefetch import BlockReader
from perceptrons.io.cache._reader import Cache, CacheError, open_cache
from perceptrons.io.cache._writer import CacheWriter

__all__ = [
    "BlockReader",
    "Cache",
    "CacheError",
    "CacheWriter",
    "END_MAGIC",
    "FORMAT",
    "MAGIC",
    "MAX_FOOTER_BYTES",
    "MAX_FOOTER_DEPTH",
    "READ_RULES",
    "SAMPLE_BYTES",
    "VERSION",
    "epoch_cache",
    "file_identity",
    "file_stamp",
    "fingerprint",
    "open_cache",
    "source_fingerprint",
]

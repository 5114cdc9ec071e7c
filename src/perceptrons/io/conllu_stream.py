"""The sentences of a CoNLL-U file larger than memory, a block of bytes at a time.

:func:`~perceptrons.io.conllu.iter_conllu` reads a line at a time in Python: ~0.5 s for EWT
train, paid once per epoch by a streamed fit.  Here each block of whole sentences goes through
the compiled scan of :func:`~perceptrons.io.conllu.read_conllu`.  A block ends after an empty
line, so no sentence is cut.  On the first block the scan does not accept (a line to refuse,
or a rare form it leaves to the line reader), the rest of the file, from that block's first
line, is read by the line reader, which names the bad line.  So the sentences and the errors
are the line reader's.
"""

import io
import os
from itertools import chain

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path
from perceptrons.io.conllu import check_global_columns, sentences_of_lines, sentences_of_scan
from perceptrons.io.conllu_bytes import scan_bytes
from perceptrons.io.conllu_format import tag_column
from perceptrons.io.lines import MAX_LINE_BYTES, bounded_lines, decoded_lines

#: bytes read at a time
BLOCK_BYTES = 8 << 20
#: a block may grow to this many times BLOCK_BYTES while looking for an empty line; a file
#: without one in so many bytes is read line by line from there, in bounded memory
MAX_BLOCKS = 4
_BOM = b"\xef\xbb\xbf"


def stream_conllu(path, column="upos", keep_lines=True, block_bytes=None):
    """Yield the :class:`~perceptrons.io.conllu.Sentence` objects of
    :func:`~perceptrons.io.conllu.iter_conllu`, reading a block of bytes at a time.

    Parameters
    ----------
    path : str or path-like
        A regular file.
    column : {"upos", "xpos", "feats"}
    keep_lines : bool
    block_bytes : int, optional
        Bytes read at a time (default :data:`BLOCK_BYTES`).

    Raises
    ------
    PerceptronsError
        As :func:`~perceptrons.io.conllu.iter_conllu` does, naming the file and line.
    """
    path = check_path(path, "path", "stream_conllu")
    col = tag_column(column)
    path = os.fspath(path)
    size = block_bytes or BLOCK_BYTES
    n_sentences, lines_before = 0, 0
    with open(path, "rb") as f:
        data = b""
        while True:
            chunk = f.read(size)
            data += chunk
            if chunk:
                end = max(data.rfind(b"\n\n"), data.rfind(b"\n\r\n"))
                if end < 0 and len(data) <= MAX_BLOCKS * size:
                    continue  # no empty line yet: read on
                cut = data.index(b"\n", end + 1) + 1 if end >= 0 else 0
            else:
                cut = len(data)  # the end of the file
            block, data = data[:cut], data[cut:]
            if not lines_before and block:  # the compiled pass skips comments: a declaration is checked here
                first = block.split(b"\n", 1)[0].decode("utf-8", "replace").rstrip("\r")
                check_global_columns(path, 1, first)
            # a byte-order mark is one only on the file's first line
            scan = (
                None if not block or (lines_before and block.startswith(_BOM)) else scan_bytes(block, col, keep_lines)
            )
            if scan is None and (block or data):
                # the line reader from here on, from the block's first line to the end
                partial_line = f.readline(MAX_LINE_BYTES + 1) if data and not data.endswith(b"\n") else b""
                numbered = decoded_lines(
                    path, chain(io.BytesIO(block + data + partial_line), bounded_lines(f)), lines_before + 1
                )
                yield from sentences_of_lines(path, numbered, col, keep_lines, before=n_sentences)
                return
            if scan is not None:
                for s in sentences_of_scan(scan, keep_lines, lines_before):
                    n_sentences += 1
                    yield s
                lines_before += block.count(b"\n")
            if not chunk:
                break
    if n_sentences == 0:
        raise PerceptronsError(f"{path}: no sentences (the file is empty or holds no token lines)")

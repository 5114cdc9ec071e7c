"""The compiled CoNLL-U scan from Python: a file's or a block's bytes in, the distinct forms and
tags and the per word and per sentence arrays of :func:`perceptrons._jit.conllu_scan.scan_conllu`
out (:func:`~perceptrons.io.conllu.read_conllu`, :func:`~perceptrons.io.conllu_stream.stream_conllu`
and :func:`~perceptrons.structured.corpus.read_corpus` read through it).
"""

from dataclasses import dataclass

import numpy as np

from perceptrons._compile.aot import loop
from perceptrons.io.conllu_format import tag_column
from perceptrons.io.lines import check_not_compressed

#: slots of the tags' hash table; a file with more than half as many distinct tags falls back
TAG_SLOTS = 1 << 13


@dataclass
class Scan:
    """What :func:`scan_file` read: the distinct forms and tags (in order of first appearance)
    and per word and per sentence int64 arrays (see
    :func:`perceptrons._jit.conllu_scan.scan_conllu`); ``text`` the decoded file, or None.
    """

    forms: list
    tags: list
    word: np.ndarray
    tag: np.ndarray
    token_line: np.ndarray
    sent_first: np.ndarray
    sent_lines: np.ndarray
    sent_tok: np.ndarray
    text: str | None = None


def scan_file(path, column, keep_text=False):
    """One compiled pass over a regular file's bytes
    (:func:`perceptrons._jit.conllu_scan.scan_conllu`): a :class:`Scan`, or None when the file
    must be read line by line (it is not UTF-8, has a line that reader would refuse or check
    further, or no sentence).  ``keep_text`` also decodes the whole file into ``Scan.text``.
    """
    with open(path, "rb") as f:
        data = f.read()
    check_not_compressed(path, data[:10])
    scan = scan_bytes(data, tag_column(column), keep_text)
    return None if scan is None or scan.sent_tok.shape[0] == 0 else scan


def scan_bytes(data, col, keep_text=False):
    """:func:`scan_file` of the bytes ``data`` (a whole file, or a block of whole lines),
    tag column index ``col``: a :class:`Scan`, which may hold no sentence, or None when the
    bytes must be read line by line.
    """
    scan_conllu = loop("scan_conllu")
    raw = np.frombuffer(data, dtype=np.uint8)
    text = None
    try:
        text = data.decode("utf-8") if keep_text else _check_utf8(raw)
    except UnicodeDecodeError:
        return None
    n = data.count(b"\n") + 1  # lines, hence at most n words and n sentences
    word, tag, token_line, sent_first, sent_lines, sent_tok = np.empty((6, n), dtype=np.int64)
    # hash tables at most half full: any line may bring a new form; tags are few, and a file
    # with more than TAG_SLOTS / 2 distinct ones is read line by line
    spans = [
        (np.full(capacity, -1, dtype=np.int64), np.empty(n, np.int64), np.empty(n, np.int64))
        for capacity in (1 << (2 * n).bit_length(), TAG_SLOTS)
    ]
    n_words, n_sent, n_forms, n_tags = scan_conllu(
        raw, col, word, tag, token_line, sent_first, sent_lines, sent_tok, *spans
    )
    if n_words < 0:  # the scan's FALLBACK
        return None
    forms, tags = (
        [data[a:b].decode("utf-8") for a, b in zip(starts[:m].tolist(), ends[:m].tolist())]
        for (_, starts, ends), m in zip(spans, (n_forms, n_tags))
    )
    return Scan(
        forms,
        tags,
        word[:n_words],
        tag[:n_words],
        token_line[:n_words],
        sent_first[:n_sent],
        sent_lines[:n_sent],
        sent_tok[:n_sent],
        text,
    )


def _check_utf8(raw):
    """Raise ``UnicodeDecodeError`` unless the bytes ``raw`` are UTF-8, as ``bytes.decode`` would,
    without decoding the whole file.

    A character of more than one byte is made of bytes ≥ 0x80 only, so the bytes are UTF-8
    exactly when each run of such bytes between two ASCII ones is.  The runs are decoded
    together, each after a newline: EWT train (14 MB, 1,399 such bytes) in ~5 ms against ~35 ms.
    """
    high = np.flatnonzero(raw >= 0x80)
    if high.shape[0] == 0:
        return None
    run_start = np.ones(high.shape[0], dtype=bool)
    run_start[1:] = high[1:] != high[:-1] + 1
    joined = np.full(high.shape[0] + int(run_start.sum()), 10, dtype=np.uint8)
    joined[np.arange(high.shape[0]) + np.cumsum(run_start)] = raw[high]
    joined.tobytes().decode("utf-8")
    return None

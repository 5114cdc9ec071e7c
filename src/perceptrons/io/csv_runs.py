"""A streamed CSV file as runs of whole records, and the file line of each record.

The streamed reader parses a CSV file a run of about ``block_bytes`` at a time.  A quoted cell
may hold line breaks (free text, addresses: RFC 4180, section 2.6), so a run cut at the last
line end of a buffer may end inside a record: pyarrow then refused the run ("CSV parser got out
of sync with chunker"), where the in-memory reader reads the file.  A run here ends at the last
line end outside quotes.  Inside a quoted cell a quote is doubled (RFC 4180, section 2.7), so a
line end is outside quotes exactly when an even number of quotes comes before it in the run.

A record is then not always one line, and pyarrow skips blank lines: row ``i`` of a run is on
line ``first + i`` only while neither occurs.  :class:`RunLines` gives each row its own line,
which every error of the streamed reader names, as the in-memory reader names it.  The lines
the in-memory reader skips are skipped here too: one of white space alone, and in training a
row of empty cells.
"""

import re

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.chunks import line_chunks
from perceptrons.io.lines import MAX_LINE_BYTES

_QUOTE, _NEWLINE, _CR = ord('"'), ord("\n"), ord("\r")


def record_runs(path, block_bytes):
    """Yield ``(run, line)``: the file's runs of whole records, as bytes, and the file line each
    starts on.  A bare carriage return is refused with its line, as the in-memory reader
    refuses it (pyarrow would read it as a line end).  A record that goes on for four runs
    ends the wait for its closing quote: the quote was most likely a character of an unquoted
    cell (``12" wide``), which pyarrow and the in-memory reader take as it is, so the run is cut
    at its last line end and the next one counts quotes afresh.
    """
    block_bytes = max(int(block_bytes), 1 << 16)
    longest = min(4 * block_bytes, MAX_LINE_BYTES)
    carry, line = b"", 1
    for buf, n, _ in line_chunks(path, block_bytes):
        data = buf[:n].tobytes()
        bare = data.count(b"\r") != data.count(b"\r\n")
        if bare:
            at = line + carry.count(b"\n") + data.count(b"\n", 0, _BARE_CR.search(data).start())
            raise PerceptronsError(
                f"{path}, line {at}: a bare carriage return ends a line (classic Mac line breaks); expected \\n or \\r\\n"
            )
        data = carry + data if carry else data
        cut = record_end(data)
        if cut == 0 and len(data) <= longest:
            carry = data  # one record goes on past this buffer: read on
            continue
        cut = cut or len(data)
        yield data[:cut], line
        line += data.count(b"\n", 0, cut)
        carry = data[cut:]
    if carry:
        yield carry, line


#: a carriage return that does not start a CRLF
_BARE_CR = re.compile(rb"\r(?!\n)")


def record_end(data):
    """The length of ``data``'s longest prefix of whole records: up to its last line end outside
    quotes (``len(data)`` when it ends outside them without a line end, at the end of the file
    only), 0 when no line end is outside quotes.
    """
    if b'"' not in data:
        return len(data)
    a = np.frombuffer(data, np.uint8)
    # the parity of the quotes before each byte; uint8 wraps around but keeps the parity
    outside = (np.cumsum(a == _QUOTE, dtype=np.uint8) & 1) == 0
    if outside[-1] and a[-1] != _NEWLINE:
        return len(data)
    ends = np.flatnonzero((a == _NEWLINE) & outside)
    return int(ends[-1]) + 1 if ends.size else 0


def without_white_lines(run, delimiter):
    """``run`` with each line of white space alone, outside quotes, made empty: the in-memory
    reader skips such a line, as it skips a blank one, where pyarrow reads it as a row of one
    field and refused it.  A line of separators (``,,``) is a row of empty cells, and stays.
    """
    white = _WHITE[delimiter == "\t"]
    # the run's first line, then each after a line end (a literal start: 8x faster than a multiline ^)
    first = white.match(b"\n" + run[:MAX_WHITE])
    found = [(0, first.end() - 1)] if first else []
    found += [(m.start() + 1, m.end()) for m in white.finditer(run)]
    if not found:
        return run
    a = np.frombuffer(run, np.uint8)
    quotes = np.cumsum(a == _QUOTE, dtype=np.uint8) & 1
    out, at = [], 0
    for start, stop in found:
        if quotes[start]:  # within a quoted cell: its text
            continue
        out.append(run[at:start])
        at = stop
    out.append(run[at:])
    return b"".join(out)


#: lines of white space alone (Python's str.strip() white space but the line ends), for a
#: comma (or semicolon, bar) separator and for a tab, which separates cells in a TSV file
#: the longest first line of white space made empty (a run is longer only in a file of nothing else)
MAX_WHITE = 1 << 16
_WHITE = (re.compile(rb"\n[ \t\x0b\x0c]+(?=\r?(?:\n|\Z))"), re.compile(rb"\n[ \x0b\x0c]+(?=\r?(?:\n|\Z))"))


def without_empty_rows(batch, places, col):
    """A CSV batch to train on without its rows of empty cells (a spreadsheet's formatted but
    empty rows), which the in-memory reader skips in training; they have no label.
    """
    import pyarrow.compute as pc
    import pyarrow.types as pt

    def empty(column):
        if not (pt.is_string(column.type) or pt.is_large_string(column.type)):
            return column.is_null()
        return pc.or_kleene(column.is_null(), pc.equal(pc.utf8_trim_whitespace(column), ""))

    if not pc.any(empty(batch.column(col))).as_py():
        return batch, places
    blank = np.asarray(empty(batch.column(col)))
    for column in batch.columns:
        blank &= np.asarray(empty(column))
    if not blank.any():
        return batch, places
    return batch.filter(~blank), places.kept(~blank)


class RunLines:
    """The file lines of the rows of a run (``places[i]`` is ``"line N"`` of row ``i``, as the
    in-memory reader's cell readers take them).

    Parameters
    ----------
    run : bytes
        The run, whole records (:func:`record_runs`).
    line : int
        The file line the run starts on.
    rows : int
        The rows pyarrow read from it.
    header : bool
        The run starts with the header (a record, not a row).
    """

    def __init__(self, run, line, rows, header=False):
        self.first = line + int(header)
        self.starts = None
        if run.count(b"\n") + (not run.endswith(b"\n")) != rows + int(header):  # a blank line or a quoted line end
            self.starts = _record_lines(run, line, header)
            if self.starts.shape[0] != rows:  # a quote pyarrow does not read as quoting: lines as counted
                self.starts = None

    def line(self, i):
        """The file line row ``i`` starts on."""
        return self.first + i if self.starts is None else int(self.starts[i])

    def __getitem__(self, i):
        return f"line {self.line(i)}"

    def kept(self, keep):
        """These lines of the rows ``keep`` (a mask) only."""
        rest = RunLines.__new__(RunLines)
        rest.first = self.first
        lines = self.first + np.arange(len(keep)) if self.starts is None else self.starts
        rest.starts = lines[keep]
        return rest

    def after(self, done):
        """These lines from row ``done`` on (a batch's rows)."""
        rest = RunLines.__new__(RunLines)
        rest.first = self.first + done
        rest.starts = None if self.starts is None else self.starts[done:]
        return rest


def _record_lines(run, line, header):
    """The file line of every non-blank record of ``run`` but the header."""
    a = np.frombuffer(run, np.uint8)
    newlines = np.flatnonzero(a == _NEWLINE)
    outside = (np.cumsum(a == _QUOTE, dtype=np.uint8) & 1) == 0
    ends = newlines[outside[newlines]]
    starts = np.concatenate(([0], ends + 1))
    starts = starts[starts < a.shape[0]]
    stops = np.append(ends, a.shape[0])[: starts.shape[0]]
    # a blank line (\n or \r\n alone) is no record to pyarrow
    length = stops - starts
    blank = (length == 0) | ((length == 1) & (a[np.minimum(starts, a.shape[0] - 1)] == _CR))
    lines = line + np.searchsorted(newlines, starts)
    lines = lines[~blank]
    return lines[1:] if header else lines


class RowNumbers:
    """The places of a batch of rows of a file without lines (Parquet): ``"row N"``, from 1."""

    def __init__(self, done):
        self.first = done + 1

    def line(self, i):
        """The row number of row ``i``, from 1 (Blocks name their first row so)."""
        return self.first + i

    def __getitem__(self, i):
        return f"row {self.first + i}"

    def after(self, done):
        """These numbers from row ``done`` on."""
        return RowNumbers(self.first - 1 + done)

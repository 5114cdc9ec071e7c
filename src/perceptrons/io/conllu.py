"""CoNLL-U: stream sentences (words and one tag column) and write predicted tags back.

A small streaming reader of our own rather than the ``conllu`` package: that package turns every
token into a dict and parses FEATS, MISC and DEPS we never use, and its errors do not carry the
file name and line number that our messages promise.  Here a sentence costs one ``split`` per
token line and nothing else.

Format (https://universaldependencies.org/format.html): one token per line, 10 tab-separated
columns, sentences separated by blank lines, comments starting with ``#``.  Multi-word token
lines (ID ``3-4``) and empty nodes (ID ``5.1``) are kept for writing but are not tagged.
"""

import io
import os
import re
from dataclasses import dataclass, field

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import check_path
from perceptrons.io.atomic import atomic_write_bytes
from perceptrons.io.conllu_bytes import scan_file
from perceptrons.io.conllu_format import NAMES, UNDERSCORE_IS_A_VALUE, tag_column
from perceptrons.io.lines import utf8_lines

#: extensions read as CoNLL-U (any case).  CoNLL-X ``.conll`` files (the CoNLL 2006/2007 shared
#: tasks) have the same ten tab-separated columns, with CPOSTAG and POSTAG where CoNLL-U has
#: UPOS and XPOS, so they read the same way; a ``.conll`` file in another layout (CoNLL-2003
#: NER: four space-separated columns) is refused line by line instead of being tagged as text.
EXTENSIONS = (".conllu", ".conll")
_WORD_ID = re.compile(r"^[0-9]+$")
_RANGE_ID = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")
_EMPTY_ID = re.compile(r"^(0|[1-9][0-9]*)\.[1-9][0-9]*$")
#: control characters, the tab excepted (it separates the columns): the ones that break lines for
#: other readers (CR, VT, FF, NEL, U+2028/9 for Python's universal newlines) and the rest of C0
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f\x85\u2028\u2029]")


def guess_format(path):
    """``"conllu"`` or ``"text"`` for a file to tag: by extension (``.conllu``, ``.conll``, any
    case), else by content — a first data line of ten tab-separated columns whose first is a
    token ID (a word's, a multiword token's range such as ``1-2``, an empty node's such as
    ``8.1``) is CoNLL-U whatever the file is called (tagging it as text would tag the columns).
    Spanish, French or German treebanks often open a sentence with a multiword token.
    """
    if os.path.splitext(os.fspath(path))[1].lower() in EXTENSIONS:
        return "conllu"
    if not os.path.isfile(path):
        return "text"  # a pipe or a device is read once, by the reader: no sniffing
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return "text"  # the reader will say why
    for raw in head.splitlines()[:200]:
        line = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.rstrip("\r").split("\t")
        is_id = any(pattern.match(parts[0]) for pattern in (_WORD_ID, _RANGE_ID, _EMPTY_ID))
        return "conllu" if len(parts) == 10 and is_id else "text"
    return "text"


@dataclass
class Sentence:
    """One sentence: its words, the chosen tag column, and the raw lines to write it back.

    ``token_lines[i]`` is the index in ``lines`` of the line of ``words[i]`` (its line number in
    the file is ``first_line + token_lines[i]``); ``lines`` is empty when read with
    ``keep_lines=False``.
    """

    words: list
    tags: list
    lines: list = field(default_factory=list)
    token_lines: list = field(default_factory=list)
    first_line: int = 0


#: the columns of CoNLL-U, as a CoNLL-U Plus file's first line declares them
CONLLU_COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC"


def check_global_columns(path, lineno, line):
    """Refuse a CoNLL-U Plus declaration of other columns (``# global.columns = ID FORM UPOS ...``):
    the readers take the ten CoNLL-U columns by position, and would read one as another.
    """
    name, _, value = line.lstrip("\ufeff").partition("=")
    if name.strip() == "# global.columns" and value.split() != CONLLU_COLUMNS.split():
        raise PerceptronsError(
            f"{path}:{lineno}: global.columns declares {value.strip()[:120]!r}; expected the ten CoNLL-U "
            f"columns in their order ({CONLLU_COLUMNS})"
        )


def iter_conllu(path, column="upos", keep_lines=True):
    """Yield :class:`Sentence` objects from a ``.conllu`` file, one at a time.

    Parameters
    ----------
    path : str or path-like
    column : {"upos", "xpos", "feats"}
        Which tag column goes into ``Sentence.tags`` (``"_"`` where the file has none).
    keep_lines : bool
        Keep the raw lines, needed to write the sentences back (:func:`format_conllu`); training
        does not need them and reads the file in about half the memory without.

    Raises
    ------
    PerceptronsError
        A line that is not UTF-8 or whose column count is not 10 (the message names the file
        and line), or a file with no sentence at all.
    """
    path = check_path(path, "path", "iter_conllu")
    yield from sentences_of_lines(path, utf8_lines(path), tag_column(column), keep_lines)


def sentences_of_lines(path, numbered, col, keep_lines, before=0):
    """The line reader behind :func:`iter_conllu`: :class:`Sentence` objects of the
    ``(line number, line)`` pairs ``numbered`` of the file ``path``, tag column index ``col``.

    ``before`` sentences of the file were read already (by another reader): the file has no
    sentence only when neither they nor these lines give one.
    """
    n_sentences = 0
    words, tags, lines, token_lines, first, started = [], [], [], [], 0, False
    expect = 1  # the next word's ID
    for lineno, line in numbered:
        if not line.strip():
            if words:
                n_sentences += 1
                yield Sentence(words, tags, lines, token_lines, first)
            words, tags, lines, token_lines, started, expect = [], [], [], [], False, 1
            continue
        if not started:
            first, started = lineno, True
        if keep_lines:
            lines.append(line)
        if line.startswith("#"):
            if "\r" in line.rstrip("\r\n"):  # the whole file would read as one comment: "no sentences"
                raise _bare_cr(path, lineno)
            check_global_columns(path, lineno, line)
            continue
        parts = line.split("\t")
        if len(parts) != 10:
            if "\r" in line.rstrip("\r\n"):  # tokens run together (a CR inside a field is told by the field check)
                raise _bare_cr(path, lineno)
            if line.startswith("\ufeff"):  # invisible: a file joined to another by cat keeps its own
                raise PerceptronsError(
                    f"{path}:{lineno}: a byte-order mark (U+FEFF) starts the line, as at the start of a file "
                    "(files joined by cat?); expected it at the start of the file only: remove it"
                )
            spaced = len(parts) < 10 and len(line.split()) >= 10  # columns separated by spaces
            hint = "; the columns are separated by spaces, expected tabs" if spaced else ""
            raise PerceptronsError(f"{path}:{lineno}: expected 10 tab-separated columns, found {len(parts)}{hint}")
        tid, tag = parts[0], parts[col]
        # the common case costs a few substring tests; anything unusual gets the full check.  An
        # empty column is two tabs in a row, or a tab at either end (whitespace there is caught)
        if (
            tid != (_IDS[expect] if expect < len(_IDS) else str(expect))
            or "\t\t" in line
            or "\t " in line
            or " \t" in line
            or line[0].isspace()
            or line[-1].isspace()
            or " " in tag
            or not tag.isprintable()
            or _CONTROL.search(line)
        ):
            if not _check_token(path, lineno, parts, col, expect):
                continue
        expect += 1
        token_lines.append(lineno - first)
        words.append(parts[1])
        tags.append(parts[col])
    if words:
        n_sentences += 1
        yield Sentence(words, tags, lines, token_lines, first)
    if n_sentences + before == 0:
        raise PerceptronsError(f"{path}: no sentences (the file is empty or holds no token lines)")


#: the word IDs 0, 1, 2, … as text: one list lookup a token instead of formatting an int
_IDS = [str(i) for i in range(1024)]


def _check_token(path, lineno, parts, col, expect):
    """Check a token line in full: True for a word, False for a multi-word token or an empty
    node (kept for writing, not tagged); a PerceptronsError names the line otherwise.

    Every column holds something ('_' when there is no value) without spaces around it (FORM
    excepted), the tag holds no space, and word IDs count 1, 2, 3, … within a sentence.
    """
    for i, value in enumerate(parts):
        control = _CONTROL.search(value)
        if control:
            raise PerceptronsError(
                f"{path}:{lineno}: column {i + 1} ({NAMES[i]}) holds the control character "
                f"U+{ord(control[0]):04X}; a CoNLL-U field holds none (other readers would break the line there)"
            )
        if not value or (value != value.strip() and i != 1):
            what = (
                "is empty; CoNLL-U writes '_' for no value"
                if not value.strip()
                else f"has white space around {value.strip()[:40]!r}; expected {value.strip()[:40]!r} alone"
            )
            raise PerceptronsError(f"{path}:{lineno}: column {i + 1} ({NAMES[i]}) {what}")
    tid, tag = parts[0], parts[col]
    span = _RANGE_ID.match(tid)
    if span and int(span.group(1)) >= int(span.group(2)):
        raise PerceptronsError(
            f"{path}:{lineno}: multi-word token range {tid[:40]!r} does not go from a lower ID to a higher one"
        )
    if span or _EMPTY_ID.match(tid):
        return False
    if not _WORD_ID.match(tid):
        raise PerceptronsError(
            f"{path}:{lineno}: token ID {tid[:40]!r} is not an integer, a range like 3-4 or an empty node like 5.1"
        )
    if int(tid) != expect or tid[0] == "0":
        raise PerceptronsError(
            f"{path}:{lineno}: token ID {tid} where {expect} was expected; IDs count 1, 2, 3, … "
            "in each sentence (a blank line ends a sentence)"
        )
    if " " in tag or not tag.isprintable():
        raise PerceptronsError(
            f"{path}:{lineno}: the {NAMES[col]} tag {tag[:40]!r} contains a space or a control character"
        )
    return True


def read_conllu(path, column="upos", require_tags=False, keep_lines=True):
    """All sentences of a file as a list; ``require_tags`` refuses a tag column that is all ``_``.

    A regular file is first read whole by one compiled pass (:func:`_read_scanned`); a file that
    pass does not accept, and a pipe, are read line by line (:func:`iter_conllu`), which names
    the bad line.  Both give the same sentences.
    """
    path = check_path(path, "path", "read_conllu")
    sentences = _read_scanned(path, column, keep_lines) if os.path.isfile(path) else None
    if sentences is None:
        sentences = list(iter_conllu(path, column, keep_lines))
    if require_tags:
        check_tags(sentences, path, column)
    return sentences


def _read_scanned(path, column, keep_lines):
    """The sentences of :func:`iter_conllu`, from one compiled pass over the file's bytes
    (:func:`~perceptrons.io.conllu_bytes.scan_file`); None when the file must be read line by line.

    Words and tags become Python strings once per distinct one, not once per token: EWT train
    (204,577 tokens) took 0.44–0.50 s line by line, 0.15–0.26 s here, 0.05 s of it compiled.
    """
    with open(path, "rb") as f:  # the compiled pass skips comments: a declaration is checked here
        first = f.readline(1 << 16).decode("utf-8", "replace")
    if first.lstrip("\ufeff").startswith("#"):
        check_global_columns(path, 1, first.rstrip("\r\n"))
    scan = scan_file(path, column, keep_text=keep_lines)
    return None if scan is None else list(sentences_of_scan(scan, keep_lines))


def sentences_of_scan(scan, keep_lines, lines_before=0):
    """Yield the :class:`Sentence` objects of a :class:`~perceptrons.io.conllu_bytes.Scan`
    (``keep_lines``: of a scan that kept the text), of a block of a file after ``lines_before``
    lines; each is made when asked for, so a reader of a stream holds only the sentences it
    keeps.
    """
    words = list(map(scan.forms.__getitem__, scan.word.tolist()))
    tagged = list(map(scan.tags.__getitem__, scan.tag.tolist()))
    token_lines = scan.token_line.tolist()
    lines = []
    if keep_lines:
        text = scan.text
        lines = text[1:].split("\n") if text.startswith("\ufeff") else text.split("\n")
        if "\r" in text:
            lines = [line.rstrip("\r") for line in lines]
    bounds = [*scan.sent_tok.tolist(), len(words)]
    for lo, hi, first, count in zip(bounds[:-1], bounds[1:], scan.sent_first.tolist(), scan.sent_lines.tolist()):
        yield Sentence(
            words[lo:hi],
            tagged[lo:hi],
            lines[first - 1 : first - 1 + count] if keep_lines else [],
            token_lines[lo:hi],
            lines_before + first,
        )


def check_tags(sentences, path, column):
    """Raise when the tag column is empty (``_`` on every token) or partly missing."""
    if not any("_" in s.tags for s in sentences):  # the common case: one C-level scan a sentence
        return
    n = sum(len(s.tags) for s in sentences)
    missing = [(s, i) for s in sentences for i, t in enumerate(s.tags) if t == "_"]
    if len(missing) == n:
        raise PerceptronsError(
            f"{path}: the {column} column is empty ('_' on every token); choose another with --column"
        )
    if missing and column not in UNDERSCORE_IS_A_VALUE:
        s, i = missing[0]
        raise PerceptronsError(
            f"{path}:{s.first_line + s.token_lines[i]}: the {column} column is '_' on {len(missing)} of {n} tokens"
        )


def format_conllu(sentences, predicted, column="upos", conf=None):
    """CoNLL-U text of ``sentences`` with the tag column replaced by ``predicted`` (lists of tags).

    With ``conf`` (lists of probabilities, as ``predicted``) each token's MISC column also gets
    ``UPOSConf=0.9731`` (``XPOSConf`` for the xpos column), in place of an earlier one.
    """
    col = tag_column(column)
    key = f"{column.upper()}Conf="
    out = io.StringIO()
    for i, (sent, tags) in enumerate(zip(sentences, predicted)):
        if sent.words and not sent.lines:
            raise PerceptronsError("these sentences were read with keep_lines=False and cannot be written back")
        lines = list(sent.lines)
        probs = None if conf is None else conf[i]
        cuts = 9 if probs is not None else col + 1  # the columns after are left whole
        for j, (li, tag) in enumerate(zip(sent.token_lines, tags)):
            parts = lines[li].split("\t", cuts)
            parts[col] = tag
            if probs is not None:
                parts[9] = _with_misc(parts[9], key, f"{probs[j]:.4f}")
            lines[li] = "\t".join(parts)
        out.write("\n".join(lines))
        out.write("\n\n")
    return out.getvalue()


def retagged_text(text, sentences, predicted, column="upos", conf=None):
    """``text``, the whole text of the CoNLL-U file ``sentences`` were read from, with each word's
    tag column replaced by ``predicted`` (and with ``conf`` its MISC's probability, as
    :func:`format_conllu` writes them): every other byte stays as it was, so that a file tagged
    differs from its input in the tag column alone.  Comment blocks outside sentences (``#
    newdoc`` on its own), a comment after the last sentence, runs of blank lines, a byte-order
    mark, CRLF line ends and a missing last newline are kept (:func:`format_conllu`, which
    writes sentences, drops or normalises them).
    """
    col = tag_column(column)
    key = f"{column.upper()}Conf="
    lines = text.split("\n")  # as the readers number lines: by \n only
    for i, (sent, tags) in enumerate(zip(sentences, predicted)):
        probs = None if conf is None else conf[i]
        cuts = 9 if probs is not None else col + 1  # the columns after are left whole
        for j, (li, tag) in enumerate(zip(sent.token_lines, tags)):
            k = sent.first_line - 1 + li
            line = lines[k]
            cr = line.endswith("\r")
            parts = (line[:-1] if cr else line).split("\t", cuts)
            parts[col] = tag
            if probs is not None:
                parts[9] = _with_misc(parts[9], key, f"{probs[j]:.4f}")
            lines[k] = "\t".join(parts) + ("\r" if cr else "")
    return "\n".join(lines)


def _with_misc(misc, key, value):
    """The MISC field ``misc`` with the entry ``key`` (ending in ``=``) set to ``value``."""
    entries = [] if misc == "_" else [e for e in misc.split("|") if not e.startswith(key)]
    entries.append(key + value)
    return "|".join(entries)


def _bare_cr(path, lineno):
    return PerceptronsError(
        f"{path}:{lineno}: a bare carriage return ends a line (classic Mac line breaks); expected \\n or \\r\\n line ends"
    )


def write_conllu(path, sentences, predicted, column="upos", conf=None):
    """Write :func:`format_conllu` atomically to ``path``."""
    path = check_path(path, "path", "write_conllu")
    atomic_write_bytes(path, format_conllu(sentences, predicted, column, conf).encode("utf-8"))

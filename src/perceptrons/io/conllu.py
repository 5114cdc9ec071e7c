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
from dataclasses import dataclass, field

from perceptrons._validation import PerceptronsError
from perceptrons.io.lines import utf8_lines

COLUMNS = {"upos": 3, "xpos": 4}


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


def _column(column):
    if column not in COLUMNS:
        raise PerceptronsError(f"unknown tag column {column!r}; expected one of {sorted(COLUMNS)}")
    return COLUMNS[column]


def iter_conllu(path, column="upos", keep_lines=True):
    """Yield :class:`Sentence` objects from a ``.conllu`` file, one at a time.

    Parameters
    ----------
    path : str or path-like
    column : {"upos", "xpos"}
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
    col = _column(column)
    path = os.fspath(path)
    n_sentences = 0
    words, tags, lines, token_lines, first, started = [], [], [], [], 0, False
    for lineno, line in utf8_lines(path):
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]
        if not line.strip():
            if words:
                n_sentences += 1
                yield Sentence(words, tags, lines, token_lines, first)
            words, tags, lines, token_lines, started = [], [], [], [], False
            continue
        if not started:
            first, started = lineno, True
        if keep_lines:
            lines.append(line)
        if line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 10:
            raise PerceptronsError(f"{path}:{lineno}: expected 10 tab-separated columns, found {len(parts)}")
        tid = parts[0]
        if "-" in tid or "." in tid:
            continue
        if not tid.isdigit():
            raise PerceptronsError(f"{path}:{lineno}: token ID {tid!r} is not an integer, a range like 3-4 or an empty node like 5.1")
        token_lines.append(lineno - first)
        words.append(parts[1])
        tags.append(parts[col])
    if words:
        n_sentences += 1
        yield Sentence(words, tags, lines, token_lines, first)
    if n_sentences == 0:
        raise PerceptronsError(f"{path}: no sentences (the file is empty or holds no token lines)")


def read_conllu(path, column="upos", require_tags=False, keep_lines=True):
    """All sentences of a file as a list; ``require_tags`` refuses a tag column that is all ``_``."""
    sentences = list(iter_conllu(path, column, keep_lines))
    if require_tags:
        check_tags(sentences, path, column)
    return sentences


def check_tags(sentences, path, column):
    """Raise when the tag column is empty (``_`` on every token) or partly missing."""
    n = sum(len(s.tags) for s in sentences)
    missing = [(s, i) for s in sentences for i, t in enumerate(s.tags) if t == "_"]
    if len(missing) == n:
        raise PerceptronsError(f"{path}: the {column} column is empty ('_' on every token); choose another with --column")
    if missing:
        s, i = missing[0]
        raise PerceptronsError(
            f"{path}:{s.first_line + s.token_lines[i]}: the {column} column is '_' on {len(missing)} of {n} tokens"
        )


def format_conllu(sentences, predicted, column="upos"):
    """CoNLL-U text of ``sentences`` with the tag column replaced by ``predicted`` (lists of tags)."""
    col = _column(column)
    out = io.StringIO()
    for sent, tags in zip(sentences, predicted):
        if sent.words and not sent.lines:
            raise PerceptronsError("these sentences were read with keep_lines=False and cannot be written back")
        lines = list(sent.lines)
        for li, tag in zip(sent.token_lines, tags):
            parts = lines[li].split("\t")
            parts[col] = tag
            lines[li] = "\t".join(parts)
        out.write("\n".join(lines))
        out.write("\n\n")
    return out.getvalue()


def write_conllu(path, sentences, predicted, column="upos"):
    """Write :func:`format_conllu` atomically to ``path``."""
    from perceptrons.io.model_file import atomic_write_bytes

    atomic_write_bytes(path, format_conllu(sentences, predicted, column).encode("utf-8"))

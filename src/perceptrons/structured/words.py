"""Words as strings: the attribute strings of a word type, corpora as type ids, string tables.

Everything here runs once per distinct word (a few tens of thousands in a corpus of a few
hundred thousand tokens), never once per token; :mod:`perceptrons.structured.features` turns the
attribute strings into integer features.
"""

import re
from functools import lru_cache
from itertools import chain
from unicodedata import category, normalize

import numpy as np

from perceptrons._core.errors import PerceptronsError, PerceptronsTypeError
from perceptrons._core.readonly import read_only

#: the boundary words before the first token and after the last, as feature templates see them
BOS, EOS = "<s>", "</s>"

ATTRIBUTES = (
    "w",
    "l",
    "p1",
    "p2",
    "p3",
    "p4",
    "s1",
    "s2",
    "s3",
    "s4",
    "sh",
    "ss",
    "d",
    "h",
    "c",
    "u",
    "bc",
    "bc4",
    "bc6",
    "bc10",
    "bcl",
)
#: attributes that come from word clusters (absent without them)
CLUSTER_ATTRIBUTES = ("bc", "bc4", "bc6", "bc10", "bcl")
_SHAPE = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "X" * 26 + "x" * 26 + "d" * 10,
)
#: a character's shape by its Unicode category: upper and title case "X", every other letter
#: (lower case, modifier, and the letters of scripts without case) "x", a decimal digit of any
#: script "d", a combining mark nothing (it belongs to the letter before it); the rest itself
_SHAPE_OF = {"Lu": "X", "Lt": "X", "Ll": "x", "Lm": "x", "Lo": "x", "Nd": "d", "Mn": "", "Mc": "", "Me": ""}
_RUNS = re.compile(r"(.)\1+")


def word_shape(word):
    """The shape of a word, in any script: "Müller" → "Xxxxxx", "Москва-2" → "Xxxxxx-d".

    Parameters
    ----------
    word : str

    Returns
    -------
    str
        Its characters mapped by Unicode category: an upper- or title-case letter to "X",
        another letter to "x", a decimal digit to "d"; combining marks dropped; the rest as
        they are.  Never longer in UTF-8 than the word.
    """
    if word.isascii():  # most words: one C call
        return word.translate(_SHAPE)
    return "".join(_SHAPE_OF.get(category(c), c) for c in word)


def composed(words):
    """``words`` in Unicode's composed form (NFC), from which a word's features are made: "é"
    typed as e and a combining accent (NFD, as macOS file names and some input methods write
    it) is then the word of the precomposed "é".  Without this, a model trained on one form
    read the other as unknown words (0.95 → 0.54 on EWT test in decomposed letters, and a
    combining mark took one of an affix's characters).  A list of ASCII words is returned as is.

    Parameters
    ----------
    words : list of str

    Returns
    -------
    list of str
    """
    if all(map(str.isascii, words)):
        return words
    return [w if w.isascii() else normalize("NFC", w) for w in words]


def word_attributes(word, clusters=None):
    """The attribute strings of one word type, aligned with ``ATTRIBUTES`` (None: absent).

    ``clusters`` (:class:`~perceptrons.structured.clusters.WordClusters`) adds the cluster path
    of the word and its prefixes, and the path of its lower case.
    """
    low = word.lower()
    n = len(low)
    shape = word_shape(word)
    # written out rather than looped: this runs once per unknown word type at prediction time
    return (
        "w=" + word,
        "l=" + low,
        "p1=" + low[:1] if n >= 1 else None,
        "p2=" + low[:2] if n >= 2 else None,
        "p3=" + low[:3] if n >= 3 else None,
        "p4=" + low[:4] if n >= 4 else None,
        "s1=" + low[-1:] if n >= 1 else None,
        "s2=" + low[-2:] if n >= 2 else None,
        "s3=" + low[-3:] if n >= 3 else None,
        "s4=" + low[-4:] if n >= 4 else None,
        "sh=" + (shape if len(shape) <= 12 else shape[:6] + "~" + shape[-6:]),
        "ss=" + _short_shape(shape),
        "d=1" if any(map(str.isdigit, word)) else None,
        "h=1" if "-" in word else None,
        "c=1" if word[:1].isupper() else None,
        "u=1" if word.isupper() else None,
    ) + _cluster_attributes(word, low, clusters)


_NO_CLUSTER = (None,) * len(CLUSTER_ATTRIBUTES)


def path_strings(path):
    """The cluster strings of a word whose path is ``path``: the path and its 4-, 6- and 10-bit
    prefixes, then the string of a lower case whose path it is (``CLUSTER_ATTRIBUTES``' order).

    The compiled lookups make a word's other strings; Python looks these up, once a path
    (:meth:`~perceptrons.structured._feature_tables.CompiledTables.cluster_attribute_ids`).
    """
    return ("bc=" + path, "bc4=" + path[:4], "bc6=" + path[:6], "bc10=" + path[:10], "bcl=" + path)


def _cluster_attributes(word, low, clusters):
    if clusters is None:
        return _NO_CLUSTER
    path = clusters.lookup(word)
    lower = clusters.paths.get(low)
    head = (None, None, None, None) if path is None else path_strings(path)[:-1]
    return (*head, None if lower is None else path_strings(lower)[-1])


@lru_cache(maxsize=8192)
def _short_shape(shape):
    """The shape with runs of a character collapsed ("Xxxxx" → "Xx"); shapes repeat a lot."""
    return _RUNS.sub(_first_of_run, shape)


def _first_of_run(m):
    return m.group(1)


def corpus_types(sentences):
    """Token type ids, the distinct words, and sequence lengths of a list of word lists.

    Words are checked to be strings once per distinct word, not once per token.
    """
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    try:
        types = list(dict.fromkeys(chain.from_iterable(sentences)))
        words = all(isinstance(w, str) for w in types)
    except TypeError:  # an unhashable "word"
        words = False
    if not words:
        raise_not_words(sentences)
    index = {w: i for i, w in enumerate(types)}
    tok = np.fromiter(map(index.__getitem__, chain.from_iterable(sentences)), dtype=np.int64, count=int(lengths.sum()))
    return tok, types, lengths


def raise_not_words(sentences, first=0):
    """Raise the error that names the first sentence holding a word that is not a str (return
    if there is none: the caller's own error then stands); ``sentences[0]`` is the caller's
    sentence number ``first``.
    """
    i = next((i for i, s in enumerate(sentences) if not all(isinstance(w, str) for w in s)), None)
    if i is None:
        return
    bad = next(w for w in sentences[i] if not isinstance(w, str))
    raise PerceptronsTypeError(  # a TypeError, as NLTK raises for it
        f"sentences[{first + i}] must be a list of word strings; found a word of type {type(bad).__name__}"
    )


def pack_strings(strings, errors="strict"):
    """Strings as one UTF-8 byte array plus offsets (n + 1,): no fixed-width unicode padding.

    Encoded at once, the offsets from the lengths in characters; where some string is not
    ASCII, a character's offset becomes its first byte's.  ``errors="surrogatepass"`` encodes
    lone surrogates too (compiled lookups, which must take any ``str``; a model file stays
    strict UTF-8).

    Raises
    ------
    PerceptronsError
        With ``errors="strict"``, for a string that holds a lone surrogate.
    """
    joined = "".join(strings)
    try:
        raw = np.frombuffer(joined.encode("utf-8", errors), dtype=np.uint8)
    except UnicodeEncodeError as exc:  # only a lone surrogate fails, e.g. text read with "surrogateescape"
        bad = next(s for s in strings if any("\ud800" <= c <= "\udfff" for c in s))
        raise PerceptronsError(
            f"{bad!r} holds a lone surrogate (U+{ord(exc.object[exc.start]):04X}), which UTF-8 cannot store"
        ) from None
    offsets = np.zeros(len(strings) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, strings), dtype=np.int64, count=len(strings)), out=offsets[1:])
    if raw.shape[0] != len(joined):
        # the first byte of each character: every byte but UTF-8's continuation bytes
        first = np.append(np.flatnonzero((raw & 0xC0) != 0x80), raw.shape[0])
        offsets = first[offsets]
    return raw, offsets


#: the lower cases of no word, read-only as packed strings are (:mod:`perceptrons._core.readonly`)
_NO_BYTES = read_only(np.zeros(0, dtype=np.uint8))


def unicode_parts(words, ascii_only=False):
    """What the compiled string passes need of the words that are not ASCII, made by Python's
    Unicode tables (:func:`perceptrons._jit.word_attributes._word_strings`).

    Parameters
    ----------
    words : list of str
    ascii_only : bool
        The caller knows every word is ASCII: nothing to look at.

    Returns
    -------
    lower : ndarray of uint8
        Their lower cases (``str.lower``) and shapes (:func:`word_shape`), UTF-8: a word's
        lower case, then its shape, then the next word's.
    parts : ndarray of int64, shape (n_words, 4)
        Per word where its lower case starts in ``lower``, where it ends and its shape starts,
        its flags, and where its shape ends (all −1 for an ASCII word, whose lower case, shape
        and flags are made in compiled code).  The flags: 1 if a character is a digit
        (``str.isdigit``), 2 if the first is upper case, 4 if the word ``isupper()``.
    """
    foreign = [] if ascii_only else [r for r, w in enumerate(words) if not w.isascii()]
    if not foreign:
        return _NO_BYTES, _ascii_parts(len(words))
    parts = np.full((len(words), 4), -1, dtype=np.int64)
    chosen = [words[r] for r in foreign]
    lower, bounds = pack_strings([s for w in chosen for s in (w.lower(), word_shape(w))], "surrogatepass")
    parts[foreign, 0], parts[foreign, 1], parts[foreign, 3] = bounds[0:-1:2], bounds[1::2], bounds[2::2]
    # a letter is no digit: isalpha spares most words the loop over their characters (25 → 5 ms
    # for 19,674 Cyrillic words)
    digit = [not w.isalpha() and any(map(str.isdigit, w)) for w in chosen]
    parts[foreign, 2] = [d + 2 * w[:1].isupper() + 4 * w.isupper() for d, w in zip(digit, chosen)]
    return lower, parts


def _ascii_parts(n):
    """``parts`` of ``n`` ASCII words, all −1: a view of one array kept for every call (a word
    cache adds a sentence's few new words a call, where making the array cost more than the
    compiled work).  Nothing writes it; it stays writable so that the compiled loops see one
    type for it.
    """
    if n > _MINUS_ONES.shape[0]:  # a batch's types: made once for the batch, not kept
        return np.full((n, 4), -1, dtype=np.int64)
    return _MINUS_ONES[:n]


_MINUS_ONES = np.full((4096, 4), -1, dtype=np.int64)


def attribute_table(types, first_id, room=None):
    """The attribute ids of words without clusters: :func:`word_attributes` numbered in order of
    first appearance from ``first_id``, as a dictionary filled word by word would number them,
    by one compiled pass (:func:`perceptrons._jit.word_attributes.attribute_ids`).

    Parameters
    ----------
    types : list of str
        Distinct words.
    first_id : int
        The id of the first string.
    room : int, optional
        Distinct strings to make room for at first (default 4 a word); more is taken as needed.

    Returns
    -------
    ids : ndarray of int64, shape (n_words, len(ATTRIBUTES))
        −1 where an attribute is absent.
    strings : list of str
        The distinct attribute strings, the i-th with id ``first_id + i``.
    """
    from perceptrons._jit.intern import hash_strings
    from perceptrons._jit.word_attributes import attribute_ids, string_room

    n, width = len(types), len(ATTRIBUTES)
    data, word_bounds = pack_strings(types, "surrogatepass")
    lower, parts = unicode_parts(types, ascii_only=data.max(initial=0) < 128)
    out = np.empty(string_room(data.shape[0], lower.shape[0], n), dtype=np.uint8)
    ids = np.full((n, width), -1, dtype=np.int64)
    at = np.zeros(3, dtype=np.int64)  # the next word, the strings so far, the first free byte
    # room for 4 distinct strings a word (EWT train has 2.9; in Cyrillic letters, whose shapes
    # are not folded, 4.7): when it runs out, the pass goes on with the room its progress asks for
    room = 4 * n + 64 if room is None else room
    starts, ends = np.empty(room, dtype=np.int64), np.empty(room, dtype=np.int64)
    table = np.full(1 << (2 * room).bit_length(), -1, dtype=np.int64)
    while not attribute_ids(data, word_bounds, lower, parts, first_id, ids, out, table, starts, ends, at):
        done, k = at[0], at[1]
        room = max(2 * room, int(1.25 * k * n / max(done, 1)) + 64)
        starts, ends = _grown(starts, k, room), _grown(ends, k, room)
        table = np.full(1 << (2 * room).bit_length(), -1, dtype=np.int64)
        hash_strings(read_only(out), starts[:k], ends[:k], table)
    k = at[1]
    raw = out[: ends[k - 1] if k else 0]
    starts, ends = starts[:k], ends[:k]
    if not raw.tobytes().isascii():
        # byte offsets → character offsets: less the UTF-8 continuation bytes before them
        before = np.zeros(raw.shape[0] + 1, dtype=np.int64)
        np.cumsum((raw & 0xC0) == 0x80, out=before[1:])
        starts, ends = starts - before[starts], ends - before[ends]
    text = raw.tobytes().decode("utf-8", "surrogatepass")
    return ids, [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())]


def _grown(a, k, size):
    """A new int64 array of ``size`` whose first ``k`` entries are those of ``a``."""
    out = np.empty(size, dtype=np.int64)
    out[:k] = a[:k]
    return out

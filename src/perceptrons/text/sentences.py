"""Raw text into sentences, from its words (:mod:`perceptrons.text.tokenizer`).

A sentence ends after a word of final punctuation (".", "?", "!", "...", "?!"), together with
the closing quotes and brackets that follow it, when the next word does not begin in lower case;
and at a blank line, whatever precedes it.  Abbreviations ("Dr.", "U.S.") are single words to the
tokenizer, so their period ends nothing.  This is the classic rule-based splitter (Grefenstette &
Tapanainen 1994; Mikheev 2002 measures such rules); web text without final punctuation stays one
sentence until a blank line, which is where ``benchmarks/bench_tokenize.py`` shows it loses
against EWT's gold boundaries.
"""

import re

from perceptrons._core.errors import PerceptronsTypeError
from perceptrons.text.tokenizer import token_spans

#: what ends a sentence: the Latin marks, and the full stops and question and exclamation marks
#: of other scripts (Chinese and Japanese 。！？ and the halfwidth ｡, Devanagari's danda । and
#: ॥, Arabic's ؟ and Urdu's ۔, Armenian's ։, Ethiopic's ።)
_FINAL = re.compile(r"[.!?…。！？｡।॥؟۔։።]+")
#: the marks that end a sentence whatever follows (a period may end an abbreviation)
_ASKS = "?!？！؟"
_CLOSING = frozenset(")]}\"'”’»")
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each sentence of ``text``: from its first word to its last.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of tuple of (int, int)

    Examples
    --------
    >>> text = 'Dr. Smith left. He said: "Bye!" and went'
    >>> [text[s:e] for s, e in sentence_spans(text)]
    ['Dr. Smith left.', 'He said: "Bye!" and went']
    """
    return [(words[0][0], words[-1][1]) for words in sentence_word_spans(text)]


def sentence_word_spans(text: str) -> list[list[tuple[int, int]]]:
    """The spans of each sentence's words: :func:`perceptrons.text.tokenizer.token_spans` of
    ``text`` cut where the sentences end, so the text is read once for both.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of list of tuple of (int, int)
        A list of word spans a sentence; none is empty.

    Examples
    --------
    >>> text = "Hi. I don't."
    >>> [[text[a:b] for a, b in words] for words in sentence_word_spans(text)]
    [['Hi', '.'], ['I', 'do', "n't", '.']]
    """
    words = token_spans(text)
    out = []
    first = 0
    n = len(words)
    j = 0
    while j < n:
        s, e = words[j]
        end = j
        if _FINAL.fullmatch(text, s, e):
            # a quote or bracket right after the punctuation closes this sentence; after a
            # space it opens the next one
            while end + 1 < n and words[end + 1][0] == words[end][1] and _closes(text, words[end + 1]):
                end += 1
            following = text[words[end + 1][0]] if end + 1 < n else ""
            # "?" and "!" end a sentence whatever follows (web text often goes on in lower
            # case), unless a quote closed first ('"Hi!" he said'); a period before a
            # lower-case word is an unknown abbreviation's
            quoted = end > j
            if following.islower() and (quoted or not any(c in text[s:e] for c in _ASKS)):
                end = -1
        else:
            end = -1
        if end < 0 and j + 1 < n and _BLANK_LINE.search(text, e, words[j + 1][0]):
            end = j
        if end >= 0:
            out.append(words[first : end + 1])
            first = end + 1
            j = end + 1
        else:
            j += 1
    if first < n:
        out.append(words[first:])
    return out


def sentence_words(text: str) -> list[list[str]]:
    """The words of each sentence of ``text``, as the packaged English tagger takes them.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of list of str

    Examples
    --------
    >>> sentence_words("It rains. We stay.")
    [['It', 'rains', '.'], ['We', 'stay', '.']]
    """
    return [[text[a:b] for a, b in words] for words in sentence_word_spans(text)]


def _closes(text, span):
    return text[span[0] : span[1]] in _CLOSING


def sentences(text: str) -> list[str]:
    """Split text into sentences.

    Parameters
    ----------
    text : str
        Any text; a blank line always ends a sentence.

    Returns
    -------
    list of str
        Each sentence as a slice of ``text``, from its first word to its last (the white space
        between sentences dropped).

    Raises
    ------
    TypeError
        When ``text`` is not a str.

    See Also
    --------
    perceptrons.tokenize : the words of a sentence.

    Notes
    -----
    A rule-based splitter on the tokenizer's words (Grefenstette & Tapanainen 1994): final
    punctuation followed by a word that does not begin in lower case, or a blank line.
    ``benchmarks/bench_tokenize.py`` reports its boundary F1 against UD English EWT.

    Examples
    --------
    >>> from perceptrons import sentences
    >>> sentences("It rained in the U.S. on Monday. Was it cold? Yes... very.")
    ['It rained in the U.S. on Monday.', 'Was it cold?', 'Yes... very.']
    """
    if not isinstance(text, str):  # named here: the words' TypeError would name tokenize
        raise PerceptronsTypeError(f"sentences takes a str, not {type(text).__name__}")
    return [text[s:e] for s, e in sentence_spans(text)]

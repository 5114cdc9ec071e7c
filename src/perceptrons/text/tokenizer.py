"""Raw English text into the syntactic words of UD English EWT.

One regular expression scans the text left to right (:func:`re.finditer`), its alternatives
tried in the order below at each position: URLs, e-mail addresses, file and domain names,
emoticons, numbers with separators, abbreviations, words, punctuation.  A word is then cut where
EWT cuts it (the UD English guidelines, "Tokenization and word segmentation"):

* clitics are words of their own: "don't" → "do", "n't"; "it's" → "it", "'s"; "can't" → "ca",
  "n't" (the surface split at the clitic, so every word is a slice of the text);
* a few contractions without the apostrophe split the same way: "cannot" → "can", "not";
  "gonna" → "gon", "na"; "dont" → "do", "nt";
* hyphens are words of their own ("search-engine" → "search", "-", "engine"), except after the
  prefixes EWT keeps attached ("e-mail", "non-human", "re-read") and between parts that both
  hold digits ("x3-9890").

Every word is ``text[start:end]`` of its span: nothing is normalised, so the words partition
the text's characters other than white space, control characters and the invisible format
characters between words.  Each quantifier that repeats a group (a word's parts, a number's, a
run of one mark) is bounded, so a 10 MB line without a space is read in linear time and in
memory linear in its words: Python's ``re`` keeps a frame for each repetition of a group, and
one word of 5 million parts (``a'a'a'…``) took 2.8 GB.  A longer run is cut into words of at
most that many parts.  Combining marks and invisible format characters are spans of their own
until :func:`_marks_joined` joins them: a word of a million marks takes 120 MB on the way.
"""

import re
import unicodedata

from perceptrons._core.errors import PerceptronsTypeError

# The suffixes EWT splits off as words (the apostrophe straight, curly or a backtick).
_CLITIC = re.compile(r"(?i)(?:n['’`]t|['’`](?:s|re|ve|ll|d|m))\Z")

#: contractions written without their apostrophe, as EWT splits them (lower case)
_FUSED = {
    "cannot": 3,
    "gonna": 3,
    "wanna": 3,
    "gotta": 3,
    "dont": 2,
    "didnt": 3,
    "doesnt": 4,
    "cant": 2,
    "wont": 2,
    "isnt": 2,
    "wasnt": 3,
    "arent": 3,
    "werent": 4,
    "couldnt": 5,
    "wouldnt": 5,
    "shouldnt": 6,
    "havent": 4,
    "hasnt": 3,
    "im": 1,
    "ive": 1,
    "alot": 1,
    "outta": 3,
    "thats": 4,
}

#: prefixes whose hyphen stays inside the word (EWT train and dev: the prefixes kept whole more
#: often than split, and the UD English guidelines' list)
_PREFIXES = frozenset(
    "e a anti bi co counter cross de eco ex extra hyper inter intra macro mega micro mid mini mis "
    "multi neo non over pan para post pre pro pseudo psycho re semi socio sub super trans "
    "tri ultra un uni".split()
)

_URL = r"(?:(?:https?|ftp)://|www\.)[^\s<>\"]{0,2048}[^\s<>\"'.,;:!?)\]}]"
# an address, also a bare "@domain.com" or a mail system's "Name@HOST" as in EWT's e-mail
_EMAIL = r"[\w.+-]{0,64}@\w[\w-]{0,62}(?:\.\w[\w-]{0,62}){0,8}"
# "#hashtag" (a letter first: "#5" is a sign and a number)
_HASHTAG = r"#[^\W\d_]\w{0,138}"
_FILE = (
    r"\w[\w-]{0,62}(?:\.\w[\w-]{0,62}){0,6}\."
    r"(?i:com|org|net|gov|edu|doc|docx|xls|xlsx|ppt|pptx|pdf|txt|htm|html|jpg|jpeg|gif|png|zip|csv|exe)"
    r"(?![\w])"
    r"|[a-z]{2,}(?:\.[a-z0-9]{1,62}){2,8}(?![\w])"  # newsgroups and hosts: "alt.animals.cats"
)
_EMOTICON = r"(?:[:;=][-o'^]?(?:[)(\]\[/\\|*@]|[DPpO3](?!\w))|\([-o'^]?[:;]|<3|\^_*\^)"
# an emoji as one character on screen: a flag (two regional indicators), a keycap, or a
# pictograph with its skin tone, variation selector and tags, joined to others by U+200D
# (a family, a profession): split, its parts were words of their own, a bare joiner among them
_EMOJI_BASE = (
    "[\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa\u231a-\u23ff\u24c2\u25aa-\u27bf"
    "\u2934\u2935\u2b05-\u2b55\u3030\u303d\u3297\u3299\U0001f000-\U0001faff]"
)
_EMOJI_MARKS = "[\ufe0f\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]{0,31}"
_EMOJI = (
    f"[\U0001f1e6-\U0001f1ff]{{2}}|[0-9#*]\ufe0f?\u20e3"
    f"|{_EMOJI_BASE}{_EMOJI_MARKS}(?:\u200d{_EMOJI_BASE}{_EMOJI_MARKS}){{0,15}}"
)
_NUMBER = r"\+\d+(?:[.,:/-]\d+){0,31}|\d+(?:[.,:/-]\d+){1,31}"
# single initials only before a capitalised word ("George W. Bush"); known short forms; and
# letters each followed by a period ("U.S.", "e.g.", "a.m.")
_ABBREVIATION = (
    r"(?:[^\W\d_]\.){2,31}"
    r"|(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Inc|Ltd|Co|Corp|vs|etc|No|Mt|Ft|Ave|Gov|Sen|Rep|Reps|Gen|Col|Lt|Sgt"
    r"|Prof|Capt|Rev|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri"
    r"|Sat|Sun|approx|dept|est|fig|vol|pp|ca)\.(?=\s|\Z|[,;:)])"
    r"|[A-Z]\.(?=\s+[A-Z])"
)
# a word may hold apostrophes and hyphens between its letters; it is cut afterwards
_WORD = r"\w+(?:['’`]\w+|-\w+|&\w+){0,31}"
# runs: "...", "?!"; rules drawn with symbols ("-----", "==--==", "-->"); a repeated
# character ("''", "$$$", "))"); otherwise one character
_PUNCT = r"[.!?…]+|[-=*~_+#|<>]{2,}|(?P<same>[^\w\s])(?P=same){1,255}|\S"

_TOKEN = re.compile(
    "|".join(
        f"(?P<{name}>{pattern})"
        for name, pattern in [
            ("url", _URL),
            ("email", _EMAIL),
            ("hashtag", _HASHTAG),
            ("file", _FILE),
            ("emoticon", _EMOTICON),
            ("emoji", _EMOJI),
            ("number", _NUMBER),
            ("abbreviation", _ABBREVIATION),
            ("word", _WORD),
            ("punct", _PUNCT),
        ]
    )
)

# Control characters (Unicode category Cc) separate words as white space does; a lone surrogate
# or any other code point is a character like the rest.
_PARTS = re.compile(r"[^-]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def token_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each syntactic word of ``text``, in order.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of tuple of (int, int)
        Spans that do not overlap; ``text[start:end]`` is the word.

    Examples
    --------
    >>> text = "I don't e-mail."
    >>> [text[s:e] for s, e in token_spans(text)]
    ['I', 'do', "n't", 'e-mail', '.']
    """
    if not isinstance(text, str):
        raise PerceptronsTypeError(f"tokenize takes a str, not {type(text).__name__}")
    spans = []
    append = spans.append
    for m in _TOKEN.finditer(_CONTROL.sub(" ", text)):
        if m.lastgroup == "word":
            word = m.group()
            # most words have nothing to cut: no hyphen, apostrophe, or fused contraction
            if "-" in word or not word.isalnum() or word.lower() in _FUSED:
                _cut_word(word, m.start(), spans)
                continue
        append(m.span())
    return spans if text.isascii() else _marks_joined(text, spans)


def _marks_joined(text, spans):
    r"""``spans`` with every combining mark kept in the word it marks, and invisible format
    characters kept in the word they sit in or left out between words.

    Python's ``\w`` takes no combining mark (Unicode's M categories): "café" written with
    U+0301 after the e, Hindi's vowel signs, Thai's, Arabic's and Hebrew's vowel points came out
    as words of their own, and split the word around them.  A mark that starts a span joins the
    span before it when they touch, and a word that touches a mark joins it too.

    Nor does it take a format character (category Cf), which is invisible: the zero-width
    non-joiner inside a Persian word ("می‌خواهم") or a joiner inside a Devanagari one, a soft
    hyphen ("beau\u00adtiful"), a word joiner.  Between two parts of a word, touching both, such
    characters join them into one word; elsewhere (a byte-order mark, a direction mark after a
    word) they were words of their own, and are left out as white space is.
    """
    out = []
    join = False  # the span before was a run of format characters within a word
    for k, (s, e) in enumerate(spans):
        if all(unicodedata.category(c) == "Cf" for c in text[s:e]):
            after = spans[k + 1][0] if k + 1 < len(spans) else -1
            join = bool(out) and out[-1][1] == s and after == e and _wordlike(text[s - 1]) and _wordlike(text[e])
            if join:
                out[-1] = (out[-1][0], e)
            continue
        if out and out[-1][1] == s:
            first, before = unicodedata.category(text[s]), unicodedata.category(text[s - 1])
            if join or first[0] == "M" or (before[0] == "M" and first[0] in "LN"):
                out[-1] = (out[-1][0], e)
                join = False
                continue
        join = False
        out.append((s, e))
    return out


def _wordlike(c):
    """Whether ``c`` is a letter, a mark or a digit: a part of a word."""
    return unicodedata.category(c)[0] in "LMN"


def tokenize(text: str) -> list[str]:
    """Split English text into words as UD English EWT does.

    Punctuation is split off; clitics are words of their own ("don't" → "do", "n't"; "it's" →
    "it", "'s"); hyphenated compounds are split except after a prefix EWT keeps ("e-mail");
    URLs, e-mail addresses, file names, numbers with separators ("1,000.50", "10:30",
    "713-853-3989"), abbreviations ("U.S.", "Dr.") and emoticons (":)", ":-(") stay whole.

    Parameters
    ----------
    text : str
        Any text; control characters count as white space.

    Returns
    -------
    list of str
        The words, each a slice of ``text``.

    Raises
    ------
    TypeError
        When ``text`` is not a str (bytes must be decoded first).

    See Also
    --------
    perceptrons.sentences : the text cut into sentences first.

    Notes
    -----
    The conventions are those of UD English EWT (Silveira et al. 2014, "A Gold Standard
    Dependency Corpus for English"; the UD English guidelines).  ``benchmarks/bench_tokenize.py``
    measures the words against EWT test's gold words.

    Examples
    --------
    >>> from perceptrons import tokenize
    >>> tokenize("It's 10:30, can't wait :) see http://example.com/a-b.")
    ['It', "'s", '10:30', ',', 'ca', "n't", 'wait', ':)', 'see', 'http://example.com/a-b', '.']
    """
    return [text[s:e] for s, e in token_spans(text)]


def _cut_word(word, start, spans):
    """The spans of one scanned word: cut at its hyphens, then its clitic split off."""
    pieces = []  # (start, end) within the word
    before = ""  # the part before the hyphen (not the merged piece: "e-e-e-…" stays linear)
    for part in _PARTS.finditer(word):
        if pieces and _keeps_hyphen(before, part.group()):
            pieces[-1] = (pieces[-1][0], part.end())
        else:
            if pieces:
                pieces.append((pieces[-1][1], part.start()))  # the hyphen, a word of its own
            pieces.append(part.span())
        before = part.group()
    for a, b in pieces:
        piece = word[a:b]
        cut = _clitic_cut(piece)
        if cut:
            spans.append((start + a, start + a + cut))
            spans.append((start + a + cut, start + b))
        else:
            spans.append((start + a, start + b))


def _keeps_hyphen(left, right):
    """Whether the hyphen between ``left`` and ``right`` stays inside one word."""
    if left.lower() in _PREFIXES:
        return True
    return any(c.isdigit() for c in left) and any(c.isdigit() for c in right)


def _clitic_cut(piece):
    """Where a clitic starts in ``piece`` (0: none)."""
    m = _CLITIC.search(piece)
    if m and m.start() > 0:
        stem = piece[: m.start()]
        if stem.isdigit() and piece[m.start() :].lower() in ("'s", "’s"):
            return 0  # "60's": the decade, one word in EWT
        return m.start()
    return _FUSED.get(piece.lower(), 0)

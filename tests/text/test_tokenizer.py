"""The tokenizer: EWT's conventions case by case, its words against EWT dev's gold words, the
words as a partition of the text's characters on any input, and linear time on hostile lines."""

import time
import tracemalloc
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons import tokenize
from perceptrons.text.scoring import gold_sentences, span_f1
from perceptrons.text.tokenizer import token_spans

CASES = {
    # clitics, as EWT splits them
    "I don't know": ["I", "do", "n't", "know"],
    "it's fine": ["it", "'s", "fine"],
    "we can't, won't": ["we", "ca", "n't", ",", "wo", "n't"],
    "You're, I'm, they've, we'll, she'd": [
        "You",
        "'re",
        ",",
        "I",
        "'m",
        ",",
        "they",
        "'ve",
        ",",
        "we",
        "'ll",
        ",",
        "she",
        "'d",
    ],
    "it’s curly": ["it", "’s", "curly"],
    "Bush's plan": ["Bush", "'s", "plan"],
    "cannot gonna dont": ["can", "not", "gon", "na", "do", "nt"],
    "the 60's": ["the", "60's"],
    "O'Connell": ["O'Connell"],
    # hyphens: split, but not after EWT's prefixes nor between digits
    "search-engine": ["search", "-", "engine"],
    "e-mail non-human re-read": ["e-mail", "non-human", "re-read"],
    "full-fledged 3-year-old": ["full", "-", "fledged", "3", "-", "year", "-", "old"],
    "call x3-9890": ["call", "x3-9890"],
    # kept whole
    "see http://example.com/a-b_c?x=1.": ["see", "http://example.com/a-b_c?x=1", "."],
    "(www.example.org)": ["(", "www.example.org", ")"],
    "mail jo.smith+x@mail.example.co.uk now": ["mail", "jo.smith+x@mail.example.co.uk", "now"],
    "$1,000.50 at 10:30 on 11/20/2000, 713-853-3989 or +44": [
        "$",
        "1,000.50",
        "at",
        "10:30",
        "on",
        "11/20/2000",
        ",",
        "713-853-3989",
        "or",
        "+44",
    ],
    "great:) :-( ;) <3": ["great", ":)", ":-(", ";)", "<3"],
    "Re:Draft": ["Re", ":", "Draft"],
    "Dr. Smith, U.S. and e.g. George W. Bush": ["Dr.", "Smith", ",", "U.S.", "and", "e.g.", "George", "W.", "Bush"],
    "file 02-05-02.doc and Amazon.com": ["file", "02-05-02.doc", "and", "Amazon.com"],
    "#audiobooks": ["#audiobooks"],
    # punctuation runs
    "What?! No... wait!!! --- ok ''": ["What", "?!", "No", "...", "wait", "!!!", "---", "ok", "''"],
    "=====": ["====="],
    # any script: words are Unicode words
    "Привет, мир! 東京は晴れ。": ["Привет", ",", "мир", "!", "東京は晴れ", "。"],
    "": [],
    "   \n\t ": [],
}


@pytest.mark.parametrize("text", list(CASES), ids=range(len(CASES)))
def test_ewt_conventions(text):
    assert tokenize(text) == CASES[text]


def test_control_characters_separate_words():
    assert tokenize("a\x00b\x1bc\x7fd") == ["a", "b", "c", "d"]


def test_a_lone_surrogate_is_a_character():
    assert tokenize("a\ud800b c") == ["a", "\ud800", "b", "c"]


@pytest.mark.parametrize("bad", [b"bytes", None, 3, ["a", "list"]])
def test_not_a_str_is_a_type_error(bad):
    from perceptrons import PerceptronsError, sentences

    for split, name in ((tokenize, "tokenize"), (sentences, "sentences")):
        with pytest.raises(TypeError, match=f"{name} takes a str") as exc:
            split(bad)
        assert isinstance(exc.value, PerceptronsError)  # the library's error, as every other


_TRICKY = "aZ9é東 -'’`.@:/#+,;!?()\"$%=*<>\n\t\x00"


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(_TRICKY), max_size=80) | st.text(st.characters(exclude_categories=()), max_size=40)
)
def test_words_partition_the_non_space_characters(text):
    spans = token_spans(text)
    covered = set()
    last = 0
    for s, e in spans:
        assert last <= s < e <= len(text)
        last = e
        assert not any(c.isspace() for c in text[s:e])
        covered.update(range(s, e))
    blank = {i for i, c in enumerate(text) if c.isspace() or c in "\x00\x7f" or "\x00" <= c <= "\x08"}
    control = {i for i, c in enumerate(text) if "\x0e" <= c <= "\x1f" or "\x7f" <= c <= "\x9f"}
    left_out = set(range(len(text))) - blank - control - covered
    assert covered <= set(range(len(text))) - blank - control
    # only invisible format characters between words are left out
    assert all(unicodedata.category(text[i]) == "Cf" for i in left_out), [text[i] for i in left_out]


#: lines that would make a backtracking pattern scan far from every start
HOSTILE = ["a.", "a@", "1-", "x-", "e-", "http://", "a'", ":", "-", "a.b", "@a.", "#a"]


@pytest.mark.parametrize("unit", HOSTILE)
def test_time_grows_linearly_on_a_line_without_a_space(unit):
    def seconds(n):
        text = unit * (n // len(unit))
        start = time.perf_counter()
        words = token_spans(text)
        assert words and words[-1][1] <= len(text)
        return time.perf_counter() - start

    seconds(1 << 14)  # warm
    small, large = min(seconds(1 << 14) for _ in range(5)), min(seconds(1 << 20) for _ in range(3))
    # 64 times the text: 64 times the time when linear, 4096 when quadratic. The bound also
    # leaves room for a step of up to 16 in the cost of a character once the regular
    # expression's stack for a long run of one character outgrows the allocator's small
    # blocks (seen: 30 ns a character below 128 KB, 190 above).
    assert large < 1024 * small + 0.05, (small, large)


@pytest.mark.slow
def test_ten_megabytes_without_a_newline():
    text = ("word-word e.g. x@y.z 1,000 " * 400_000)[: 10 << 20]
    words = tokenize(text)
    assert len(words) > 1_000_000 and all(w for w in words)


@pytest.mark.parametrize(
    "unit", ["a'", "a-", "a&", "1,", "+1.", "a.", "'", "@", "\u2764\u200d", "\u2764\ufe0f", "\u0301"]
)
def test_a_megabyte_of_one_repeated_part_takes_memory_by_its_words_not_by_its_length(unit):
    """Python's ``re`` keeps a frame for each repetition of a group: a line of 5 million
    ``a'`` (one word of that many parts) took 2.8 GB, 366 bytes a character.  Each group's
    repetition is bounded, and the run is cut into words of that many parts."""
    text = unit * ((1 << 20) // len(unit))
    tracemalloc.start()
    try:
        spans = token_spans(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the spans' lists (about 120 bytes a word, twice where marks are joined) and a bounded rest
    # (before: 2 spans in 366 MB)
    assert peak < 400 * len(spans) + (1 << 20), (peak, len(spans))
    # the words still partition the text's characters, but a joiner where a run is cut (between
    # words, an invisible format character is left out)
    assert "".join(text[s:e] for s, e in spans).replace("\u200d", "") == text.replace("\u200d", "")


@pytest.mark.data
def test_ewt_dev_words_f1(shared_data):
    gold = gold_sentences(shared_data("ud-english-ewt") / "dev.conllu")
    predicted, expected = [], []
    for k, s in enumerate(gold):
        predicted += [(k, a, b) for a, b in token_spans(s.text)]
        expected += [(k, a, b) for a, b in s.spans]
    p, r, f, _, _ = span_f1(predicted, expected)
    assert f >= 0.98, (p, r, f)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("👨\u200d👩\u200d👧 home", ["👨\u200d👩\u200d👧", "home"]),  # a family: three joined by U+200D
        ("ok 👍🏽!", ["ok", "👍🏽", "!"]),  # a skin tone
        ("🇫🇷 and 🇩🇪", ["🇫🇷", "and", "🇩🇪"]),  # flags: pairs of regional indicators
        ("press 1\ufe0f\u20e3 now", ["press", "1\ufe0f\u20e3", "now"]),  # a keycap
        ("I \u2764\ufe0f NY", ["I", "\u2764\ufe0f", "NY"]),  # a variation selector
        (
            "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f!",
            ["\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "!"],
        ),
    ],
)
def test_an_emoji_is_one_word(text, words):
    """An emoji drawn as one character is one word: its parts were words of their own, a bare
    zero-width joiner or skin tone among them, each tagged PUNCT."""
    assert tokenize(text) == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a cafe\u0301 in Montre\u0301al.", ["a", "cafe\u0301", "in", "Montre\u0301al", "."]),  # decomposed (NFD)
        ("मैं किताब पढ़ रहा हूँ।", ["मैं", "किताब", "पढ़", "रहा", "हूँ", "।"]),  # Hindi's vowel signs
        ("ฉันกินข้าว", ["ฉันกินข้าว"]),  # Thai's marks (one run of letters: no spaces to cut at)
        ("שָׁלוֹם עוֹלָם", ["שָׁלוֹם", "עוֹלָם"]),  # Hebrew's points
        ("كَتَبَ الوَلَدُ", ["كَتَبَ", "الوَلَدُ"]),  # Arabic's short vowels
    ],
)
def test_a_combining_mark_stays_in_its_word(text, words):
    """Python's \\w takes no combining mark: "café" in NFD came out as "cafe", "́", and
    Hindi, Thai, Hebrew and Arabic words were cut at every vowel sign."""
    assert tokenize(text) == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("می\u200cخواهم ok.", ["می\u200cخواهم", "ok", "."]),  # Persian's zero-width non-joiner
        ("क्\u200dष", ["क्\u200dष"]),  # a zero-width joiner in Devanagari
        ("a beau\u00adtiful day", ["a", "beau\u00adtiful", "day"]),  # a soft hyphen
        ("x\u2060y z", ["x\u2060y", "z"]),  # a word joiner
        ("\ufeffHello world", ["Hello", "world"]),  # a byte-order mark
        ("שלום\u200f עולם", ["שלום", "עולם"]),  # a direction mark after a word
        ("a \u2067b\u2069 c", ["a", "b", "c"]),  # a bidirectional isolate
        ("word\u00ad", ["word"]),
    ],
)
def test_an_invisible_format_character_stays_in_its_word_or_is_left_out(text, words):
    """A format character (Unicode's Cf) is invisible: it was a word of its own (tagged PROPN,
    SYM or PUNCT), and split the word it sits in."""
    assert tokenize(text) == words


_LETTERS = st.sampled_from("aeouklmnxyzदकमनกขคאבגكلم")  # no "i": "im" is a contraction, cut as EWT cuts it
_MARKS = st.sampled_from("\u0301\u0308\u093e\u093f\u0947\u0e31\u0e34\u05b8\u064e")


@given(st.lists(st.builds(lambda a, m, b: a + m + b, _LETTERS, st.text(_MARKS, max_size=2), _LETTERS), min_size=1))
@settings(max_examples=200, deadline=None)
def test_words_of_letters_and_marks_are_whole(words):
    text = " ".join(words)
    assert tokenize(text) == words

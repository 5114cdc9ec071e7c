"""A word's spelling features in any script (issue 54 §4: no ASCII-only classes)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons.structured.words import composed, word_attributes, word_shape


@pytest.mark.parametrize(
    ("word", "shape"),
    [
        ("Smith-2", "Xxxxx-d"),
        ("Müller", "Xxxxxx"),
        ("Москва-2", "Xxxxxx-d"),
        ("ΑΘΗΝΑ", "XXXXX"),
        ("東京都", "xxx"),  # letters of a script without case
        ("हिन्दी", "xxx"),  # Devanagari: its vowel signs and virama are marks of the letter before
        ("١٢٣", "ddd"),  # Arabic-Indic digits
        ("ǅemal", "Xxxxx"),  # a title-case letter
        ("e\u0301te\u0301", "xxx"),  # combining accents belong to their letters
        ("€5—", "€d—"),  # symbols and punctuation as they are
        ("²", "²"),  # a superscript is no decimal digit
        ("", ""),
    ],
)
def test_shape_by_unicode_category(word, shape):
    assert word_shape(word) == shape


# a bijection from ASCII letters and digits onto Cyrillic letters (case kept) and
# Arabic-Indic digits
LATIN = "abcdefghijklmnopqrstuvwxyz"
CYRILLIC = "абвгдежзийклмнопрстуфхцчшщ"
TO_CYRILLIC = str.maketrans(LATIN + LATIN.upper() + "0123456789", CYRILLIC + CYRILLIC.upper() + "٠١٢٣٤٥٦٧٨٩")


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(list("aZq09-'. xY")), max_size=16))
def test_the_same_word_in_another_script_has_the_same_features(word):
    """The shapes and flags are the same; the word, its lower case and affixes are the same
    letter for letter."""
    latin, cyrillic = word_attributes(word), word_attributes(word.translate(TO_CYRILLIC))
    for x, y in zip(latin, cyrillic, strict=True):
        if x is None or y is None:
            assert x is y
            continue
        name, _, value = x.partition("=")
        same = value if name in ("sh", "ss", "d", "h", "c", "u") else value.translate(TO_CYRILLIC)
        assert y == f"{name}={same}"


def test_words_are_composed_and_ascii_ones_kept_as_they_are():
    words = ["cafe\u0301", "café", "Ελλα\u0301δα", "plain"]
    assert composed(words) == ["café", "café", "Ελλάδα", "plain"]
    ascii_words = ["a", "b"]
    assert composed(ascii_words) is ascii_words


@pytest.mark.parametrize("train_form", ["NFC", "NFD"])
def test_a_tagger_reads_a_word_in_either_unicode_form_as_the_same_word(train_form):
    """A model trained on decomposed letters (NFD) read the composed words of the same text
    as unknown ones; features are made from the composed form, in training and in tagging,
    through the word cache (one sentence a call) and the batch path alike."""
    from unicodedata import normalize

    from perceptrons import Tagger

    vocab = [("déjà", "ADV"), ("été", "NOUN"), ("café", "NOUN"), ("à", "ADP"), ("mangé", "VERB"), ("il", "PRON")]
    sentences = [[vocab[(i * 7 + j) % 6] for j in range(5)] for i in range(40)]
    form = {"NFC": lambda w: normalize("NFC", w), "NFD": lambda w: normalize("NFD", w)}
    train = [[(form[train_form](w), t) for w, t in s] for s in sentences]
    tagger = Tagger(max_epochs=3, random_state=0).fit(train)
    words = [w for w, _ in sentences[0]]
    for other in ("NFC", "NFD"):
        given = [form[other](w) for w in words]
        assert [t for _, t in tagger.tag(given)] == [t for _, t in sentences[0]]
        assert [t for _, t in tagger.tag_sents([given])[0]] == [t for _, t in sentences[0]]

"""A word's spelling features in any script (issue 54 §4: no ASCII-only classes)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons.structured.words import word_attributes, word_shape


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

"""pos_tag and pos_tag_sents: NLTK's calls on the packaged English tagger, from words or raw text."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons import Tagger, pos_tag, pos_tag_sents, sentences, tokenize
from perceptrons._core.errors import PerceptronsError
from perceptrons.text.sentences import sentence_words

TEXT = "I don't e-mail Dr. Smith. Call 713-853-3989 at 10:30 :)\n\nThe new rules start on Monday."


@pytest.fixture(scope="module")
def tagger():
    return Tagger.pretrained("en")


def test_words_are_tagged_as_the_pretrained_tagger_tags_them(tagger):
    words = ["They", "refuse", "to", "permit", "us", "to", "obtain", "the", "refuse", "permit", "."]
    assert pos_tag(words) == tagger.tag(words)
    assert pos_tag(tuple(words)) == tagger.tag(words)
    assert [t for _, t in pos_tag(words)][:4] == ["PRON", "VERB", "PART", "VERB"]


def test_raw_text_is_cut_into_sentences_and_words_first(tagger):
    cut = sentence_words(TEXT)
    assert [" ".join(s) for s in cut] == [" ".join(tokenize(s)) for s in sentences(TEXT)]
    assert len(cut) == 3
    assert pos_tag(TEXT) == [pair for s in tagger.tag_sents(cut) for pair in s]
    assert pos_tag_sents(TEXT) == tagger.tag_sents(cut)
    assert [w for w, _ in pos_tag(TEXT)][:4] == ["I", "do", "n't", "e-mail"]


def test_pos_tag_sents_takes_lists_of_words_or_each_sentence_as_text(tagger):
    words = [["It", "rains", "."], ["We", "stay", "home", "."]]
    assert pos_tag_sents(words) == tagger.tag_sents(words)
    assert pos_tag_sents(["It rains.", "We stay home."]) == tagger.tag_sents(words)
    assert pos_tag_sents(iter(words)) == tagger.tag_sents(words)  # any iterable, as NLTK's
    assert pos_tag_sents([]) == [] and pos_tag_sents("") == []


def test_one_word_and_nothing():
    # NLTK raises TypeError for a str; here a str is text, so one word is a sentence of one word
    assert [w for w, _ in pos_tag("Hello")] == ["Hello"]
    assert pos_tag("") == [] and pos_tag([]) == [] and pos_tag("   \n ") == []


@pytest.mark.parametrize("bad", [None, b"Hello world", bytearray(b"x"), 3, 2.5, {"a": 1}, {"a"}])
def test_what_is_neither_text_nor_words_is_a_type_error(bad):
    with pytest.raises(TypeError, match=r"^tokens: expected a str of text or a list of words \(str\), got "):
        pos_tag(bad)


@pytest.mark.parametrize("bad", [["a", None], ["a", b"b"], [1], [["a"]]])
def test_a_word_that_is_not_a_str_is_named(bad):
    with pytest.raises(TypeError, match=r"^tokens\[\d\]: expected a word \(str\), got "):
        pos_tag(bad)


@pytest.mark.parametrize("bad", [None, b"It rains.", 3, {"a": ["b"]}, {("a",)}])
def test_pos_tag_sents_refuses_what_is_not_sentences(bad):
    """A dict was tagged by its keys, and a set in no order."""
    with pytest.raises(PerceptronsError, match="^sentences: expected a str of text or a list of sentences") as exc:
        pos_tag_sents(bad)
    assert isinstance(exc.value, TypeError)


@pytest.mark.parametrize("bad", [[None], [["a"], 3], [b"x"]])
def test_pos_tag_sents_names_the_bad_sentence(bad):
    with pytest.raises(TypeError, match=r"^sentences\[\d\]: expected "):
        pos_tag_sents(bad)


def test_nltk_language_code_and_unknown_languages():
    assert pos_tag(["Hello"], lang="eng") == pos_tag(["Hello"], lang="en")
    for lang in ["fr", "../en", ""]:
        with pytest.raises(PerceptronsError, match="no such pretrained model; the names are en"):
            pos_tag(["Bonjour"], lang=lang)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200))
def test_every_word_of_the_text_comes_back_once_with_a_tag(text):
    tags = {"ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN"}
    tags |= {"PUNCT", "SCONJ", "SYM", "VERB", "X"}
    tagged = pos_tag(text)
    assert [w for w, _ in tagged] == tokenize(text)  # the text is read once, for words and sentences
    assert [[w for w, _ in s] for s in pos_tag_sents(text)] == sentence_words(text)
    assert all(t in tags for _, t in tagged)


@pytest.mark.data
def test_ewt_test_gold_words_and_raw_text_end_to_end(shared_data):
    """Issue 54's figures on EWT test: UPOS on the gold words, and raw text tagged end to end
    (a gold word counts when a predicted word has its span and its tag) at least 0.94."""
    from perceptrons.io.conllu import read_conllu
    from perceptrons.text.scoring import gold_sentences, tagged_span_scores
    from perceptrons.text.tokenizer import token_spans

    path = shared_data("ud-english-ewt") / "test.conllu"
    gold_words = read_conllu(path, "upos")
    tagged = pos_tag_sents([s.words for s in gold_words])
    right = sum(t == g for s, p in zip(gold_words, tagged) for (_, t), g in zip(p, s.tags))
    assert right / sum(len(s.tags) for s in gold_words) >= 0.955

    gold = gold_sentences(path, "upos")
    tagged = pos_tag_sents([s.text for s in gold])
    spans = [token_spans(s.text) for s in gold]
    assert [[w for w, _ in p] for p in tagged] == [[s.text[a:b] for a, b in sp] for s, sp in zip(gold, spans)]
    recall, _ = tagged_span_scores(gold, spans, [[t for _, t in p] for p in tagged])
    assert recall >= 0.94, recall


def test_nltks_universal_tagset(tagger):
    """``tagset="universal"``, as NLTK's: the 12 tags of Petrov et al., each UPOS tag mapped."""
    from perceptrons.text.pos_tag import UNIVERSAL

    twelve = {"ADJ", "ADP", "ADV", "CONJ", "DET", "NOUN", "NUM", "PRT", "PRON", "VERB", ".", "X"}
    assert set(UNIVERSAL) == set(tagger.tags_) and set(UNIVERSAL.values()) == twelve
    plain, mapped = pos_tag(TEXT), pos_tag(TEXT, tagset="universal")
    assert [w for w, _ in mapped] == [w for w, _ in plain]
    assert [t for _, t in mapped] == [UNIVERSAL[t] for _, t in plain]
    assert pos_tag_sents(TEXT, tagset="universal") == [[(w, UNIVERSAL[t]) for w, t in s] for s in pos_tag_sents(TEXT)]
    assert dict(pos_tag(["They", "do", "n't", "live", "in", "Paris", "."], tagset="universal")) == {
        "They": "PRON", "do": "VERB", "n't": "PRT", "live": "VERB", "in": "ADP", "Paris": "NOUN", ".": ".",
    }  # fmt: skip
    for bad in ("penn", "UNIVERSAL", 1):
        with pytest.raises(PerceptronsError, match="tagset=.*expected None .* or 'universal'"):
            pos_tag(["x"], tagset=bad)
        with pytest.raises(PerceptronsError, match="tagset="):
            pos_tag_sents([["x"]], tagset=bad)

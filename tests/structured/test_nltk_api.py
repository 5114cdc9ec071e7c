"""Tagger answers NLTK's PerceptronTagger calls with NLTK's types."""

import copy
import random

import numpy as np
import pytest

from perceptrons import Tagger, load_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.structured.features import corpus_types

nltk_perceptron = pytest.importorskip("nltk.tag.perceptron")
nltk_tag = pytest.importorskip("nltk.tag")
nltk_api = pytest.importorskip("nltk.tag.api")

CORPUS = [
    [("The", "DT"), ("old", "JJ"), ("man", "NN"), ("saw", "VBD"), ("the", "DT"), ("boats", "NNS"), (".", ".")],
    [("Time", "NN"), ("flies", "VBZ"), ("like", "IN"), ("an", "DT"), ("arrow", "NN"), (".", ".")],
    [("Fruit", "NN"), ("flies", "NNS"), ("like", "VBP"), ("a", "DT"), ("banana", "NN"), (".", ".")],
    [("today", "NN"), ("is", "VBZ"), ("a", "DT"), ("good", "JJ"), ("day", "NN")],
    [("yes", "UH"), ("it", "PRP"), ("is", "VBZ"), ("beautiful", "JJ")],
]
GOLD = [
    [("The", "DT"), ("man", "NN"), ("is", "VBZ"), ("old", "JJ"), (".", ".")],
    [("a", "DT"), ("banana", "NN"), ("flies", "VBZ"), ("today", "NN")],
]
WORDS = ["today", "is", "a", "beautiful", "day"]


@pytest.fixture(scope="module")
def taggers():
    random.seed(0)  # NLTK shuffles with the random module
    theirs = nltk_perceptron.PerceptronTagger(load=False)
    theirs.train(CORPUS, nr_iter=5)
    ours = Tagger(min_count=1).train(CORPUS, nr_iter=5)
    return theirs, ours


def assert_tagged(result, words):
    assert type(result) is list and len(result) == len(words)
    for pair, word in zip(result, words):
        assert type(pair) is tuple and len(pair) == 2
        assert pair[0] == word and type(pair[1]) is str


def test_tag_returns_what_nltk_returns(taggers):
    theirs, ours = taggers
    for tagger in taggers:
        assert_tagged(tagger.tag(WORDS), WORDS)
        assert_tagged(tagger.tag(tuple(WORDS)), WORDS)
        assert tagger.tag([]) == []
    assert {t for _, t in ours.tag(WORDS)} <= set(theirs.classes)
    assert set(ours.tags_.tolist()) == theirs.classes


def test_tag_sents_returns_what_nltk_returns(taggers):
    sents = [WORDS, ["The", "man"], []]
    for tagger in taggers:
        out = tagger.tag_sents(iter(sents))  # NLTK's accuracy passes a generator
        assert type(out) is list and len(out) == len(sents)
        for result, words in zip(out, sents):
            assert_tagged(result, words)
    ours = taggers[1]
    assert ours.tag_sents(sents) == [ours.tag(s) for s in sents]


def test_tag_of_a_str_raises_type_error_as_in_nltk(taggers):
    theirs, ours = taggers
    with pytest.raises(TypeError, match="expected a list of strings, got a string"):
        nltk_tag._pos_tag("today is a good day", None, theirs, "eng")  # nltk.pos_tag's check
    with pytest.raises(TypeError, match="expected a list of strings, got a string"):
        ours.tag("today is a good day")
    # NLTK's own PerceptronTagger.tag does not check, and tags the characters: the bug refused here
    assert len(theirs.tag("today")) == len("today")


@pytest.mark.parametrize("bad", [None, 3, {"today"}, {"today": 1}, b"today"])
def test_tag_of_what_is_no_list_of_words_names_its_type(taggers, bad):
    """None gave Python's own "'NoneType' object is not iterable"; a set, words in no order."""
    with pytest.raises(
        PerceptronsError, match=rf"^tokens: expected a list of strings, got {type(bad).__name__}$"
    ) as exc:
        taggers[1].tag(bad)
    assert isinstance(exc.value, TypeError)


@pytest.mark.parametrize("bad", ["today is", ["today is", "a good day"]])
def test_tag_sents_of_str_raises_type_error(taggers, bad):
    ours = taggers[1]
    with pytest.raises(TypeError, match="got a string"):
        ours.tag_sents(bad)
    with pytest.raises(PerceptronsError):  # also the library's own error type
        ours.tag_sents(bad)


def test_accuracy_is_the_fraction_of_tokens_right(taggers):
    theirs, ours = taggers
    for tagger in taggers:
        predicted = tagger.tag_sents([[w for w, _ in s] for s in GOLD])
        right = sum(p == g for ps, gs in zip(predicted, GOLD) for p, g in zip(ps, gs))
        n = sum(len(s) for s in GOLD)
        acc = tagger.accuracy(GOLD)
        assert type(acc) is float and 0.0 <= acc <= 1.0
        assert acc == right / n
    # NLTK's own TaggerI.accuracy, run on our tagger, gives the same number
    assert nltk_api.TaggerI.accuracy(ours, GOLD) == ours.accuracy(GOLD)
    assert ours.evaluate(GOLD) == ours.accuracy(GOLD)
    assert ours.accuracy(CORPUS) == 1.0


def test_accuracy_of_no_tokens_is_refused(taggers):
    with pytest.raises(PerceptronsError, match="gold has no tokens"):
        taggers[1].accuracy([[]])


def test_train_and_fit_on_tagged_sentences_equal_fit_on_words_and_tags(tmp_path):
    words = [[w for w, _ in s] for s in CORPUS]
    tags = [[t for _, t in s] for s in CORPUS]
    plain = Tagger(min_count=1, max_epochs=3).fit(words, tags)
    tagged = Tagger(min_count=1, max_epochs=3).fit(iter(CORPUS))  # NLTK accepts an iterator
    trained = Tagger(min_count=1).train(CORPUS, save_loc=tmp_path / "t.npz", nr_iter=3)
    assert trained.max_epochs == 3
    new = [WORDS, ["Zyx", "flies", "like", "a", "boat"]]
    assert plain.predict(new) == tagged.predict(new) == trained.predict(new)
    assert load_model(tmp_path / "t.npz", expect="Tagger").tag_sents(new) == trained.tag_sents(new)


def test_fit_without_tags_needs_word_tag_pairs():
    with pytest.raises(PerceptronsError, match=r"sentences\[0\]\[0\] is 'The', not a \(word, tag\) pair"):
        Tagger().fit([["The", "man"]])
    with pytest.raises(TypeError, match="got a string"):
        Tagger().fit("The man")


@pytest.mark.parametrize("nr_iter", [0, 2.5, None])
def test_train_names_nr_iter(nr_iter):
    tagger = Tagger()
    with pytest.raises(PerceptronsError, match=r"^nr_iter must be an int"):
        tagger.train(CORPUS, nr_iter=nr_iter)
    assert tagger.max_epochs == 10


# GOLD with tags the tagger never predicts or that gold lacks: both zero-count conventions show
HARD_GOLD = GOLD + [[("Zyx", "FW"), ("man", "NN"), ("like", "IN"), ("old", "VBD")], [("flies", "NNS")]]


class _Fixed(nltk_api.TaggerI):
    """An NLTK tagger that answers with our tagger's tags: NLTK's own metrics are then the oracle."""

    def __init__(self, ours):
        self.ours = ours

    def tag(self, tokens):
        return self.ours.tag(tokens)


@pytest.mark.parametrize("gold", [GOLD, HARD_GOLD, CORPUS])
def test_per_tag_metrics_equal_nltks(taggers, gold):
    ours = taggers[1]
    oracle = _Fixed(ours)
    for name in ("precision", "recall", "f_measure"):
        got, expected = getattr(ours, name)(gold), getattr(oracle, name)(gold)
        assert list(got) == list(expected) and got == expected, name  # same keys, order and floats
    assert ours.f_measure(gold, alpha=0.2) == oracle.f_measure(gold, alpha=0.2)
    for kwargs in ({}, {"sort_by_count": True}, {"truncate": 3, "sort_by_count": True}, {"alpha": 0.9, "truncate": 0}):
        assert ours.evaluate_per_tag(gold, **kwargs) == oracle.evaluate_per_tag(gold, **kwargs)
    cm = ours.confusion(gold)
    assert type(cm) is type(oracle.confusion(gold)) and str(cm) == str(oracle.confusion(gold))


def test_per_tag_metrics_by_hand(taggers):
    ours = taggers[1]
    gold = [[(w, "X") for w in WORDS]]  # a tag the tagger never predicts: recall and F 0 for it
    predicted = [t for _, t in ours.tag(WORDS)]
    assert ours.recall(gold)["X"] == 0.0 and ours.precision(gold)["X"] == 0.0
    assert set(ours.precision(gold)) == {"X", *predicted}
    assert all(v == 0.0 for v in ours.f_measure(gold).values())
    right = [[(w, t) for w, t in ours.tag(WORDS)]]
    assert set(ours.f_measure(right).values()) == {1.0}
    table = ours.evaluate_per_tag(right, truncate=1).splitlines()
    assert table[0].endswith("Tag | Prec.  | Recall | F-measure") and len(table) == 3


@pytest.mark.parametrize(
    "call", [lambda t: t.tag([1, 2]), lambda t: t.tag(["the", None]), lambda t: t.tag_sents([[1, 2]])]
)
def test_a_word_that_is_not_a_string_is_a_type_error(taggers, call):
    """NLTK raises ``TypeError`` there, and code written for it catches that (ours was a
    ``ValueError`` only)."""
    with pytest.raises(TypeError, match="must be a list of word strings"):
        call(taggers[1])


def test_save_loc_is_checked_before_training(tmp_path):
    tagger = Tagger(max_epochs=1)
    with pytest.raises(PerceptronsError, match="directory"):
        tagger.train(GOLD, save_loc=tmp_path, nr_iter=1)
    assert not hasattr(tagger, "model_")  # refused before the fit, not after it


def test_scikit_learn_model_selection_takes_a_tagger():
    """scikit-learn's tools read an estimator's tags (``Tagger`` had none: an AttributeError in
    ``cross_val_score``, ``GridSearchCV``, ``is_classifier`` and the HTML repr) and score it
    with ``score(X, y)``: token accuracy here."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from sklearn.utils import estimator_html_repr

    words = [[w for w, _ in s] for s in GOLD] * 3
    tags = [[t for _, t in s] for s in GOLD] * 3
    scores = cross_val_score(Tagger(max_epochs=2), words, tags, cv=2)
    assert scores.shape == (2,) and ((0 <= scores) & (scores <= 1)).all()
    search = GridSearchCV(Tagger(max_epochs=2), {"decoder": ["greedy", "viterbi"]}, cv=2).fit(words, tags)
    assert search.best_params_["decoder"] in ("greedy", "viterbi")
    assert not is_classifier(Tagger()) and "Tagger" in estimator_html_repr(Tagger(max_epochs=2))
    fitted = Tagger(max_epochs=2).fit(words, tags)
    assert fitted.score(words, tags) == fitted.accuracy([list(zip(w, t)) for w, t in zip(words, tags)])


def test_per_tag_metrics_of_number_tags():
    # a tagger fitted on number tags is scored per tag as on text tags (it was refused)
    gold = [[(w, len(w)) for w in WORDS]] * 3
    tagger = Tagger(max_epochs=3).train(gold, nr_iter=3)
    right = [[(w, t) for w, t in tagger.tag(WORDS)]]
    assert set(tagger.f_measure(right).values()) == {1.0}
    assert tagger.precision(gold).keys() == {len(w) for w in WORDS}
    table = tagger.evaluate_per_tag(right).splitlines()
    assert len(table) == 2 + len({t for _, t in right[0]}) and table[2].split("|")[0].strip().isdigit()


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda t: t.f_measure(GOLD, alpha=1.5), r"^alpha must be a float in the range \[0, 1\]"),
        (lambda t: t.evaluate_per_tag(GOLD, alpha=float("nan")), "^alpha must be"),
        (lambda t: t.evaluate_per_tag(GOLD, truncate=-1), r"^truncate must be None or an int"),
        (lambda t: t.evaluate_per_tag(GOLD, truncate=2.5), r"^truncate must be None or an int"),
        (lambda t: t.precision([[]]), "gold has no tokens"),
        (lambda t: t.recall([[("man", 3)]]), r"^gold: tags of types int, str cannot be compared"),
        (lambda t: t.recall([[("man", ("NOUN",))]]), r"^gold: a tag must be a str or a number; found tuple"),
        (lambda t: t.evaluate_per_tag("The man"), "got a string"),
    ],
)
def test_per_tag_metrics_refuse_bad_arguments(taggers, call, match):
    with pytest.raises(PerceptronsError, match=match):
        call(taggers[1])


def test_confusion_without_nltk_says_so(taggers, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "nltk.metrics", None)  # import fails as if NLTK were absent
    with pytest.raises(PerceptronsError, match=r"NLTK's ConfusionMatrix, and NLTK is not installed"):
        taggers[1].confusion(GOLD)
    assert taggers[1].recall(GOLD)  # the others need no NLTK


def test_brill_transformation_learning_starts_from_our_tagger(taggers):
    # NLTK's Brill trainer takes any tagger with tag(); its rules then correct ours
    brill = pytest.importorskip("nltk.tag.brill")
    brill_trainer = pytest.importorskip("nltk.tag.brill_trainer")
    ours = taggers[1]
    trained = brill_trainer.BrillTaggerTrainer(ours, brill.fntbl37(), trace=0).train(CORPUS, max_rules=10)
    assert trained.accuracy(CORPUS) >= ours.accuracy(CORPUS)
    assert_tagged(trained.tag(WORDS), WORDS)


def assert_tagged_with_conf(result, words):
    assert type(result) is list and len(result) == len(words)
    for triple, word in zip(result, words):
        assert type(triple) is tuple and len(triple) == 3
        assert triple[0] == word and type(triple[1]) is str
        assert isinstance(triple[2], float) and 0 < triple[2] <= 1


def test_tag_with_return_conf_returns_what_nltk_returns(taggers):
    theirs, ours = taggers
    for tagger in taggers:
        assert_tagged_with_conf(tagger.tag(WORDS, return_conf=True), WORDS)
        assert_tagged(tagger.tag(WORDS, use_tagdict=False), WORDS)
        assert tagger.tag([], return_conf=True) == []
    assert [(w, t) for w, t, _ in ours.tag(WORDS, return_conf=True)] == ours.tag(WORDS)


@pytest.mark.slow
@pytest.mark.parametrize(
    "params",
    [{}, {"decoder": "greedy"}, {"markov_order": 2}, {"edges": "l[-1],l[0]", "edge_min_count": 1}],
    ids=["viterbi", "greedy", "markov_order=2", "edges"],
)
def test_return_conf_keeps_the_tags_and_gives_the_models_probabilities(params, tmp_path):
    tagger = Tagger(min_count=1, max_epochs=4, **params).train(CORPUS, nr_iter=4, save_loc=tmp_path / "m.npz")
    words = [w for w, _ in CORPUS[1]] + ["unseen"]
    tagged = tagger.tag(words, return_conf=True)
    assert [(w, t) for w, t, _ in tagged] == tagger.tag(words)
    assert load_model(tmp_path / "m.npz").tag(words, return_conf=True) == tagged
    # the model's probabilities of the tagger's emission scores
    model, fm = tagger.model_, tagger.features_
    tok, types, lengths = corpus_types([words])
    scores = fm.scores(tok, types, lengths, model.emission_weights())
    X_edge = None if tagger.edge_features_ is None else tagger.edge_features_.transform_types(tok, types, lengths)[0]
    tags, conf = model.predict_from_scores(scores, lengths, X_edge, return_conf=True)
    assert tags.tolist() == [t for _, t, _ in tagged] and conf.tolist() == [p for _, _, p in tagged]


def test_tag_dictionary_words_are_certain_unless_the_dictionary_is_off():
    tagger = Tagger(min_count=1, tag_dict=True, tag_dict_min_count=1, tag_dict_ratio=0.5).train(CORPUS * 3)
    words = ["The", "old", "man", "saw", "a", "banana", "."]
    assert tagger.tagdict_, "the corpus gives words a fixed tag"
    for word, tag, conf in tagger.tag(words, return_conf=True):
        if word in tagger.tagdict_:
            assert tag == tagger.tagdict_[word] and conf == 1.0
    # off: every word is tagged by the weights, as by a tagger without the dictionary
    free = copy.deepcopy(tagger)
    free.tagdict_ = {}
    free._word_cache = None
    assert tagger.tag(words, use_tagdict=False) == free.tag(words)
    assert [(w, t) for w, t, _ in tagger.tag(words, return_conf=True, use_tagdict=False)] == free.tag(words)


@pytest.mark.parametrize("option", ["return_conf", "use_tagdict"])
@pytest.mark.parametrize("value", [1, "yes", None])
def test_tag_options_must_be_bools(taggers, option, value):
    with pytest.raises(PerceptronsError, match=f"The '{option}' parameter must be a bool. Got {value!r} instead."):
        taggers[1].tag(WORDS, **{option: value})


@pytest.mark.parametrize(
    "params",
    [{}, {"decoder": "greedy"}, {"edges": "l[-1],l[0]", "edge_min_count": 1}],
    ids=["viterbi", "greedy", "edges"],
)
def test_predict_return_conf_equals_tag_one_sentence_a_call(params, monkeypatch):
    from perceptrons.structured import _word_cache

    tagger = Tagger(min_count=1, max_epochs=4, **params).train(CORPUS, nr_iter=4)
    sents = [[w for w, _ in s] for s in GOLD + CORPUS] + [[], ["unseen", "words", "here"]]
    # a cache that holds few rows: the batch is cut in several runs, and refilled between them
    monkeypatch.setattr(_word_cache, "MAX_BYTES", 12 * tagger.model_.classes_.shape[0] * 8)
    tags, conf = tagger.predict(sents, return_conf=True)
    if tagger._words() is not None:
        assert len(list(tagger._words().batches(np.array([len(s) for s in sents])))) > 2
    assert tags == tagger.predict(sents)
    assert [len(c) for c in conf] == [len(s) for s in sents]
    for words, t, c in zip(sents, tags, conf):
        assert [(w, tag, p) for w, tag, p in tagger.tag(words, return_conf=True)] == list(zip(words, t, c))
    assert tagger.predict([[], []], return_conf=True) == ([[], []], [[], []])
    assert (
        tagger.predict(sents, return_conf=np.False_) == tags and tagger.predict(sents, return_conf=np.True_)[0] == tags
    )
    with pytest.raises(PerceptronsError, match="The 'return_conf' parameter must be a bool. Got 'yes' instead."):
        tagger.predict(sents, return_conf="yes")
    # the word is named by its place in the call, not in the run of the cache that found it
    for conf in (True, False):
        with pytest.raises(PerceptronsError, match=r"sentences\[7\] must be a list of word strings"):
            tagger.predict(sents[:7] + [["b", 3]], return_conf=conf)

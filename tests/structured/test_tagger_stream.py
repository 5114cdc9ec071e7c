"""Tagger.fit_stream: CoNLL-U read a chunk at a time, the in-memory fit's model exactly.

The identity matrix: every parameter set of ``PARAMS`` × chunk sizes 1, 7, 1000 on small synthetic
corpora, and × chunk size 1000 (7 for the defaults) on the first 3,000 sentences of EWT train;
then the feature-map and sequence-model pieces alone, refusals, the CLI, and memory.
"""

import itertools
import os
import signal
import weakref
from functools import cache

import numpy as np
import pytest
import scipy.sparse as sp

from perceptrons import SequencePerceptron, Tagger, load_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.io.conllu import iter_conllu
from perceptrons.io.conllu_stream import stream_conllu
from perceptrons.structured import tagger_stream
from perceptrons.structured._sequence_model import SequenceModel
from perceptrons.structured.features import FeatureMap
from perceptrons.structured.words import corpus_types

# Short runs on data that are not separable, by design here: not converging is expected.
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

PARAMS = {
    "defaults": {},
    "min_count=1": {"min_count": 1},
    "min_count=3": {"min_count": 3},
    "rare_count=5": {"rare_count": 5},
    "tag_dict": {"tag_dict": True, "tag_dict_min_count": 5},
    "edges": {"edges": "l[-1],l[0],s3[-1]|s3[0]", "edge_min_count": 2},
    "markov_order=2": {"markov_order": 2, "templates": "basic"},
    "greedy, not averaged": {"decoder": "greedy", "averaged": False, "templates": "l[0],s2[0],l[-1]|l[0]"},
}
EWT_SENTENCES = 3000


# ----------------------------------------------------------------------------- corpora
def write_conllu(path, sentences, tags):
    lines = []
    for k, (words, ts) in enumerate(zip(sentences, tags)):
        lines.append(f"# sent_id = {k}")
        lines += [f"{i}\t{w}\t_\t{t}\t_\t_\t0\tdep\t_\t_" for i, (w, t) in enumerate(zip(words, ts), 1)]
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# words with their possible tags: ambiguous words, spelling and context features, rare words
LEXICON = {
    "the": ["DET"],
    "a": ["DET"],
    "The": ["DET"],
    "dog": ["NOUN"],
    "dogs": ["NOUN"],
    "walks": ["VERB", "NOUN"],
    "flies": ["VERB", "NOUN"],
    "like": ["ADP", "VERB"],
    "time": ["NOUN", "VERB"],
    "3-D": ["ADJ"],
    "2021": ["NUM"],
    "USA": ["PROPN"],
    "re-ran": ["VERB"],
    "quickly": ["ADV"],
    "banana": ["NOUN"],
    ".": ["PUNCT"],
    "!": ["PUNCT"],
    "it": ["PRON"],
    "Zyx": ["PROPN", "X"],
    "ran": ["VERB"],
}


def synthetic(seed, n_sentences=90):
    rng = np.random.default_rng(seed)
    words = list(LEXICON)
    zipf = 1 / np.arange(1, len(words) + 1)
    sents, tags = [], []
    for _ in range(n_sentences):
        n = int(rng.integers(1, 12))
        ws = [words[i] for i in rng.choice(len(words), size=n, p=zipf / zipf.sum())]
        sents.append(ws)
        tags.append([LEXICON[w][int(rng.integers(len(LEXICON[w])))] for w in ws])
    return sents, tags


@pytest.fixture(scope="module", params=[0, 1], ids=["synthetic0", "synthetic1"])
def small(request, tmp_path_factory):
    sents, tags = synthetic(request.param)
    return write_conllu(tmp_path_factory.mktemp("small") / "s.conllu", sents, tags), sents, tags


@pytest.fixture(scope="module")
def ewt(shared_data, tmp_path_factory):
    """The first sentences of EWT train, as a file of their own."""
    sents = list(
        itertools.islice(iter_conllu(shared_data("ud-english-ewt") / "train.conllu", keep_lines=False), EWT_SENTENCES)
    )
    words, tags = [s.words for s in sents], [s.tags for s in sents]
    return write_conllu(tmp_path_factory.mktemp("ewt") / "ewt.conllu", words, tags), words, tags


@cache
def in_memory(path, params_name, max_epochs=3):
    """The in-memory fit (cached: several chunk sizes are compared with one fit)."""
    sents = list(iter_conllu(path, keep_lines=False))
    return Tagger(shuffle=False, max_epochs=max_epochs, **PARAMS[params_name]).fit(
        [s.words for s in sents], [s.tags for s in sents]
    )


def assert_same_tagger(a, b, sentences):
    """Same features, tag dictionary, weights (bit for bit), training record and predictions."""
    for fa, fb in ((a.features_, b.features_), (a.edge_features_, b.edge_features_)):
        assert (fa is None) == (fb is None)
        if fa is None:
            continue
        assert list(fa.vocab_) == list(fb.vocab_) and fa.n_values_ == fb.n_values_
        for name in ("keys_", "ptr_", "type_table_", "type_counts_"):
            x, y = getattr(fa, name), getattr(fb, name)
            assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.tagdict_ == b.tagdict_
    ma, mb = a.model_, b.model_
    for name in ("classes_", "coef_", "coef_trans_", "coef_edge_", "coef_trans2_", "coef_init_", "coef_final_"):
        x, y = getattr(ma, name), getattr(mb, name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), name
    for name in ("mistakes_per_epoch_", "token_mistakes_per_epoch_", "n_epochs_", "best_epoch_", "converged_"):
        assert getattr(ma, name) == getattr(mb, name), name
    assert a.predict(sentences) == b.predict(sentences)


# ----------------------------------------------------------------------------- identity
@pytest.mark.parametrize("chunk", [1, 7, 1000])
@pytest.mark.parametrize("params_name", list(PARAMS))
def test_synthetic_identical_to_in_memory_fit(small, params_name, chunk):
    path, sents, _ = small
    streamed = Tagger(shuffle=False, max_epochs=3, **PARAMS[params_name]).fit_stream(path, chunk_sentences=chunk)
    assert_same_tagger(in_memory(str(path), params_name), streamed, sents[:30] + [["unseen", "Words", "here"]])


@pytest.mark.data
@pytest.mark.parametrize(
    ("params_name", "chunk"),
    [pytest.param("defaults", 7, marks=pytest.mark.slow), *((name, 1000) for name in PARAMS)],
    ids=lambda v: str(v),
)
def test_ewt_identical_to_in_memory_fit(ewt, params_name, chunk):
    path, words, _ = ewt
    streamed = Tagger(shuffle=False, max_epochs=3, **PARAMS[params_name]).fit_stream(path, chunk_sentences=chunk)
    reference = in_memory(str(path), params_name)
    assert len(reference.features_.keys_) > 1000 and reference.model_.mistakes_per_epoch_[-1] > 0
    assert_same_tagger(reference, streamed, words[:300])


@pytest.mark.data
def test_ewt_tag_dict_with_default_thresholds(ewt):
    path, words, tags = ewt
    reference = Tagger(shuffle=False, max_epochs=2, tag_dict=True).fit(words, tags)
    streamed = Tagger(shuffle=False, max_epochs=2, tag_dict=True).fit_stream(path, chunk_sentences=777)
    assert len(reference.tagdict_) > 100
    assert_same_tagger(reference, streamed, words[:200])


def test_several_files_are_one_corpus_in_order(small, tmp_path):
    _, sents, tags = small
    first = write_conllu(tmp_path / "a.conllu", sents[:37], tags[:37])
    second = write_conllu(tmp_path / "b.conllu", sents[37:], tags[37:])
    streamed = Tagger(shuffle=False, max_epochs=3).fit_stream([first, str(second)], chunk_sentences=10)
    reference = Tagger(shuffle=False, max_epochs=3).fit(sents, tags)
    assert_same_tagger(reference, streamed, sents)


def test_clusters_and_xpos(tmp_path):
    sents, tags = synthetic(2)
    lines = []
    for words, ts in zip(sents, tags):
        lines += [f"{i}\t{w}\t_\t_\tX{t}\t_\t0\tdep\t_\t_" for i, (w, t) in enumerate(zip(words, ts), 1)]
        lines.append("")
    path = tmp_path / "x.conllu"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths = tmp_path / "paths"
    paths.write_text("00\tthe\t9\n00\ta\t5\n01\tdog\t4\n01\tdogs\t4\n1\tflies\t2\n", encoding="utf-8")
    params = {"clusters": str(paths), "shuffle": False, "max_epochs": 2}
    streamed = Tagger(**params).fit_stream(path, column="xpos", chunk_sentences=4)
    reference = Tagger(**params).fit(sents, [[f"X{t}" for t in ts] for ts in tags])
    assert any(t.startswith("bc") for t in streamed.features_.templates)
    assert_same_tagger(reference, streamed, sents)


def test_convergence_and_callback_stop_as_in_fit(tmp_path):
    words = [["the", "dog", "walks"], ["a", "dog", "runs"], ["the", "cat", "runs"]] * 4
    tags = [["DET", "NOUN", "VERB"]] * 12
    path = write_conllu(tmp_path / "sep.conllu", words, tags)
    streamed = Tagger(shuffle=False, max_epochs=20).fit_stream(path, chunk_sentences=5)
    reference = Tagger(shuffle=False, max_epochs=20).fit(words, tags)
    assert streamed.model_.converged_ and streamed.model_.n_epochs_ < 20
    assert_same_tagger(reference, streamed, words)

    seen = []

    def stop(epoch, mistakes, elapsed):
        seen.append((epoch, mistakes))
        return False

    sents, tags = synthetic(3)
    path = write_conllu(tmp_path / "cb.conllu", sents, tags)
    streamed = Tagger(shuffle=False, max_epochs=5).fit_stream(path, chunk_sentences=8, callback=stop)
    assert streamed.model_.n_epochs_ == 1 and seen == [(1, streamed.model_.mistakes_per_epoch_[0])]
    reference = Tagger(shuffle=False, max_epochs=5).fit(sents, tags, callback=lambda *a: False)
    assert_same_tagger(reference, streamed, sents)


# ----------------------------------------------------------------------------- the pieces
@pytest.mark.parametrize("chunk", [1, 3, 50])
@pytest.mark.parametrize(("templates", "min_count", "rare_count"), [("rich", 2, 0), ("basic", 1, 3), ("rich", 3, 4)])
def test_feature_map_chunks_equal_fit_transform(chunk, templates, min_count, rare_count):
    sents, _ = synthetic(4, 60)
    reference = FeatureMap(templates, min_count, rare_count)
    X, _ = reference.fit_transform(sents)
    fm = FeatureMap(templates, min_count, rare_count).begin_fit()
    chunks = [corpus_types(sents[i : i + chunk]) for i in range(0, len(sents), chunk)]
    for tok, types, _ in chunks:
        fm.add_types(tok, types)
    fm.end_types()
    for tok, types, lengths in reversed(chunks):  # counting keys does not depend on the order
        fm.add_keys(tok, types, lengths)
    fm.end_keys()
    assert list(fm.vocab_) == list(reference.vocab_)
    for name in ("keys_", "ptr_", "type_table_", "type_counts_"):
        assert np.array_equal(getattr(fm, name), getattr(reference, name)), name
    # the matrices the epochs train on: the chunks' rows, stacked, are fit_transform's
    stacked = sp.vstack([fm.transform_types(*c)[0] for c in chunks]).tocsr()
    assert np.array_equal(stacked.indptr, X.indptr) and np.array_equal(stacked.indices, X.indices)


def test_feature_map_needs_types_first():
    fm = FeatureMap("basic").begin_fit()
    with pytest.raises(PerceptronsError, match="no tokens"):
        fm.end_types()
    fm = FeatureMap("basic").begin_fit()
    fm.add_types(*corpus_types([["a", "b"]])[:2])
    fm.end_types()
    with pytest.raises(PerceptronsError, match="not seen by add_types"):
        fm.add_keys(*corpus_types([["a", "c"]]))


@pytest.mark.parametrize("averaged", [True, False])
def test_sequence_blocks_equal_fit(averaged):
    rng = np.random.default_rng(5)
    lengths = rng.integers(1, 8, size=40)
    X = sp.random(int(lengths.sum()), 30, density=0.2, format="csr", random_state=6)
    X.data[:] = 1
    y = rng.choice(np.array(["A", "B", "C"]), size=X.shape[0])
    E = sp.random(X.shape[0], 4, density=0.3, format="csr", random_state=7)
    E.data[:] = 1
    ref = SequencePerceptron(max_epochs=4, averaged=averaged).fit(X, y, lengths, X_edge=E)
    model = SequencePerceptron(max_epochs=4, averaged=averaged).begin_epochs(
        ["A", "B", "C"], 30, 4, n_tokens=X.shape[0]
    )
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    for _ in range(4):
        counts = np.zeros(2, dtype=np.int64)
        for lo, hi in ((0, 9), (9, 10), (10, 40)):  # blocks of sequences
            a, b = offsets[lo], offsets[hi]
            counts += model.fit_block(X[a:b], y[a:b], lengths[lo:hi], X_edge=E[a:b])
        model.end_epoch(*counts)
    for name in ("coef_", "coef_trans_", "coef_edge_", "coef_init_", "coef_final_", "mistakes_per_epoch_"):
        assert np.array_equal(getattr(model, name), getattr(ref, name)), name
    assert model.coef_.dtype == ref.coef_.dtype


def test_sequence_blocks_refusals():
    X, y = sp.csr_matrix(np.eye(2)), np.array(["A", "B"])
    with pytest.raises(PerceptronsError, match="begin_epochs"):
        SequencePerceptron().fit_block(X, y)
    with pytest.raises(PerceptronsError, match="shuffle=False"):
        SequencePerceptron(shuffle=True).begin_epochs(["A", "B"], 2)
    model = SequencePerceptron().begin_epochs(["A", "B"], 2, n_tokens=2)
    with pytest.raises(PerceptronsError, match="not binary"):
        model.fit_block(sp.csr_matrix(np.eye(2) * 2), y)
    with pytest.raises(PerceptronsError, match="not in classes"):
        model.fit_block(X, np.array(["A", "Q"]))


# ----------------------------------------------------------------------------- refusals
def test_refusals(small, tmp_path):
    path = small[0]
    with pytest.raises(PerceptronsError, match="file order") as exc:
        Tagger().fit_stream(path)
    assert "shuffle=False" in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(PerceptronsError, match="patience=None"):
        Tagger(shuffle=False, patience=2).fit_stream(path)
    with pytest.raises(PerceptronsError, match="'chunk_sentences' parameter"):
        Tagger(shuffle=False).fit_stream(path, chunk_sentences=0)
    with pytest.raises(PerceptronsError, match="no such file"):
        Tagger(shuffle=False).fit_stream(tmp_path / "none.conllu")
    with pytest.raises(PerceptronsError, match="not a regular file"):
        Tagger(shuffle=False).fit_stream(tmp_path)
    with pytest.raises(PerceptronsError, match="no CoNLL-U file"):
        Tagger(shuffle=False).fit_stream([])
    with pytest.raises(PerceptronsError, match="'column' parameter of Tagger.fit_stream must be one of"):
        Tagger(shuffle=False).fit_stream(path, column="lemma")
    with pytest.raises(PerceptronsError, match="'max_epochs' parameter"):
        Tagger(shuffle=False, max_epochs=0).fit_stream(path)


def test_missing_tags_are_refused_as_the_cli_does(tmp_path):
    sents, tags = synthetic(6, 20)
    empty = write_conllu(tmp_path / "e.conllu", sents, [["_"] * len(t) for t in tags])
    with pytest.raises(PerceptronsError, match=r"the upos column is empty \('_' on every token\)"):
        Tagger(shuffle=False).fit_stream(empty)
    tags[3][0] = "_"
    partial = write_conllu(tmp_path / "p.conllu", sents, tags)
    n = sum(map(len, tags))
    with pytest.raises(PerceptronsError, match=rf"p.conllu:\d+: the upos column is '_' on 1 of {n} tokens"):
        Tagger(shuffle=False).fit_stream(partial, chunk_sentences=2)


@pytest.mark.parametrize("how", ["appended to", "replaced by a copy", "removed"])
def test_a_file_changed_between_epochs_is_refused(tmp_path, how):
    """Each epoch reads the file again: one edited, replaced (even by the same bytes) or removed
    after the fit began is refused, rather than training on two versions of the data."""
    sents, tags = synthetic(8, 40)
    path = write_conllu(tmp_path / "t.conllu", sents, tags)
    text = open(path, "rb").read()

    def change(epoch, mistakes, seconds):
        if epoch == 2:
            if how == "appended to":
                with open(path, "ab") as f:
                    f.write(text[: text.index(b"\n\n") + 2])
            elif how == "replaced by a copy":
                with open(tmp_path / "new", "wb") as f:
                    f.write(text)
                os.replace(tmp_path / "new", path)
            else:
                os.remove(path)

    with pytest.raises(PerceptronsError, match=r"t.conllu: changed while the tagger trained on it"):
        Tagger(shuffle=False, max_epochs=5).fit_stream(path, chunk_sentences=7, callback=change)


def test_a_file_changed_after_the_survey_is_refused(tmp_path, monkeypatch):
    """The feature maps come from the first two passes: a file changed after them is refused
    at the start of the first epoch."""
    sents, tags = synthetic(8, 40)
    path = write_conllu(tmp_path / "t.conllu", sents, tags)
    learn = Tagger.learn_features_from

    def learn_then_change(*args, **kwargs):
        out = learn(*args, **kwargs)
        with open(path, "ab") as f:
            f.write(b"\n")
        return out

    monkeypatch.setattr(Tagger, "learn_features_from", learn_then_change)
    with pytest.raises(PerceptronsError, match="changed while the tagger trained on it"):
        Tagger(shuffle=False, max_epochs=5).fit_stream(path)


# ----------------------------------------------------------------------------- CLI
@pytest.fixture
def train_file(tmp_path):
    sents, tags = synthetic(7, 60)
    return write_conllu(tmp_path / "train.conllu", sents, tags), sents, tags


def test_cli_stream_trains_the_streamed_model(run_cli, train_file, tmp_path):
    path, sents, tags = train_file
    model = tmp_path / "m.npz"
    code, out, err = run_cli(
        ["tag", "train", str(path), "--stream", "--chunk-sentences", "7", "--epochs", "3", "-o", str(model)]
    )
    assert code == 0, err
    assert "read in chunks of 7 sentences" in out
    reference = Tagger(shuffle=False, max_epochs=3).fit(sents, tags)
    back = load_model(model, expect="Tagger")
    assert back.predict(sents) == reference.predict(sents)
    per_epoch = " ".join(map(str, reference.model_.mistakes_per_epoch_))
    assert f"sentences wrong per epoch {per_epoch}" in out


def test_cli_stream_usage_errors(run_cli, train_file, tmp_path):
    path = str(train_file[0])
    model = tmp_path / "m.npz"
    for extra, says in (
        (["--stream", "--dev", path], "--dev"),
        (["--stream", "--patience", "2"], "--patience"),
        (["--chunk-sentences", "5"], "--stream"),
        (["--stream", "--seed", "3"], "--seed: applies only without --stream"),  # nothing is shuffled
    ):
        code, _, err = run_cli(["tag", "train", path, *extra, "-o", str(model)])
        assert code == 2 and says in err and err.count("\n") == 1, err
    code, _, err = run_cli(["tag", "train", path, "--stream", "--chunk-sentences", "0", "-o", str(model)])
    assert code == 2
    code, _, err = run_cli(["tag", "train", str(tmp_path / "none.conllu"), "--stream", "-o", str(model)])
    assert code == 2 and "no such file" in err
    assert not model.exists()


def test_cli_stream_ctrl_c_between_epochs_writes_nothing(run_cli, train_file, tmp_path, monkeypatch):
    path = str(train_file[0])
    model = tmp_path / "m.npz"
    end_epoch = SequenceModel.end_epoch  # the model a Tagger trains
    epochs = []

    def ctrl_c_after_first_epoch(self, *args):
        epochs.append(1)
        if len(epochs) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # the handler only sets a flag: checked after the epoch
        return end_epoch(self, *args)

    monkeypatch.setattr(SequenceModel, "end_epoch", ctrl_c_after_first_epoch)
    code, _, err = run_cli(["tag", "train", path, "--stream", "--epochs", "5", "-o", str(model)])
    assert code == 130 and "nothing was written" in err
    assert len(epochs) == 1 and not model.exists()


# ----------------------------------------------------------------------------- memory
@pytest.mark.slow
@pytest.mark.data
def test_stream_holds_a_chunk_of_sentences_at_a_time(shared_data, tmp_path, monkeypatch):
    """EWT train twice (25,000 sentences): count the sentences' word lists alive at once."""
    text = (shared_data("ud-english-ewt") / "train.conllu").read_text(encoding="utf-8")
    big = tmp_path / "big.conllu"
    big.write_text(text + text, encoding="utf-8")

    class Words(list):  # a list that can be watched for its end
        pass

    alive = {"now": 0, "max": 0, "read": 0}

    def gone():
        alive["now"] -= 1

    def watched(path, column="upos", keep_lines=True):
        for s in stream_conllu(path, column, keep_lines, block_bytes=1 << 20):
            s.words = Words(s.words)
            weakref.finalize(s.words, gone)
            alive["now"] += 1
            alive["read"] += 1
            alive["max"] = max(alive["max"], alive["now"])
            yield s

    monkeypatch.setattr(tagger_stream, "stream_conllu", watched)
    tagger = Tagger(shuffle=False, max_epochs=1, templates="l[0],s3[0],l[-1]|l[0]")
    tagger.fit_stream(big, chunk_sentences=500)
    n = 2 * 12_544
    assert alive["read"] == 3 * n  # the vocabulary pass, the feature pass, one epoch
    # the chunk being read and, until it is replaced, the one before it
    assert alive["max"] <= 2 * 500 + 1, alive

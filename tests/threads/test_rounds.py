"""Training in threads that exchange their updates (perceptrons.threads.rounds): the structured
perceptron against its oracle, the exchange made exactly, determinism, and the tagger."""

import os
import signal
import threading
import time
import warnings

import numpy as np
import pytest
import reference as ref
import scipy.sparse as sp

from perceptrons import Tagger
from perceptrons.structured._sequence_model import SequenceModel
from perceptrons.structured._sequence_trainer import BLIND_WINDOW, MIX_EVERY, SequenceState, default_mix_every, threaded
from perceptrons.threads.rounds import Rounds, run_all


def corpus(seed=0, n_seq=12, n_features=6, n_tags=3):
    """Short sequences of binary features (the tag's own feature among them), as lists and as the
    model's matrices."""
    rng = np.random.default_rng(seed)
    seqs, rows, tags, lengths = [], [], [], []
    for _ in range(n_seq):
        y = rng.integers(0, n_tags, size=int(rng.integers(1, 5))).tolist()
        toks = []
        for t in y:
            feats = {int(f): 1.0 for f in rng.choice(n_features, size=2, replace=False)}
            if rng.random() < 0.8:
                feats[t] = 1.0
            toks.append(feats)
            row = np.zeros(n_features)
            row[list(feats)] = 1.0
            rows.append(row)
        seqs.append((toks, y))
        tags += y
        lengths.append(len(y))
    return seqs, sp.csr_matrix(np.array(rows)), np.array(tags), np.array(lengths)


def started(X, y, lengths, n_tags=3, markov_order=1, X_edge=None):
    """A model begun on the classes and widths, and the block of its data."""
    model = SequenceModel(markov_order=markov_order)
    state = model.begin(np.arange(n_tags), X.shape[1], 0 if X_edge is None else X_edge.shape[1])
    return model, state, model.operands(X, y, lengths, X_edge=X_edge)


def copy_of(state):
    return SequenceState(*(a.copy() for a in state))


@pytest.mark.parametrize("markov_order, edges", [(1, False), (1, True), (2, False)])
def test_another_copy_makes_the_same_updates(markov_order, edges):
    """The log of a pass, made on a copy that started alike, gives the very same arrays."""
    _, X, y, lengths = corpus(1, n_seq=30)
    X_edge = sp.random(X.shape[0], 4, density=0.4, random_state=2, format="csr") if edges else None
    if X_edge is not None:
        X_edge.data[:] = 1.0
    _, state, block = started(X, y, lengths, markov_order=markov_order, X_edge=X_edge)
    train, replay = threaded(True, "viterbi", block)
    chunk = np.random.default_rng(3).permutation(30)[:20].astype(np.int64)
    other = copy_of(state)
    (mistakes, wrong), log = train(state, chunk)
    assert mistakes > 0 and wrong >= mistakes
    replay(other, log)
    for name, a, b in zip(SequenceState._fields, state, other):
        if name != "count":  # the count is the engine's to set
            assert np.array_equal(a, b), name


def rounds_of(order, S, m):
    """The rounds the engine cuts an epoch's order into (its chunks, as it makes them)."""
    n = len(order)
    rounds = max(1, -(-n // (S * m)))
    return [
        [c.tolist() for c in np.array_split(order[k * n // rounds : (k + 1) * n // rounds], S)] for k in range(rounds)
    ]


@pytest.mark.parametrize("S, m", [(2, 2), (3, 1), (2, 5)])
def test_threads_equal_the_delayed_update_oracle(S, m):
    seqs, X, y, lengths = corpus(4, n_seq=14)
    _, state, block = started(X, y, lengths)
    copies = [state] + [copy_of(state) for _ in range(S - 1)]
    orders = [np.random.default_rng([5, e]).permutation(len(seqs)).astype(np.int64) for e in range(3)]
    with Rounds(copies, *threaded(True, "viterbi", block), m) as rounds:
        for order in orders:
            rounds.epoch(order)
            for c in copies[1:]:  # every copy ends an epoch with the same weights
                for name, a, b in zip(SequenceState._fields, state, c):
                    assert np.array_equal(a, b), name
    (W, trans, start, stop), mean = ref.delayed_structured_perceptron(
        seqs, X.shape[1], 3, [rounds_of(o, S, m) for o in orders]
    )
    assert state.W.tolist() == W
    assert state.trans.tolist() == trans
    assert state.start.tolist() == start and state.stop.tolist() == stop
    C = int(state.count[0])
    assert C == 3 * len(seqs)
    np.testing.assert_allclose(state.W - state.U / C, mean[0], atol=1e-12)
    np.testing.assert_allclose(state.trans - state.Utrans / C, mean[1], atol=1e-12)
    np.testing.assert_allclose(state.start - state.Ustart / C, mean[2], atol=1e-12)
    np.testing.assert_allclose(state.stop - state.Ustop / C, mean[3], atol=1e-12)


def test_a_thread_that_fails_is_waited_for_with_the_others():
    """An error in one thread reaches the caller only once every other thread has finished:
    none is left writing to a state while the fit unwinds."""
    from concurrent.futures import ThreadPoolExecutor

    done = []

    def slow():
        time.sleep(0.3)
        done.append(True)

    def fail():
        raise ValueError("in a thread")

    with ThreadPoolExecutor(2) as pool, pytest.raises(ValueError, match="in a thread"):
        run_all(pool, [(fail,), (slow,)])
    assert done == [True]


# ----------------------------------------------------------------------------- the tagger
def sentences(n, seed=0):
    """``n`` tagged sentences of a small made-up language in which a word's tag follows its form."""
    rng = np.random.default_rng(seed)
    stems = ["kal", "mor", "ten", "vis", "dap", "ruk", "sol", "fen"]
    out = []
    for _ in range(n):
        words, tags = [], []
        for _ in range(int(rng.integers(3, 9))):
            stem = stems[int(rng.integers(len(stems)))]
            kind = int(rng.integers(3))
            words.append(stem + ("a", "or", "ing")[kind])
            tags.append(("NOUN", "ADJ", "VERB")[kind] if rng.random() < 0.9 else "X")
        out.append((words, tags))
    return [w for w, _ in out], [t for _, t in out]


def test_a_tagger_in_threads_is_the_same_twice_and_one_thread_is_the_serial_fit():
    words, tags = sentences(2600)
    serial = Tagger(max_epochs=3).fit(words, tags)
    one = Tagger(max_epochs=3, n_jobs=1).fit(words, tags)
    assert np.array_equal(serial.model_.coef_, one.model_.coef_)
    a = Tagger(max_epochs=3, n_jobs=2).fit(words, tags)
    b = Tagger(max_epochs=3, n_jobs=2).fit(words, tags)
    assert np.array_equal(a.model_.coef_, b.model_.coef_)
    assert np.array_equal(a.model_.coef_trans_, b.model_.coef_trans_)
    assert a.model_.mistakes_per_epoch_ == b.model_.mistakes_per_epoch_
    assert a.model_.coef_.dtype == serial.model_.coef_.dtype  # float32 stays exact: integer updates
    assert a.score(words[:300], tags[:300]) > 0.85


def test_a_tagger_s_mix_every_sets_its_rounds():
    """``mix_every`` replaces the default 1,024 sentences a round: the same twice, another
    model than the default's, and a corpus of no more than ``mix_every`` sentences trains in one
    thread, as the serial fit."""
    words, tags = sentences(1500)
    default = Tagger(max_epochs=2, n_jobs=2).fit(words, tags)
    a, b = (Tagger(max_epochs=2, n_jobs=2, mix_every=100).fit(words, tags) for _ in range(2))
    assert np.array_equal(a.model_.coef_, b.model_.coef_)
    assert not np.array_equal(a.model_.coef_, default.model_.coef_)
    assert a.model_.mix_every == 100
    serial = Tagger(max_epochs=2).fit(words, tags)
    whole = Tagger(max_epochs=2, n_jobs=2, mix_every=1500).fit(words, tags)
    assert np.array_equal(serial.model_.coef_, whole.model_.coef_)


def test_ctrl_c_during_a_fit_in_threads_writes_nothing(run_cli, tmp_path, monkeypatch):
    """SIGINT while the threads train: the epoch ends, the fit stops, no model file."""
    import perceptrons.structured._sequence_trainer as trainer

    words, tags = sentences(2600)
    path = tmp_path / "train.conllu"
    with open(path, "w", encoding="utf-8") as f:
        for ws, ts in zip(words, tags):
            for i, (w, t) in enumerate(zip(ws, ts), 1):
                f.write(f"{i}\t{w}\t_\t{t}\t_\t_\t_\t_\t_\t_\n")
            f.write("\n")
    run_pass = trainer.run_pass
    sent = []

    def interrupted(*args, **kw):
        if threading.current_thread() is not threading.main_thread() and not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)  # the handler sets a flag; checked after the epoch
        return run_pass(*args, **kw)

    monkeypatch.setattr(trainer, "run_pass", interrupted)
    model = tmp_path / "m.npz"
    code, _, err = run_cli(["tag", "train", str(path), "--n-jobs", "2", "--epochs", "5", "-o", str(model)])
    assert sent and code == 130 and "nothing was written" in err
    assert not model.exists()


def test_tag_train_refuses_n_jobs_where_it_does_not_apply(run_cli, tmp_path):
    path = tmp_path / "t.conllu"
    path.write_text("1\ta\t_\tX\t_\t_\t_\t_\t_\t_\n\n", encoding="utf-8")
    code, _, err = run_cli(["tag", "train", str(path), "--stream", "--n-jobs", "2", "-o", str(tmp_path / "m.npz")])
    assert code == 2 and "--n-jobs: applies only to a fit in memory on this machine" in err


def test_tag_train_mix_every_goes_with_threads_or_a_cluster(run_cli, tmp_path):
    path = tmp_path / "t.conllu"
    words, tags = sentences(60)
    path.write_text(
        "".join(
            "".join(f"{i}\t{w}\t_\t{t}\t_\t_\t_\t_\t_\t_\n" for i, (w, t) in enumerate(zip(ws, ts), 1)) + "\n"
            for ws, ts in zip(words, tags)
        ),
        encoding="utf-8",
    )
    model = tmp_path / "m.npz"
    code, _, err = run_cli(["tag", "train", str(path), "--mix-every", "10", "-o", str(model)])
    assert code == 2 and "--mix-every: applies only with --n-jobs 2 or more (in memory), or --workers" in err
    code, _, err = run_cli(
        ["tag", "train", str(path), "--workers", "2", "--mix-every", "10", "--rounds", "2", "-o", str(model)]
    )
    assert code == 2 and "give --rounds or --mix-every, not both" in err
    code, _, err = run_cli(["tag", "train", str(tmp_path), "--n-jobs", "2", "-o", str(model)])
    assert code == 2 and "is a directory; a directory of CoNLL-U shards goes with --workers/--scheduler" in err
    assert not model.exists()
    code, _, err = run_cli(
        ["tag", "train", str(path), "--n-jobs", "2", "--mix-every", "10", "--epochs", "2", "-o", str(model)]
    )
    assert code == 0, err
    from perceptrons.persistence import load_model

    assert load_model(model).mix_every == 10


def test_three_threads_or_more_exchange_their_updates_within_a_few_sentences():
    """Beyond two threads the corrections of one error add up past twice the step it needs:
    EWT fell to 0.86 with four threads exchanging every 1,024 sentences (mix_every's notes)."""
    assert default_mix_every(2) == MIX_EVERY
    for S in range(3, 40):
        assert (S - 1) * default_mix_every(S) <= max(BLIND_WINDOW, S - 1) and default_mix_every(S) >= 1


@pytest.mark.slow
@pytest.mark.data
@pytest.mark.parametrize("threads", [2, 4])
def test_ewt_in_threads_keeps_the_serial_accuracy(shared_data, threads):
    """Two and four threads on EWT, four seeds: the mean test accuracy within 0.1 point of one thread's."""
    from perceptrons.io.conllu import read_conllu

    ewt = shared_data("ud-english-ewt")
    train, test = (
        read_conllu(ewt / f"{p}.conllu", "upos", require_tags=True, keep_lines=False) for p in ("train", "test")
    )
    words, tags = [s.words for s in train], [s.tags for s in train]
    tw, tt = [s.words for s in test], [s.tags for s in test]
    one = [Tagger(random_state=s).fit(words, tags).score(tw, tt) for s in range(4)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # more threads than this machine's cores
        many = [Tagger(random_state=s, n_jobs=threads).fit(words, tags).score(tw, tt) for s in range(4)]
    assert abs(np.mean(many) - np.mean(one)) <= 0.001, (one, many)

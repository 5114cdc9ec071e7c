"""Iterative parameter mixing for the structured perceptron: McDonald, Hall & Mann's own setting."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError, shown
from perceptrons._core.operands import is_binary, to_operand
from perceptrons._core.params import Options, check_param
from perceptrons.distributed._engine import connect
from perceptrons.distributed._inputs import (
    check_run,
    check_schedule,
    check_shards,
    default_workers,
    file_stamps,
    first_changed,
    looks_like_files,
    mixing_seed,
    split_rows,
)
from perceptrons.distributed._loop import Broadcast, Shards, rounds_for, run_epochs, scatter_one
from perceptrons.io.cache import file_stamp
from perceptrons.io.conllu_format import COLUMNS
from perceptrons.structured._sequence_trainer import SUMS, WEIGHTS, SequenceState, step
from perceptrons.structured.sequence import SequencePerceptron
from perceptrons.structured.tagger_stream import chunks
from perceptrons.structured.tagging import Tagger

if TYPE_CHECKING:
    from collections.abc import Callable

    from perceptrons.structured.sequence import SequencePerceptron
    from perceptrons.structured.tagging import Tagger


def fit_tagger(
    tagger: Tagger,
    sentences,
    tags=None,
    *,
    shards: int | None = None,
    column: str = "upos",
    client=None,
    n_workers: int | None = None,
    mixing: str = "error",
    callback: Callable[[int, int, float], object] | None = None,
    dashboard: bool | str = False,
    rounds: int = 1,
) -> Tagger:
    """Fit a :class:`~perceptrons.Tagger` by iterative parameter mixing on a Dask cluster.

    The feature maps and the tag dictionary are learnt on the client, as :meth:`Tagger.fit`
    learns them (from files: two streamed passes, as :meth:`Tagger.fit_stream`).  The sentences
    are split into S shards that stay on the workers — featurised there when read from files —
    and each epoch every shard runs one structured-perceptron epoch (Viterbi or greedy, the
    tagger's decoder) from the mixed weights, then the client mixes them (see
    :func:`perceptrons.distributed.fit`).  The averaged tagger's averaging sums are mixed too.
    With one shard and ``shuffle=False`` the result is :meth:`Tagger.fit`'s, weight for weight.

    Parameters
    ----------
    tagger : Tagger
        Its parameters; ``shuffle=True`` shuffles each shard's sentences by a seed drawn from
        (random_state, epoch, shard).  ``patience`` is refused (no development set here).
    sentences : list of list of str, list of tagged sentences, Corpus, or CoNLL-U files
        In memory (with ``tags``, as ``[[(word, tag), ...], ...]``, or a
        :class:`~perceptrons.structured.corpus.Corpus`): split into S contiguous shards.  Or a
        path or list of ``.conllu`` paths: each worker reads its own files.
    tags : list of list of str, optional
    shards : int, optional
        S.  Default: the number of workers in memory, the number of files otherwise.
    column : {"upos", "xpos", "feats"}, default="upos"
        The CoNLL-U tag column (files).
    client, n_workers, mixing, callback, dashboard, rounds
        As in :func:`perceptrons.distributed.fit`.

    Returns
    -------
    Tagger
        Fitted; ``tagger.model_`` carries ``shard_mistakes_``, ``mixing_weights_``,
        ``bytes_per_epoch_`` and ``seconds_per_epoch_``.

    References
    ----------
    McDonald, Hall & Mann (2010), Fig. 3 and Theorem 3; Collins (2002).
    """
    owner = "distributed.fit_tagger"
    _check_model(tagger, Tagger, "tagger", owner)
    check_run(
        owner, client=client, n_workers=n_workers, mixing=mixing, callback=callback, dashboard=dashboard, rounds=rounds
    )
    check_schedule(tagger, rounds, owner)
    check_param(column, "column", (Options(*COLUMNS),), owner)
    check_shards(shards)
    files = looks_like_files(sentences)
    if files:
        from perceptrons.structured.tagger_stream import passes, regular_files

        paths = [os.path.abspath(p) for p in regular_files(sentences)]
        survey = passes(paths, column, 2000)
        classes, n_tokens = tagger.learn_features_from(survey, column)
        surveyed = {p: file_stamp(st) for p, st in survey.as_opened.items()}  # a worker may be elsewhere
        S = shards or len(paths)
        if S > len(paths):
            raise PerceptronsError(f"shards={S} but only {len(paths)} file(s): each shard reads whole files")
    else:
        args = tagger.learn_features(sentences, tags)
        classes, n_tokens = np.unique(args["y"]), args["y"].shape[0]
        S = shards
    with connect(client, default_workers(n_workers, client, S), dashboard) as c:
        S = S or len(c.scheduler_info()["workers"])
        # one shard: weights kept as the serial fit keeps them (float32 when exact); mixing
        # several makes fractions, so then float64.  model_ is there from the start: a callback
        # may look at it (dev_scores_, as after fit)
        state = tagger.begin(classes, n_tokens if S == 1 else None)
        model = tagger.model_
        if files:
            groups = [paths[a:b] for a, b in split_rows(len(paths), S)]
            reader = Broadcast({"tagger": tagger.for_workers(), "model": model.for_workers(), "column": column})
            makers = [
                lambda c, g=g: c.submit(_on_worker_read, reader.future(c), g, surveyed, pure=False) for g in groups
            ]
        else:
            pieces = _memory_shards(model, args, S, assume_binary=True)  # a FeatureMap's 1s
            makers = [lambda c, p=p: scatter_one(c, p) for p in pieces]
        _train(model, state, Shards(c, makers), mixing, callback, rounds)
    return tagger.finish()


def fit_sequences(
    model: SequencePerceptron,
    X,
    y,
    lengths=None,
    *,
    X_edge=None,
    forced=None,
    shards: int | None = None,
    client=None,
    n_workers: int | None = None,
    mixing: str = "error",
    callback: Callable[[int, int, float], object] | None = None,
    dashboard: bool | str = False,
    rounds: int = 1,
) -> SequencePerceptron:
    """Fit a :class:`~perceptrons.SequencePerceptron` by iterative parameter mixing on a Dask
    cluster: S contiguous groups of whole sequences, scattered once; see :func:`fit_tagger`.

    Parameters
    ----------
    model : SequencePerceptron
        Its parameters (``patience`` is refused: no development set here).
    X, y, lengths, X_edge, forced
        As in :meth:`SequencePerceptron.fit`.
    shards, client, n_workers, mixing, callback, dashboard, rounds
        As in :func:`perceptrons.distributed.fit`.

    Returns
    -------
    SequencePerceptron
        Fitted, with ``shard_mistakes_``, ``mixing_weights_``, ``bytes_per_epoch_`` and
        ``seconds_per_epoch_``.  With one shard and ``shuffle=False``, :meth:`fit`'s weights.

    References
    ----------
    McDonald, Hall & Mann (2010); Collins (2002).
    """
    owner = "distributed.fit_sequences"
    _check_model(model, SequencePerceptron, "model", owner)
    check_run(
        owner, client=client, n_workers=n_workers, mixing=mixing, callback=callback, dashboard=dashboard, rounds=rounds
    )
    check_schedule(model, rounds, owner)
    check_shards(shards)
    X, y = model.check_data(X, y)
    n = X.shape[0]
    lengths = np.ones(n, dtype=np.int64) if lengths is None else np.asarray(lengths)
    binary = is_binary(to_operand(X))
    args = {"X": X, "y": y, "lengths": lengths, "X_edge": X_edge, "forced": forced}
    with connect(client, default_workers(n_workers, client, shards), dashboard) as c:
        S = shards or len(c.scheduler_info()["workers"])
        n_edge = 0 if X_edge is None else X_edge.shape[1]
        # as fit keeps them: float32 emission weights when binary and exact, with one shard only
        state = model.begin(np.unique(y), X.shape[1], n_edge, n_tokens=n if S == 1 and binary else None)
        pieces = _memory_shards(model, args, S, assume_binary=False)
        shard_set = Shards(c, [lambda c, p=p: scatter_one(c, p) for p in pieces])
        _train(model, state, shard_set, mixing, callback, rounds)
    return model


def _check_model(model, cls, name, owner):
    """An instance of ``cls`` whose parameters hold, without ``patience`` (no development set)."""
    if not isinstance(model, cls):
        raise PerceptronsError(
            f"The {name!r} parameter of {owner} must be a {cls.__name__} instance. Got {shown(model)} instead."
        )
    model.check_training("mixing")


def _train(model, state, shard_set, mixing, callback, rounds):
    """The IPM epochs from ``state`` (what ``model.begin`` gave) through the model's training
    protocol (:mod:`perceptrons.structured._sequence_trainer`): the workers run its pure step,
    the client its book-keeping.
    """
    params = model.step_params(mixing_seed(model.random_state) if model.shuffle else 0)
    pairs = [(w, u if model.averaged else None) for w, u in zip(WEIGHTS, SUMS)]
    keys = list(WEIGHTS) + (list(SUMS) if model.averaged else []) + ["count"]
    sent = {k: getattr(state, k) for k in keys}  # without the sums when not averaging: fewer bytes
    elapsed = [0.0]

    def on_epoch(epoch, mixed, mistakes, extras, seconds):
        # mixed: the epoch's state, or None in the epochs the client does not receive it (no
        # callback can look at the model then); the last is always received
        model.end_epoch(int(mistakes.sum()), int(sum(extras)), mixed=mixed)
        elapsed[0] += seconds
        return callback is None or callback(epoch, int(mistakes.sum()), elapsed[0]) is not False

    rounds = rounds_for(shard_set, _sequences, model.mix_every, rounds)
    _, history = run_epochs(
        shard_set,
        _on_worker_epoch,
        params,
        sent,
        pairs,
        max_epochs=model.max_epochs,
        mixing=mixing,
        on_epoch=on_epoch,
        rounds=rounds,
        every_state=callback is not None,
    )
    model.n_shards_ = len(shard_set)
    model.shard_mistakes_ = np.array(history.shard_mistakes, dtype=np.int64)
    model.mixing_weights_ = np.array(history.mixing_weights)
    model.bytes_per_epoch_ = history.bytes_per_epoch
    model.seconds_per_epoch_ = list(history.seconds_per_epoch)


def _memory_shards(model, args, S, assume_binary):
    """S contiguous groups of whole sentences from the full corpus' operands."""
    X, y, lengths, X_edge, forced = (args[k] for k in ("X", "y", "lengths", "X_edge", "forced"))
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    out = []
    for a, b in split_rows(len(lengths), S, "sequences"):
        p, q = int(bounds[a]), int(bounds[b])
        out.append(
            model.operands(
                X[p:q],
                y[p:q],
                lengths[a:b],
                X_edge=None if X_edge is None else X_edge[p:q],
                forced=None if forced is None else forced[p:q],
                assume_binary=assume_binary,
            )
        )
    return out


def _on_worker_read(reader, paths, surveyed):
    """Read and featurise a shard's CoNLL-U files on the worker that keeps it; each file must
    still be the one the driver learned the features from (``surveyed``: its size and time
    written then), before and after it is read.
    """
    _as_surveyed(paths, surveyed)
    tagger = reader["tagger"]
    parts = [tagger.featurize(w, t) for w, t in chunks(paths, reader["column"], 1 << 30)]
    _as_surveyed(paths, surveyed)
    if not parts:
        raise PerceptronsError(f"{', '.join(paths)}: no sentence in this shard")
    import scipy.sparse as sp

    return reader["model"].operands(
        sp.vstack([p["X"] for p in parts], format="csr"),
        np.concatenate([p["y"] for p in parts]),
        np.concatenate([p["lengths"] for p in parts]),
        X_edge=None if parts[0]["X_edge"] is None else sp.vstack([p["X_edge"] for p in parts], format="csr"),
        forced=None if parts[0]["forced"] is None else np.concatenate([p["forced"] for p in parts]),
        assume_binary=True,
    )


def _as_surveyed(paths, surveyed):
    """Refuse a shard file whose size or time written is not what the driver's survey saw."""
    path = first_changed(paths, surveyed, file_stamps(paths))
    if path is not None:
        raise PerceptronsError(
            f"{path}: changed after the driver learned the features from it (a worker reads it "
            "after, and again for a lost worker); train again on files that stay as they are"
        )


def _sequences(shard):
    """The sequences of a shard (on its worker)."""
    return shard.offsets.shape[0] - 1


def _on_worker_epoch(shard, params, state, epoch, index, part=(0, 1)):
    """One structured-perceptron epoch (or ``part`` of one) of the compiled loop on one shard,
    from ``state``: the sequence family's pure step
    (:func:`perceptrons.structured._sequence_trainer.step`).
    """
    full = dict(state)  # the task's own copy (_loop._remote)
    for w, u in zip(WEIGHTS, SUMS):
        if u not in full:  # not averaging: the loop is given empty sums it never touches
            full[u] = np.zeros(full[w].shape)
    after, (m, wrong) = step(params, SequenceState(**full), shard, epoch, index, part)
    return {k: getattr(after, k) for k in state}, m, wrong

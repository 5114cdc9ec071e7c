"""Iterative parameter mixing for the structured perceptron: McDonald, Hall & Mann's own setting."""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError, shown
from perceptrons._core.params import Options, check_param, validate_params
from perceptrons.distributed._engine import connect
from perceptrons.distributed._inputs import (
    check_run,
    check_shards,
    default_workers,
    file_stamps,
    first_changed,
    looks_like_files,
    split_rows,
)
from perceptrons.distributed._loop import Broadcast, Shards, run_epochs
from perceptrons.distributed.linear import _seed
from perceptrons.io.cache import file_stamp

if TYPE_CHECKING:
    from collections.abc import Callable

    from perceptrons.structured.sequence import SequencePerceptron
    from perceptrons.structured.tagging import Tagger

_WEIGHTS = ("W", "trans", "E", "trans2", "start", "stop")
_SUMS = ("U", "Utrans", "UE", "Utrans2", "Ustart", "Ustop")


@dataclass
class SequenceShard:
    """Sentences as the structured perceptron's epoch reads them (``SequencePerceptron._pass``)."""

    op: object
    eop: object
    yi: np.ndarray
    offsets: np.ndarray
    forced: np.ndarray


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
    column : {"upos", "xpos"}, default="upos"
        The CoNLL-U tag column (files).
    client, n_workers, mixing, callback, dashboard
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
    from perceptrons.io.conllu_format import COLUMNS
    from perceptrons.structured.tagging import Tagger

    owner = "distributed.fit_tagger"
    _check_model(tagger, Tagger, "tagger", owner)
    check_run(owner, client=client, n_workers=n_workers, mixing=mixing, callback=callback, dashboard=dashboard)
    check_param(column, "column", (Options(*COLUMNS),), owner)
    check_shards(shards)
    files = looks_like_files(sentences)
    if files:
        from perceptrons.structured.tagger_stream import _regular_files, learn_features, passes

        paths = [os.path.abspath(p) for p in _regular_files(sentences)]
        survey = passes(paths, column, 2000)
        classes, n_tokens = learn_features(tagger, survey, column)
        surveyed = {p: file_stamp(st) for p, st in survey.as_opened.items()}  # a worker may be elsewhere
        S = shards or len(paths)
        if S > len(paths):
            raise PerceptronsError(f"shards={S} but only {len(paths)} file(s): each shard reads whole files")
    else:
        args = tagger._learn_features(sentences, tags)
        classes, n_tokens = np.unique(args["y"]), args["y"].shape[0]
        S = shards
    with connect(client, default_workers(n_workers, client, S), dashboard) as c:
        S = S or len(c.scheduler_info()["workers"])
        model = tagger._sequence_model()
        n_edge = tagger.edge_features_.n_features if tagger.edges else 0
        # one shard: weights kept as the serial fit keeps them (float32 when exact); mixing
        # several makes fractions, so then float64
        model._begin(classes, tagger.features_.n_features, n_edge, n_tokens if S == 1 else None)
        if files:
            groups = [paths[a:b] for a, b in split_rows(len(paths), S)]
            reader = Broadcast(_reader(tagger, model, column))
            makers = [
                lambda c, g=g: c.submit(_on_worker_read, reader.future(c), g, surveyed, pure=False) for g in groups
            ]
        else:
            pieces = _memory_shards(model, args, S, assume_binary=True)  # a FeatureMap's 1s
            makers = [lambda c, p=p: c.scatter(p, hash=False) for p in pieces]
        shard_set = Shards(c, makers)
        tagger.model_ = model  # a callback may look at it (dev_scores_, as after fit)
        _train(model, shard_set, mixing, callback)
    tagger._finish_fit()
    return tagger


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
) -> SequencePerceptron:
    """Fit a :class:`~perceptrons.SequencePerceptron` by iterative parameter mixing on a Dask
    cluster: S contiguous groups of whole sequences, scattered once; see :func:`fit_tagger`.

    Parameters
    ----------
    model : SequencePerceptron
        Its parameters (``patience`` is refused: no development set here).
    X, y, lengths, X_edge, forced
        As in :meth:`SequencePerceptron.fit`.
    shards, client, n_workers, mixing, callback, dashboard
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
    from perceptrons._core.operands import is_binary, to_operand
    from perceptrons.structured.sequence import SequencePerceptron

    owner = "distributed.fit_sequences"
    _check_model(model, SequencePerceptron, "model", owner)
    check_run(owner, client=client, n_workers=n_workers, mixing=mixing, callback=callback, dashboard=dashboard)
    check_shards(shards)
    X, y = model._check_Xy(X, y, reset=True)
    n = X.shape[0]
    lengths = np.ones(n, dtype=np.int64) if lengths is None else np.asarray(lengths)
    binary = is_binary(to_operand(X))
    args = {"X": X, "y": y, "lengths": lengths, "X_edge": X_edge, "forced": forced}
    with connect(client, default_workers(n_workers, client, shards), dashboard) as c:
        S = shards or len(c.scheduler_info()["workers"])
        n_edge = 0 if X_edge is None else X_edge.shape[1]
        # as fit keeps them: float32 emission weights when binary and exact, with one shard only
        model._begin(np.unique(y), X.shape[1], n_edge, n if S == 1 and binary else None)
        pieces = _memory_shards(model, args, S, assume_binary=False)
        _train(model, Shards(c, [lambda c, p=p: c.scatter(p, hash=False) for p in pieces]), mixing, callback)
    return model


def _check_model(model, cls, name, owner):
    """An instance of ``cls`` whose parameters hold, without ``patience`` (no development set)."""
    if not isinstance(model, cls):
        raise PerceptronsError(
            f"The {name!r} parameter of {owner} must be a {cls.__name__} instance. Got {shown(model)} instead."
        )
    validate_params(model, model._parameter_constraints)
    if model.patience is not None:
        raise PerceptronsError("distributed training has no development set to stop early on: pass patience=None")


def _train(model, shard_set, mixing, callback):
    from sklearn.base import clone

    template = clone(model)  # the parameters _pass reads (averaged, decoder); no weights
    template._ipm_seed = _seed(model) if model.shuffle else 0
    pairs = [(w, u if model.averaged else None) for w, u in zip(_WEIGHTS, _SUMS)]
    keys = list(_WEIGHTS) + (list(_SUMS) if model.averaged else []) + ["count"]
    state = {k: model._state[k] for k in keys}
    elapsed = [0.0]

    def on_epoch(epoch, mixed, mistakes, extras, seconds):
        model._state.update(mixed)
        model.end_epoch(int(mistakes.sum()), int(sum(extras)))
        elapsed[0] += seconds
        return callback is None or callback(epoch, int(mistakes.sum()), elapsed[0]) is not False

    _, history = run_epochs(
        shard_set,
        _on_worker_epoch,
        template,
        state,
        pairs,
        max_epochs=model.max_epochs,
        mixing=mixing,
        on_epoch=on_epoch,
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
            SequenceShard(
                *model._block_operands(
                    X[p:q],
                    y[p:q],
                    lengths[a:b],
                    None if X_edge is None else X_edge[p:q],
                    None if forced is None else forced[p:q],
                    assume_binary,
                )
            )
        )
    return out


def _reader(tagger, model, column):
    """What a worker needs to featurise its files: the fitted maps, tag dictionary and classes
    (a copy of the tagger without a model, and the model's state left out).
    """
    t = copy.copy(tagger)
    t.model_ = None
    m = copy.copy(model)
    m._state = {"W": model._state["W"][:0]}  # the weights' dtype, for _block_operands' check
    return {"tagger": t, "model": m, "column": column}


def _on_worker_read(reader, paths, surveyed):
    """Read and featurise a shard's CoNLL-U files on the worker that keeps it; each file must
    still be the one the driver learned the features from (``surveyed``: its size and time
    written then), before and after it is read.
    """
    from perceptrons.structured.tagger_stream import _chunks, chunk_operands

    _as_surveyed(paths, surveyed)
    parts = [chunk_operands(reader["tagger"], w, t) for w, t in _chunks(paths, reader["column"], 1 << 30)]
    _as_surveyed(paths, surveyed)
    if not parts:
        raise PerceptronsError(f"{', '.join(paths)}: no sentence in this shard")
    import scipy.sparse as sp

    a = {
        "X": sp.vstack([p["X"] for p in parts], format="csr"),
        "y": np.concatenate([p["y"] for p in parts]),
        "lengths": np.concatenate([p["lengths"] for p in parts]),
        "X_edge": None if parts[0]["X_edge"] is None else sp.vstack([p["X_edge"] for p in parts], format="csr"),
        "forced": None if parts[0]["forced"] is None else np.concatenate([p["forced"] for p in parts]),
    }
    m = reader["model"]
    return SequenceShard(*m._block_operands(a["X"], a["y"], a["lengths"], a["X_edge"], a["forced"], True))


def _as_surveyed(paths, surveyed):
    """Refuse a shard file whose size or time written is not what the driver's survey saw."""
    path = first_changed(paths, surveyed, file_stamps(paths))
    if path is not None:
        raise PerceptronsError(
            f"{path}: changed after the driver learned the features from it (a worker reads it "
            "after, and again for a lost worker); train again on files that stay as they are"
        )


def _on_worker_epoch(shard, template, state, epoch, index):
    """One structured-perceptron epoch of the compiled loop on one shard, from ``state`` (pure)."""
    model = copy.copy(template)
    s = dict(state)  # the task's own copy (_loop._remote)
    for w, u in zip(_WEIGHTS, _SUMS):
        if u not in s:  # not averaging: the loop is given empty sums it never touches
            s[u] = np.zeros(s[w].shape)
    model._state = s
    n = shard.offsets.shape[0] - 1
    perm = np.arange(n, dtype=np.int64)
    if model.shuffle:
        perm = np.random.default_rng([template._ipm_seed, epoch, index]).permutation(n).astype(np.int64)
    m, wrong = model._pass(shard.op, shard.eop, shard.yi, shard.offsets, perm, shard.forced)
    return {k: s[k] for k in state}, int(m), int(wrong)

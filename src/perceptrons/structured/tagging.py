"""``Tagger``: words in, part-of-speech tags out, with the structured perceptron."""

from __future__ import annotations

import copy
from numbers import Integral, Real
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError, PerceptronsTypeError
from perceptrons._core.params import CALLBACK, RANDOM_STATE, Interval, Kind, Options, check_param, validate_params
from perceptrons.structured import _tagdict as tagdict
from perceptrons.structured import _tagger_state as tagger_state
from perceptrons.structured._params import ParamsMixin
from perceptrons.structured._sequence_model import SequenceModel
from perceptrons.structured._sequence_trainer import SequenceState
from perceptrons.structured._tagger_predict import TaggingMixin, check_corpus
from perceptrons.structured.clusters import load_clusters
from perceptrons.structured.corpus import Corpus
from perceptrons.structured.decoders import DECODERS
from perceptrons.structured.features import FeatureMap
from perceptrons.structured.nltk_api import NLTKTaggerAPI, split_tagged, token_accuracy
from perceptrons.structured.tagger_stream import TagCheck, count_keys, fit_stream, survey
from perceptrons.structured.templates import CLUSTER, TEMPLATE_SETS, uses_clusters
from perceptrons.structured.words import corpus_types
from perceptrons.threads.jobs import MIX_EVERY, N_JOBS

if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Iterable, Sequence
    from typing import Literal

    from numpy.typing import ArrayLike

#: the tagger's parameters that are its sequence model's (:meth:`Tagger.new_model`)
MODEL_PARAMS = "decoder max_epochs averaged shuffle patience markov_order random_state n_jobs mix_every".split()


class Tagger(TaggingMixin, NLTKTaggerAPI, ParamsMixin):
    """Part-of-speech tagger: feature templates + :class:`SequencePerceptron`.

    Parameters
    ----------
    templates : str, default="rich"
        Feature templates (see :mod:`perceptrons.structured.features`): ``"basic"`` is the
        Ratnaparkhi set (word, prefixes/suffixes up to 4, shape, flags, words at −2…+2);
        ``"rich"`` adds neighbour suffixes and shapes, word bigrams and the word's prefixes
        paired with its suffixes (its morphology, in any language); or templates such as
        ``"l[0],s3[0],l[-1]|l[0]"`` joined by commas.  With ``clusters``, a named set gets the
        cluster templates too (``templates.CLUSTER``).
    clusters : str or None, default=None
        Brown word clusters for features that reach words never seen in training:
        ``"spacy-en"`` (the clusters shipped by ``spacy-lookups-data``, learned on Reddit
        comments; ``pip install 'perceptrons[clusters]'``) or the path of a ``paths`` file from
        Liang's ``wcluster``.  The model file keeps the clusters, so tagging needs neither.
    decoder : {"viterbi", "greedy"}, default="viterbi"
    max_epochs : int, default=10
    averaged : bool, default=True
    shuffle : bool, default=True
    patience : int or None, default=None
        Early stopping on the development set given to ``fit``; the best epoch is kept anyway.
    tag_dict : bool, default=False
        Fix the tag of frequent unambiguous training words (≥ ``tag_dict_min_count`` occurrences,
        one tag in ≥ ``tag_dict_ratio`` of them), as NLTK's tagger does.
    tag_dict_min_count : int, default=20
    tag_dict_ratio : float, default=0.97
    edges : str, default=""
        Templates of *edge* features, which score the transition from the previous token into
        this one with a tag-pair matrix each (lexicalised transitions): ``"l[-1],l[0]"`` makes
        the transition depend on the two words it joins.  Empty: plain transitions.
    edge_min_count : int, default=20
        Keep only edge features seen at least this often (each costs n_tags² weights).
    markov_order : {1, 2}, default=1
        2: second-order transitions (a weight per tag triple), Viterbi in O(n·T³).
    rare_count : int, default=0
        Words seen fewer times in training get no word-identity features (Ratnaparkhi's rare
        words), only spelling and context; 0: off.
    min_count : int, default=2
        Drop features seen fewer times in training (on EWT, 2 keeps a third of the features
        at the same development accuracy).
    random_state : int, RandomState or None, default=0
    n_jobs : int or None, default=None
        Threads to train in (:doc:`/threads`): None or 1, one; −1, every core.  Each thread
        keeps a copy of the weights; each epoch is cut into rounds of 1,024 sentences a thread,
        and before its next round a thread makes the updates the others made in this one (the
        perceptron with updates delayed by a round).  Fewer than 1,025 sentences train in one
        thread.  The result depends on ``n_jobs``, and is the same for a given ``n_jobs`` and
        ``random_state``; 1 is the serial fit.
    mix_every : int or None, default=None
        Sentences a thread trains on in a round, and each shard on a cluster between two mixes
        (:func:`perceptrons.distributed.fit_tagger`), as in :class:`SequencePerceptron`.

    Attributes
    ----------
    model_ : SequenceModel
        The trained structured perceptron: :class:`SequencePerceptron`'s model and attributes
        (``coef_``, ``n_epochs_``, ``dev_scores_``, …) without scikit-learn's estimator
        interface, so that training and tagging never import scikit-learn.
    features_ : FeatureMap
    clusters_ : WordClusters or None
    tags_ : ndarray of shape (n_tags,)
    tagdict_ : dict word -> tag

    Notes
    -----
    NLTK's ``PerceptronTagger`` calls work too: ``train(tagged_sentences, nr_iter=5)``,
    ``fit(tagged_sentences)``, ``tag(tokens)``, ``tag_sents(sentences)`` and ``accuracy(gold)``
    (``evaluate``) take and return what NLTK's do, and a str given as a sentence raises
    ``TypeError`` as ``nltk.pos_tag`` does (README: "Switching from NLTK's PerceptronTagger").

    Not run through scikit-learn's ``parametrize_with_checks``: its input is a list of word
    lists, not a numeric matrix, so none of the checks' generated data applies.  The numeric
    estimator underneath, :class:`SequencePerceptron`, passes them.  Tagging data are never
    separable, so the ``ConvergenceWarning`` of the underlying estimator is not raised here.

    The defaults were chosen on the EWT development set; the experiments behind them (templates,
    tag dictionary, second order, Brown clusters, and what did not help) are in
    ``benchmarks/HISTORY.md``, "Tagger: how the defaults were chosen".  After training, features
    whose weights stayed zero (about half) are dropped from the model: they cannot change a score.

    A fitted tagger may be shared by threads: its cache of the words it has met grows under a
    lock.  A batch of 4,096 tokens or more is tagged as two halves in two threads (the compiled
    loops release the GIL), with the tags and probabilities of one thread.

    References
    ----------
    Collins (2002), "Discriminative Training Methods for Hidden Markov Models", EMNLP.
    Brown et al. (1992), "Class-Based n-gram Models of Natural Language"; Koo, Carreras & Collins
    (2008), "Simple Semi-supervised Dependency Parsing", ACL (cluster features).
    Ratnaparkhi (1996), "A Maximum Entropy Model for Part-of-Speech Tagging", EMNLP.
    Gormley, lecture notes on the perceptron ("Structured Perceptron").

    Examples
    --------
    >>> from perceptrons import Tagger
    >>> sents = [["the", "dog", "barks"], ["a", "cat", "sleeps"], ["the", "cat", "barks"]]
    >>> tags = [["DET", "NOUN", "VERB"], ["DET", "NOUN", "VERB"], ["DET", "NOUN", "VERB"]]
    >>> Tagger(max_epochs=3).fit(sents, tags).predict([["a", "dog", "sleeps"]])
    [['DET', 'NOUN', 'VERB']]
    """

    _parameter_constraints = {
        "templates": (Kind(str, "a template set name or comma-separated templates"),),
        "clusters": (None, Kind(str, "'spacy-en' or the path of a Brown clusters 'paths' file")),
        "decoder": (Options(*DECODERS),),
        "max_epochs": (Interval(Integral, 1, None),),
        "averaged": (Kind(bool, "a bool"),),
        "shuffle": (Kind(bool, "a bool"),),
        "patience": (None, Interval(Integral, 1, None)),
        "tag_dict": (Kind(bool, "a bool"),),
        "tag_dict_min_count": (Interval(Integral, 1, None),),
        "tag_dict_ratio": (Interval(Real, 0.5, 1.0),),
        "min_count": (Interval(Integral, 1, None),),
        "edges": (Kind(str, "a str of comma-separated templates"),),
        "edge_min_count": (Interval(Integral, 1, None),),
        "markov_order": (Options(1, 2),),
        "rare_count": (Interval(Integral, 0, None),),
        "random_state": RANDOM_STATE,
        "n_jobs": N_JOBS,
        "mix_every": MIX_EVERY,
    }

    def __init__(
        self,
        *,
        templates: str = "rich",
        clusters: str | None = None,
        decoder: Literal["viterbi", "greedy"] = "viterbi",
        max_epochs: int = 10,
        averaged: bool = True,
        shuffle: bool = True,
        patience: int | None = None,
        tag_dict: bool = False,
        tag_dict_min_count: int = 20,
        tag_dict_ratio: float = 0.97,
        min_count: int = 2,
        edges: str = "",
        edge_min_count: int = 20,
        markov_order: Literal[1, 2] = 1,
        rare_count: int = 0,
        random_state: int | np.random.RandomState | None = 0,
        n_jobs: int | None = None,
        mix_every: int | None = None,
    ) -> None:
        self.templates = templates
        self.clusters = clusters
        self.decoder = decoder
        self.max_epochs = max_epochs
        self.averaged = averaged
        self.shuffle = shuffle
        self.patience = patience
        self.tag_dict = tag_dict
        self.tag_dict_min_count = tag_dict_min_count
        self.tag_dict_ratio = tag_dict_ratio
        self.min_count = min_count
        self.edges = edges
        self.edge_min_count = edge_min_count
        self.markov_order = markov_order
        self.rare_count = rare_count
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.mix_every = mix_every

    @classmethod
    def pretrained(cls, name: str = "en") -> Tagger:
        """A tagger trained on a treebank, shipped inside the package.

        Parameters
        ----------
        name : str, default="en"
            A name of :data:`perceptrons.pretrained.catalogue.MODELS`: ``"en"`` (also ``"eng"``),
            UD English EWT's UPOS tags with Brown clusters.  A name is never a path: anything
            else is refused with one line listing the names.

        Returns
        -------
        Tagger
            Fitted, loaded through :func:`perceptrons.load_model`'s checks; its tags are UPOS.
            Its words are UD English EWT's: :func:`perceptrons.tokenize` cuts raw text so.

        Examples
        --------
        >>> from perceptrons import Tagger
        >>> Tagger.pretrained("en").tag(["I", "saw", "her", "duck", "."])[1]
        ('saw', 'VERB')
        """
        from perceptrons.persistence import load_model
        from perceptrons.pretrained.catalogue import model_file

        with model_file(name) as path:
            return load_model(path, expect=cls.__name__)

    def fit(
        self,
        sentences: Sequence[Sequence[str]] | Iterable[Sequence[tuple[str, str]]],
        tags: Sequence[Sequence[str]] | None = None,
        dev: tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]] | None = None,
        callback: Callable[[int, int, float], object] | None = None,
    ) -> Tagger:
        """Learn features and weights.

        Parameters
        ----------
        sentences : list of list of str, list of list of (str, str), or Corpus
            Words; or, with ``tags=None``, tagged sentences ``[[(word, tag), …], …]`` as NLTK's
            ``PerceptronTagger.train`` takes them (any iterable of sentences), or a
            :class:`~perceptrons.structured.corpus.Corpus` (:func:`read_corpus
            <perceptrons.structured.corpus.read_corpus>`: the same fit, without a Python
            string per token).
        tags : list of list of str, default=None
            One tag per word; None when ``sentences`` carries the tags.
        dev : tuple (sentences, tags), or list of list of (str, str), default=None
            Development set for selecting the best epoch (and early stopping with ``patience``):
            its words and tags, or its tagged sentences as NLTK writes them.
        callback : callable, default=None
            ``callback(epoch, mistakes, elapsed_seconds)`` after each epoch; the development
            accuracy so far is in ``self.model_.dev_scores_``.  Returning ``False`` stops.

        Returns
        -------
        self
        """
        validate_params(self, self._parameter_constraints)
        check_param(callback, "callback", CALLBACK, "Tagger")
        dev = _dev_pair(dev)
        if tags is not None:  # generators too, as NLTK's train takes them
            sentences, tags = _listed(sentences), _listed(tags)
        a = self.learn_features(sentences, tags)
        self.model_ = self.new_model()
        dev_arg = None
        if dev is not None:
            Xd, ld = self.features_.transform(dev[0])
            dev_arg = {
                "X": Xd,
                "y": np.array([t for s in dev[1] for t in s]),
                "lengths": ld,
                "forced": tagdict.forced(self.tagdict_, dev[0]),
                "X_edge": self.edge_features_.transform(dev[0])[0] if self.edges else None,
            }
        # the feature maps build their matrices of 1s: no need for the model to scan them
        self.model_.fit(
            a.pop("X"), a.pop("y"), a.pop("lengths"), **a, dev=dev_arg, callback=callback, assume_binary=True
        )
        self.finish()
        return self

    # ------------------------------------------------------------------ the training protocol
    # What fit, fit_stream (perceptrons.structured.tagger_stream) and parameter mixing
    # (perceptrons.distributed) do to a tagger: learn its features, begin its model, featurise
    # the sentences of a block, and finish.  The model itself is trained through the sequence
    # family's protocol (perceptrons.structured._sequence_trainer).
    def check_training(self, how: str) -> None:
        """Refuse, before any file is read, a way of training these parameters cannot take.

        Parameters
        ----------
        how : {"memory", "stream", "mixing"}
            ``fit``, ``fit_stream`` (file order, no development set) or parameter mixing (no
            development set).

        Raises
        ------
        PerceptronsError
        """
        validate_params(self, self._parameter_constraints)
        if how == "stream" and self.shuffle:
            raise PerceptronsError(
                "a streamed fit visits the sentences in file order (a global shuffle needs every sentence "
                "at hand): pass shuffle=False"
            )
        if how != "memory" and self.patience is not None:
            who = "a streamed fit" if how == "stream" else "distributed training"
            raise PerceptronsError(f"{who} has no development set to stop early on: pass patience=None")

    def learn_features(
        self,
        sentences: Sequence[Sequence[str]] | Iterable[Sequence[tuple[str, str]]] | Corpus,
        tags: Sequence[Sequence[str]] | None = None,
    ) -> dict:
        """Feature maps and tag dictionary from the training sentences (or a Corpus), as
        :meth:`fit` learns them.

        Parameters
        ----------
        sentences, tags
            As in :meth:`fit`.

        Returns
        -------
        dict
            The sequence model's arguments: ``{X, y, lengths, X_edge, forced}``.
        """
        if isinstance(sentences, Corpus):
            if tags is not None:
                raise PerceptronsError("a Corpus carries its tags: pass tags=None")
            corpus = sentences
            corpus.check()
        else:
            corpus = Corpus.from_lists(*(split_tagged(sentences) if tags is None else (sentences, tags)))
        self.clusters_ = load_clusters(self.clusters)
        self.features_ = FeatureMap(self._templates(), self.min_count, self.rare_count, self.clusters_)
        numbered = (corpus.tok, corpus.types, corpus.lengths)
        X, lengths = self.features_.fit_types(*numbered)
        self.edge_features_ = FeatureMap(self.edges, self.edge_min_count, 0, self.clusters_) if self.edges else None
        X_edge = self.edge_features_.fit_types(*numbered)[0] if self.edges else None
        self.tagdict_ = (
            tagdict.build(corpus.words(), corpus.tags(), self.tag_dict_min_count, self.tag_dict_ratio)
            if self.tag_dict
            else {}
        )
        forced = tagdict.forced_types(self.tagdict_, corpus.tok, corpus.types)
        return {"X": X, "y": corpus.y, "lengths": lengths, "X_edge": X_edge, "forced": forced}

    def learn_features_from(
        self, read: Callable[..., Iterable[tuple[list, list]]], column: str = "upos"
    ) -> tuple[np.ndarray, int]:
        """Feature maps and tag dictionary from two passes over ``read(check)``'s chunks, as
        :meth:`fit` learns them from the same sentences
        (:func:`perceptrons.structured.tagger_stream.passes`).

        Parameters
        ----------
        read : callable
            ``read(check=None)``: a new pass over (words, tags) chunks.
        column : str, default="upos"
            The tag column, for the messages about it.

        Returns
        -------
        (tags, n_tokens) : (ndarray, int)
            The sorted tags seen and the tokens of one pass.
        """
        self.clusters_ = load_clusters(self.clusters)
        maps = [FeatureMap(self._templates(), self.min_count, self.rare_count, self.clusters_).begin_fit()]
        if self.edges:
            maps.append(FeatureMap(self.edges, self.edge_min_count, 0, self.clusters_).begin_fit())
        counting = tagdict.count_tags if self.tag_dict else None  # fit's counting, in the same order: the same ties
        tags, n_tokens, tag_counts = survey(read(TagCheck(column)), maps, counting)
        count_keys(read(), maps)
        self.features_ = maps[0]
        self.edge_features_ = maps[1] if self.edges else None
        self.tagdict_ = (
            tagdict.select(tag_counts, self.tag_dict_min_count, self.tag_dict_ratio) if self.tag_dict else {}
        )
        return tags, n_tokens

    def featurize(self, words: Sequence[Sequence[str]], tags: Sequence[Sequence[str]]) -> dict:
        """A block of tagged sentences featurised with the fitted maps.

        Parameters
        ----------
        words, tags : list of list of str

        Returns
        -------
        dict
            The sequence model's arguments for the block: ``{X, y, lengths, X_edge, forced}``.
        """
        tok, types, lengths = corpus_types(words)
        X = self.features_.transform_types(tok, types, lengths)[0]
        X_edge = self.edge_features_.transform_types(tok, types, lengths)[0] if self.edge_features_ else None
        y = np.array([t for s in tags for t in s])
        return {"X": X, "y": y, "lengths": lengths, "X_edge": X_edge, "forced": tagdict.forced(self.tagdict_, words)}

    def begin(self, classes: ArrayLike, n_tokens: int | None = None) -> SequenceState:
        """Make ``model_`` and start it from zero weights (:meth:`SequenceModel.begin`), for the
        learned features; ``model_`` is then trained through its protocol.

        Parameters
        ----------
        classes : array-like of shape (n_tags,)
        n_tokens : int, optional
            Tokens in an epoch: float32 emission weights where they stay exact (None: float64).

        Returns
        -------
        SequenceState
            The state ``model_`` trains.
        """
        self.model_ = self.new_model()
        n_edge = self.edge_features_.n_features if self.edges else 0
        return self.model_.begin(classes, self.features_.n_features, n_edge, n_tokens=n_tokens)

    def for_workers(self) -> Tagger:
        """A copy that featurises (:meth:`featurize`) without the model: what a worker that reads
        its own files needs.

        Returns
        -------
        Tagger
        """
        t = copy.copy(self)  # pickled without its word cache (TaggingMixin.__getstate__)
        t.model_ = None
        return t

    def fit_stream(
        self,
        paths: str | os.PathLike | Sequence[str | os.PathLike],
        column: Literal["upos", "xpos", "feats"] = "upos",
        chunk_sentences: int = 2000,
        callback: Callable[[int, int, float], object] | None = None,
    ) -> Tagger:
        """Learn features and weights from CoNLL-U files read a chunk of sentences at a time.

        Memory is bounded by ``chunk_sentences`` sentences and their feature matrices, plus what
        the model itself holds (vocabulary, feature dictionary, weights), plus the block of the
        file being scanned (8 MB: :mod:`perceptrons.io.conllu_stream`); the files are read two
        times to build the features, then once per epoch.  The result is exactly that of
        :meth:`fit` with ``shuffle=False`` on the same sentences in the same order: same
        features, tag dictionary and weights (:mod:`perceptrons.structured.tagger_stream`).

        Parameters
        ----------
        paths : str, path-like or list of them
            ``.conllu`` files, read in the order given.
        column : {"upos", "xpos", "feats"}, default="upos"
            The tag column; every token must have a tag (not ``_``; in ``feats``, where ``_`` is
            the tag of a word without features, some token must have features).
        chunk_sentences : int, default=2000
            Sentences read, featurised and trained on at a time.
        callback : callable, default=None
            ``callback(epoch, mistakes, elapsed_seconds)`` after each epoch, as in :meth:`fit`;
            returning ``False`` stops.

        Returns
        -------
        self

        Raises
        ------
        PerceptronsError
            With ``shuffle=True`` or ``patience`` set (a streamed fit visits the sentences in file
            order and has no development set), or for a file that is not CoNLL-U with tags.
        """
        return fit_stream(self, paths, column, chunk_sentences, callback)

    def finish(self) -> Tagger:
        """End a fit: drop the features whose weights stayed zero, and cast to float32.

        Returns
        -------
        self
        """
        self.tags_ = self.model_.classes_
        # about half the features never get a non-zero weight (never involved in a mistake)
        self.features_.prune(self.model_.compact_single_precision())
        self._word_cache = None
        return self

    def _single_precision(self):
        """Emission weights in float32 for tagging (:meth:`SequencePerceptron.to_single_precision`:
        half the bytes to read per feature, and no tag changed when measured).
        """
        self.model_.to_single_precision()

    def _templates(self):
        """The templates to use: a named set gains the cluster templates when there are clusters."""
        if self.clusters_ is not None and self.templates in TEMPLATE_SETS:
            return TEMPLATE_SETS[self.templates] + CLUSTER
        if self.clusters_ is None and any(uses_clusters(t) for t in (self.templates, self.edges) if t):
            raise PerceptronsError(
                "templates use cluster attributes (bc…) but clusters=None; "
                "pass clusters='spacy-en' or a Brown 'paths' file"
            )
        return self.templates

    def score(self, sentences: Sequence[Sequence[str]], tags: Sequence[Sequence[str]] | None = None) -> float:
        """Token accuracy, scikit-learn's ``score(X, y)``: what ``GridSearchCV`` and
        ``cross_val_score`` use when given no scoring.

        Parameters
        ----------
        sentences : list of list of str, or list of list of (str, str)
            Words; or, with ``tags=None``, tagged sentences, as :meth:`accuracy` takes them.
        tags : list of list of str, default=None
            One gold tag per word.

        Returns
        -------
        float
            In [0, 1].
        """
        if tags is None:
            return self.accuracy(sentences)
        check_corpus(sentences, tags)
        return token_accuracy(tags, self.predict(sentences))

    def __sklearn_tags__(self):
        """scikit-learn's tags, for its model selection and display tools: a tagger takes lists of
        word strings, not a 2-D array, and is no classifier of rows (so ``cross_val_score``
        splits its sentences with ``KFold``, not by their tags).
        """
        from sklearn.utils import InputTags, Tags, TargetTags

        return Tags(
            estimator_type=None,
            target_tags=TargetTags(required=False),  # tagged sentences carry their tags
            input_tags=InputTags(two_d_array=False, string=True),
        )

    # ------------------------------------------------------------------ model file
    def _to_state(self):
        self._check_fitted()
        return tagger_state.to_state(self)

    def _from_state(self, st):
        """Restore from a :class:`~perceptrons.io.model_state.ModelState`
        (:func:`perceptrons.structured._tagger_state.from_state`).
        """
        for name, value in tagger_state.from_state(st, self.new_model()).items():
            setattr(self, name, value)
        self._single_precision()
        self.tags_ = self.model_.classes_
        self._word_cache = None
        return self

    def _check_fitted(self):
        if not hasattr(self, "model_"):
            from sklearn.exceptions import NotFittedError

            raise NotFittedError("This Tagger instance is not fitted yet. Call 'fit' with appropriate arguments first.")

    def new_model(self) -> SequenceModel:
        """The unfitted sequence model with the tagger's training parameters.

        Returns
        -------
        SequenceModel
        """
        model = SequenceModel(**{name: getattr(self, name) for name in MODEL_PARAMS})
        model.owner_name = type(self).__name__
        return model


def _listed(items):
    """``items`` as a list when it is an iterator (a generator of sentences), else as given."""
    return items if hasattr(items, "__len__") or isinstance(items, str) else list(items)


def _dev_pair(dev):
    """``fit``'s development set as (sentences, tags), checked: given as that pair, or as NLTK's
    tagged sentences.  Told apart by their first item: a (word, tag) pair opens a tagged
    sentence, a list of words opens the sentences of a pair.
    """
    if dev is None:
        return None
    if isinstance(dev, str) or not hasattr(dev, "__iter__"):
        raise PerceptronsTypeError(f"dev must be (sentences, tags) or tagged sentences; got {type(dev).__name__}")
    dev = list(dev)
    first = dev[0][0] if dev and hasattr(dev[0], "__getitem__") and len(dev[0]) else None
    if isinstance(first, tuple) and len(first) == 2:
        dev = split_tagged(dev, "dev")
    elif len(dev) != 2:
        raise PerceptronsError(
            f"dev must be a pair (sentences, tags), or tagged sentences [[(word, tag), ...], ...]; got {len(dev)} items"
        )
    sentences, tags = _listed(dev[0]), _listed(dev[1])
    check_corpus(sentences, tags, "dev sentences")
    return sentences, tags

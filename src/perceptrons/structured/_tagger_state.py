"""A :class:`~perceptrons.structured.tagging.Tagger` to and from a model file: its feature maps,
clusters, tag dictionary and sequence model.

Each part is read through its own checked view of the :class:`~perceptrons.io.model_state.ModelState`,
and the parts are checked against each other (one weight row per feature) before any array
reaches compiled code.  Reading returns the parts; the tagger sets its own attributes from them.
"""

import numpy as np

from perceptrons.structured.clusters import WordClusters
from perceptrons.structured.features import FeatureMap


def to_state(tagger):
    """``(meta, arrays)`` of a fitted tagger, read through its public attributes and its model's
    persistence protocol."""
    meta_m, arrays_m = tagger.model_._to_state()
    arrays = {"m_" + k: v for k, v in arrays_m.items()}
    arrays.update({"f_" + k: v for k, v in tagger.features_.to_arrays().items()})
    if tagger.edge_features_ is not None:
        arrays.update({"e_" + k: v for k, v in tagger.edge_features_.to_arrays().items()})
    if tagger.clusters_ is not None:
        arrays.update({"c_" + k: v for k, v in tagger.clusters_.to_arrays().items()})
    words = list(tagger.tagdict_)
    arrays["tagdict_words"] = np.array(words, dtype=str) if words else np.zeros(0, dtype="<U1")
    arrays["tagdict_tags"] = (
        np.array([tagger.tagdict_[w] for w in words], dtype=str) if words else np.zeros(0, dtype="<U1")
    )
    meta = {
        "model": meta_m,
        "templates": list(tagger.features_.templates),
        "n_values": int(tagger.features_.n_values_),
        "min_count": int(tagger.features_.min_count),
        "rare_count": int(tagger.features_.rare_count),
        "clusters": None if tagger.clusters_ is None else tagger.clusters_.source,
    }
    if tagger.edge_features_ is not None:
        e = tagger.edge_features_
        meta["edges"] = {
            "templates": list(e.templates),
            "n_values": int(e.n_values_),
            "min_count": int(e.min_count),
        }
    return meta, arrays


def from_state(st, model):
    """The parts of a tagger read from a :class:`~perceptrons.io.model_state.ModelState`: the
    feature maps, the clusters and ``model`` (an unfitted sequence model with the tagger's
    parameters, restored here) each through their own checked view; the model must have one
    weight row per feature of the maps.

    Returns
    -------
    dict
        ``clusters_``, ``features_``, ``edge_features_``, ``model_`` and ``tagdict_``.
    """
    source = st.str("clusters", none=True)
    clusters = None if source is None else WordClusters.from_state(st.split("c_", "clusters"), source)
    features = _feature_map(st, st, "f_", "features", st.int("rare_count"), clusters)
    edge_features = None
    if st.has("edges"):
        edge_features = _feature_map(st, st.object("edges"), "e_", "edges", 0, clusters)
    model._from_state(st.sub("model", "m_"))
    st.require(
        model.n_features_in_ == features.n_features,
        "model.n_features_in",
        f"{model.n_features_in_} weight rows for {features.n_features} features",
    )
    n_edge = 0 if edge_features is None else edge_features.n_features
    st.require(
        model.n_edge_features_in_ == n_edge,
        "model.n_edge_features_in",
        f"{model.n_edge_features_in_} edge weight rows for {n_edge} edge features",
    )
    words, tags = st.text("tagdict_words"), st.text("tagdict_tags")
    st.require(words.shape == tags.shape, "tagdict_tags", f"{tags.shape[0]} tags for {words.shape[0]} words")
    _check_weight_range(st, model)
    return {
        "clusters_": clusters,
        "features_": features,
        "edge_features_": edge_features,
        "model_": model,
        "tagdict_": dict(zip(words.tolist(), tags.tolist())),
    }


def _check_weight_range(st, model):
    """Every weight within float32's range: a tagger tags with float32 emission weights, and one
    beyond it would become inf, every tag then the same.  Trained weights are counts of updates
    (or their averages), far inside it; so along a sentence no sum can overflow."""
    limit = float(np.finfo(np.float32).max)
    names = ("W_vals", "trans", "E_vals", "trans2", "start", "stop")  # final_weights' order
    for name, a in zip(names, model.final_weights()):
        top = float(np.abs(a).max()) if a.size else 0.0
        st.require(top <= limit, f"model.{name}", f"weights up to {top:.3g}; expected at most {limit:.3g}")


def _feature_map(st, meta, prefix, what, rare_count, clusters):
    """A feature map read from ``meta``'s template fields and the ``prefix`` arrays."""
    templates = meta.list("templates", "str")
    min_count, n_values = meta.int("min_count"), meta.int("n_values")
    return FeatureMap.from_state(st.split(prefix, what), templates, min_count, n_values, rare_count, clusters)

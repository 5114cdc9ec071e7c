"""The tagger's model-file state: its feature maps, clusters, tag dictionary and sequence model.

A mixin of :class:`~perceptrons.structured.tagging.Tagger`. Each part is read through its own
checked view of the :class:`~perceptrons.io.model_state.ModelState`, and the parts are checked
against each other (one weight row per feature) before any array reaches compiled code.
"""

import numpy as np

from perceptrons.structured.clusters import WordClusters
from perceptrons.structured.features import FeatureMap


class TaggerState:
    """``_to_state`` / ``_from_state`` of :class:`~perceptrons.structured.tagging.Tagger`."""

    def _to_state(self):
        self._check_fitted()
        meta_m, arrays_m = self.model_._to_state()
        arrays = {"m_" + k: v for k, v in arrays_m.items()}
        arrays.update({"f_" + k: v for k, v in self.features_.to_arrays().items()})
        if self.edge_features_ is not None:
            arrays.update({"e_" + k: v for k, v in self.edge_features_.to_arrays().items()})
        if self.clusters_ is not None:
            arrays.update({"c_" + k: v for k, v in self.clusters_.to_arrays().items()})
        words = list(self.tagdict_)
        arrays["tagdict_words"] = np.array(words, dtype=str) if words else np.zeros(0, dtype="<U1")
        arrays["tagdict_tags"] = (
            np.array([self.tagdict_[w] for w in words], dtype=str) if words else np.zeros(0, dtype="<U1")
        )
        meta = {
            "model": meta_m,
            "templates": list(self.features_.templates),
            "n_values": int(self.features_.n_values_),
            "min_count": int(self.features_.min_count),
            "rare_count": int(self.features_.rare_count),
            "clusters": None if self.clusters_ is None else self.clusters_.source,
        }
        if self.edge_features_ is not None:
            e = self.edge_features_
            meta["edges"] = {
                "templates": list(e.templates),
                "n_values": int(e.n_values_),
                "min_count": int(e.min_count),
            }
        return meta, arrays

    def _from_state(self, st):
        """Restore from a :class:`~perceptrons.io.model_state.ModelState`: the feature maps,
        the clusters and the sequence model are each read through their own checked view, and
        the model must have one weight row per feature of the maps.
        """
        source = st.str("clusters", none=True)
        self.clusters_ = None if source is None else WordClusters.from_state(st.split("c_", "clusters"), source)
        self.features_ = self._feature_map(st, st, "f_", "features", st.int("rare_count"))
        self.edge_features_ = None
        if st.has("edges"):
            e = st.object("edges")
            self.edge_features_ = self._feature_map(st, e, "e_", "edges", 0)
        self.model_ = self.new_model()
        self.model_._from_state(st.sub("model", "m_"))
        st.require(
            self.model_.n_features_in_ == self.features_.n_features,
            "model.n_features_in",
            f"{self.model_.n_features_in_} weight rows for {self.features_.n_features} features",
        )
        n_edge = 0 if self.edge_features_ is None else self.edge_features_.n_features
        st.require(
            self.model_.n_edge_features_in_ == n_edge,
            "model.n_edge_features_in",
            f"{self.model_.n_edge_features_in_} edge weight rows for {n_edge} edge features",
        )
        words, tags = st.text("tagdict_words"), st.text("tagdict_tags")
        st.require(words.shape == tags.shape, "tagdict_tags", f"{tags.shape[0]} tags for {words.shape[0]} words")
        self._check_weight_range(st)
        self._single_precision()
        self.tags_ = self.model_.classes_
        self.tagdict_ = dict(zip(words.tolist(), tags.tolist()))
        self._word_cache = None
        return self

    def _check_weight_range(self, st):
        """Every weight within float32's range: a tagger tags with float32 emission weights, and
        one beyond it would become inf, every tag then the same.  Trained weights are counts of
        updates (or their averages), far inside it; so along a sentence no sum can overflow."""
        limit = float(np.finfo(np.float32).max)
        names = ("W_vals", "trans", "E_vals", "trans2", "start", "stop")  # final_weights' order
        for name, a in zip(names, self.model_.final_weights()):
            top = float(np.abs(a).max()) if a.size else 0.0
            st.require(top <= limit, f"model.{name}", f"weights up to {top:.3g}; expected at most {limit:.3g}")

    def _feature_map(self, st, meta, prefix, what, rare_count):
        """A feature map read from ``meta``'s template fields and the ``prefix`` arrays."""
        templates = meta.list("templates", "str")
        min_count, n_values = meta.int("min_count"), meta.int("n_values")
        return FeatureMap.from_state(st.split(prefix, what), templates, min_count, n_values, rare_count, self.clusters_)

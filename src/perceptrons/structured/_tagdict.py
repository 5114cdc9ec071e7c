"""The tagger's tag dictionary: words seen often enough with one tag get that tag, fixed.

A mixin of :class:`~perceptrons.structured.tagging.Tagger` (it reads ``tag_dict_min_count``,
``tag_dict_ratio`` and the fitted ``tagdict_``). Honnibal's greedy averaged perceptron tagger
(NLTK's ``PerceptronTagger``) uses the same idea for its frequent unambiguous words.
"""

from collections import Counter, defaultdict

import numpy as np


class TagDictMixin:
    """Build the tag dictionary from tagged sentences, and the forced tags it gives a corpus."""

    def _build_tagdict(self, sentences, tags):
        return self._select_tagdict(self._count_tags(defaultdict(Counter), sentences, tags))

    @staticmethod
    def _count_tags(counts, sentences, tags):
        """Add the tag counts of each word to ``counts`` (word → Counter), in corpus order."""
        for s, t in zip(sentences, tags):
            for w, g in zip(s, t):
                counts[w][g] += 1
        return counts

    def _select_tagdict(self, counts):
        """The frequent unambiguous words of ``counts``, with their tag (ties: the tag seen first)."""
        out = {}
        for w, c in counts.items():
            n = sum(c.values())
            tag, k = c.most_common(1)[0]
            if n >= self.tag_dict_min_count and k / n >= self.tag_dict_ratio:
                out[w] = tag
        return out

    def _forced(self, sentences):
        if not self.tagdict_:
            return None
        return np.array([self.tagdict_.get(w, "") for s in sentences for w in s], dtype=object).astype(str)

    def _forced_types(self, tok, types):
        if not self.tagdict_:
            return None
        per_type = np.array([self.tagdict_.get(w, "") for w in types] or [""]).astype(str)
        return per_type[tok]

"""The tagger's tag dictionary: words seen often enough with one tag get that tag, fixed.

Honnibal's greedy averaged perceptron tagger (NLTK's ``PerceptronTagger``) uses the same idea
for its frequent unambiguous words.  A tag dictionary is a plain dict word → tag (the tagger's
``tagdict_``); these functions build it and give the tags it forces.
"""

from collections import Counter, defaultdict

import numpy as np


def count_tags(counts, sentences, tags):
    """Add the tag counts of each word to ``counts`` (word → Counter), in corpus order."""
    for s, t in zip(sentences, tags):
        for w, g in zip(s, t):
            counts[w][g] += 1
    return counts


def select(counts, min_count, ratio):
    """The words of ``counts`` seen at least ``min_count`` times, with one tag in at least
    ``ratio`` of them, and that tag (ties: the tag seen first)."""
    out = {}
    for w, c in counts.items():
        n = sum(c.values())
        tag, k = c.most_common(1)[0]
        if n >= min_count and k / n >= ratio:
            out[w] = tag
    return out


def build(sentences, tags, min_count, ratio):
    """The tag dictionary of tagged sentences: :func:`select` of their :func:`count_tags`."""
    return select(count_tags(defaultdict(Counter), sentences, tags), min_count, ratio)


def forced(tagdict, sentences):
    """The forced tag of every token of ``sentences`` ("" where free), or None without a dictionary."""
    if not tagdict:
        return None
    return np.array([tagdict.get(w, "") for s in sentences for w in s], dtype=object).astype(str)


def forced_types(tagdict, tok, types):
    """:func:`forced` for a corpus given as type ids ``tok`` into its word ``types``."""
    if not tagdict:
        return None
    per_type = np.array([tagdict.get(w, "") for w in types] or [""]).astype(str)
    return per_type[tok]

"""Feature templates for tagging: which attributes of which neighbouring words make a feature.

A template names attributes at offsets around the token (``"l[-1]"``: the lower-cased previous
word; ``"l[-1]|l[0]"``: that word with the current one; ``"bc[1]"``: the Brown cluster path of
the next word, given clusters).  :class:`~perceptrons.structured.features.FeatureMap` turns them
into integer features.

References
----------
Ratnaparkhi (1996), "A Maximum Entropy Model for Part-of-Speech Tagging", EMNLP (Table 1).
Koo, Carreras & Collins (2008), "Simple Semi-supervised Dependency Parsing", ACL (cluster prefixes).
"""

import re

from perceptrons._core.errors import PerceptronsError
from perceptrons.structured.words import ATTRIBUTES, CLUSTER_ATTRIBUTES

_A = {a: i for i, a in enumerate(ATTRIBUTES)}

#: Ratnaparkhi-style baseline: the word itself and its spelling, the words around it
BASIC = (
    "bias",
    "w[0]",
    "l[0]",
    "p1[0]",
    "p2[0]",
    "p3[0]",
    "p4[0]",
    "s1[0]",
    "s2[0]",
    "s3[0]",
    "s4[0]",
    "sh[0]",
    "ss[0]",
    "d[0]",
    "h[0]",
    "c[0]",
    "u[0]",
    "l[-1]",
    "l[-2]",
    "l[1]",
    "l[2]",
    "s3[-1]",
    "s3[1]",
)
#: richer context: suffixes and shapes of the neighbours, word bigrams around the token, and the
#: word's prefix with its suffix (its morphology as a whole, in any language: chosen on the dev
#: sets of UD Hebrew HTB, Google's Turkish treebanks and EWT, where these five pairs, in place of
#: the conjunctions l[-1]|l[1], c[0]|l[-1] and sh[0]|l[-1], scored +0.19, +0.27 and +0.08 points
#: (means of seeds 1–4), at 0.96–0.99x the speed of tagging; benchmarks/README.md, "Other languages")
RICH = BASIC + (
    "s2[-1]",
    "s2[1]",
    "s3[-2]",
    "s3[2]",
    "ss[-1]",
    "ss[1]",
    "c[-1]",
    "l[-1]|l[0]",
    "l[0]|l[1]",
    "l[-2]|l[-1]",
    "l[1]|l[2]",
    "s3[-1]|s3[0]",
    "s3[0]|s3[1]",
    "s3[0]|l[-1]",
    "l[0]|s3[1]",
    "w[-1]",
    "w[1]",
    "p2[0]|s2[0]",
    "p1[0]|s3[0]",
    "p3[0]|s1[0]",
    "p2[0]|s3[0]",
    "p1[0]|s4[0]",
)
#: added to a named set when the tagger has word clusters: the Brown path of the word (of its
#: lower case too) and its 4-, 6- and 10-bit prefixes (Koo et al. 2008), those of the neighbours
CLUSTER = (
    "bc[0]",
    "bc4[0]",
    "bc6[0]",
    "bc10[0]",
    "bcl[0]",
    "bc[-1]",
    "bc[1]",
    "bc6[-1]",
    "bc6[1]",
    "bc[-2]",
    "bc[2]",
    "bc10[-1]",
    "bc10[1]",
    "bc[-1]|bc[0]",
    "bc[0]|bc[1]",
)
TEMPLATE_SETS = {"basic": BASIC, "rich": RICH}

#: one part, written one way only: ASCII digits, no leading zero, no "-0" (``\d`` would take "１",
#: and ``$`` a trailing newline), so that two spellings never make the same template twice
_PART = re.compile(r"([a-z0-9]+)\[(0|-?[1-9][0-9]*)\]")

#: the most templates a feature map takes.  The rich set has 45, with clusters 60; the tables
#: of prediction are (templates × attribute values), so a model file listing more would make
#: megabytes of memory out of a few bytes of its own
MAX_TEMPLATES = 256


def parse_templates(templates):
    """Template strings → list of tuples of (attribute index, offset); ``"bias"`` → ()."""
    if isinstance(templates, str):
        if templates in TEMPLATE_SETS:
            templates = TEMPLATE_SETS[templates]
        elif "[" in templates or templates == "bias":
            templates = [t.strip() for t in templates.split(",") if t.strip()]
        else:
            raise PerceptronsError(
                f"unknown template set {templates!r}; expected one of {sorted(TEMPLATE_SETS)} or comma-separated templates"
            )
    templates = list(templates)
    if len(templates) > MAX_TEMPLATES:
        raise PerceptronsError(f"{len(templates)} feature templates; expected at most {MAX_TEMPLATES}")
    seen = set()
    for t in templates:
        if t in seen:
            raise PerceptronsError(f"feature template {t!r} is given twice; expected each template once")
        seen.add(t)
    parsed = []
    for t in templates:
        if t == "bias":
            parsed.append(())
            continue
        parts = []
        for p in t.split("|"):
            m = _PART.fullmatch(p)
            if not m or m.group(1) not in _A or abs(int(m.group(2))) > 5:
                raise PerceptronsError(
                    f"bad feature template {t!r}: expected 'attr[offset]' parts joined by '|', attr in {list(ATTRIBUTES)}, |offset| ≤ 5"
                )
            parts.append((_A[m.group(1)], int(m.group(2))))
        if len(parts) > 2:
            raise PerceptronsError(f"bad feature template {t!r}: at most two parts can be conjoined")
        parsed.append(tuple(parts))
    return templates, parsed


def uses_clusters(templates):
    """Whether any of the templates names a cluster attribute."""
    ids = {_A[a] for a in CLUSTER_ATTRIBUTES}
    return any(a in ids for parts in parse_templates(templates)[1] for a, _ in parts)

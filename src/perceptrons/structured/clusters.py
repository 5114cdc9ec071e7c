"""Brown word clusters: a word's place in a hierarchy learned from unlabelled text.

Brown et al. (1992) merge words bottom-up so that a class bigram model loses as little
likelihood as possible; each word ends at a leaf whose path from the root is a bit string.  Words
used alike share long prefixes ("Monday" and "Friday" the whole path), so the path and its
prefixes are features that reach words never seen in the labelled data — which is where a
tagger loses most (Koo, Carreras & Collins 2008; Owoputi et al. 2013).

Sources:

- a ``paths`` file as written by Liang's ``wcluster`` (``bits<TAB>word<TAB>count`` a line);
- ``"spacy-en"``: the 1,000 clusters that spaCy 2 computed on Reddit comments (2015) and that
  its ``spacy-lookups-data`` package ships (``pip install 'perceptrons[clusters]'``).

A tagger keeps its clusters inside its model file, so tagging needs neither source.
"""

import gzip
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.lines import utf8_lines
from perceptrons.structured.words import pack_strings

#: names accepted for the packaged clusters → language code of spacy-lookups-data
PACKAGED = {"spacy-en": "en"}
#: a path is stored as the int64 ``int("1" + bits, 2)``: 1 + 62 bits fill the 63 value bits
MAX_PATH_BITS = 62


class WordClusters:
    """Word → Brown cluster path (a string of 0s and 1s).

    Parameters
    ----------
    paths : dict of str → str
        The bit path of each word.
    source : str, default=""
        Where the clusters came from (kept in model files, shown to users).
    """

    def __init__(self, paths, source=""):
        self.paths = paths
        self.source = source

    def __len__(self):
        return len(self.paths)

    def lookup(self, word):
        """The path of ``word``, else of its lower case, else of its capitalised form; or None.

        Web text capitalises freely ("GREAT", "Laughter"), and a cluster learned on the usual
        spelling says more than none.
        """
        p = self.paths
        return p.get(word) or p.get(word.lower()) or p.get(word.capitalize())

    # ------------------------------------------------------------------ sources
    @classmethod
    def from_file(cls, path):
        """Read a ``paths`` file (``bits<TAB>word[<TAB>count]`` a line), naming the bad line."""
        paths, seen = {}, {}
        for lineno, line in utf8_lines(path):
            if not line.strip():
                continue
            cols = line.split("\t")
            if len(cols) not in (2, 3) or not cols[0] or cols[0].strip("01") or not cols[1]:
                raise PerceptronsError(
                    f"{path}:{lineno}: expected 'bits<TAB>word[<TAB>count]' with bits of 0 and 1, got {line[:60]!r}"
                )
            if len(cols[0]) > MAX_PATH_BITS:
                raise PerceptronsError(
                    f"{path}:{lineno}: a cluster path of {len(cols[0])} bits; at most {MAX_PATH_BITS} "
                    "are supported (paths are stored as 64-bit integers)"
                )
            if len(cols) == 3 and not (cols[2].isascii() and cols[2].isdigit()):
                raise PerceptronsError(f"{path}:{lineno}: the count {cols[2][:40]!r} is not a non-negative integer")
            if cols[1] in seen:
                raise PerceptronsError(
                    f"{path}:{lineno}: the word {cols[1][:40]!r} was already given a path on line "
                    f"{seen[cols[1]]}; expected each word once"
                )
            seen[cols[1]] = lineno
            paths[cols[1]] = cols[0]
        if not paths:
            raise PerceptronsError(f"{path}: no clusters in the file (expected 'bits<TAB>word[<TAB>count]' lines)")
        return cls(paths, f"file {path}")

    @classmethod
    def from_spacy_lookups(cls, lang="en"):
        """The clusters shipped in ``spacy-lookups-data`` for ``lang``.

        spaCy stores a path as the integer whose binary digits, read from the lowest, are the
        path's bits (so a path's trailing zeros are not kept); 0 means no cluster.  Parsing its
        JSON (a million entries) takes about a second, so the decoded table is kept in the user's
        cache directory (``$XDG_CACHE_HOME/perceptrons``, else ``~/.cache/perceptrons``) and
        read from there next time; if that directory cannot be written, nothing is cached.
        """
        try:
            from importlib.resources import files

            import spacy_lookups_data
        except ImportError:
            raise PerceptronsError(
                "clusters='spacy-en' needs the spacy-lookups-data package: pip install 'perceptrons[clusters]'"
            ) from None
        version = getattr(spacy_lookups_data, "__version__", "0")
        source = f"spacy-lookups-data {version} ({lang}_lexeme_cluster, Reddit 2015)"
        cache = _cache_dir() / f"spacy-lookups-data-{version}-{lang}-clusters.npz"
        try:
            from perceptrons.io.model_state import ModelState

            with np.load(cache, allow_pickle=False) as z:
                return cls.from_state(ModelState(str(cache), {}, {k: z[k] for k in z.files}), source)
        except (OSError, ValueError, KeyError, EOFError):
            pass  # no cache yet, or an unreadable one: rebuild it
        name = files(spacy_lookups_data) / "data" / f"{lang}_lexeme_cluster.json.gz"
        with name.open("rb") as raw, gzip.open(raw) as f:
            table = json.load(f)
        clusters = cls({w: format(v, "b")[::-1] for w, v in table.items() if v}, source)
        _write_cache(cache, clusters.to_arrays())
        return clusters

    # ------------------------------------------------------------------ state
    def to_arrays(self):
        """Words as UTF-8 bytes + offsets and paths as integers ``int("1" + bits, 2)``."""
        words = list(self.paths)
        blob, offsets = pack_strings(words)
        codes = np.array([int("1" + self.paths[w], 2) for w in words], dtype=np.int64)
        return {"words": blob, "offsets": offsets, "codes": codes}

    @classmethod
    def from_state(cls, st, source=""):
        """From a :class:`~perceptrons.io.model_state.ModelState` over :meth:`to_arrays`' arrays."""
        words = st.strings("words", "offsets")
        codes = st.array("codes", ("int64",), (len(words),), lo=1)
        st.require(len(set(words)) == len(words), "words", "a word appears twice")
        return cls(dict(zip(words, (format(c, "b")[1:] for c in codes.tolist()))), source)


def _cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "perceptrons"


def _write_cache(path, arrays):
    """Write atomically (temporary file, then rename); a cache that cannot be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, **arrays)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def load_clusters(spec):
    """``None`` → None; ``"spacy-en"`` → the packaged clusters; anything else → a ``paths`` file."""
    if spec is None or isinstance(spec, WordClusters):
        return spec
    if spec in PACKAGED:
        return WordClusters.from_spacy_lookups(PACKAGED[spec])
    if not os.path.isfile(spec):
        raise PerceptronsError(
            f"clusters={spec!r}: expected one of {sorted(PACKAGED)} or a Brown 'paths' file; no such file"
        )
    return WordClusters.from_file(spec)

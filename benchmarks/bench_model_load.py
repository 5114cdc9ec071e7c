"""What the model loader's checks cost: ``load_model`` against a plain ``numpy.load`` of the
same file (every array read, nothing checked, no estimator built), interleaved, median of 9.

Models: taggers trained on UD English EWT (2 epochs), of its 17 UPOS tags and of its 321
UPOS|FEATS tags (morphological tagging, the tag set of ``bench_tagset.py``), and an averaged
perceptron on a9a.  The peak resident memory of a fresh process that loads each model once is
printed beside it.
"""

import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
from _common import DATA, interleaved, table
from bench_tagset import morph_copy

from perceptrons import AveragedPerceptron, Tagger, load_model, save_model
from perceptrons.io.conllu import read_conllu
from perceptrons.io.readers import read_data


def plain_read(path):
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def peak_mb(path):
    """Peak resident memory (MB) of a fresh process that imports the package and loads ``path``."""
    # VmHWM, not ru_maxrss: a child's ru_maxrss starts from its parent's (kept over fork and exec)
    code = (
        "import sys; from perceptrons import load_model; load_model(sys.argv[1]); "
        "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], check=True, capture_output=True, text=True)
    return int(out.stdout) / 1024


def main():
    with tempfile.TemporaryDirectory() as d:
        models = {}
        train = read_conllu(DATA / "ud-english-ewt" / "train.conllu")
        models["Tagger, EWT"] = Path(d) / "tagger.npz"
        save_model(Tagger(max_epochs=2).fit([s.words for s in train], [s.tags for s in train]), models["Tagger, EWT"])
        morph_copy(DATA / "ud-english-ewt" / "train.conllu", Path(d) / "morph.conllu")
        morph = read_conllu(Path(d) / "morph.conllu", "xpos")
        models["Tagger, EWT UPOS|FEATS (321 tags)"] = Path(d) / "morph.npz"
        tagger = Tagger(max_epochs=2).fit([s.words for s in morph], [s.tags for s in morph])
        save_model(tagger, models["Tagger, EWT UPOS|FEATS (321 tags)"])
        X, y = read_data(DATA / "a9a" / "a9a", fmt="libsvm")
        models["AveragedPerceptron, a9a"] = Path(d) / "averaged.npz"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            save_model(AveragedPerceptron(max_epochs=5).fit(X, y), models["AveragedPerceptron, a9a"])
        rows = []
        for name, path in models.items():
            load_model(path)  # warm: imports
            checked, plain = interleaved([lambda p=path: load_model(p), lambda p=path: plain_read(p)], 9)
            rows.append(
                (
                    name,
                    f"{path.stat().st_size / 2**20:.1f} MB",
                    f"{checked * 1e3:.1f} ms",
                    f"{plain * 1e3:.1f} ms",
                    f"{checked / plain:.2f}",
                    f"{peak_mb(path):.0f} MB",
                )
            )
        table(
            "load_model (checked) against numpy.load (unchecked), median of 9 interleaved",
            ("model", "file", "load_model", "numpy.load", "ratio", "peak RSS of a process loading it"),
            rows,
        )


if __name__ == "__main__":
    main()

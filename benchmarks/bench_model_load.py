"""What the model loader's checks cost: ``load_model`` against a plain ``numpy.load`` of the
same file (every array read, nothing checked, no estimator built), interleaved, median of 9.

Models: a tagger trained on UD English EWT (2 epochs) and an averaged perceptron on a9a.
"""

import tempfile
import warnings
from pathlib import Path

import numpy as np
from _common import DATA, interleaved, table

from perceptrons import AveragedPerceptron, Tagger, load_model, save_model
from perceptrons.io.conllu import read_conllu
from perceptrons.io.readers import read_data


def plain_read(path):
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def main():
    with tempfile.TemporaryDirectory() as d:
        models = {}
        train = read_conllu(DATA / "ud-english-ewt" / "train.conllu")
        models["Tagger, EWT"] = Path(d) / "tagger.npz"
        save_model(Tagger(max_epochs=2).fit([s.words for s in train], [s.tags for s in train]), models["Tagger, EWT"])
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
                )
            )
        table(
            "load_model (checked) against numpy.load (unchecked), median of 9 interleaved",
            ("model", "file", "load_model", "numpy.load", "ratio"),
            rows,
        )


if __name__ == "__main__":
    main()

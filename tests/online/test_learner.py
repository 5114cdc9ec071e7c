"""The online family's model files: a state its rule can never reach is refused on load, naming
the field, where it loaded before and trained on (or failed later, naming the weights)."""

import re

import numpy as np
import pytest
from model_fuzz import read_raw, write_raw
from sklearn.datasets import make_classification

from perceptrons import ALMA, AROW, ROMMA, SCW, Winnow, load_model, save_model
from perceptrons._core.errors import PerceptronsError

X, Y = make_classification(100, 4, random_state=0)


@pytest.mark.parametrize(
    ("model", "field", "value", "message"),
    [
        (AROW(covariance="diagonal"), "state_extra", -np.ones(5), "a variance must be positive, got -1"),
        (SCW(covariance="diagonal"), "state_extra", np.zeros(5), "a variance must be positive, got 0"),
        (Winnow(), "state_extra", -np.ones(5), "Winnow's weights are at least 0, got -1"),
        (Winnow(balanced=False), "state_w", -np.ones(4), "Winnow's weights are at least 0, got -1"),
        (ALMA(), "state_extra", np.array([0.0, 1.0, -1.0]), "the update count k must be at least 1, got 0"),
        (ALMA(), "state_extra", np.array([1.0, 0.0, -1.0]), "the weights' scale must be positive, got 0"),
        (ROMMA(), "state_extra", np.array([1.0, 1.0, -2.0]), "must be -1 (not known) or at least 0, got -2"),
    ],
)
def test_a_state_the_rule_cannot_reach_is_refused_naming_its_field(tmp_path, model, field, value, message):
    path = tmp_path / "m.npz"
    save_model(model.fit(X, Y), path)
    meta, arrays, _ = read_raw(path)
    (key,) = [k for k in arrays if k.endswith(field)]
    arrays[key] = value
    write_raw(path, meta, arrays)  # the checksum recomputed: only the loader's checks stand
    with pytest.raises(PerceptronsError, match=f"model field state.{field}: .*{re.escape(message)}"):
        load_model(path)

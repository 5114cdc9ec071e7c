"""The table of packaged models: names only, never paths; the English tagger's file, size,
licence and figures, read from the installed package (no shared data needed)."""

import zipfile

import pytest

from perceptrons import Tagger, load_model
from perceptrons._core.errors import PerceptronsError
from perceptrons.pretrained.catalogue import ALIASES, MODELS, lookup, model_file


@pytest.mark.parametrize("name", ["en", "EN", "eng", "english"])
def test_names_and_aliases(name):
    assert lookup(name) == "en"


@pytest.mark.parametrize(
    "name",
    ["", "fr", "en.npz", "en_ewt_upos.npz", "../en", "en/../en", "/etc/passwd", "pretrained/en", " en", "en\x00"],
)
def test_anything_but_a_name_is_refused_with_the_names(name):
    with pytest.raises(PerceptronsError) as exc:
        lookup(name)
    message = str(exc.value)
    assert "\n" not in message and "the names are en" in message and "eng" in message


@pytest.mark.parametrize("name", [None, b"en", 1, ["en"]])
def test_a_name_is_a_str(name):
    with pytest.raises(PerceptronsError, match="is a str; got"):
        lookup(name)


def test_every_model_file_ships_within_the_size_limit_and_loads_through_the_checked_loader():
    for name, entry in MODELS.items():
        with model_file(name) as path:
            assert path.name == entry.file
            assert path.stat().st_size <= 16 * 10**6  # issue 54: at most 16 MB installed
            assert zipfile.is_zipfile(path)
            model, info = load_model(path, expect="Tagger", with_info=True)
        assert info["tag_column"] == "upos"
        assert "CC BY-SA 4.0" in info["licence"] and info["licence"] == entry.licence
        assert info["trained_on"] == entry.trained_on
        assert isinstance(model, Tagger)


def test_aliases_lead_to_table_names():
    assert set(ALIASES.values()) <= set(MODELS)


def test_the_english_tagger_is_the_one_trained_on_ewt():
    tagger = Tagger.pretrained()
    assert sorted(tagger.tags_.tolist()) == sorted(
        "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X".split()
    )
    assert tagger.clusters_ is not None  # the clusters travel inside the file
    assert max(tagger.model_.dev_scores_) > 0.95  # the dev figure it was chosen by
    tagged = tagger.tag("The old man the boats .".split())
    assert [t for _, t in tagged][0] == "DET" and tagged[-1] == (".", "PUNCT")


def test_each_call_gives_a_tagger_of_its_own():
    a, b = Tagger.pretrained("en"), Tagger.pretrained("eng")
    assert a is not b
    assert a.tag(["Hello", "world"]) == b.tag(["Hello", "world"])

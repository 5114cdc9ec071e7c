"""The model loader against hostile files: one test per class of defence, and a fuzzing sample.

``make fuzz`` runs ``tests/model_fuzz.py`` with 10,000 cases; here a smaller sample runs in
every ``make test``, in subprocesses, so that a crash of the interpreter counts as a failure.
"""

import json
import resource
import time
import zipfile

import model_fuzz as mf
import numpy as np
import pytest

from perceptrons import load_model
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.visits import MAX_VISITS
from perceptrons.io.model_file import MAX_MEMBERS


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    return mf.build_models(str(tmp_path_factory.mktemp("models")))


def refused(path, *fragments):
    with pytest.raises(PerceptronsError) as info:
        load_model(path)
    msg = str(info.value)
    assert "\n" not in msg and str(path) in msg, msg
    for f in fragments:
        assert f in msg, msg
    return msg


def edited(models, name, tmp_path, change):
    """The model ``name`` with ``change(meta, arrays)`` applied and the checksum recomputed."""
    meta, arrays, _ = mf.read_raw(models[name])
    change(meta, arrays)
    path = tmp_path / f"{name}-edited.npz"
    mf.write_raw(path, meta, arrays)
    return path


@pytest.mark.slow
def test_every_estimator_round_trips_through_the_checks(models, tmp_path):
    # The checks refuse nothing the writer writes, for every estimator and variant, and what
    # they let through is the whole model: saved again, it is the same file content.
    from perceptrons import save_model

    for name, path in models.items():
        again = tmp_path / f"{name}.npz"
        est, info = load_model(path, with_info=True)
        save_model(est, again, info=info)
        meta, arrays, _ = mf.read_raw(path)
        meta2, arrays2, _ = mf.read_raw(again)
        assert meta2 == meta, name
        assert sorted(arrays2) == sorted(arrays), name
        for k in arrays:
            assert arrays2[k].dtype == arrays[k].dtype and arrays2[k].shape == arrays[k].shape, (name, k)
            np.testing.assert_array_equal(arrays2[k], arrays[k], err_msg=f"{name}: {k}")
        mf.use(load_model(path))


@pytest.mark.parametrize(
    "field,value",
    [
        ("stream_log_j", 10**6),
        ("stream_log_j", -1),
        ("stream_log_r", 7),
        ("stream_log_c", -5),
    ],
)
def test_kernel_update_log_indices_are_range_checked(models, tmp_path, field, value):
    # the segmentation fault of the report: an edited update log read out of bounds in voted_scores
    def change(meta, arrays):
        arrays[field] = arrays[field].copy()
        arrays[field][0] = value

    refused(edited(models, "kernel_voted3", tmp_path, change), field)


def test_update_log_counters_must_grow(models, tmp_path):
    def change(meta, arrays):
        arrays["stream_log_c"] = arrays["stream_log_c"][::-1].copy()

    refused(edited(models, "kernel_voted", tmp_path, change), "stream_log_c", "non-decreasing")


@pytest.mark.parametrize(
    "name,field",
    [
        ("seq", "W_rows"),
        ("seq", "W_cols"),
        ("tagger", "f_type_table"),
        ("tagger", "f_ptr"),
        ("kernel_budget", "stream_ring"),
        ("kernel", "stream_y"),
        ("tagger_clusters", "c_offsets"),
    ],
)
def test_index_arrays_are_range_checked(models, tmp_path, name, field):
    def change(meta, arrays):
        a = arrays[field].copy()
        a.reshape(-1)[-1] = np.iinfo(a.dtype).max
        arrays[field] = a

    refused(edited(models, name, tmp_path, change), field.split("_", 1)[1] if name.startswith("tagger") else field)


@pytest.mark.parametrize(
    "name,field",
    [
        ("perceptron", "state_w"),
        ("averaged3", "coef"),
        ("kernel", "stream_A"),
        ("seq", "W_vals"),
        ("voted", "vectors"),
        ("tagger", "m_trans"),
        ("pocket3", "state_perr"),  # a count of errors below the weights' finite sum
    ],
)
@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_weights_are_refused(models, tmp_path, name, field, value):
    def change(meta, arrays):
        arrays[field] = arrays[field].copy()
        arrays[field].reshape(-1)[0] = value

    refused(edited(models, name, tmp_path, change), "non-finite")


@pytest.mark.parametrize(
    "name,field,shape",
    [
        ("perceptron", "state_w", (5,)),
        ("perceptron3", "state_w", (3, 2)),
        ("pocket", "state_pw", (2,)),
        ("voted3", "vector_counts", (99,)),
        ("kernel", "stream_A", (3, 3)),
    ],
)
def test_shapes_are_checked_against_each_other(models, tmp_path, name, field, shape):
    def change(meta, arrays):
        arrays[field] = np.zeros(shape, dtype=arrays[field].dtype)

    refused(edited(models, name, tmp_path, change), field, "shape")


@pytest.mark.parametrize("dtype", ["complex128", "float16", "int64", "<U3", ">f8"])
def test_weight_dtypes_are_checked(models, tmp_path, dtype):
    def change(meta, arrays):
        arrays["state_w"] = arrays["state_w"].astype(dtype)

    refused(edited(models, "perceptron", tmp_path, change), "state_w")


@pytest.mark.parametrize(
    "path,value",
    [
        (("state", "n_features_in"), "3"),
        (("state", "n_features_in"), 2**80),
        (("state", "binary"), 1),
        (("state", "mistakes_per_epoch"), {"a": 1}),
        (("state", "mistakes_per_epoch"), [1, -1, 0]),
        (("state", "n_epochs"), 99),
        (("params", "max_epochs"), 0),
        (("params", "order"), ["cyclic"]),
        (("params", "no_such_parameter"), 1),
        (("info",), []),
        (("info", "tag_column"), "lemma"),  # the CoNLL-U column a tagger was trained on: not a tag column
        (("info", "tag_column"), 1),
        (("info", "tag_column"), ["upos"]),  # unhashable: a membership test must not raise TypeError
        (("info", "label_column"), ["y"]),
        (("estimator",), ["Perceptron"]),
    ],
)
def test_metadata_fields_have_their_json_types(models, tmp_path, path, value):
    def change(meta, arrays):
        mf._set(meta, path, value)

    refused(edited(models, "perceptron", tmp_path, change))


def test_metadata_must_be_an_object_of_bounded_depth(models, tmp_path):
    meta, arrays, _ = mf.read_raw(models["perceptron"])
    path = tmp_path / "deep.npz"
    mf.write_raw(path, meta, arrays, splice=', "x": ' + "[" * 100000 + "]" * 100000)
    refused(path, "nested deeper")
    blob = np.frombuffer(b"[1, 2]", dtype=np.uint8)
    mf.write_raw(path, meta, arrays, checksum=False, members=[("__meta__.npy", mf.npy_bytes(blob))])
    refused(path, "JSON list, expected an object")
    blob = np.frombuffer(json.dumps(dict(meta, x=1)).replace('"x": 1', '"x": NaN').encode(), dtype=np.uint8)
    mf.write_raw(path, meta, arrays, checksum=False, members=[("__meta__.npy", mf.npy_bytes(blob))])
    refused(path, "not valid JSON")


def test_unread_fields_are_refused(models, tmp_path):
    refused(edited(models, "kernel", tmp_path, lambda m, a: a.update(zz=np.zeros(2))), "zz", "unexpected array")
    refused(edited(models, "kernel", tmp_path, lambda m, a: m["state"].update(zz=1)), "state.zz", "unexpected field")


def test_counts_must_be_consistent(models, tmp_path):
    def change(meta, arrays):
        meta["state"]["binary"] = False

    refused(edited(models, "perceptron", tmp_path, change), "binary")

    def change(meta, arrays):
        arrays["vector_counts"] = arrays["vector_counts"] + 10**6

    refused(edited(models, "voted", tmp_path, change), "vector_counts")

    def change(meta, arrays):
        meta["state"]["model"]["n_features_in"] += 1

    refused(edited(models, "tagger", tmp_path, change), "n_features_in")


@pytest.mark.slow
def test_a_compressed_member_is_refused_before_it_is_inflated(models, tmp_path):
    # The report: a 3 MB file whose deflated member inflates to gigabytes.  Here 400 MB of
    # zeros compress to ~400 kB; the loader must refuse without inflating them.
    meta, arrays, _ = mf.read_raw(models["perceptron"])
    path = tmp_path / "bomb.npz"
    members = [
        ("__meta__.npy", mf.npy_bytes(np.frombuffer(json.dumps(meta).encode(), np.uint8))),
        ("state_w.npy", mf.npy_bytes(np.zeros(50_000_000))),
    ]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, payload in members:
            z.writestr(name, payload)
    del members
    assert path.stat().st_size < 2_000_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    refused(path, "compressed")
    assert time.perf_counter() - t0 < 5  # a bound far from the 25 s of inflating, not a benchmark
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # kB: nothing inflated


def test_a_header_declaring_a_huge_array_is_refused_before_allocating(models, tmp_path):
    meta, arrays, _ = mf.read_raw(models["perceptron"])
    fake = mf.npy_bytes(np.zeros(2)).replace(b"(2,)", b"(1099511627776,)")
    path = tmp_path / "huge.npz"
    members = [
        ("__meta__.npy", mf.npy_bytes(np.frombuffer(json.dumps(meta).encode(), np.uint8))),
        ("state_w.npy", fake),
    ]
    mf.write_raw(path, meta, arrays, checksum=False, members=members)
    refused(path, "state_w", "declares")


@pytest.mark.filterwarnings("ignore:Duplicate name:UserWarning")
def test_member_count_names_and_pickles(models, tmp_path):
    meta, arrays, _ = mf.read_raw(models["perceptron"])
    path = tmp_path / "m.npz"
    mf.write_raw(path, meta, arrays, extra=[(f"x{i}.npy", mf.npy_bytes(np.zeros(1))) for i in range(MAX_MEMBERS)])
    refused(path, "members")
    mf.write_raw(path, meta, arrays, extra=[("coef.npy", mf.npy_bytes(np.zeros(1)))])
    refused(path, "same name")
    mf.write_raw(path, meta, arrays, extra=[("notes.txt", b"x")])
    refused(path, "not an array")
    arrays["coef"] = np.array([1, None], dtype=object)
    mf.write_raw(path, meta, arrays)
    refused(path, "coef", "dtype")


def test_fortran_order_arrays_of_our_own_dtype_still_load(models, tmp_path):
    # A Fortran-ordered member is a valid .npy; the loader reads it into C order.
    def change(meta, arrays):
        arrays["state_w"] = np.asfortranarray(arrays["state_w"])
        arrays["coef"] = np.asfortranarray(arrays["coef"])

    est = load_model(edited(models, "perceptron3", tmp_path, change))
    ref = load_model(models["perceptron3"])
    np.testing.assert_array_equal(est.coef_, ref.coef_)


def test_params_are_checked_as_fit_would(models, tmp_path):
    def change(meta, arrays):
        meta["params"]["class_weight"] = {"__dict__": [[0, float("1e308")], [1, -1.0]]}

    refused(edited(models, "perceptron", tmp_path, change), "class_weight")

    def change(meta, arrays):
        meta["params"]["kernel"] = "os.system"

    refused(edited(models, "kernel", tmp_path, change), "kernel")


@pytest.mark.parametrize(
    "name,field", [("perceptron3", "classes"), ("tagger", "m_classes"), ("tagger", "tagdict_words"), ("seq", "classes")]
)
@pytest.mark.parametrize("code", [0x110000, 0xFFFFFFFF])
def test_text_beyond_unicode_is_refused(models, tmp_path, name, field, code):
    # numpy stores any 32-bit code; Python then refused to make a str of it (a SystemError
    # wherever a label became a str: at load, at the first predict, in the CLI)
    def change(meta, arrays):
        a = arrays[field] if arrays[field].size else np.array(["x"])
        arrays[field] = a.copy()
        arrays[field].view(np.uint32).reshape(-1)[0] = code

    refused(edited(models, name, tmp_path, change), field, "character code")


@pytest.mark.parametrize("field", ["m_W_vals", "m_trans", "m_start"])
def test_tagger_weights_beyond_float32_are_refused(models, tmp_path, field):
    # a tagger tags with float32 emission weights: 1e300 became inf, every tag then the same
    def change(meta, arrays):
        arrays[field] = arrays[field].astype(np.float64)
        arrays[field].reshape(-1)[0] = 1e300

    refused(edited(models, "tagger", tmp_path, change), field[2:], "expected at most")


@pytest.mark.parametrize(
    "templates,fragment",
    [
        (lambda t: t + t[:1], "given twice"),
        (lambda t: t + [f"w[{k % 11 - 5}]|p{1 + k // 11}[0]" for k in range(300)], "at most"),
    ],
)
def test_template_lists_are_bounded(models, tmp_path, templates, fragment):
    # the prediction tables are (templates × attribute values): 20,000 templates of a few bytes
    # each made a 1.2 MB file take 1 GB on its first call
    def change(meta, arrays):
        meta["state"]["templates"] = templates(meta["state"]["templates"])

    refused(edited(models, "tagger", tmp_path, change), "templates", fragment)


@pytest.mark.parametrize("name,field", [("seq", "W_vals"), ("voted", "vectors"), ("voted3", "vectors")])
def test_scores_that_overflow_are_refused_at_predict(models, tmp_path, name, field):
    # finite weights, as large as a float64 holds: a Viterbi or a vote over inf and NaN
    # predicted one label for every row, silently
    def change(meta, arrays):
        arrays[field] = arrays[field].astype(np.float64)
        arrays[field].reshape(-1)[::2] = 1e308
        arrays[field].reshape(-1)[1::2] = -1e308

    est = load_model(edited(models, name, tmp_path, change))
    with pytest.raises(PerceptronsError, match="overflowed"):
        mf.use(est)


@pytest.mark.slow
@pytest.mark.fuzz
def test_fuzzing_sample_in_subprocesses():
    # Cases 0..599 of seed 20261123 in worker subprocesses; `make fuzz` runs 10,000.
    counts, failures, _ = mf.fuzz(600, seed=20261123, workers=2)
    assert not failures, failures[:5]
    assert sum(counts.values()) == 600
    assert counts.get("refused", 0) > 400 and counts.get("used", 0) > 30, counts  # both paths exercised


@pytest.mark.parametrize(
    "name,field",
    [
        ("voted", "state_count"),
        ("averaged3", "state_count"),
        ("kernel", "stream_count"),
        ("kernel_avg3", "stream_alpha"),
    ],
)
def test_visit_counters_past_2_53_are_refused(models, tmp_path, name, field):
    # averaging weighs each update by the visit counter in float64, exact to 2**53; compiled
    # int64 code would wrap at 2**63 (a voted model at 2**63 − 1 failed in partial_fit)
    def change(meta, arrays):
        arrays[field] = np.full_like(arrays[field], MAX_VISITS + 1)

    refused(edited(models, name, tmp_path, change), field, str(MAX_VISITS + 1))


def test_a_vote_count_past_2_53_is_refused_also_before_the_last(models, tmp_path):
    # the last vector's count is checked against the visit counter; the others only by the bound
    def change(meta, arrays):
        arrays["vector_counts"] = arrays["vector_counts"].copy()
        arrays["vector_counts"][0] = MAX_VISITS + 1

    refused(edited(models, "voted3", tmp_path, change), "vector_counts", str(MAX_VISITS + 1))


@pytest.mark.parametrize(
    "name,key",
    [
        ("perceptron", "n_updates"),
        ("pocket", "pocket_updates"),
        ("voted3", "n_vectors_dropped"),
        ("kernel", "n_seen"),
        ("kernel", "n_removed"),
    ],
)
def test_counts_past_2_53_are_refused(models, tmp_path, name, key):
    def change(meta, arrays):
        (meta["state"] if key in meta["state"] else meta["state"]["model"])[key] = MAX_VISITS + 1

    refused(edited(models, name, tmp_path, change), key, str(MAX_VISITS + 1))


@pytest.mark.parametrize(
    "name,field", [("voted", "state_count"), ("averaged3", "state_count"), ("kernel", "stream_count")]
)
def test_training_that_could_pass_the_visit_bound_is_refused_before_it_starts(models, tmp_path, name, field):
    from perceptrons import save_model

    X = np.random.default_rng(1).standard_normal((6, load_model(models[name]).n_features_in_))

    def at(count):
        est = load_model(edited(models, name, tmp_path, lambda m, a: a.update({field: np.array([count])})))
        return est, est.classes_[np.arange(6) % len(est.classes_)]

    est, y = at(MAX_VISITS - 5)  # six rows, one visit each: one too many
    before = est.decision_function(X)
    with pytest.raises(PerceptronsError, match=rf"counted {MAX_VISITS - 5} example visits.*6 more.*2\*\*53"):
        est.partial_fit(X, y)
    np.testing.assert_array_equal(est.decision_function(X), before)
    est, y = at(MAX_VISITS - 6)  # exactly to the bound: trains, and the model saved loads again
    est.partial_fit(X, y)
    save_model(est, tmp_path / "full.npz")
    again = load_model(tmp_path / "full.npz")
    np.testing.assert_array_equal(again.decision_function(X), est.decision_function(X))

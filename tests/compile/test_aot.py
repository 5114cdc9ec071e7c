"""The tagger's kernels compiled ahead of time (:mod:`perceptrons._compile.aot`): built and current,
called only with arguments of exactly their types, the same results as the JIT bit for bit,
and a ``tag predict`` process that never starts numba."""

import copy
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numba import typeof, types
from numba.core.errors import NumbaError

from perceptrons import Tagger, save_model
from perceptrons._compile import aot as _aot
from perceptrons._compile import aot_build as _aot_build
from perceptrons._compile.aot_spec import EXPORTS, Slot, parse
from perceptrons.io.conllu import read_conllu

pytestmark = pytest.mark.aot


@pytest.fixture(scope="module")
def ewt(shared_data):
    ewt = shared_data("ud-english-ewt")
    train = read_conllu(ewt / "train.conllu", "upos", require_tags=True, keep_lines=False)[:1500]
    dev = read_conllu(ewt / "dev.conllu", "upos", require_tags=True, keep_lines=False)[:400]
    tagger = Tagger(max_epochs=2).fit([s.words for s in train], [s.tags for s in train])
    return tagger, [s.words for s in dev]


def test_the_module_is_built_from_these_sources():
    assert _aot.compiled_module() is not None, "perceptrons._compile.prebuilt is missing or stale: run `make aot`"
    assert _aot.compiled_module().stamp() == _aot.stamp()


def test_a_stale_or_disabled_module_is_not_used(monkeypatch):
    def fresh():
        _aot.compiled_module.cache_clear()
        _aot.loop.cache_clear()

    built = _aot.compiled_module().stamp()
    try:
        monkeypatch.setattr(_aot, "stamp", lambda: built + 1)  # another build's sources
        fresh()
        assert _aot.compiled_module() is None
        assert _aot.loop("tag_cached") is _aot.jit("tag_cached")
        monkeypatch.undo()
        for name in (_aot.OFF, "NUMBA_DISABLE_JIT"):
            monkeypatch.setenv(name, "1")
            fresh()
            assert _aot.compiled_module() is None
            monkeypatch.undo()
    finally:
        fresh()
    assert isinstance(_aot.loop("tag_cached"), _aot._Checked)


def test_make_aot_leaves_a_current_module_alone_when_it_is_turned_off(monkeypatch):
    """``--if-stale`` asks whether the module is current, not whether this process may use it."""
    path = _aot_build.default_path()
    before = path.stat().st_mtime_ns
    monkeypatch.setenv(_aot.OFF, "1")
    _aot_build.main(["--if-stale"])
    assert path.stat().st_mtime_ns == before


DTYPES = ["u1", "i4", "i8", "u8", "f4", "f8", "b1", ">i8", "<f8"]


@st.composite
def arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(0, 3)) for _ in range(ndim))
    a = np.zeros(shape, dtype=dtype)
    view = draw(st.sampled_from(["c", "f", "step", "unaligned"]))
    if view == "f":
        a = np.asfortranarray(a)
    elif view == "step":
        a = np.zeros(tuple(2 * n for n in shape), dtype=dtype)[(slice(None, None, 2),) * ndim]
    elif view == "unaligned" and dtype.itemsize > 1:
        raw = np.zeros(a.size * dtype.itemsize + 1, dtype=np.uint8)[1:]
        a = raw.view(dtype).reshape(shape)
    if draw(st.booleans()):
        a.flags.writeable = False
    return a


ARRAY_SLOTS = st.builds(
    lambda code, ndim, writable: Slot("array", code, ndim, writable, ()),
    st.sampled_from(["u1", "i4", "i8", "u8", "f4", "f8", "b1"]),
    st.integers(1, 3),
    st.booleans(),
)


@settings(max_examples=400, deadline=None)
@given(arrays(), ARRAY_SLOTS)
@example(np.zeros(17, np.uint8)[1:].view(np.uint64), Slot("array", "u8", 1, False, ()))  # unaligned
@example(np.zeros(3, np.int64), Slot("array", "i8", 1, True, ()))
def test_an_array_fits_its_slot_exactly_when_numba_types_it_so(a, slot):
    """numba's own typeof is the oracle: the compiled-ahead kernel may be given the array only
    when the JIT would type it as the slot's type (a read-only slot takes a writable array too).
    One deliberate difference: numba 0.68 types an unaligned array as aligned; the check sends
    it to the JIT rather than to code compiled for aligned arrays."""
    expected = _aot_build._numba_type(slot)
    try:
        seen = typeof(a)
    except NumbaError:  # a dtype numba has no type for (not native byte order)
        seen = None
    fits = seen == expected or (not slot.writable and seen == expected.copy(readonly=False))
    fits = fits and a.flags.aligned
    assert _aot._fits(a, slot) == fits, (a.dtype, a.shape, a.strides, a.flags.writeable, slot)


@pytest.mark.parametrize(
    "value",
    [0, -1, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, True, np.int64(5), np.int32(5), np.uint64(5), 5.0, None, "5"],
)
def test_an_int_fits_exactly_when_numba_types_it_int64(value):
    try:
        int64 = typeof(value) == types.int64
    except (NumbaError, ValueError, OverflowError):  # beyond 64 bits: numba has no type for it
        int64 = False
    assert _aot._fits(value, Slot("int", None, 0, False, ())) == int64
    assert _aot._fits(value, Slot("none", None, 0, False, ())) == (value is None)


def test_a_tuple_fits_only_with_its_length_and_items():
    (slot,) = parse("(i8:1)*3")
    ok = tuple(np.zeros(2, np.int64) for _ in range(3))
    assert _aot._fits(ok, slot)
    assert not _aot._fits(ok[:2], slot)
    assert not _aot._fits(list(ok), slot)
    assert not _aot._fits((*ok[:2], np.zeros(2, np.int32)), slot)
    (mixed,) = parse("(i8:1,int,none,f8:2r)")
    assert [s.kind for s in mixed.items] == ["array", "int", "none", "array"]
    ok = (np.zeros(2, np.int64), 3, None, np.zeros((2, 2)))
    assert _aot._fits(ok, mixed)
    assert not _aot._fits(ok[:3], mixed)
    assert not _aot._fits((ok[0], 3.0, None, ok[3]), mixed)
    assert not _aot._fits((*ok[:3], np.zeros(2)), mixed)


def test_an_argument_that_does_not_fit_goes_to_the_jit():
    kernel = _aot.loop("column_maxima")
    trans = np.arange(12.0).reshape(3, 4)
    expected = _aot.jit("column_maxima")(trans)
    for other in (np.asfortranarray(trans), trans.astype(np.float32), trans[:, ::2].copy()):
        assert np.array_equal(kernel(other), _aot.jit("column_maxima")(other))
    assert np.array_equal(kernel(trans), expected)


@pytest.mark.slow
@pytest.mark.data
def test_tagging_calls_only_fit_the_compiled_kernels_and_match_the_jit(ewt, monkeypatch):
    """Every call a default tagger makes (a batch in two threads, sentences one at a time, new
    words) goes to the compiled-ahead kernel, and the JIT given copies of the same arguments
    returns and writes the same, bit for bit."""
    tagger, dev = ewt
    calls = []

    def fallback(name):
        raise AssertionError(f"{name} was called with arguments outside its slots")

    original = _aot._Checked.__call__

    def checked(self, *args):
        before = copy.deepcopy(args)  # the arguments as given: the kernel writes some of them
        result = original(self, *args)
        calls.append((self.name, before))
        return result

    monkeypatch.setattr(_aot, "jit", fallback)
    monkeypatch.setattr(_aot._Checked, "__call__", checked)
    fresh = copy.deepcopy(tagger)
    batch = fresh.predict(dev)
    one = [[t for _, t in copy.deepcopy(tagger).tag(s)] for s in dev[:50]]
    monkeypatch.undo()
    assert one == batch[:50]
    assert {name for name, _ in calls} >= {"tag_cached", "cache_words", "word_emissions", "key_filter", "column_maxima"}
    for name, args in calls:
        ahead, jitted = copy.deepcopy(args), copy.deepcopy(args)
        got = _aot.loop(name).compiled(*ahead)
        want = _aot.jit(name)(*jitted)
        _assert_same(got, want, name)
        _assert_same(ahead, jitted, name)


def _assert_same(a, b, name):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), name
        for x, y in zip(a, b):
            _assert_same(x, y, name)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind == "f"), name
    else:
        assert a == b, name


def test_every_export_names_a_kernel_of_its_module():
    for name, (module, slots) in EXPORTS.items():
        dispatcher = _aot.jit(name)
        assert dispatcher.py_func.__module__ == f"perceptrons._jit.{module}"
        assert dispatcher.py_func.__code__.co_argcount == len(parse(slots)), name


@pytest.mark.slow
@pytest.mark.data
def test_tag_predict_never_starts_numba(ewt, tmp_path, shared_data):
    """``tag predict`` runs on the compiled-ahead kernels alone, and writes the same file as with
    the JIT."""
    tagger, _ = ewt
    model = tmp_path / "ewt.model"
    save_model(tagger, model)
    test = shared_data("ud-english-ewt") / "test.conllu"
    code = (
        "import sys; from perceptrons.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite', 'scipy', 'sklearn')))"
    )
    outputs = []
    for env in ({}, {_aot.OFF: "1"}):
        out = tmp_path / f"out{len(outputs)}.conllu"
        argv = ["tag", "predict", str(model), str(test), "-o", str(out)]
        run = subprocess.run(
            [sys.executable, "-c", code, *argv], capture_output=True, text=True, env={**_env(), **env}, check=True
        )
        outputs.append((run.stdout.strip(), out.read_bytes()))
    assert outputs[0][0] == "[]"
    assert "'numba'" in outputs[1][0]  # the JIT's run: the check above can see numba
    assert outputs[0][1] == outputs[1][1]


def _env():
    return {k: v for k, v in os.environ.items() if k != _aot.OFF}


def test_a_checker_skips_only_the_objects_of_its_last_passing_call():
    fits = _aot._checker(parse("i8:1 f8:2"))
    a, b = np.zeros(3, np.int64), np.zeros((2, 2))
    assert fits((a, b))
    assert fits((a, b))  # the same objects: passed without a test
    assert not fits((a, b.T))  # another object at the second place is tested: F order
    assert not fits((a, b.astype(np.float32)))
    bad = np.zeros(3, np.int32)
    assert not fits((bad, b))
    assert not fits((bad, b))  # a call that did not pass is not remembered
    assert not fits((a,))
    assert not fits((a, b, None))

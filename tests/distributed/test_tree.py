"""The mix on the workers (perceptrons.distributed._tree) as pure functions, without a cluster:
the tree of virtual shards against the flat mix."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons.distributed._mixing import SPARSE_MIN, mix, outbound, pack
from perceptrons.distributed._tree import Part, mix_group, mix_root

PAIRS = [("w", "u"), ("b", "ub")]


def _start(rng, n):
    w = rng.normal(size=(n, 2))
    return {"w": w, "u": rng.normal(size=(n, 2)), "b": rng.normal(size=2), "ub": rng.normal(size=2),
            "count": np.array([40], dtype=np.int64)}  # fmt: skip


def _shard_end(rng, start, n_rows):
    """What a shard's epoch from ``start`` leaves: a few rows changed, sums from zero."""
    end = {k: v.copy() for k, v in outbound(start, PAIRS, 2).items()}
    end["u"], end["ub"] = np.zeros_like(start["u"]), np.zeros_like(start["ub"])
    visits = int(rng.integers(1, 30))
    rows = rng.choice(start["w"].shape[0], size=n_rows, replace=False)
    end["w"][rows] += rng.normal(size=(n_rows, 2))
    end["u"][rows] = rng.normal(size=(n_rows, 2))
    end["b"] += rng.normal(size=2)
    end["ub"] = rng.normal(size=2)
    end["count"] = start["count"] + visits
    return end


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    S=st.integers(2, 11),
    fan_in=st.integers(2, 4),
    how=st.sampled_from(["error", "uniform"]),
    wide=st.booleans(),
)
def test_a_tree_of_virtual_shards_is_the_flat_mix(seed, S, fan_in, how, wide):
    rng = np.random.default_rng(seed)
    n = SPARSE_MIN if wide else 50  # rows that travel as (rows, values), or whole arrays
    start = _start(rng, n)
    sent = outbound(start, PAIRS, S)
    mistakes = rng.integers(0, 4, size=S)
    parts = []
    for k in mistakes:
        packed = pack(sent, _shard_end(rng, start, int(rng.integers(1, 20))), PAIRS)
        parts.append(Part(packed, int(k), 1, [(int(k), None, 0)]))
    flat = mix_root(start, parts, PAIRS, how, True)
    level = parts
    while len(level) > fan_in:
        level = [mix_group(start, level[i : i + fan_in], PAIRS, how) for i in range(0, len(level), fan_in)]
    tree = mix_root(start, level, PAIRS, how, True)
    assert tree.rounds == flat.rounds
    assert tree.state["count"][0] == flat.state["count"][0]
    for key in ("w", "u", "b", "ub"):
        np.testing.assert_allclose(tree.state[key], flat.state[key], rtol=1e-12, atol=1e-12)


def test_a_group_of_one_is_passed_on_untouched():
    part = Part({"count": np.array([1])}, 3, 1, [(3, None, 0)])
    assert mix_group({}, [part], PAIRS, "error") is part


def test_the_flat_root_is_mix_itself():
    """With no more shards than a task reads, the root is the flat mix, bit for bit."""
    rng = np.random.default_rng(3)
    start = _start(rng, SPARSE_MIN)
    sent = outbound(start, PAIRS, 3)
    packed = [pack(sent, _shard_end(rng, start, 5), PAIRS) for _ in range(3)]
    parts = [Part(p, k, 1, [(k, None, 0)]) for p, k in zip(packed, (1, 0, 2))]
    root = mix_root(start, parts, PAIRS, "error", True)
    direct = mix(start, packed, np.array([1 / 3, 0.0, 2 / 3]), PAIRS)
    for k in direct:
        assert root.state[k].tobytes() == direct[k].tobytes()

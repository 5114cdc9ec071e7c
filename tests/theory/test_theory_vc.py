"""Shattering, VC dimension and Sauer's lemma (perceptrons.theory.vc), and the two CLI commands."""

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptrons._core.errors import PerceptronsError
from perceptrons.theory import CONCEPTS, growth, labelings, sauer_bound, shatters

# Har-Peled's four points p, q, r, s: disks cut out every subset but {r, s}.
HP = np.array([[0.0, 1.0], [0.0, -1.0], [-2.0, 0.0], [2.0, 0.0]])
TRIANGLE = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 0.9]])
DIAMOND = np.array([[0.0, 1.0], [1.0, 0.0], [0.0, -1.0], [-1.0, 0.0]])


def test_disks_realise_15_of_16_on_har_peleds_shape():
    U = labelings(HP, "disks")
    assert len(U) == 15
    assert set(product((0, 1), repeat=4)) - U == {(0, 0, 1, 1)}  # {r, s}
    assert len(U) <= sauer_bound(3, 4)


def test_disks_shatter_a_triangle():
    assert shatters(TRIANGLE, "disks")
    assert len(labelings(TRIANGLE, "disks")) == 8


def test_halfplanes_shatter_3_points_in_general_position():
    assert shatters(TRIANGLE, "halfplanes")
    assert not shatters([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], "halfplanes")  # collinear: middle alone fails


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_halfplanes_shatter_no_4_points(seed):
    P = np.random.default_rng(seed).standard_normal((4, 2))
    U = labelings(P, "halfplanes")
    assert len(U) < 16 and len(U) <= sauer_bound(3, 4)


def test_halfplanes_known_counts():
    # 4 points in convex position: the two diagonal pairs fail (14); a triangle with a point
    # inside: the inner point alone and the three outer ones without it fail (14 as well)
    assert len(labelings(DIAMOND, "halfplanes")) == 14
    inner = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0], [0.7, 0.7]])
    U = labelings(inner, "halfplanes")
    assert (0, 0, 0, 1) not in U and (1, 1, 1, 0) not in U and len(U) == 14


def test_rectangles_shatter_the_diamond_but_no_5_points():
    assert shatters(DIAMOND, "rectangles")
    rng = np.random.default_rng(0)
    for P in [rng.standard_normal((5, 2)) for _ in range(20)] + [np.vstack([DIAMOND, [[0.0, 0.0]]])]:
        U = labelings(P, "rectangles")
        assert len(U) < 32 and len(U) <= sauer_bound(4, 5)


def test_intervals():
    U = labelings([[0.0], [1.0], [2.0]], "intervals")
    assert len(U) == 7 and (1, 0, 1) not in U
    assert shatters([[0.0], [1.0]], "intervals")


def test_convex_polygons_shatter_points_on_a_circle():
    t = np.linspace(0, 2 * np.pi, 7, endpoint=False)
    assert shatters(np.column_stack([np.cos(t), np.sin(t)]), "convex-polygons")
    # a point inside the hull of the others can't be left out
    P = np.vstack([DIAMOND, [[0.0, 0.0]]])
    assert (1, 1, 1, 1, 0) not in labelings(P, "convex-polygons")


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), m=st.integers(1, 8), grid=st.sampled_from([None, 1, 0.1, 1e-9, 1e6]))
def test_convex_polygons_decide_as_the_lp_on_every_labeling(seed, m, grid):
    """The hull test decides clear cases itself and leaves the boundary band to the LP: on every
    labeling it answers as the LP alone does, with points on a grid (repeats, collinear points,
    negatives on the hull's edges), tiny and huge coordinates included."""
    from perceptrons.theory.vc import _convex, _in_hull

    rng = np.random.default_rng(seed)
    P = rng.standard_normal((m, 2))
    if grid is not None:
        P = np.round(P * 2) * grid  # a coarse grid: ties everywhere
    for bits in product((False, True), repeat=m):
        mask = np.array(bits)
        lp = not mask.any() or not any(_in_hull(P[mask], q) for q in P[~mask])
        assert _convex(P, mask) == lp, (P.tolist(), bits)


def test_convex_polygons_shatter_twelve_points_on_a_circle_without_an_lp(monkeypatch):
    """Points in convex position are outside every other hull by more than the band: no LP."""
    from perceptrons.theory import vc

    monkeypatch.setattr(vc, "_in_hull", lambda Q, q: pytest.fail("an LP was solved"))
    t = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    assert shatters(np.column_stack([np.cos(t), np.sin(t)]), "convex-polygons")


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), m=st.integers(1, 7), concept=st.sampled_from(["halfplanes", "disks", "rectangles"]))
def test_sauer_holds_on_every_tested_set(seed, m, concept):
    rng = np.random.default_rng(seed)
    P = rng.standard_normal((m, 2)).round(1)  # rounding: ties and repeated points included
    U = labelings(P, concept)
    assert len(U) <= sauer_bound(CONCEPTS[concept].vc_dimension(2), m)
    # monotone: a range realising a labeling restricts to one on a subset
    if m > 1:
        assert {bits[:-1] for bits in U} <= labelings(P[:-1], concept)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    m=st.integers(1, 7),
    concept=st.sampled_from(["halfplanes", "disks", "rectangles", "convex-polygons", "intervals", "halfspaces"]),
)
def test_grown_labelings_are_every_realised_labeling(seed, m, concept):
    """Labelings are grown one point at a time from those realised on fewer points (16
    points and half-planes took 4 minutes); they are exactly the 2^m labelings tested one by
    one, ties and repeated points included."""
    from perceptrons.theory.vc import _normalised

    c = CONCEPTS[concept]
    d = {"intervals": 1, "halfspaces": 3}.get(concept, 2)
    P = np.random.default_rng(seed).standard_normal((m, d)).round(1)
    given = _normalised(P) if c.similarity_invariant else P  # as labelings gives them
    brute = {bits for bits in product((0, 1), repeat=m) if c.realisable(given, np.array(bits, dtype=bool))}
    assert labelings(P, concept) == brute
    assert shatters(P, concept) == (len(brute) == 2**m)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    m=st.integers(1, 6),
    concept=st.sampled_from(["halfplanes", "disks", "convex-polygons", "halfspaces"]),
    exponent=st.integers(-1000, 1000),
    shift=st.integers(-64, 64),
)
def test_answers_do_not_depend_on_the_units(seed, m, concept, exponent, shift):
    """The same points in other units (moved, then scaled by a power of two: exactly the same
    set) get the same labelings.  Before the points were normalised, a square and its centre
    spread over 1e-8 gave 9 convex-polygon labelings instead of 25, and 6 points on a circle of
    radius 1e8 gave 2 disk labelings instead of 32: the solvers' tolerances are absolute."""
    d = 3 if concept == "halfspaces" else 2
    P = np.random.default_rng(seed).integers(-4, 5, size=(m, d)).astype(float)
    moved = (P + shift) * 2.0**exponent
    assert labelings(moved, concept) == labelings(P, concept)


def test_halfspaces_in_3d():
    P = np.vstack([np.zeros(3), np.eye(3)])
    assert shatters(P, "halfspaces")  # d + 1 = 4 points in general position


@pytest.mark.slow
def test_growth_and_sauer():
    assert sauer_bound(3, 4) == 15 and sauer_bound(2, 2) == 4 and sauer_bound(0, 3) == 1
    assert growth("intervals", 3).value == 7
    assert growth("disks", 3).value == 8
    assert growth("halfplanes", 4).value == 14
    assert growth("rectangles", 4).value == 16


def test_bad_input():
    with pytest.raises(PerceptronsError, match="valid concepts are: halfspaces"):
        labelings(HP, "circles")
    with pytest.raises(PerceptronsError, match="max_points"):
        labelings(np.random.default_rng(0).standard_normal((21, 2)), "rectangles")
    with pytest.raises(PerceptronsError, match="max_points=3"):
        labelings(HP, "rectangles", max_points=3)
    with pytest.raises(PerceptronsError, match="dimension 2"):
        labelings([[0.0], [1.0]], "disks")
    with pytest.raises(PerceptronsError, match="finite"):
        labelings([[0.0, np.nan]], "disks")
    with pytest.raises(PerceptronsError, match="non-negative int"):
        sauer_bound(-1, 3)
    assert len(labelings(HP, "rectangles", max_points=4)) == 16


# ----------------------------------------------------------------------------- CLI
def run(argv, capsys):
    from perceptrons.cli import main

    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_cli_vc_disks(tmp_path, capsys):
    f = tmp_path / "points.txt"
    f.write_text("p 0 1\nq 0 -1\nr -2 0\ns 2 0\n")
    code, out, err = run(["vc", "--concept", "disks", "--points", str(f)], capsys)
    assert code == 0, err
    assert "15 of 16" in out and "missing     {r, s}" in out


def test_a_points_line_of_separators_only_is_blank(tmp_path):
    # found by the data fuzzer: "," after the first point raised IndexError
    from perceptrons.cli.vc import read_points

    f = tmp_path / "points.txt"
    f.write_text("p 0 1\n,\n , ,  # a comment\nq 0 -1\n")
    names, P = read_points(f)
    assert names == ["p", "q"] and P.tolist() == [[0.0, 1.0], [0.0, -1.0]]


def test_cli_vc_bad_concept_and_too_many_points(tmp_path, capsys):
    f = tmp_path / "points.csv"
    f.write_text("x,y\n" + "\n".join(f"{i},{i * i}" for i in range(22)))
    code, out, err = run(["vc", "--concept", "circles", "--points", str(f)], capsys)
    assert code == 2 and "valid concepts are" in err and "Traceback" not in err
    code, out, err = run(["vc", "--concept", "rectangles", "--points", str(f)], capsys)
    assert code == 2 and "--max-points=20" in err  # the CLI option, not the library's max_points


def _write_csv(path, X, y):
    lines = ["a,b,label"] + [f"{r[0]},{r[1]},{lab}" for r, lab in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")


def test_cli_analyze_separable(tmp_path, capsys):
    X = np.array([[-1, 2], [1, 0], [1, 1], [-1, 0], [-1, -2], [1, -1]], dtype=float)
    y = ["neg", "pos", "pos", "neg", "neg", "pos"]
    f = tmp_path / "gormley.csv"
    _write_csv(f, X, y)
    code, out, err = run(["analyze", str(f), "--no-intercept"], capsys)
    assert code == 0, err
    assert "radius R    2.23607" in out and "gamma*      1 " in out
    assert "(R/gamma*)^2 = 5 " in out and "PLA         3 mistakes" in out


def test_cli_analyze_inseparable(tmp_path, capsys):
    f = tmp_path / "xor.csv"
    _write_csv(f, [[0, 0], [1, 1], [0, 1], [1, 0]], ["a", "a", "b", "b"])
    code, out, err = run(["analyze", str(f)], capsys)
    assert code == 0, err
    assert "not separable" in out and "F–S bound" in out and "one pass" in out


def test_cli_analyze_bad_data(tmp_path, capsys):
    f = tmp_path / "one.csv"
    _write_csv(f, [[0, 0], [1, 1]], ["a", "a"])
    code, out, err = run(["analyze", str(f)], capsys)
    assert code == 2 and err.startswith("error: ") and "two classes" in err
    code, out, err = run(["analyze", str(tmp_path / "missing.csv")], capsys)
    assert code == 2 and "no such file" in err


def test_sauer_bound_is_the_binomial_sum_and_fast_where_d_is_near_m():
    """Each binomial came from math.comb afresh: sauer_bound(10^4, 10^4) took 7 s, 10^6 hours."""
    import math

    for m in range(30):
        for d in range(33):
            assert sauer_bound(d, m) == sum(math.comb(m, i) for i in range(min(d, m) + 1))
    assert sauer_bound(10**6, 10**6) == 1 << 10**6
    assert sauer_bound(10**6 - 2, 10**6) == (1 << 10**6) - 1 - 10**6
    with pytest.raises(PerceptronsError, match=r"sums 300,000 binomials of up to 1,000,000 bits"):
        sauer_bound(300_000, 10**6)

"""Column scalers fitted block by block on the columns the rows use, then widened: the same
fitted arrays, bit for bit, as the scaler's own ``partial_fit`` over the whole width, and the
blocks' operands scaled as its ``transform`` scales them."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.preprocessing import MaxAbsScaler, StandardScaler

from perceptrons.io.block_scaling import BlockScaling, fit_scalers
from perceptrons.io.blocks import Block

WIDTH = 50_000  # a hashed space, few of whose columns any row uses

STEPS = {
    "maxabs": lambda: [MaxAbsScaler()],
    "standard": lambda: [StandardScaler(with_mean=False)],
    "both": lambda: [MaxAbsScaler(), StandardScaler(with_mean=False)],
    "no-std": lambda: [StandardScaler(with_mean=False, with_std=False)],
}


def _blocks(binary, seed=0):
    """Three CSR blocks over ~40 scattered columns of a WIDTH-wide space, as a reader yields them."""
    rng = np.random.default_rng(seed)
    used = np.sort(rng.choice(WIDTH, 40, replace=False))
    out = []
    for b, n in enumerate((7, 1, 12)):
        dense = rng.normal(size=(n, 40)) * rng.choice([1.0, 30.0, 4000.0], 40) * (rng.random((n, 40)) < 0.3)
        m = sp.csr_matrix(dense)
        data = None if binary else m.data.astype(np.float32)
        out.append(
            Block(
                y=np.ones(n),
                indptr=m.indptr.astype(np.int64),
                indices=used[m.indices].astype(np.int32),
                data=data,
                line=1 + 10 * b,
            )
        )
    return out


def _wide_fit(steps, blocks):
    """What the scalers' own partial_fit gives on the whole width, block by block."""
    fitted = []
    for step in steps:
        step = clone(step)
        for block in blocks:
            X = block.csr(WIDTH)
            for f in fitted:
                X = f.transform(X)
            step.partial_fit(X)
        fitted.append(step)
    return fitted


def _assert_operands_are_the_transform(fitted, wide, blocks):
    """The epochs' operands: the blocks as the wide-fitted steps' own transform makes them, on
    the blocks' own index arrays (the sparsity pattern kept)."""
    scaling = BlockScaling(fitted, np.float32)
    for block in blocks:
        data, indices, indptr = scaling.operand(block)
        X = block.csr(WIDTH)
        for step in wide:
            X = step.transform(X)
        np.testing.assert_array_equal(data, X.data.astype(np.float32))
        assert indices is block.indices and indptr is block.indptr


@pytest.mark.parametrize("binary", [False, True], ids=["values", "binary"])
@pytest.mark.parametrize("name", STEPS)
def test_the_narrow_fit_widened_is_the_wide_fit(name, binary):
    blocks = _blocks(binary)
    narrow = fit_scalers([(str(i), s) for i, s in enumerate(STEPS[name]())], lambda: iter(blocks), WIDTH, True)
    wide = _wide_fit(STEPS[name](), blocks)
    for a, b in zip(narrow, wide):
        assert a.n_features_in_ == b.n_features_in_ == WIDTH
        for field in ("max_abs_", "mean_", "var_", "scale_"):
            x, y = getattr(a, field, None), getattr(b, field, None)
            assert (x is None) == (y is None), field
            if x is not None:
                assert x.dtype == y.dtype and x.shape == y.shape, field
                np.testing.assert_array_equal(x, y, err_msg=field)
        np.testing.assert_array_equal(a.n_samples_seen_, b.n_samples_seen_)
    _assert_operands_are_the_transform(narrow, wide, blocks)


def test_dense_blocks_are_fitted_on_their_width():
    rng = np.random.default_rng(1)
    blocks = [Block(y=np.ones(n), X=rng.normal(size=(n, 4)) * [1, 10, 100, 5000]) for n in (5, 9)]
    steps = [("s", StandardScaler(with_mean=False))]
    (fitted,) = fit_scalers(steps, lambda: iter(blocks), 4, False)
    (ref,) = _wide_fit([StandardScaler(with_mean=False)], [Block(y=b.y, X=b.X) for b in blocks])
    np.testing.assert_array_equal(fitted.scale_, ref.scale_)
    X = BlockScaling([fitted], np.float64).operand(blocks[0])
    np.testing.assert_array_equal(X, fitted.transform(blocks[0].X))


@pytest.mark.parametrize("binary", [False, True], ids=["values", "binary"])
def test_standardising_the_columns_of_numbers_then_scaling_is_the_wide_fit(binary):
    from perceptrons.column_scaler import ColumnStandardScaler

    blocks = _blocks(binary)
    used = np.unique(np.concatenate([b.indices for b in blocks]))
    centred = [*used[::3].tolist(), WIDTH - 1]  # the last column: no row stores a value in it

    def steps():
        return [ColumnStandardScaler(columns=centred), MaxAbsScaler()]

    fitted = fit_scalers([(str(i), s) for i, s in enumerate(steps())], lambda: iter(blocks), WIDTH, True)
    wide = _wide_fit(steps(), blocks)
    np.testing.assert_array_equal(fitted[0].mean_, wide[0].mean_)
    np.testing.assert_array_equal(fitted[0].var_, wide[0].var_)
    np.testing.assert_array_equal(fitted[0].n_samples_seen_, wide[0].n_samples_seen_)
    assert fitted[0].mean_[-1] == 0 and fitted[0].n_samples_seen_[-1] == 0 and fitted[0].scale_[-1] == 1
    np.testing.assert_array_equal(fitted[1].max_abs_, wide[1].max_abs_)
    _assert_operands_are_the_transform(fitted, wide, blocks)


def test_dense_blocks_standardised_by_columns_are_their_transform():
    from perceptrons.column_scaler import ColumnStandardScaler

    rng = np.random.default_rng(2)
    blocks = [Block(y=np.ones(n), X=rng.normal(size=(n, 4)) * [1, 10, 100, 5000] + 700) for n in (5, 9)]
    steps = [("c", ColumnStandardScaler(columns=[1, 3])), ("s", MaxAbsScaler())]
    fitted = fit_scalers(steps, lambda: iter(blocks), 4, False)
    whole = np.vstack([b.X for b in blocks])
    np.testing.assert_allclose(fitted[0].mean_, whole[:, [1, 3]].mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(fitted[0].var_, whole[:, [1, 3]].var(axis=0), rtol=1e-12)
    X = BlockScaling(fitted, np.float64).operand(blocks[0])
    np.testing.assert_allclose(X, fitted[1].transform(fitted[0].transform(blocks[0].X)), rtol=1e-12)
    assert blocks[0].X[0, 1] > 600  # the block itself is not standardised in place

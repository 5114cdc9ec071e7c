"""A scikit-learn ``Pipeline`` of known transformers in a model file, as validated arrays.

The transformers are scikit-learn's own: ``StandardScaler``, ``MaxAbsScaler``,
``SimpleImputer``, ``OneHotEncoder`` and ``FeatureHasher``, composed by ``Pipeline`` and
``ColumnTransformer``; and our ``ColumnStandardScaler`` (:mod:`perceptrons.io.column_scaler_state`).  Each is stored as its parameters (JSON) and its documented fitted
attributes (``mean_``, ``statistics_``, ``categories_``, ...; arrays of numbers or text), never a
pickle.  The final step, an estimator of ours, is stored and read by the caller's functions
(:mod:`perceptrons.persistence`), so this module imports no estimator.

Reading never sets a private attribute of scikit-learn's classes.  Each transformer is rebuilt
by its own ``fit`` on a few synthetic rows made from the stored state, chosen so that ``fit``
sets its private bookkeeping (dtypes, column lists) as the original fit did; then the learned
statistics are set from the file through their public names.  So a newer scikit-learn that
keeps its public attributes reads the same file, and a transform that would come out wider or
narrower than the stored one is refused.
"""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.calibration_state import CALIBRATED
from perceptrons.io.column_scaler_state import COLUMN_SCALER, column_scaler_state, restore_column_scaler
from perceptrons.io.model_state import FLOATS, INTS

#: the transformers a model file can hold, by class name
TRANSFORMERS = ("StandardScaler", "MaxAbsScaler", "SimpleImputer", "OneHotEncoder", "FeatureHasher", COLUMN_SCALER)
#: columns a stored transformer may take (far beyond any table: a wider one is not ours)
MAX_COLUMNS = 1 << 24
#: levels a one-hot column may hold, and slots a hasher may have
MAX_LEVELS = 1 << 20
MAX_HASHED = 1 << 28
_DTYPES = {"float64": np.float64, "float32": np.float32}


def _refuse(obj, why):
    raise PerceptronsError(f"{type(obj).__name__} cannot be saved in a model file: {why}")


def _text(values):
    """An object array of str (and the missing value, NaN or None) as a unicode array and a mask of the missing."""
    missing = np.array([v is None or (isinstance(v, float) and v != v) for v in values.tolist()], dtype=bool)
    if not all(isinstance(v, str) for v, m in zip(values.tolist(), missing.tolist()) if not m):
        raise PerceptronsError("values are neither all numbers nor all text")
    return np.array(["" if m else v for v, m in zip(values.tolist(), missing.tolist())], dtype=str), missing


def _values_out(values, name, arrays, meta):
    """Store an array of numbers, or of text (with the missing cells marked) under ``name``."""
    values = np.asarray(values)
    if values.dtype.kind == "O" and all(
        isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in values.tolist()
    ):
        values = values.astype(np.float64)  # an imputer's constant among empty columns' NaN
    if values.dtype.kind in "biuf":
        meta[name] = "numbers"
        arrays[name] = values.astype(np.float64)
    else:
        text, missing = _text(values)
        meta[name] = "text"
        arrays[name], arrays[f"{name}.missing"] = text, missing


def _values_in(state, name, n):
    kind = state.str(name, choices=("numbers", "text"))
    if kind == "numbers":
        return state.array(name, ("float64",), (n,), finite=False)
    text = state.text(name)
    missing = state.array(f"{name}.missing", ("bool",), (text.shape[0],))
    state.require(n is None or text.shape[0] == n, name, f"expected {n} values, got {text.shape[0]}")
    out = text.astype(object)
    out[missing] = np.nan
    return out


# ---------------------------------------------------------------------- writing
def pipeline_state(obj, final_state):
    """``(meta, arrays)`` of a ``Pipeline``, a ``ColumnTransformer`` or a known transformer.

    ``final_state(estimator) -> (meta, arrays)`` stores an estimator of ours (the last step).

    Raises
    ------
    PerceptronsError
        For a transformer not in :data:`TRANSFORMERS`, or set up in a way a file cannot
        restore (a callable parameter, infrequent categories), naming it and why.
    """
    from sklearn.utils.validation import check_is_fitted

    name = type(obj).__name__
    if isinstance(obj, str):
        if obj not in ("passthrough", "drop"):
            raise PerceptronsError(f"pipeline step {obj!r} cannot be saved; expected a transformer")
        return {"class": obj}, {}
    if name == "Pipeline":
        metas, arrays = [], {}
        for i, (step, est) in enumerate(obj.steps):
            last = i == len(obj.steps) - 1
            if last and type(est).__name__ == CALIBRATED:
                from perceptrons.io.calibration_state import calibrated_state

                m, a = calibrated_state(est, final_state)
            elif last and type(est).__name__ not in TRANSFORMERS + ("Pipeline", "ColumnTransformer"):
                if isinstance(est, str):
                    m, a = pipeline_state(est, final_state)
                else:
                    m, a = final_state(est)
                    m = {"class": "estimator", "record": m}
            else:
                m, a = pipeline_state(est, final_state)
            metas.append({"name": str(step), "step": m})
            arrays.update({f"{i}.{k}": v for k, v in a.items()})
        return {"class": name, "steps": metas}, arrays
    if name not in TRANSFORMERS + ("ColumnTransformer",):
        raise PerceptronsError(
            f"{name} cannot be saved in a model file; a pipeline can hold {', '.join(TRANSFORMERS)}, "
            "Pipeline and ColumnTransformer, then an estimator of perceptrons"
        )
    if name != "FeatureHasher":
        check_is_fitted(obj)
    if hasattr(obj, "feature_names_in_"):
        hint = " and select columns by index" if name == "ColumnTransformer" else ""
        _refuse(obj, f"it was fitted on a table with column names; fit it on an array{hint}")
    return _WRITERS[name](obj, final_state)


#: a scaler's arrays of one value a column, and the value of a column its fit saw only zeros in
_SCALER_REST = {"mean_": 0.0, "var_": 0.0, "max_abs_": 0.0, "scale_": 1.0}
#: each scaler's arrays of one value a column
_SCALER_FIELDS = {"StandardScaler": ("mean_", "var_", "scale_"), "MaxAbsScaler": ("max_abs_", "scale_")}


def _scaler_state(obj, _):
    """A scaler's parameters and arrays.  A scaler of a hashed space (up to 2**28 columns, most
    of them never used) lists only the columns whose statistics are not those of a column of
    zeros ("columns"); the others are restored as such, so its file and its load are as small
    as the data it saw.
    """
    n = int(obj.n_features_in_)
    meta = {"class": type(obj).__name__, "n_features": n}
    seen = np.broadcast_to(np.asarray(obj.n_samples_seen_), (n,)).astype(np.int64)
    values = {f: getattr(obj, f) for f in _SCALER_FIELDS[meta["class"]]}
    rest = int(seen.max()) if n else 0
    kept = seen != rest
    for field, value in values.items():
        meta[f"has_{field}"] = value is not None
        if value is not None:
            kept |= np.asarray(value) != _SCALER_REST[field]
    cols = np.flatnonzero(kept)
    listed = cols.shape[0] < n // 2
    arrays = {"columns": cols.astype(np.int64)} if listed else {}
    if listed:
        meta["n_samples_rest"] = rest
    for field, value in values.items():
        if value is not None:
            value = np.asarray(value, dtype=np.float64)
            arrays[field] = value[cols] if listed else value
    arrays["n_samples_seen_"] = seen[cols] if listed else seen
    if meta["class"] == "StandardScaler":
        meta["params"] = {"with_mean": bool(obj.with_mean), "with_std": bool(obj.with_std)}
    return meta, arrays


def _imputer_state(obj, _):
    mv = obj.missing_values
    if not (mv is None or (isinstance(mv, float) and mv != mv)):
        _refuse(obj, f"missing_values={mv!r}; a model file stores NaN or None")
    fill = obj.fill_value
    if not (fill is None or isinstance(fill, (str, int, float))) or isinstance(fill, bool):
        _refuse(obj, f"fill_value={fill!r}; expected a number or a string")
    if obj.strategy not in ("mean", "median", "most_frequent", "constant"):
        _refuse(obj, f"strategy={obj.strategy!r} is a callable; expected a named strategy")
    meta = {
        "class": "SimpleImputer",
        "n_features": int(obj.n_features_in_),
        "params": {
            "strategy": obj.strategy,
            "fill_value": fill,
            "missing": "none" if mv is None else "nan",
            "add_indicator": bool(obj.add_indicator),
            "keep_empty_features": bool(obj.keep_empty_features),
        },
    }
    stats = np.asarray(obj.statistics_)
    meta["fit_dtype"] = "object" if stats.dtype.kind == "O" else stats.dtype.name
    if meta["fit_dtype"] not in ("object", *FLOATS):
        _refuse(obj, f"it was fitted on {stats.dtype} values; expected floats or objects")
    arrays = {}
    _values_out(stats, "statistics_", arrays, meta)
    if obj.add_indicator:
        arrays["indicator_features_"] = np.asarray(obj.indicator_.features_, dtype=np.int64)
    return meta, arrays


def _onehot_state(obj, _):
    if obj.min_frequency is not None or obj.max_categories is not None:
        _refuse(obj, "it groups infrequent categories; store the levels it keeps, or hash the column")
    drop = obj.drop
    if not (drop is None or drop in ("first", "if_binary")):
        _refuse(obj, f"drop={drop!r}; expected None, 'first' or 'if_binary'")
    if obj.feature_name_combiner != "concat":
        _refuse(obj, "feature_name_combiner is a callable")
    dtype = np.dtype(obj.dtype).name
    if dtype not in FLOATS + INTS:
        _refuse(obj, f"dtype={obj.dtype!r}; expected a float or int type")
    meta = {
        "class": "OneHotEncoder",
        "params": {
            "handle_unknown": obj.handle_unknown,
            "drop": drop,
            "sparse_output": bool(obj.sparse_output),
            "dtype": dtype,
        },
        "n_columns": len(obj.categories_),
    }
    arrays = {}
    for j, cats in enumerate(obj.categories_):
        _values_out(cats, f"categories_{j}", arrays, meta)
    return meta, arrays


def _hasher_state(obj, _):
    if obj.input_type not in ("string", "dict", "pair"):
        _refuse(obj, f"input_type={obj.input_type!r}")
    dtype = np.dtype(obj.dtype).name
    if dtype not in FLOATS:
        _refuse(obj, f"dtype={obj.dtype!r}; expected a float type")
    params = {
        "n_features": int(obj.n_features),
        "input_type": obj.input_type,
        "alternate_sign": bool(obj.alternate_sign),
        "dtype": dtype,
    }
    return {"class": "FeatureHasher", "params": params}, {}


def _columns_state(obj, final_state):
    if obj.remainder not in ("drop", "passthrough"):
        _refuse(obj, "its remainder is a transformer; give that transformer its own columns")
    if obj.transformer_weights:
        _refuse(obj, "it has transformer_weights")
    parts, arrays = [], {}
    passthrough = {n for n, t, _ in obj.transformers if isinstance(t, str) and t == "passthrough"}
    if obj.remainder == "passthrough":
        passthrough.add("remainder")
    for i, (name, trans, columns) in enumerate(obj.transformers_):
        if name in passthrough:
            trans = "passthrough"  # fitted as a FunctionTransformer of no state
        cols = np.atleast_1d(np.asarray(columns))
        if cols.dtype.kind == "b":
            cols = np.flatnonzero(cols)
        if cols.size and cols.dtype.kind not in "iu":
            _refuse(obj, f"transformer {name!r} selects its columns by {cols.dtype}; expected column indices")
        m, a = pipeline_state(trans, final_state)
        part = {"name": str(name), "step": m}
        out = obj.output_indices_.get(name)
        part["output"] = [int(out.start), int(out.stop)] if out is not None else [0, 0]
        parts.append(part)
        arrays[f"{i}.columns"] = cols.astype(np.int64)
        arrays.update({f"{i}.step.{k}": v for k, v in a.items()})
    meta = {
        "class": "ColumnTransformer",
        "n_features": int(obj.n_features_in_),
        "remainder": obj.remainder,
        "sparse_threshold": float(obj.sparse_threshold),
        "sparse_output_": bool(obj.sparse_output_),
        "parts": parts,
    }
    return meta, arrays


_WRITERS = {
    "StandardScaler": _scaler_state,
    "MaxAbsScaler": _scaler_state,
    "SimpleImputer": _imputer_state,
    "OneHotEncoder": _onehot_state,
    "FeatureHasher": _hasher_state,
    "ColumnTransformer": _columns_state,
    COLUMN_SCALER: column_scaler_state,
}


# ---------------------------------------------------------------------- reading
def restore_pipeline(state, restore_final):
    """The object stored by :func:`pipeline_state`, every field checked through ``state`` (a
    :class:`~perceptrons.io.model_state.ModelState`).  ``restore_final(state)`` reads our
    estimator (the last step).
    """
    kind = state.str(
        "class",
        choices=(*TRANSFORMERS, "Pipeline", "ColumnTransformer", "passthrough", "drop", "estimator", CALIBRATED),
    )
    if kind in ("passthrough", "drop"):
        return kind
    if kind == "estimator":
        return restore_final(state.sub("record", ""))
    if kind == CALIBRATED:
        from perceptrons.io.calibration_state import restore_calibrated

        return restore_calibrated(state, restore_final)
    if kind == "Pipeline":
        return _restore_steps(state, restore_final)
    return _READERS[kind](state, restore_final)


def _restore_steps(state, restore_final):
    from sklearn.pipeline import Pipeline

    steps = state.raw("steps")
    state.require(isinstance(steps, list) and 0 < len(steps) <= 64, "steps", "expected a list of 1 to 64 steps")
    state.require(
        not any(
            isinstance(s, dict)
            and isinstance(s.get("step"), dict)
            and s["step"].get("class") in ("estimator", CALIBRATED)
            for s in steps[:-1]
        ),
        "steps",
        "only the last step may be an estimator",
    )
    out, names = [], set()
    for i in range(len(steps)):
        part = state.sub_item("steps", i, f"{i}.")
        name = part.str("name", max_len=256)
        state.require(name not in names and "__" not in name and name, f"steps[{i}].name", "expected a unique name")
        names.add(name)
        out.append((name, restore_pipeline(part.sub("step", ""), restore_final)))
    for i, ((_, a), (_, b)) in enumerate(zip(out[:-1], out[1:])):
        given, taken = width_out(a), getattr(b, "n_features_in_", None)
        if type(b).__name__ == "Pipeline":
            taken = getattr(b.steps[0][1], "n_features_in_", None)
        state.require(
            given is None or taken is None or given == taken,
            f"steps[{i + 1}]",
            f"takes {taken} columns, but the step before gives {given}",
        )
    return Pipeline(out)


def width_in(obj):
    """The columns a fitted transformer takes (None where it cannot be told: a string step, a
    hasher, which takes what it is given).
    """
    if type(obj).__name__ == "Pipeline":
        return width_in(obj.steps[0][1])
    return getattr(obj, "n_features_in_", None)


def width_out(obj):
    """The columns a fitted transformer gives (None where it cannot be told: passthrough, or our estimator)."""
    name = type(obj).__name__
    if name in ("StandardScaler", "MaxAbsScaler", COLUMN_SCALER):
        return int(obj.n_features_in_)
    if name == "SimpleImputer":
        stats = np.asarray(obj.statistics_)
        kept = sum(1 for v in stats.tolist() if not (v is None or (isinstance(v, float) and v != v)))
        kept = stats.shape[0] if obj.keep_empty_features else kept
        return kept + (len(obj.indicator_.features_) if obj.add_indicator else 0)
    if name == "OneHotEncoder":
        drops = 0 if obj.drop_idx_ is None else sum(d is not None for d in obj.drop_idx_)
        return sum(len(c) for c in obj.categories_) - drops
    if name == "FeatureHasher":
        return int(obj.n_features)
    if name == "Pipeline":
        widths = [width_out(step) for _, step in obj.steps]
        return next((w for w in reversed(widths) if w is not None), None) if widths[-1] is not None else None
    if name == "ColumnTransformer":
        return max((s.stop for s in obj.output_indices_.values()), default=0)
    return None


def _finite_positive(state, name, n):
    a = state.array(name, ("float64",), (n,))
    state.require(bool(np.all(a > 0)), name, "expected positive scales")
    return a


def _restore_scaler(state, _):
    from sklearn.preprocessing import MaxAbsScaler, StandardScaler

    cls = state.str("class")
    n = state.int("n_features", lo=1, hi=MAX_HASHED + 1)  # a hashed space's scaler is as wide as the hash
    if cls == "StandardScaler":
        params = state.object("params")
        obj = StandardScaler(with_mean=params.bool("with_mean"), with_std=params.bool("with_std"))
    else:
        obj = MaxAbsScaler()
    # the fitted mark of a fit; the width and every statistic are then set from the file (a fit
    # on n columns would make n-wide arrays, 2 GB of them at 2**28, only to replace them)
    obj.fit(np.zeros((1, 1)))
    obj.n_features_in_ = n
    listed = state.has("n_samples_rest")
    cols = state.array("columns", INTS, (None,), lo=0, hi=n) if listed else None
    state.require(
        cols is None or bool(np.all(cols[1:] > cols[:-1])), "columns", "expected distinct columns in increasing order"
    )
    k = n if cols is None else cols.shape[0]
    for field in _SCALER_FIELDS[cls]:
        present = state.bool(f"has_{field}")
        if field == "scale_":
            value = _finite_positive(state, field, k) if present else None
        elif field in ("var_", "max_abs_"):
            value = state.array(field, ("float64",), (k,), lo=0.0) if present else None
        else:
            value = state.array(field, ("float64",), (k,)) if present else None
        state.require(
            present == (getattr(obj, field) is not None), f"has_{field}", "does not agree with the parameters"
        )
        setattr(obj, field, value if cols is None or value is None else _widened(value, cols, n, _SCALER_REST[field]))
    seen = state.array("n_samples_seen_", ("int64",), (k,), lo=0)
    if cols is not None:
        rest = state.int("n_samples_rest", lo=0)
        seen = np.full(1, rest, np.int64) if np.all(seen == rest) else _widened(seen, cols, n, rest)
    obj.n_samples_seen_ = int(seen[0]) if np.all(seen == seen[0]) else seen
    return obj


def _widened(values, cols, n, rest):
    """``values`` of the listed ``cols``, as an array of all ``n`` columns, ``rest`` in the others."""
    out = np.full(n, rest, dtype=values.dtype)
    out[cols] = values
    return out


def _restore_imputer(state, _):
    from sklearn.impute import SimpleImputer

    n = state.int("n_features", lo=1, hi=MAX_COLUMNS)
    p = state.object("params")
    strategy = p.str("strategy", choices=("mean", "median", "most_frequent", "constant"))
    fill = p.raw("fill_value")
    p.require(
        fill is None
        or type(fill) is str
        or (type(fill) is float and np.isfinite(fill))
        or (type(fill) is int and -(2**63) <= fill < 2**63),
        "fill_value",
        "expected a finite number (an integer within int64), a string or null",
    )
    missing = np.nan if p.str("missing", choices=("nan", "none")) == "nan" else None
    indicator = p.bool("add_indicator")
    keep = p.bool("keep_empty_features")
    fit_dtype = state.str("fit_dtype", choices=("object", *FLOATS))
    stats = _values_in(state, "statistics_", n)
    state.require(fit_dtype == "object" or stats.dtype.kind == "f", "fit_dtype", "does not agree with statistics_")
    empty = np.array([v is None or (isinstance(v, float) and v != v) for v in stats.tolist()], dtype=bool)
    state.require(not (keep and empty.any()), "statistics_", "missing statistics with keep_empty_features")
    state.require(not empty.all(), "statistics_", "every column is empty: the imputer would output nothing")
    features = state.array("indicator_features_", ("int64",), (None,), lo=0, hi=n) if indicator else None
    if features is not None:
        state.require(bool(np.all(np.diff(features) > 0)), "indicator_features_", "expected increasing column indices")
    obj = SimpleImputer(
        missing_values=missing, strategy=strategy, fill_value=fill, add_indicator=indicator, keep_empty_features=keep
    )
    # two rows that make fit see the same dtype, the same empty columns and the same columns with
    # a missing cell; their statistics are then replaced by the stored ones
    if fit_dtype == "object":
        rows = np.full((2, n), "a", dtype=object)
    else:
        rows = np.zeros((2, n), dtype=_DTYPES[fit_dtype])
    gap = np.nan if missing is not None or fit_dtype != "object" else None
    if fit_dtype != "object" and missing is None:
        state.fail("params.missing", "None marks missing cells of text only")
    rows[:, empty] = gap
    if features is not None:
        rows[1, features] = gap
    try:
        obj.fit(rows)
    except (ValueError, TypeError) as exc:
        state.fail("params", f"the stored imputer cannot be rebuilt ({exc})")
    if strategy in ("mean", "median"):
        state.require(stats.dtype.kind == "f", "statistics_", "expected numbers for a mean or median")
        state.require(bool(np.all(np.isfinite(stats[~empty]))), "statistics_", "expected finite statistics")
    state.require(np.asarray(obj.statistics_).shape == stats.shape, "statistics_", "does not agree with n_features")
    obj.statistics_ = stats.astype(obj.statistics_.dtype) if stats.dtype.kind == "f" else stats
    if features is not None:
        state.require(np.array_equal(obj.indicator_.features_, features), "indicator_features_", "cannot be rebuilt")
    return obj


def _restore_onehot(state, _):
    from sklearn.preprocessing import OneHotEncoder

    p = state.object("params")
    handle = p.str("handle_unknown", choices=("error", "ignore", "infrequent_if_exist", "warn"))
    drop = p.str("drop", choices=("first", "if_binary"), none=True)
    sparse = p.bool("sparse_output")
    dtype = p.str("dtype", choices=FLOATS + INTS)
    k = state.int("n_columns", lo=1, hi=MAX_COLUMNS)
    cats = []
    for j in range(k):
        values = _values_in(state, f"categories_{j}", None)
        state.require(0 < len(values) <= MAX_LEVELS, f"categories_{j}", f"expected 1 to {MAX_LEVELS} levels")
        if values.dtype.kind == "f":
            state.require(
                bool(np.all(np.isfinite(values)) and np.all(np.diff(values) > 0)),
                f"categories_{j}",
                "expected finite, increasing numbers",
            )
        else:
            state.require(
                not any(isinstance(v, float) for v in values.tolist()),
                f"categories_{j}",
                "a missing value among the levels; impute before encoding",
            )
            state.require(len(set(values.tolist())) == len(values), f"categories_{j}", "expected distinct levels")
        cats.append(values)
    obj = OneHotEncoder(categories=cats, handle_unknown=handle, drop=drop, sparse_output=sparse, dtype=np.dtype(dtype))
    first = np.empty((1, k), dtype=object)
    for j, c in enumerate(cats):
        first[0, j] = c[0]
    numeric = all(c.dtype.kind == "f" for c in cats)
    try:
        obj.fit(first.astype(np.float64) if numeric else first)
    except (ValueError, TypeError) as exc:
        state.fail("categories_0", f"the stored encoder cannot be rebuilt ({exc})")
    return obj


def _restore_hasher(state, _):
    from sklearn.feature_extraction import FeatureHasher

    p = state.object("params")
    obj = FeatureHasher(
        n_features=p.int("n_features", lo=1, hi=MAX_HASHED),
        input_type=p.str("input_type", choices=("string", "dict", "pair")),
        alternate_sign=p.bool("alternate_sign"),
        dtype=_DTYPES[p.str("dtype", choices=FLOATS)],
    )
    return obj.fit()


def _restore_columns(state, restore_final):
    from sklearn.compose import ColumnTransformer

    n = state.int("n_features", lo=1, hi=MAX_COLUMNS)
    remainder = state.str("remainder", choices=("drop", "passthrough"))
    threshold = state.float("sparse_threshold", lo=0.0, hi=1.0)
    sparse = state.bool("sparse_output_")
    parts = state.raw("parts")
    state.require(isinstance(parts, list) and 0 < len(parts) <= 4096, "parts", "expected a list of transformers")
    specs, fitted, outputs, names = [], [], {}, set()
    for i in range(len(parts)):
        part = state.sub_item("parts", i, f"{i}.")
        name = part.str("name", max_len=256)
        part.require(name and name not in names and "__" not in name, "name", "expected a unique name")
        names.add(name)
        cols = part.array("columns", ("int64",), (None,), lo=0, hi=n).tolist()
        trans = restore_pipeline(part.sub("step", "step."), restore_final)
        taken = width_in(trans)
        part.require(
            taken is None or taken == len(cols), "columns", f"selects {len(cols)} columns, but its step takes {taken}"
        )
        out = part.list("output", "int", length=2)
        part.require(out[0] <= out[1], "output", "expected [start, stop]")
        if name != "remainder":
            specs.append((name, trans if isinstance(trans, str) else "passthrough", cols))
        fitted.append((name, trans, cols))
        outputs[name] = slice(out[0], out[1])
        width = (
            len(cols)
            if isinstance(trans, str) and trans == "passthrough"
            else 0
            if trans == "drop"
            else width_out(trans)
        )
        part.require(width is None or width == out[1] - out[0], "output", f"expected {width} columns for this part")
    stops = sorted((s.start, s.stop) for s in outputs.values() if s.stop > s.start)
    state.require(
        stops and stops[0][0] == 0 and all(a[1] == b[0] for a, b in zip(stops[:-1], stops[1:])),
        "parts",
        "their outputs must tile the columns from 0 without gaps or overlaps",
    )
    obj = ColumnTransformer(specs, remainder=remainder, sparse_threshold=threshold)
    try:
        obj.fit(np.zeros((1, n)))  # the column bookkeeping of a fit on n columns
    except ValueError as exc:
        state.fail("parts", f"the stored column transformer cannot be rebuilt ({exc})")
    state.require([t[0] for t in obj.transformers_] == [t[0] for t in fitted], "parts", "do not agree with the columns")
    obj.transformers_ = [
        (name, ours if not isinstance(ours, str) or ours == "drop" else rebuilt, cols)
        for (name, ours, cols), (_, rebuilt, _) in zip(fitted, obj.transformers_)
    ]
    obj.output_indices_ = outputs
    obj.sparse_output_ = sparse
    obj.set_params(transformers=[(name, trans, cols) for (name, trans, cols) in fitted if name != "remainder"])
    return obj


_READERS = {
    "StandardScaler": _restore_scaler,
    "MaxAbsScaler": _restore_scaler,
    "SimpleImputer": _restore_imputer,
    "OneHotEncoder": _restore_onehot,
    "FeatureHasher": _restore_hasher,
    "ColumnTransformer": _restore_columns,
    COLUMN_SCALER: restore_column_scaler,
}

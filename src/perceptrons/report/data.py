"""Every number of the report, computed by the library and gathered as one JSON-able dict."""

from __future__ import annotations

from numbers import Integral
from typing import TYPE_CHECKING, Any

import numpy as np

from perceptrons import __version__
from perceptrons._core.errors import PerceptronsError
from perceptrons._core.labels import check_classes
from perceptrons._core.memory import densify
from perceptrons._core.params import Interval, Kind, Options, check_bool, check_param

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix

#: the estimators a report can be made for: the linear family, whose separator can be drawn
MODELS = ("perceptron", "pocket", "averaged", "voted")
#: the page embeds every value of X (each step's example is shown exactly); beyond this many
#: values the file would no longer open quickly, and a report is for data one can look at
MAX_VALUES = 100_000
#: format of the data dict (the page checks it)
SCHEMA = 1
#: classes a report shows one against the rest (each is a whole report in the page)
MAX_CLASSES = 10


def report_data(
    X: ArrayLike | spmatrix | sparray,
    y: ArrayLike,
    *,
    model: str = "perceptron",
    fit_intercept: bool = True,
    max_epochs: int | None = None,
    max_updates: int = 20_000,
    random_state: int = 0,
    title: str | None = None,
) -> dict[str, Any]:
    """Compute everything the report shows, as a dict of plain lists, numbers and strings.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        At most ``MAX_VALUES`` (100,000) values.
    y : array-like of shape (n_samples,)
        Two labels, the larger one (``classes[1]``) the positive class, +1; or up to
        ``MAX_CLASSES`` (10), each then the positive class of its own two-class report against
        the rest, the one the page shows picked in it.
    model : {"perceptron", "pocket", "averaged", "voted"}, default="perceptron"
        The estimator whose final separator is drawn and whose four runs are shown.
    fit_intercept : bool, default=True
        Fold the bias in as x₀ = 1 (R, γ* and the trace over the augmented vectors).
    max_epochs : int, optional
        Epoch limit of the PLA run; default 1000 on separable data (the run stops when it
        converges) and 50 on inseparable data (where it never would).
    max_updates : int, default=20000
        Updates of the trace kept in the page (the run itself is not cut short).
    random_state : int, default=0
        Seed of the four runs (seeds ``random_state`` … ``random_state + 3``) and of the split
        that measures their E_out.
    title : str, optional
        The page's title.

    Returns
    -------
    dict
        ``data``, ``theory``, ``trace``, ``epochs``, ``final``, ``runs`` and ``online`` (PA,
        PA-I, PA-II and AROW update by update, with their mistake bounds) sections, JSON-able
        (NumPy arrays become lists, non-finite numbers None).  For more than two classes:
        ``classes`` and ``one_vs_rest``, a list of such dicts, one a class.

    References
    ----------
    Gormley, the worked example and the Block–Novikoff proof; Liang, Claims 1 and 2 and
    Corollary 1; Har-Peled, Theorem 30.1.1; Kalyanakrishnan, Theorem 3; Succinctly, Figures 18
    and 19; Freund & Schapire (1999), Theorem 2; Crammer, Dekel, Keshet, Shalev-Shwartz &
    Singer (2006); Crammer, Kulesza & Dredze (2009).

    Examples
    --------
    >>> from perceptrons.datasets import gormley_example
    >>> X, y = gormley_example()
    >>> d = report_data(X, y, fit_intercept=False)
    >>> round(d["theory"]["R"] ** 2, 9), round(d["theory"]["max_margin"]["bound"], 9)    # R² and (R/γ*)²
    (5.0, 5.0)
    >>> d["trace"]["w"]                                 # w_1 … w_4 of Gormley's worked example
    [[0.0, 0.0], [1.0, -2.0], [2.0, -1.0], [3.0, 1.0]]
    """
    from perceptrons.report._models import CURVE_EPOCHS, epoch_errors, final_model, four_runs
    from perceptrons.report._online import online_section
    from perceptrons.report._theory import theory_section
    from perceptrons.report._trace import trace_section

    X, y, classes = _check_data(X, y)
    if classes.shape[0] > 2:
        options = {"model": model, "fit_intercept": fit_intercept, "max_epochs": max_epochs}
        options |= {"max_updates": max_updates, "random_state": random_state, "title": title}
        reports = []
        for c in classes:
            # the class against the rest, as a multiclass perceptron's row of weights sees it
            part = report_data(X, (y == c).astype(int), **options)
            part["data"]["labels"] = [f"not {c}", str(c)]
            reports.append(part)
        return {
            "schema": SCHEMA,
            "title": reports[0]["title"],
            "library_version": __version__,
            "classes": [str(c) for c in classes],
            "one_vs_rest": reports,
        }
    check_param(model, "model", (Options(*MODELS),))
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    check_param(max_epochs, "max_epochs", (None, Interval(Integral, 1, 10**9)))
    check_param(max_updates, "max_updates", (Interval(Integral, 1, 10**7),))
    check_param(random_state, "random_state", (Interval(Integral, 0, 2**32 - 4),))
    check_param(title, "title", (None, Kind(str, "a str")))
    n, d = X.shape
    theory = theory_section(X, y, fit_intercept)
    mm = theory["max_margin"]
    w_star = None if mm is None else (np.r_[mm["coef"], mm["intercept"]] if fit_intercept else mm["coef"])
    epochs = max_epochs or (1000 if theory["separable"] else 50)
    trace = trace_section(X, y, fit_intercept, epochs, max_updates, w_star)
    domain = _domain(X) if d == 2 else None
    sections = {
        "schema": SCHEMA,
        "title": title or "The perceptron, seen",
        "library_version": __version__,
        "model": model,
        "fit_intercept": fit_intercept,
        "data": {
            "n": n,
            "d": d,
            "X": X,
            "y": np.where(y == classes[1], 1, -1),
            "labels": [str(c) for c in classes],
            "domain": domain,
        },
        "theory": theory,
        "trace": trace,
        # the PLA run's epochs (at least 10, to see each curve settle), at most CURVE_EPOCHS
        "epochs": epoch_errors(X, y, fit_intercept, min(epochs, max(10, trace["n_epochs"]), CURVE_EPOCHS)),
        "final": final_model(model, X, y, fit_intercept, epochs, domain),
        "runs": four_runs(model, X, y, fit_intercept, random_state, domain),
        "online": online_section(X, y, fit_intercept),
    }
    return jsonable(sections)


def _check_data(X, y):
    """X as a finite float64 (n, d) array of at most MAX_VALUES values, y with two classes."""
    X = densify(X, why="the report embeds every value", max_values=MAX_VALUES, hint="report on a sample of the rows")
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise PerceptronsError(f"X must be numeric: {exc}") from None
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise PerceptronsError(f"X must be a non-empty 2-D array (n_samples, n_features); got shape {X.shape}")
    if X.size > MAX_VALUES:
        raise PerceptronsError(
            f"X has {X.shape[0]} × {X.shape[1]} = {X.size} values; the report embeds every value and "
            f"takes at most {MAX_VALUES}: report on a sample of the rows"
        )
    if not np.all(np.isfinite(X)):
        row, col = np.argwhere(~np.isfinite(X))[0]
        raise PerceptronsError(
            f"X contains {float(X[row, col])!r} at row {row}, column {col}; every value must be finite"
        )
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise PerceptronsError(f"y must have one label per row of X: expected shape ({X.shape[0]},), got {y.shape}")
    classes = check_classes(y)
    if classes.shape[0] > MAX_CLASSES:
        raise PerceptronsError(
            f"y has {classes.shape[0]} classes: {classes[:5].tolist()} ...; the report shows each class "
            f"against the rest, for at most {MAX_CLASSES} classes (a page holds one report a class): "
            "report on fewer classes"
        )
    return X, y, classes


def _domain(X, pad=0.1):
    """The 2-D plots' (x_min, x_max, y_min, y_max): the data's box, widened by ``pad`` a side."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    lo, hi = lo - pad * span, hi + pad * span
    return [float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])]


def jsonable(obj):
    """``obj`` with NumPy arrays and scalars as lists and Python numbers.

    NaN and ±inf become None: JSON has no such numbers (the page shows "—").
    """
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return jsonable(obj.item())
    if isinstance(obj, float):
        return obj if np.isfinite(obj) else None
    return obj

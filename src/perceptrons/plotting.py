"""matplotlib figures of the seeds' claims.  Functions return a Figure; none shows or prints.

``save_figure`` writes a PNG atomically (temporary file + rename) and closes the figure.
"""

from __future__ import annotations

import io
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons._core.params import Interval, check_param, check_path
from perceptrons.io.atomic import atomic_write_bytes
from perceptrons.lifting import circle_from_plane

#: the report's colours and markers (``report/assets/report.css``: ``--neg``, ``--pos``,
#: ``--run0`` … ``--run3``), so that a figure and the page read alike: the negative class
#: (``classes[0]``) as orange squares, the positive one as blue circles
CLASS_STYLE = (("s", "#d9700a"), ("o", "#2160d8"))
RUN_COLOURS = ("#0e8fa8", "#d1346f", "#6f9a12", "#7b3fd6")

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence
    from typing import Any, TypeVar

    from matplotlib.figure import Figure
    from numpy.typing import ArrayLike

    _Path = TypeVar("_Path", str, os.PathLike[str])


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Figure, path: _Path, dpi: int = 110) -> _Path:
    """Write ``fig`` to ``path`` as PNG, atomically, and close it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    path : str or path-like
    dpi : int, default=110

    Returns
    -------
    str or path-like
        ``path``.
    """
    check_path(path, "path", "save_figure")
    # above ~2,000 dpi a figure of a few inches passes Agg's 2^16 pixels a side
    check_param(dpi, "dpi", (Interval(Real, 0, 2000, closed="right"),), "save_figure")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    _plt().close(fig)
    atomic_write_bytes(path, buf.getvalue())
    return path


def _line(ax, w, b, xlim, **kw):
    """Draw w·x + b = 0 across ``xlim`` (vertical when w[1] = 0)."""
    xs = np.linspace(*xlim, 2)
    if abs(w[1]) > 1e-12:
        ax.plot(xs, -(w[0] * xs + b) / w[1], **kw)
    elif abs(w[0]) > 1e-12:
        ax.axvline(-b / w[0], **kw)


def _scatter(ax, X, y):
    classes = np.unique(y)
    for c, (marker, color) in zip(classes, CLASS_STYLE):
        ax.scatter(*X[y == c].T, marker=marker, s=18, c=color, label=f"y = {c}", edgecolors="none")


def _limits(X, pad=0.1):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return (lo[0] - pad * span[0], hi[0] + pad * span[0]), (lo[1] - pad * span[1], hi[1] + pad * span[1])


def plot_separator(estimator: Any, X: np.ndarray, y: np.ndarray, title: str | None = None) -> Figure:
    """2-D data with the learned line w·x + b = 0 of a fitted binary linear estimator.

    Parameters
    ----------
    estimator : fitted binary linear estimator
        Anything with ``coef_`` of shape (1, 2), ``intercept_`` and ``n_updates_``.
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
        Two labels.
    title : str, optional
        Default: the estimator's name and its number of updates.

    Returns
    -------
    matplotlib.figure.Figure
    """
    w = getattr(estimator, "coef_", None)
    if np.shape(w) != (1, 2):
        has = "no coef_" if w is None else f"coef_ of shape {np.shape(w)}"
        raise PerceptronsError(
            f"plot_separator: expected a fitted binary linear estimator on 2 features (coef_ of shape "
            f"(1, 2)); got a {type(estimator).__name__} with {has}"
        )
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 5))
    _scatter(ax, X, y)
    xlim, ylim = _limits(X)
    _line(ax, estimator.coef_[0], estimator.intercept_[0], xlim, color="k", lw=1.5, label="learned line")
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_title(title or f"{type(estimator).__name__}: {estimator.n_updates_} updates")
    ax.legend(loc="best", fontsize=8)
    return fig


def plot_error_curves(
    pla_errors: Sequence[int], pocket_errors: Sequence[float], n_samples: int, title: str | None = None
) -> Figure:
    """Training error per epoch of the PLA's last iterate against the pocket's (Succinctly, Fig. 18).

    Parameters
    ----------
    pla_errors : sequence of int
        Training mistakes of the PLA's weights after each epoch.
    pocket_errors : sequence of float
        The pocket's error after each epoch (``PocketPerceptron.pocket_errors_``).
    n_samples : int
        The errors are divided by it, to plot error rates.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    epochs = np.arange(1, len(pla_errors) + 1)
    ax.plot(epochs, np.asarray(pla_errors) / n_samples, "-o", ms=3, label="PLA (last iterate)")
    ax.plot(
        np.arange(1, len(pocket_errors) + 1), np.asarray(pocket_errors) / n_samples, "-", lw=2, label="pocket (ratchet)"
    )
    ax.set_xlabel("epoch")
    ax.set_ylabel("training error")
    ax.set_title(title or "The PLA oscillates on inseparable data; the pocket does not")
    ax.legend()
    return fig


def plot_runs(
    runs: Sequence[tuple[str, ArrayLike, float, float, float]], X: np.ndarray, y: np.ndarray, title: str | None = None
) -> Figure:
    """Hyperplanes of several runs on one data set (Succinctly, Fig. 19).

    Parameters
    ----------
    runs : list of tuple
        ``(label, w, b, train_error, test_error)`` for each run: a name, the weights of shape
        (2,), the bias, and the error rates shown in the legend.
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    _scatter(ax, X, y)
    xlim, ylim = _limits(X)
    for i, (label, w, b, e_in, e_out) in enumerate(runs):
        _line(
            ax,
            w,
            b,
            xlim,
            color=RUN_COLOURS[i % len(RUN_COLOURS)],
            lw=1.5,
            label=f"{label}: E_in {e_in:.3f}, E_out {e_out:.3f}",
        )
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_title(title or "Four runs, four hyperplanes")
    ax.legend(loc="best", fontsize=7)
    return fig


def plot_circle_lift(X: ArrayLike, y: ArrayLike, model: Any, title: str | None = None) -> Figure:
    """Learning a circle by lifting (Har-Peled §30.2): the 2-D data with the recovered circle,
    and the lifted points (x, y, x² + y²) with the separating plane.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        The original (unlifted) points.
    y : array-like of shape (n_samples,)
        Two labels.
    model : fitted binary linear estimator on ``CircleLift().fit_transform(X)``, or (coef, intercept)
        Anything with ``coef_`` of shape (1, 3) and ``intercept_``, or the plane itself with
        ``coef`` of length 3 (the last entry multiplies x² + y²).
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        Two panels; when the plane is not a circle (see ``circle_from_plane``) the left panel
        says why instead of drawing one.
    """
    plt = _plt()
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if hasattr(model, "coef_"):
        coef, intercept = np.ravel(model.coef_), float(np.ravel(model.intercept_)[0])
    else:
        coef, intercept = np.ravel(np.asarray(model[0], dtype=float)), float(np.ravel(model[1])[0])
    fig = plt.figure(figsize=(11, 5))
    ax = fig.add_subplot(1, 2, 1)
    _scatter(ax, X, y)
    xlim, ylim = _limits(X)
    try:
        circle = circle_from_plane(coef, intercept)
    except PerceptronsError as exc:
        ax.text(0.5, 0.02, str(exc), transform=ax.transAxes, ha="center", va="bottom", fontsize=7, wrap=True)
    else:
        t = np.linspace(0, 2 * np.pi, 200)
        inside = "positive" if circle.positive_inside else "negative"
        ax.plot(
            circle.center[0] + circle.radius * np.cos(t),
            circle.center[1] + circle.radius * np.sin(t),
            "k-",
            lw=1.5,
            label=f"learned circle (inside: {inside})",
        )
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal", adjustable="box")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title("data and the circle read off the plane")

    ax3 = fig.add_subplot(1, 2, 2, projection="3d")
    z = np.sum(X**2, axis=1)
    for c, (marker, color) in zip(np.unique(y), CLASS_STYLE):
        m = y == c
        ax3.scatter(X[m, 0], X[m, 1], z[m], marker=marker, s=12, c=color, label=f"y = {c}")
    if abs(coef[2]) > 1e-12:
        gx, gy = np.meshgrid(np.linspace(*xlim, 12), np.linspace(*ylim, 12))
        gz = -(coef[0] * gx + coef[1] * gy + intercept) / coef[2]
        gz = np.where((gz >= z.min() - 0.5 * np.ptp(z)) & (gz <= z.max() + 0.5 * np.ptp(z)), gz, np.nan)
        ax3.plot_surface(gx, gy, gz, alpha=0.3, color="tab:gray")
    ax3.set_xlabel("x")
    ax3.set_ylabel("y")
    ax3.set_zlabel("x² + y²")
    ax3.set_title("lifted points and the separating plane")
    fig.suptitle(title or "A circle in the plane is a plane in the lift (Har-Peled, Theorem 30.2.1)")
    return fig

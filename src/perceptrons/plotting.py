"""matplotlib figures of the seeds' claims.  Functions return a Figure; none shows or prints.

``save_figure`` writes a PNG atomically (temporary file + rename) and closes the figure.
"""

import io

import numpy as np


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig, path, dpi=110):
    """Write ``fig`` to ``path`` as PNG, atomically, and close it."""
    from perceptrons.io.model_file import atomic_write_bytes

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
    for c, marker, color in zip(classes, ("o", "s"), ("tab:red", "tab:blue")):
        ax.scatter(*X[y == c].T, marker=marker, s=18, c=color, label=f"y = {c}", edgecolors="none")


def _limits(X, pad=0.1):
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    return (lo[0] - pad * span[0], hi[0] + pad * span[0]), (lo[1] - pad * span[1], hi[1] + pad * span[1])


def plot_separator(estimator, X, y, title=None):
    """2-D data with the learned line w·x + b = 0 of a fitted binary linear estimator."""
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


def plot_error_curves(pla_errors, pocket_errors, n_samples, title=None):
    """Training error per epoch of the PLA's last iterate against the pocket's (Succinctly, Fig. 18)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    epochs = np.arange(1, len(pla_errors) + 1)
    ax.plot(epochs, np.asarray(pla_errors) / n_samples, "-o", ms=3, label="PLA (last iterate)")
    ax.plot(np.arange(1, len(pocket_errors) + 1), np.asarray(pocket_errors) / n_samples, "-", lw=2,
            label="pocket (ratchet)")
    ax.set_xlabel("epoch")
    ax.set_ylabel("training error")
    ax.set_title(title or "The PLA oscillates on inseparable data; the pocket does not")
    ax.legend()
    return fig


def plot_runs(runs, X, y, title=None):
    """Hyperplanes of several runs on one data set (Succinctly, Fig. 19).

    ``runs`` is a list of ``(label, w, b, train_error, test_error)``.
    """
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    _scatter(ax, X, y)
    xlim, ylim = _limits(X)
    for (label, w, b, e_in, e_out), color in zip(runs, plt.cm.tab10.colors[2:]):
        _line(ax, w, b, xlim, color=color, lw=1.5, label=f"{label}: E_in {e_in:.3f}, E_out {e_out:.3f}")
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_title(title or "Four runs, four hyperplanes")
    ax.legend(loc="best", fontsize=7)
    return fig

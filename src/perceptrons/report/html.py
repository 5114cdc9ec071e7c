"""One self-contained HTML file: the page's CSS and scripts inlined, the numbers as JSON.

The scripts in ``assets/`` are fragments of one program, concatenated in ``SCRIPTS`` order
inside a single function scope (so each can use what the earlier ones define, and none
leaks a global but the ``window.perceptronReport`` hooks the last one sets).  Nothing is
fetched: no CDN, no font, no image; the page opens offline from disk.
"""

from __future__ import annotations

import html
import json
import os
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

from perceptrons._core.params import check_path
from perceptrons.report.data import report_data

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from scipy.sparse import sparray, spmatrix

#: the page's scripts, in the order they are concatenated
SCRIPTS = (
    "util.js",
    "plot.js",
    "pla.js",
    "state.js",
    "view_data.js",
    "view_step.js",
    "view_proof.js",
    "view_certificate.js",
    "view_runs.js",
    "view_online.js",
    "view_edit.js",
    "main.js",
)


def _asset(name):
    return resources.files("perceptrons.report").joinpath("assets", name).read_text(encoding="utf-8")


def _embed_json(data):
    """JSON that cannot end the ``<script>`` element it sits in.

    Every ``<`` (only ever inside a string) is written as its ``u003c`` escape, as are U+2028
    and U+2029, line ends to older JavaScript.
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def render(data: dict[str, Any]) -> str:
    """The HTML page for a dict of :func:`~perceptrons.report.report_data`.

    Parameters
    ----------
    data : dict
        As returned by :func:`~perceptrons.report.report_data`.

    Returns
    -------
    str
    """
    script = "\n".join(f"// ---- {name}\n{_asset(name)}" for name in SCRIPTS)
    parts = {
        "title": html.escape(data["title"]),
        "css": _asset("report.css"),
        "body": _asset("body.html"),
        "data": _embed_json(data),
        "script": '(function () {\n"use strict";\n' + script + "\n})();",
    }
    # one pass over the template: a title or a label reading "{{script}}" stays text
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], _asset("page.html"))


def build_report(
    X: ArrayLike | spmatrix | sparray,
    y: ArrayLike,
    *,
    model: str = "perceptron",
    fit_intercept: bool = True,
    max_epochs: int | None = None,
    max_updates: int = 20_000,
    random_state: int = 0,
    title: str | None = None,
) -> str:
    """The interactive report of (X, y) as one self-contained HTML page.

    Seven views, each a section: the data with the current hyperplane and the max-margin
    separator (for d ≠ 2, the margin distribution instead); stepping through the PLA's updates
    (←/→, a slider, the step in the URL's hash); the proof's quantities per update against
    their bounds; the separability certificate, the Freund–Schapire bound and the training
    error per epoch of the PLA, pocket, averaged and voted perceptrons; four seeded runs with
    E_in and E_out; an edit mode where points are added, dragged and deleted and a
    JavaScript port of the cyclic PLA re-runs in the page; and PA, PA-I, PA-II and AROW update
    by update, each with its paper's mistake bound trial by trial beside its mistakes.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Two labels.
    model : {"perceptron", "pocket", "averaged", "voted"}, default="perceptron"
    fit_intercept : bool, default=True
    max_epochs : int, optional
    max_updates : int, default=20000
    random_state : int, default=0
    title : str, optional
        As in :func:`~perceptrons.report.report_data`.

    Returns
    -------
    str
        The HTML text (about 1.9 MB for a trace of 14,500 updates of 200 2-D points, 0.5 MB of it
        view 7).

    References
    ----------
    Gormley, the worked example (w goes (1,−2), (2,−1), (3,1)) and the Block–Novikoff proof;
    Liang, Claims 1 and 2 and Corollary 1; Har-Peled, Theorem 30.1.1; Kalyanakrishnan,
    Theorem 3; Succinctly, Figures 18 and 19; Freund & Schapire (1999), Theorem 2; Crammer,
    Dekel, Keshet, Shalev-Shwartz & Singer (2006); Crammer, Kulesza & Dredze (2009).

    Examples
    --------
    >>> from perceptrons.datasets import gormley_example
    >>> X, y = gormley_example()
    >>> page = build_report(X, y, fit_intercept=False, title="Gormley's six points")
    >>> page.startswith("<!DOCTYPE html>"), "<h1>Gormley&#x27;s six points</h1>" in page
    (True, True)
    """
    data = report_data(
        X,
        y,
        model=model,
        fit_intercept=fit_intercept,
        max_epochs=max_epochs,
        max_updates=max_updates,
        random_state=random_state,
        title=title,
    )
    return render(data)


def write_report(path: str | os.PathLike[str], X: ArrayLike | spmatrix | sparray, y: ArrayLike, **kwargs: Any) -> str:
    """Build the report of (X, y) and write it to ``path`` atomically.

    The page is built whole in memory first; then it goes to a temporary file in the same
    directory that replaces ``path`` (:func:`perceptrons.io.atomic.atomic_output`), so an
    existing file is never left half-written and a failed build writes nothing.

    Parameters
    ----------
    path : str or path-like
        The HTML file (``-``: standard output).
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    **kwargs
        The keyword arguments of :func:`build_report`.

    Returns
    -------
    str
        ``path``, as a str.

    References
    ----------
    The seeds of :func:`build_report`: Gormley; Liang; Har-Peled, Theorem 30.1.1;
    Kalyanakrishnan; Succinctly, Figures 18 and 19.

    Examples
    --------
    >>> import os, tempfile
    >>> from perceptrons.datasets import gormley_example
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = write_report(os.path.join(tmp, "gormley.html"), *gormley_example(), fit_intercept=False)
    ...     os.listdir(tmp)
    ['gormley.html']
    """
    from perceptrons.io.atomic import atomic_output

    path = check_path(path, "path", "write_report")  # before the work of building the page
    page = build_report(X, y, **kwargs)
    with atomic_output(path) as f:
        f.write(page)
    return path

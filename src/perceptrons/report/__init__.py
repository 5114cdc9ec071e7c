"""The perceptron, seen: one self-contained, interactive HTML report of a labelled data set.

Python computes every number the page shows — the PLA's trace (:func:`perceptrons.trace_updates`),
R, γ*, the separability certificate and the mistake bounds (:mod:`perceptrons.theory`), the
training errors of the PLA, the pocket, the averaged and the voted perceptron, and four seeded
runs — and :func:`build_report` embeds them as JSON in one HTML file with inline CSS and plain
JavaScript/SVG: no CDN, no font, no network request, so the file opens offline from disk.  The
page draws; only its edit mode runs the PLA itself (a port whose trace equals Python's).

:func:`report_data` returns the numbers as a JSON-able dict, :func:`build_report` the HTML text,
:func:`write_report` writes it atomically.  ``perceptrons report DATA`` is the command line.
"""

from perceptrons.report.data import MODELS, report_data
from perceptrons.report.html import build_report, write_report

__all__ = ["MODELS", "build_report", "report_data", "write_report"]

"""``train --calibrate``: probabilities from a perceptron's decision values.

scikit-learn's ``CalibratedClassifierCV`` with ``ensemble=False`` trains the model once on every
row, and fits the calibration (Platt's sigmoid, Platt 1999; or an isotonic map, Zadrozny &
Elkan 2002) on decision values of rows each fold's model did not train on: held-out scores, with
no row given up for it.  The model file keeps one model and its calibrators
(:mod:`perceptrons.io.calibration_state`); ``predict --proba`` writes the probabilities.
"""

import click

#: the folds whose held-out decision values the calibration is fitted on
FOLDS = 5

CALIBRATE_OPTION = click.option(
    "--calibrate",
    type=click.Choice(["sigmoid", "isotonic"]),
    default=None,
    help=f"Fit class probabilities on {FOLDS}-fold held-out decision values and store them in the model "
    "(sigmoid: Platt's; isotonic: a monotone map, for a few thousand rows and more); predict --proba "
    "then writes them.",
)


def calibrated(estimator, method, y):
    """``estimator`` inside ``CalibratedClassifierCV``, once every class has a row in each fold."""
    import numpy as np
    from sklearn.calibration import CalibratedClassifierCV

    classes, counts = np.unique(y, return_counts=True)
    if counts.min() < FOLDS:
        raise click.BadParameter(
            f"needs at least {FOLDS} rows of each class for its {FOLDS} folds; class "
            f"{classes[counts.argmin()].item()!r} has {counts.min()}",
            param_hint="--calibrate",
        )
    return CalibratedClassifierCV(estimator, method=method, cv=FOLDS, ensemble=False)


#: rows under which an isotonic map overfits, as scikit-learn's user guide puts it ("Isotonic
#: calibration ... is prone to overfitting ... with less than ~1000 samples")
ISOTONIC_ROWS = 1000


def summary_lines(method, rows):
    """The summary's lines on the calibration of a fit on ``rows`` rows, with a note when an
    isotonic map has too few of them: its folds' maps reach 0 and 1, and a confident mistake
    then weighs heavily in the log loss (a test's penguins, shuffled: 0.60, where chance's is
    log 2 = 0.69)."""
    lines = [
        f"{'calibrated':<10} {method}, on {FOLDS}-fold held-out decision values; predict --proba writes the "
        "probabilities"
    ]
    if method == "isotonic" and rows < ISOTONIC_ROWS:
        lines.append(
            f"{'note':<10} isotonic calibration on {rows:,} rows may overfit (probabilities of 0 and 1); "
            f"--calibrate sigmoid suits fewer than {ISOTONIC_ROWS:,}"
        )
    return lines


def inner(model):
    """Our estimator inside a calibrated model (the fitted one), or the model itself."""
    if type(model).__name__ == "CalibratedClassifierCV":
        return model.calibrated_classifiers_[0].estimator
    return model


def log_loss_line(name, model, X, y):
    """The summary's line of the calibrated probabilities' log loss on ``(X, y)``."""
    from sklearn.metrics import log_loss

    loss = log_loss(y, model.predict_proba(X), labels=model.classes_)
    return f"{name + ' loss':<10} {loss:.4f}   (log loss of the probabilities)"

"""The one table of the estimators: where each class lives, its ``--model`` name on the command
line, and whether ``predict`` / ``evaluate`` take it.  The package's lazy names, the model-file
loader and the CLI all read it, so an estimator added here is known everywhere.

Only strings: importing this module imports no estimator.
"""

from importlib import import_module


class Entry:
    """Where an estimator lives and how the command line offers it (a plain class: ``typing``
    would add 18 ms to ``import perceptrons``)."""

    __slots__ = ("module", "cli_name", "classifier")

    def __init__(self, module, cli_name, classifier):
        self.module = module  # the module that defines the class
        self.cli_name = cli_name  # ``perceptrons train --model NAME``; None: not trained by ``train``
        self.classifier = classifier  # predicts labels of feature rows (``predict`` / ``evaluate``)


ESTIMATORS = {
    "Perceptron": Entry("perceptrons.linear.perceptron", "perceptron", True),
    "PocketPerceptron": Entry("perceptrons.linear.pocket", "pocket", True),
    "AveragedPerceptron": Entry("perceptrons.linear.averaged", "averaged", True),
    "VotedPerceptron": Entry("perceptrons.linear.voted", "voted", True),
    "KernelPerceptron": Entry("perceptrons.kernel.perceptron", "kernel", True),
    "PassiveAggressive": Entry("perceptrons.online.passive_aggressive", "pa", True),
    "AROW": Entry("perceptrons.online.arow", "arow", True),
    "ConfidenceWeighted": Entry("perceptrons.online.confidence_weighted", "cw", True),
    "SCW": Entry("perceptrons.online.scw", "scw", True),
    "SecondOrderPerceptron": Entry("perceptrons.online.second_order_perceptron", "sop", True),
    "ALMA": Entry("perceptrons.online.alma", "alma", True),
    "ROMMA": Entry("perceptrons.online.romma", "romma", True),
    "Winnow": Entry("perceptrons.online.winnow", "winnow", True),
    "PassiveAggressiveClassifier": Entry("perceptrons.online.sklearn_pa", None, True),
    "SequencePerceptron": Entry("perceptrons.structured.sequence", None, False),
    "Tagger": Entry("perceptrons.structured.tagging", None, False),
}

#: ``--model`` name -> class name
CLI_NAMES = {e.cli_name: name for name, e in ESTIMATORS.items() if e.cli_name}
#: the estimators ``predict`` and ``evaluate`` accept
CLASSIFIERS = tuple(name for name, e in ESTIMATORS.items() if e.classifier)


def estimator_class(name):
    """The class registered as ``name`` (imported on first use)."""
    return getattr(import_module(ESTIMATORS[name].module), name)

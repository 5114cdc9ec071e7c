"""The options of ``train`` that only ``--model kernel`` reads: the kernel, its prediction rule,
its budget and its cache; where each applies, and the kernel model's parameters from them."""

import click

from perceptrons.cli._options import BUDGET, CACHE_MB, COEF0, DEGREE, GAMMA_OR_WORD, options_decorator

#: the options only a kernel model reads
NAMES = ("kernel", "averaged", "voted", "budget", "budget_policy", "cache_size")
#: every option of this module, each a parameter of the kernel model (``--param`` does not take them)
PARAMETERS = (*NAMES, "gamma", "degree", "coef0")

OPTIONS = (
    click.option(
        "--kernel",
        type=click.Choice(["linear", "poly", "rbf", "sigmoid"]),
        default="rbf",
        show_default=True,
        help="kernel: the kernel function.",
    ),
    click.option(
        "--gamma",
        type=GAMMA_OR_WORD,
        default="scale",
        show_default=True,
        help="kernel: 'scale', 'auto' or a positive number.",
    ),
    click.option("--degree", type=DEGREE, default=3, show_default=True, help="kernel: poly degree."),
    click.option("--coef0", type=COEF0, default=0.0, show_default=True, help="kernel: poly/sigmoid offset."),
    click.option("--averaged", is_flag=True, help="kernel: predict with the averaged hypothesis."),
    click.option("--voted", is_flag=True, help="kernel: predict with the voted hypotheses."),
    click.option("--budget", type=BUDGET, default=None, help="kernel: keep at most B support examples."),
    click.option(
        "--budget-policy",
        type=click.Choice(["bpa", "forgetron", "random", "oldest", "projectron", "projectron++"]),
        default="bpa",
        show_default=True,
        help="kernel: which support example a full budget drops: bpa carries its coefficients over to the new "
        "example (the most accurate), forgetron the oldest and shrinks the rest, or one at random or the oldest; "
        "projectron and projectron++ drop none but project a new example onto the kept ones "
        "(--param projection_tolerance=ETA: how far from their span it may lie and still be projected).",
    ),
    click.option(
        "--cache-size",
        type=CACHE_MB,
        default=200,
        show_default=True,
        help="kernel: megabytes of kernel rows to cache (n²·4 bytes holds the whole matrix).",
    ),
)


kernel_options = options_decorator(OPTIONS, "the kernel model's options")


def where_used(kernel_model, kernel, budget):
    """For :func:`~perceptrons.cli._options.refuse_unused`: each kernel option, whether it
    applies, and where it would."""
    return {
        **{name: (kernel_model, "with --model kernel") for name in NAMES},
        "degree": (kernel_model and kernel == "poly", "with --model kernel --kernel poly"),
        "coef0": (kernel_model and kernel in ("poly", "sigmoid"), "with --model kernel --kernel poly or sigmoid"),
        "gamma": (kernel_model and kernel != "linear", "with --model kernel and a kernel other than linear"),
        "budget_policy": (kernel_model and budget is not None, "with --model kernel --budget"),
    }


def kernel_params(kernel, gamma, degree, coef0, averaged, voted, budget, budget_policy, cache_size):
    """The kernel model's parameters that these options set."""
    return dict(
        kernel=kernel,
        gamma=gamma if gamma in ("scale", "auto") else GAMMA_OR_WORD.convert(gamma, None, None),
        degree=degree,
        coef0=coef0,
        averaged=True if averaged else None,  # not given: the model's own ("auto")
        voted=voted,
        budget=budget,
        budget_policy=budget_policy,
        cache_size=cache_size,
    )

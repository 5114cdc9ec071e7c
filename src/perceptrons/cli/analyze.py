"""perceptrons analyze DATA: radius, separability certificate, margin and mistake bounds.

On separable data: R, γ*, the Block–Novikoff bound (R/γ*)² and the mistakes the PLA actually
makes.  On inseparable data: the witness that no hyperplane exists, then the Freund–Schapire
bound ((R + D)/γ)² for the direction u that minimises it, against the mistakes of one online pass.
With ``--model``, also the bound that learner's paper proves on DATA in its order, beside the
mistakes its run makes (:func:`perceptrons.theory.mistake_bound`).
"""

import click

from perceptrons._core.errors import PerceptronsError
from perceptrons.cli._common import ENCODING_OPTION, ENCODING_WHERE, FORMAT_OPTION, LABEL_OPTION, is_text_table
from perceptrons.cli._naming import note_input
from perceptrons.cli._options import EPOCHS, ModelParam, model_params, refuse_unused

#: the ``--model`` names whose paper's bound :func:`perceptrons.theory.mistake_bound` computes
#: (a literal: ``--help`` must not import the theory)
BOUNDED = ("perceptron", "pocket", "averaged", "voted", "kernel", "pa", "sop", "alma", "romma", "winnow", "arow")


@click.command(name="analyze")
@click.argument("data", type=click.Path(dir_okay=False), callback=note_input)
@LABEL_OPTION
@FORMAT_OPTION
@ENCODING_OPTION
@click.option("--no-intercept", is_flag=True, help="Separators through the origin (no folded bias).")
@click.option(
    "--max-epochs",
    type=EPOCHS,
    default=10000,
    show_default=True,
    help="Epoch limit of the PLA run shown next to the bound.",
)
@click.option(
    "--model",
    "model_name",
    type=click.Choice(BOUNDED),
    default=None,
    help="Also the mistake bound this learner's paper proves on DATA in its order, beside the mistakes "
    "its run makes, or why the theorem does not apply to DATA.",
)
@click.option(
    "--param",
    "model_param",
    type=ModelParam(),
    multiple=True,
    help="NAME=VALUE: a parameter of --model, repeatable (--model pa --param variant=pa2 --param C=0.1).",
)
@click.option(
    "--passes",
    type=click.IntRange(1, 10**6),
    default=1,
    show_default=True,
    help="Passes over DATA of the --model run its bound is for.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object instead.")
def command(data, label, fmt, encoding, no_intercept, max_epochs, model_name, model_param, passes, as_json):
    """Radius, separability (with its certificate), margin γ* and mistake bounds of DATA.

    Two classes are analysed as they are; more, one against the rest for each class (the
    binary problems a multiclass perceptron's weight vectors face).  The solvers are dense:
    sparse DATA (LIBSVM) is densified, and refused first when its rows × columns would not fit
    three times in the available memory."""
    import numpy as np

    from perceptrons.cli._prepare import read_for_theory

    refuse_unused(click.get_current_context(), {"encoding": (is_text_table(data, fmt), ENCODING_WHERE)})

    model = None
    if model_name is not None:
        from perceptrons._core.registry import CLI_NAMES, estimator_class

        cls = estimator_class(CLI_NAMES[model_name])
        model = cls(
            **model_params(model_param, cls, {"fit_intercept": "--no-intercept"}), fit_intercept=not no_intercept
        )
    elif model_param:
        raise click.UsageError("--param: applies only with --model")
    X, y, notes = read_for_theory(data, label, fmt, encoding)
    if y is None:
        raise click.BadParameter(f"{data}: no label column", param_hint="DATA")
    classes = np.unique(y)
    kwargs = {"fit_intercept": not no_intercept, "max_epochs": max_epochs}
    noted = [f"{'note':<11} {line}" for line in notes]

    def bound_of(labels):
        return None if model is None else _bound(data, model, X, labels, passes)

    if classes.shape[0] <= 2:
        a, mb = _analyze(data, X, y, **kwargs), bound_of(y)
        if as_json:
            return click.echo(_json_text({**_as_json(a, max_epochs, not no_intercept, mb), "notes": notes}))
        lines = _lines(a, max_epochs, no_intercept) + _bound_lines(mb, passes)
        for line in lines[:1] + noted + lines[1:]:
            click.echo(line)
        return
    # one against the rest: the class c is the positive one of each problem
    runs = []
    for c in classes:
        labels = np.where(y == c, "this class", "the rest")
        runs.append((c, _analyze(data, X, labels, **kwargs), bound_of(labels)))
    if as_json:
        out = {
            "samples": int(X.shape[0]),
            "features": int(X.shape[1]),
            "classes": classes.tolist(),
            "one_vs_rest": [{"class": c.item(), **_as_json(a, max_epochs, not no_intercept, mb)} for c, a, mb in runs],
            "notes": notes,
        }
        return click.echo(_json_text(out))
    click.echo(
        f"data        {X.shape[0]} samples x {X.shape[1]} features, {classes.shape[0]} classes: "
        "each class against the rest"
    )
    for line in noted:
        click.echo(line)
    for c, a, mb in runs:
        n_pos = int(np.sum(y == c))
        click.echo(f"class {c.item()!r} against the rest ({n_pos} / {X.shape[0] - n_pos})")
        for line in _lines(a, max_epochs, no_intercept)[1:] + _bound_lines(mb, passes):
            click.echo(f"  {line}")


def _lines(a, max_epochs, no_intercept):
    """The analysis of one two-class problem, as the lines of the text output."""
    import numpy as np

    cert = a.certificate
    space = "augmented vectors (x, 1)" if not no_intercept else "x (no intercept)"
    lines = [
        f"data        {a.n_samples} samples x {a.n_features} features, classes {cert.classes.tolist()} "
        f"(positive: {cert.classes[1].item()!r})",
        f"radius R    {a.radius:.6g}   over {space}",
        f"separable   {cert.summary()}",
    ]
    if cert.separable:
        state = f"converged in {a.epochs} epochs" if a.converged else f"NOT converged in {max_epochs} epochs"
        return lines + [
            f"gamma*      {a.gamma:.6g}   ({a.n_support} support examples)",
            f"Novikoff    (R/gamma*)^2 = {a.bound:.6g} mistakes at most",
            f"PLA         {a.mistakes} mistakes ({state}, cyclic order)",
        ]
    idx = np.flatnonzero(cert.multipliers > 1e-12)
    top = idx[np.argsort(-cert.multipliers[idx])][:6]
    return lines + [
        "witness     "
        + ", ".join(f"#{i}:{cert.multipliers[i]:.3g}" for i in top)
        + (" ..." if idx.shape[0] > 6 else ""),
        "u           the unit direction minimising the Freund–Schapire bound: "
        "u = v/‖v‖ for v minimising R‖v‖ + ‖(1 − y v·z)₊‖",
        *_fs_lines(a),
        f"one pass    {a.mistakes} mistakes (online PLA, cyclic order)",
    ]


def _fs_lines(a):
    """The Freund–Schapire lines: γ, D and the bound, or, where no direction beats n mistakes in
    n trials (R large against every margin the data allow), that limit, reached as γ → ∞ with
    D/γ → √n: the γ and D found there are only where the search stopped."""
    if _fs_trivial(a):
        return [
            "gamma, D    no direction does better than gamma → ∞, where D/gamma → √n",
            f"F–S bound   {a.n_samples} mistakes in one pass at most: the trivial bound of n trials (no direction's "
            "margins make up for R on these data; scaling the columns may)",
        ]
    return [
        f"gamma, D    gamma = {a.gamma:.6g}   D = {a.D:.6g}",
        f"F–S bound   ((R + D)/gamma)^2 = {a.bound:.6g} mistakes in one pass at most",
    ]


def _fs_trivial(a):
    """Whether the Freund–Schapire bound of a non-separable analysis is the trivial n (γ → ∞)."""
    return a.bound >= a.n_samples * (1 - 1e-9)


def _bound(data, model, X, y, passes):
    """``mistake_bound`` of ``model`` on (X, y), or the reason its theorem does not apply, as a str.

    A theorem whose assumptions DATA does not meet is a finding about DATA, not an error; any
    other refusal (more trials than memory holds) names DATA and stops the command."""
    from perceptrons.theory import NoBound, mistake_bound

    try:
        return mistake_bound(model, X, y, passes=passes)
    except NoBound as exc:
        return str(exc)
    except PerceptronsError as exc:  # --passes only where the trials are what is refused
        where = f"--passes {passes}: " if "trials" in str(exc) else "--model: "
        raise PerceptronsError(f"{data}: {where}{exc}") from None


def _bound_lines(mb, passes):
    """The ``--model`` lines of the text output (none without it)."""
    if mb is None:
        return []
    if isinstance(mb, str):
        return [f"{'bound':<11} none here: {mb}"]
    runs = f"{passes} pass{'es' if passes > 1 else ''}"
    return [
        f"{'model':<11} {mb.algorithm}, {runs} in order from zero",
        f"{'bound':<11} {mb.theorem}: {mb.bound:.6g} {mb.counts} at most",
        f"{'assumes':<11} {mb.assumptions}",
        f"{'run':<11} {mb.observed} {mb.counts} ({'within' if mb.holds else 'ABOVE'} the bound)",
    ]


def _json_text(out):
    import json

    return json.dumps(_finite(out), ensure_ascii=False, allow_nan=False)


def _as_json(a, max_epochs, intercept, mb=None):
    """The analysis as a JSON-able dict, with the same figures as the text (full precision), and
    ``mistake_bound`` with ``--model``: the bound's figures, or ``refused`` with the reason."""
    import numpy as np

    cert = a.certificate
    out = {
        "samples": a.n_samples,
        "features": a.n_features,
        "classes": cert.classes.tolist(),
        "positive": cert.classes[1].item(),
        "intercept": intercept,
        "radius": a.radius,
        "separable": bool(cert.separable),
        "certificate": cert.summary(),
        "gamma": a.gamma,
        "mistakes": a.mistakes,
    }
    if cert.separable:
        out |= {
            "support_examples": a.n_support,
            "bound": {"name": "Novikoff", "formula": "(R/gamma*)^2", "mistakes_at_most": a.bound},
            "pla": {"epochs": a.epochs, "converged": bool(a.converged), "max_epochs": max_epochs, "order": "cyclic"},
        }
    else:
        idx = np.flatnonzero(cert.multipliers > 1e-12)
        trivial = _fs_trivial(a)  # γ → ∞ with D/γ → √n: null, not where the search stopped (as the text says)
        out |= {
            "gamma": None if trivial else a.gamma,
            "D": None if trivial else a.D,
            "bound": {
                "name": "Freund-Schapire",
                "formula": "((R + D)/gamma)^2",
                "mistakes_at_most": a.n_samples if trivial else a.bound,
                "trivial": trivial,
            },
            "witness": [  # [row (from 0), multiplier], the largest first
                [int(i), float(cert.multipliers[i])] for i in idx[np.argsort(-cert.multipliers[idx])]
            ],
            "pla": {"passes": 1, "order": "cyclic"},
        }
    if isinstance(mb, str):
        out["mistake_bound"] = {"refused": mb}
    elif mb is not None:
        out["mistake_bound"] = {
            "algorithm": mb.algorithm,
            "theorem": mb.theorem,
            "counts": mb.counts,
            "at_most": mb.bound,
            "observed": mb.observed,
            "assumptions": mb.assumptions,
            "quantities": {k: float(v) for k, v in mb.quantities.items()},
        }
    return out


def _finite(value):
    """``value`` with each float that is not finite (a figure that overflowed) as None: JSON has
    no Infinity or NaN."""
    import math

    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


#: values beyond 1e100 (or all below 1e-100) overflow (vanish) when squared in a radius or a margin
MAX_MAGNITUDE = 1e100


def _analyze(data, X, y, **kwargs):
    """:func:`perceptrons.theory.analysis.analyze`, its errors naming the data file (two classes
    are needed, a solver failed, …)."""
    import warnings

    import numpy as np

    from perceptrons._core.finite import largest_magnitude
    from perceptrons.theory._common import SCALE_HINT
    from perceptrons.theory.analysis import analyze

    values = X.data if hasattr(X, "toarray") else np.asarray(X)
    top = largest_magnitude(values)
    if top > MAX_MAGNITUDE or 0 < top < 1 / MAX_MAGNITUDE:
        raise PerceptronsError(
            f"{data}: the largest |value| is {top:.3g}; the radius and the margins square the "
            f"values, which then overflow or vanish; {SCALE_HINT}"
        )
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            return analyze(X, y, **kwargs)
    except PerceptronsError as exc:
        text = str(exc)
        raise PerceptronsError(text if text.startswith(str(data)) else f"{data}: {text}") from None

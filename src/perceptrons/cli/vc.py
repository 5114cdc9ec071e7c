"""perceptrons vc --concept NAME --points FILE: the labelings a concept class realises on a point set.

Lists every realisable labeling (the subsets of points a range can cut out), the missing ones,
and |U(X, R)| against 2^m and Sauer's bound.  Points are one per line, coordinates separated by
commas or whitespace; an optional first column of names (``p, 0, 1``) labels them, else they
are called p1, p2, ….
"""

import os

import click

from perceptrons._core.errors import PerceptronsError
from perceptrons.cli._naming import note_input
from perceptrons.cli._options import MAX_POINTS

#: coordinates beyond this overflow when squared (the disk test lifts p to |p|²)
MAX_COORDINATE = 1e100
CONCEPT_NAMES = ["halfspaces", "halfplanes", "disks", "rectangles", "intervals", "convex-polygons"]


def read_points(path, dims=()):
    """(names, coordinates) from a small text file; a first line of non-numbers is a header.

    Every error names the file and the 1-based line: a bad or non-finite number, a point with
    another number of coordinates than the first, or (``dims``) one the concept cannot place.
    """
    import math

    import numpy as np

    from perceptrons.io.lines import utf8_lines

    if os.path.isdir(path):
        raise PerceptronsError(f"{path}: is a directory, expected a points file")
    if not os.path.exists(path):
        raise PerceptronsError(f"{path}: no such file")
    names, rows, first_line, header_done, seen = [], [], None, False, {}
    for lineno, line in utf8_lines(path):
        fields = line.split("#", 1)[0].replace(",", " ").split()
        if not fields:  # blank, a comment, or separators only
            continue
        numeric = [_number(f) for f in fields]
        if not header_done and all(v is None for v in numeric):
            header_done = True
            continue  # a header such as "name, x, y"
        header_done = True
        name = None
        if numeric[0] is None and len(fields) > 1:
            name, fields, numeric = fields[0], fields[1:], numeric[1:]
        bad = [f for f, v in zip(fields, numeric) if v is None]
        if bad:
            raise PerceptronsError(
                f"{path}, line {lineno}: {bad[0][:40]!r} is not a number; expected '[name,] x1, x2, ...'"
            )
        inf = [f for f, v in zip(fields, numeric) if not math.isfinite(v)]
        if inf:
            raise PerceptronsError(f"{path}, line {lineno}: {inf[0][:40]!r} is not finite; expected finite coordinates")
        big = [f for f, v in zip(fields, numeric) if abs(v) > MAX_COORDINATE]
        if big:
            raise PerceptronsError(
                f"{path}, line {lineno}: {big[0][:40]!r} is too large (|x| ≤ {MAX_COORDINATE:g}: the "
                "tests square coordinates); rescale the points"
            )
        if rows and len(numeric) != len(rows[0]):
            raise PerceptronsError(
                f"{path}, line {lineno}: {len(numeric)} coordinates, but line {first_line} has "
                f"{len(rows[0])}; every point needs the same number"
            )
        if dims and len(numeric) not in dims:
            raise PerceptronsError(
                f"{path}, line {lineno}: {len(numeric)} coordinates; this concept needs points "
                f"in dimension {' or '.join(map(str, dims))}"
            )
        if first_line is None:
            first_line = lineno
        if name is not None and name in seen:  # the sets printed would name two points alike
            raise PerceptronsError(
                f"{path}, line {lineno}: the name {name[:40]!r} is also on line {seen[name]}; expected one name a point"
            )
        seen[name] = lineno
        names.append(name)
        rows.append(numeric)
    if not rows:
        raise PerceptronsError(f"{path}: no points (expected one point a line: '[name,] x1, x2, ...')")
    if any(n is None for n in names):
        names = [f"p{i + 1}" for i in range(len(rows))]
    return names, np.array(rows, dtype=float)


def _check_concept(ctx, param, value):
    """--concept: checked when the option is read, before the points file."""
    if value not in CONCEPT_NAMES:
        raise click.BadParameter(
            f"unknown concept {value!r}; valid concepts are: {', '.join(CONCEPT_NAMES)}", ctx, param
        )
    return value


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


@click.command(name="vc")
@click.option("--concept", required=True, callback=_check_concept, help=f"One of: {', '.join(CONCEPT_NAMES)}.")
@click.option(
    "--points",
    "points_path",
    required=True,
    type=click.Path(dir_okay=False),
    callback=note_input,
    help="Text file, one point per line (optionally a name first).",
)
@click.option(
    "--max-points",
    type=MAX_POINTS,
    default=20,
    show_default=True,
    help="Refuse larger sets (2^m labelings are tested).",
)
def command(concept, points_path, max_points):
    """Which labelings of the points in FILE the ranges of CONCEPT realise (shattering, VC dimension)."""
    import math
    from itertools import product

    from perceptrons.theory.vc import get_concept, labelings, sauer_bound

    c = get_concept(concept)
    names, P = read_points(points_path, c.dims)
    U = labelings(P, c, max_points=max_points)
    m = P.shape[0]

    def show(bits):
        return "{" + ", ".join(n for n, b in zip(names, bits) if b) + "}"

    order = sorted(product((0, 1), repeat=m), key=lambda b: (sum(b), [-x for x in b]))
    found = [b for b in order if b in U]
    missing = [b for b in order if b not in U]
    vc = c.vc_dimension(P.shape[1])
    click.echo(f"concept     {c.name}   (VC dimension {'inf' if not math.isfinite(vc) else vc})")
    click.echo(f"points      {m} in R^{P.shape[1]}: {', '.join(names)}")
    sauer = f"Sauer bound {sauer_bound(vc, m)}" if math.isfinite(vc) else "no Sauer bound (infinite VC dimension)"
    click.echo(
        f"|U(X,R)|    {len(U)} of {2**m} labelings; {sauer}; {'shattered' if len(U) == 2**m else 'not shattered'}"
    )
    click.echo(f"realised    {' '.join(show(b) for b in found)}")
    click.echo(f"missing     {' '.join(show(b) for b in missing) if missing else '(none)'}")

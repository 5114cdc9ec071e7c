"""perceptrons vc --concept NAME --points FILE: the labelings a concept class realises on a point set.

Lists every realisable labeling (the subsets of points a range can cut out), the missing ones,
and |U(X, R)| against 2^m and Sauer's bound.  Points are one per line, coordinates separated by
commas or whitespace; an optional first column of names (``p, 0, 1``) labels them, else they
are called p1, p2, ….
"""

import click

CONCEPT_NAMES = ["halfspaces", "halfplanes", "disks", "rectangles", "intervals", "convex-polygons"]


def read_points(path):
    """(names, coordinates) from a small text file; a header line of non-numbers is skipped."""
    import numpy as np

    from perceptrons._validation import PerceptronsError

    names, rows = [], []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            fields = [f for f in text.replace(",", " ").split() if f]
            try:
                values = [float(f) for f in fields]
                name = None
            except ValueError:
                try:
                    values = [float(f) for f in fields[1:]]
                    name = fields[0]
                except ValueError:
                    if not rows and lineno == 1:
                        continue  # a header
                    raise PerceptronsError(f"{path}, line {lineno}: expected numbers, got {text!r}") from None
            if not values:
                raise PerceptronsError(f"{path}, line {lineno}: no coordinates in {text!r}")
            names.append(name)
            rows.append(values)
    if not rows:
        raise PerceptronsError(f"{path}: no points")
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise PerceptronsError(f"{path}: every point needs the same number of coordinates; found {sorted(widths)}")
    if any(n is None for n in names):
        names = [f"p{i + 1}" for i in range(len(rows))]
    return names, np.array(rows, dtype=float)


@click.command(name="vc")
@click.option("--concept", required=True, help=f"One of: {', '.join(CONCEPT_NAMES)}.")
@click.option("--points", "points_path", required=True, type=click.Path(dir_okay=False),
              help="Text file, one point per line (optionally a name first).")
@click.option("--max-points", type=click.IntRange(min=1), default=20, show_default=True,
              help="Refuse larger sets (2^m labelings are tested).")
def command(concept, points_path, max_points):
    """Which labelings of the points in FILE the ranges of CONCEPT realise (shattering, VC dimension)."""
    import math
    from itertools import product

    from perceptrons.theory.vc import get_concept, labelings, sauer_bound

    c = get_concept(concept)
    names, P = read_points(points_path)
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
    click.echo(f"|U(X,R)|    {len(U)} of {2 ** m} labelings; {sauer}; "
               f"{'shattered' if len(U) == 2 ** m else 'not shattered'}")
    click.echo(f"realised    {' '.join(show(b) for b in found)}")
    click.echo(f"missing     {' '.join(show(b) for b in missing) if missing else '(none)'}")

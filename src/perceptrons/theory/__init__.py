"""Theory as working tools: radius, margins, separability certificates, mistake bounds,
linear programming by the perceptron, and VC dimension (Har-Peled ch. 30; Gormley;
Freund & Schapire 1999; Dunagan & Vempala 2004)."""

from perceptrons.theory.analysis import Analysis, analyze
from perceptrons.theory.bounds import (
    FreundSchapireBound,
    NovikoffBound,
    best_gamma,
    freund_schapire_bound,
    fs_optimal_direction,
    novikoff_bound,
    online_mistakes,
)
from perceptrons.theory.lp import FeasibilityResult, LinprogResult, linprog_perceptron, solve_feasibility
from perceptrons.theory.margins import Margins, MaxMarginResult, margin, max_margin, radius
from perceptrons.theory.mistake_bounds import MistakeBound, NoBound, mistake_bound
from perceptrons.theory.separability import SeparabilityResult, is_separable
from perceptrons.theory.vc import CONCEPTS, GrowthResult, growth, labelings, sauer_bound, shatters

__all__ = [
    "Analysis",
    "analyze",
    "CONCEPTS",
    "FeasibilityResult",
    "FreundSchapireBound",
    "GrowthResult",
    "LinprogResult",
    "Margins",
    "MaxMarginResult",
    "MistakeBound",
    "NoBound",
    "NovikoffBound",
    "SeparabilityResult",
    "best_gamma",
    "freund_schapire_bound",
    "fs_optimal_direction",
    "growth",
    "is_separable",
    "labelings",
    "linprog_perceptron",
    "margin",
    "max_margin",
    "mistake_bound",
    "novikoff_bound",
    "online_mistakes",
    "radius",
    "sauer_bound",
    "shatters",
    "solve_feasibility",
]
